"""The pages a player sees when something is wrong: not found (404), not allowed (403),
a request the site cannot read (400), and a failure of the site itself (500).

The first three are ordinary pages of the site, in the reader's language, with the
header. The 500 page needs nothing that may be what failed: it is rendered from a
template without the request's context (no session, no user, no database), in the
language the request asked for (the language cookie, else the browser's), and if even
that fails, a fixed page is sent."""

from django.http import HttpResponse, HttpResponseServerError
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django.views.decorators.csrf import requires_csrf_token

from accounts.middleware import activate_user_language

# The last resort: no template, no translation, nothing that can fail.
BARE_500 = (
    "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
    "<title>The Great Dalmuti</title></head><body>"
    "<h1>Something went wrong on our side</h1>"
    "<p>Please try again in a moment. <a href=\"/\">Back to My games</a></p>"
    "</body></html>"
)


def _page(request, status: int, template: str, reason: str = ""):
    # A page whose address matched nothing never reached the view step that applies
    # the player's own language and time zone.
    activate_user_language(request)
    request.LANGUAGE_CODE = translation.get_language()
    return render(request, template, {"reason": reason}, status=status)


@requires_csrf_token
def page_not_found(request, exception=None):
    return _page(request, 404, "errors/404.html")


@requires_csrf_token
def permission_denied(request, exception=None):
    # A refusal that says why (written for players, in their language) says it here.
    reason = str(exception) if exception is not None and exception.args else ""
    return _page(request, 403, "errors/403.html", reason)


@requires_csrf_token
def bad_request(request, exception=None):
    return _page(request, 400, "errors/400.html")


def csrf_failure(request, reason=""):
    """A form sent from a page that is too old (or from another site): the 403 page,
    saying what to do about it."""
    response = _page(request, 403, "errors/403_csrf.html")
    return response


def server_error(request):
    try:
        language = translation.get_language_from_request(request)
        with translation.override(language):
            html = render_to_string("errors/500.html", {"LANGUAGE_CODE": language})
    except Exception:  # noqa: BLE001 - the page of last resort must always answer
        return HttpResponse(BARE_500, status=500)
    return HttpResponseServerError(html)
