"""The answer when the database cannot be reached: 503, "That did not go through —
please try again.", never a 500.

A request whose connection failed (the server restarted, a failover, the network) was
changing things, if at all, inside a transaction that never committed: nothing changed,
and trying again is safe. The broken connection is closed; the pool checks the next one
before handing it out (settings: CONN_HEALTH_CHECKS). A move whose commit may or may not
have happened is told apart by the move's own view, from the record.
"""

import logging
import sys

from django.core.exceptions import DisallowedHost
from django.db import DatabaseError, InterfaceError, OperationalError, connections
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import defaults

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
        "message": message, "again": _again_url(request),
        "LANGUAGE_CODE": translation.get_language(),
    }), status=503, headers=headers)


def _again_url(request) -> str:
    """Where "Try again" leads: the page itself, or after a form the page it was sent
    from (when that is this site), else the home page."""
    if request.method in ("GET", "HEAD"):
        return request.get_full_path()
    referer = request.META.get("HTTP_REFERER", "")
    try:
        host = request.get_host()
    except DisallowedHost:
        return "/"
    if url_has_allowed_host_and_scheme(referer, allowed_hosts={host},
                                       require_https=request.is_secure()):
        return referer
    return "/"


def server_error(request):
    """handler500: Django calls it while handling the exception (DEBUG off), wherever it
    was raised (a view, or a middleware reading the session or the user)."""
    exception = sys.exc_info()[1]
    if isinstance(exception, CONNECTION_FAILURES):
        return database_unavailable(request, exception)
    return defaults.server_error(request)
