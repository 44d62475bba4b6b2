"""The pages a player sees when something is wrong: not found (404), not allowed (403),
an address that takes only a form opened as a page (405), a request the site cannot
read (400), a database that cannot be reached (503), and a failure of the site itself
(500).

The first four are ordinary pages of the site, in the reader's language, with the
header. The 500 page needs nothing that may be what failed: it is rendered from a
template without the request's context (no session, no user, no database), in the
language the request asked for (the language cookie, else the browser's), and if even
that fails, a fixed page is sent.

When the database cannot be reached (the server restarted, a failover, the network), the
answer is 503, "That did not go through — please try again.", never a 500: a request
that was changing things did so, if at all, inside a transaction that never committed,
so nothing changed and trying again is safe. The broken connection is closed; the pool
checks the next one before handing it out (settings: CONN_HEALTH_CHECKS). A move whose
commit may or may not have happened is told apart by the move's own view, from the
record.
"""

import logging
import sys
from urllib.parse import urlencode, urlsplit

from django.core.exceptions import DisallowedHost
from django.db import DatabaseError, InterfaceError, OperationalError, connections
from django.http import HttpResponse, HttpResponseServerError
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.csrf import requires_csrf_token

from accounts.middleware import activate_user_language
from dalmuti_site.redirects import on_this_site

logger = logging.getLogger(__name__)

CONNECTION_FAILURES = (OperationalError, InterfaceError)


def database_unavailable(request, exception: BaseException) -> HttpResponse:
    """HTMX gets a fragment for the page's alert area (a poll gets nothing to swap: it
    asks again at its next turn); a plain request gets a page of its own, drawn without
    the session or the user, which may be what could not be read."""
    logger.warning("The database failed during %s %s: %s", request.method, request.path,
                   exception)
    for conn in connections.all(initialized_only=True):
        try:
            conn.close()
        except DatabaseError:
            pass  # already gone: the pool drops it
    message = _("That did not go through — please try again.")
    headers = {"Retry-After": "2"}
    if request.headers.get("HX-Request") == "true":
        if request.method in ("GET", "HEAD"):
            return HttpResponse(status=503, headers={**headers, "HX-Reswap": "none"})
        return HttpResponse(
            format_html('<p class="error" role="alert">{}</p>', message), status=503,
            headers={**headers, "HX-Retarget": "#alerts", "HX-Reswap": "innerHTML"},
        )
    return HttpResponse(render_to_string("unavailable.html", {
        "message": message, "again": return_path(request),
        "LANGUAGE_CODE": translation.get_language(),
    }), status=503, headers=headers)


def return_path(request) -> str:
    """Where a page leads back to ("Try again", the language menu): the page itself, or,
    for a page drawn in answer to a form, the page the form was sent from (when that is
    this site: the form's own address may take nothing but a form), else the home page."""
    if request.method in ("GET", "HEAD"):
        return request.get_full_path()
    try:
        referer = on_this_site(request, request.META.get("HTTP_REFERER"))
    except DisallowedHost:
        return "/"
    if referer:
        found = urlsplit(referer)
        return f"{found.path or '/'}{f'?{found.query}' if found.query else ''}"
    return "/"


def login_return(request) -> str:
    """The query that brings someone who logs in or signs up from this page back to it
    (a table they were watching, an invitation, a league's page): none from the home
    page, nor from the account pages themselves."""
    back = return_path(request)
    if back == "/" or back.startswith("/accounts/"):
        return ""
    return f"?{urlencode({'next': back})}"


# The last resort: no template, no translation, nothing that can fail.
BARE_500 = (
    "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
    "<title>The Great Dalmuti</title></head><body>"
    "<h1>Something went wrong on our side</h1>"
    "<p>Please try again in a moment. <a href=\"/\">Back to My games</a></p>"
    "</body></html>"
)


def _page(request, status: int, template: str, reason: str = "", way=None):
    # A page whose address matched nothing never reached the view step that applies
    # the player's own language and time zone.
    activate_user_language(request)
    request.LANGUAGE_CODE = translation.get_language()
    return render(request, template, {"reason": reason, "way": way}, status=status)


@requires_csrf_token
def page_not_found(request, exception=None):
    return _page(request, 404, "errors/404.html")


@requires_csrf_token
def permission_denied(request, exception=None):
    # A refusal that says why (written for players, in their language) says it here.
    reason = str(exception) if exception is not None and exception.args else ""
    # A refusal may know the way on (address, label): the table whose record is not open.
    return _page(request, 403, "errors/403.html", reason, getattr(exception, "way", None))


@requires_csrf_token
def bad_request(request, exception=None):
    return _page(request, 400, "errors/400.html")


@requires_csrf_token
def form_only(request):
    """An address that takes only a form, opened as a page (dalmuti_site.middleware)."""
    return _page(request, 405, "errors/405.html")


def csrf_failure(request, reason=""):
    """A form sent from a page that is too old (or from another site): the 403 page,
    saying what to do about it."""
    response = _page(request, 403, "errors/403_csrf.html")
    return response


def server_error(request):
    """handler500: Django calls it while handling the exception (DEBUG off), wherever it
    was raised (a view, or a middleware reading the session or the user). A database
    that cannot be reached answers 503 "try again"; anything else, the 500 page."""
    exception = sys.exc_info()[1]
    if isinstance(exception, CONNECTION_FAILURES):
        return database_unavailable(request, exception)
    try:
        language = translation.get_language_from_request(request)
        with translation.override(language):
            html = render_to_string("errors/500.html", {"LANGUAGE_CODE": language})
    except Exception:  # noqa: BLE001 - the page of last resort must always answer
        return HttpResponse(BARE_500, status=500)
    return HttpResponseServerError(html)
