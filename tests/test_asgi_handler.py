"""The ASGI handler the web workers serve with (dalmuti_site.handler): a request's
middleware and its view run in one pass in the request's thread, never back through the
event loop between them; an asynchronous view (a game page's stream) and a streamed
answer still work; a view's failed database connection is still answered 503."""

import inspect
import threading

from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from django.conf import settings
from django.db import OperationalError
from django.http import HttpResponse, StreamingHttpResponse
from django.test import override_settings
from django.urls import path

from dalmuti_site.handler import OneThreadHandler

SEEN: dict[str, object] = {}


class Recording:
    """The outermost middleware: notes its thread."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        SEEN["middleware"] = threading.get_ident()
        return self.get_response(request)


def plain(request):
    SEEN["view"] = threading.get_ident()
    # Whatever ran between the middleware and here, in this thread.
    SEEN["between"] = {type(frame.frame.f_locals.get("self")).__name__
                       for frame in inspect.stack()}
    return HttpResponse("plain")


async def streamed(request):
    SEEN["async view"] = threading.get_ident()

    async def parts():
        yield "one,"
        yield "two"

    return StreamingHttpResponse(parts(), content_type="text/plain")


def unreachable(request):
    raise OperationalError("connection refused")


urlpatterns = [path("plain/", plain), path("streamed/", streamed),
               path("unreachable/", unreachable)]


def ask(url: str) -> tuple[int, bytes]:
    """The status and body the handler answers a GET of `url` with."""
    handler = OneThreadHandler()
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "GET", "scheme": "https", "path": url, "raw_path": url.encode(),
             "query_string": b"", "root_path": "", "headers": [(b"host", b"testserver")],
             "client": ("127.0.0.1", 5000), "server": ("testserver", 443)}

    async def exchange():
        talk = ApplicationCommunicator(handler, scope)
        await talk.send_input({"type": "http.request", "body": b"", "more_body": False})
        start = await talk.receive_output(10)
        body = b""
        while True:
            part = await talk.receive_output(10)
            body += part.get("body", b"")
            if not part.get("more_body"):
                break
        await talk.wait(10)
        return start["status"], body

    return async_to_sync(exchange)()


def served(**extra):
    return override_settings(ROOT_URLCONF=__name__, ALLOWED_HOSTS=["testserver"],
                             MIDDLEWARE=[f"{__name__}.Recording", *settings.MIDDLEWARE],
                             SECURE_SSL_REDIRECT=False, **extra)


def test_the_middleware_and_the_view_run_in_one_pass_in_the_request_s_thread():
    SEEN.clear()
    with served():
        assert ask("/plain/") == (200, b"plain")
    assert SEEN["middleware"] == SEEN["view"] != threading.get_ident()
    # Django's own handler, built for an asynchronous core, goes back to the event loop
    # (AsyncToSync) after the middleware and into the thread again for the view.
    assert not SEEN["between"] & {"AsyncToSync", "CurrentThreadExecutor"}


def test_an_asynchronous_view_and_a_streamed_answer_still_work():
    SEEN.clear()
    with served():
        assert ask("/streamed/") == (200, b"one,two")
    # Awaited in the event loop, not in the request's thread.
    assert SEEN["async view"] != SEEN["middleware"]


def test_a_view_whose_database_is_unreachable_is_still_answered_503():
    with served():
        status, body = ask("/unreachable/")
    assert status == 503
