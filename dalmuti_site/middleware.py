import codecs
import re

from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import resolve_url
from django.utils.translation import gettext as _

from .errors import CONNECTION_FAILURES, database_unavailable, form_only

# Characters no URL path may hold, once its %-escapes are decoded: the C0 controls (NUL
# among them), DEL and the C1 controls.
INVALID_PATH_CHARACTERS = re.compile(r"[\x00-\x1f\x7f-\x9f]")

# Form encodings a browser sends and Django can read: ASCII-compatible ones.
READABLE_CHARSETS = {"utf-8", "ascii", "latin-1", "iso8859-1", "cp1252", "iso8859-15"}


class InvalidPathMiddleware:
    """A path with a NUL byte or another control character names nothing on this site:
    404 at once, for every route, before any view, session or database sees it
    (PostgreSQL refuses a NUL in a string outright, which would be a 500)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if INVALID_PATH_CHARACTERS.search(request.path):
            raise Http404("no such page")
        return self.get_response(request)


class FormCharsetMiddleware:
    """Refuse, with a clear 400, a form declared in a character set it cannot be read in
    (UTF-16, or one that does not exist): reading it would fail deep inside Django."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        content_type = request.META.get("CONTENT_TYPE", "")
        if request.method == "POST" and "charset=" in content_type.lower():
            charset = content_type.lower().split("charset=", 1)[1].split(";")[0].strip(' "')
            try:
                name = codecs.lookup(charset).name
            except LookupError:
                name = ""
            if name not in READABLE_CHARSETS:
                return HttpResponse(
                    _("This form was sent in a character set the site cannot read. "
                      "Please send it as UTF-8."),
                    status=400, content_type="text/plain; charset=utf-8",
                )
        return self.get_response(request)


class SignedOutPartsMiddleware:
    """A page left open after its visitor signed out (in another tab, or their session ran
    out) asks for parts of itself with htmx, which would follow the redirect to the login
    page and swap that page into the part: the page reloads instead, whole, and goes to
    the login page as any page does."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (response.status_code == 302 and "HX-Request" in request.headers
                and response["Location"].split("?", 1)[0] == resolve_url(settings.LOGIN_URL)):
            return HttpResponse(status=204, headers={"HX-Refresh": "true"})
        return response


class FormOnlyMiddleware:
    """An address that takes nothing but a form (to save a setting, to ask for a link
    again), opened as a page: a link kept, a bookmark, an address typed. Django answers
    405 with nothing, which a browser shows as a blank error of its own; the site's page
    says what the address is for, in the reader's language, with the ways on."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (response.status_code == 405 and request.method == "GET" and not response.content
                and request.headers.get("HX-Request") != "true"):
            page = form_only(request)
            page["Allow"] = response["Allow"]
            return page
        return response


class DatabaseUnavailableMiddleware:
    """A view whose database connection failed answers 503 "try again" instead of a 500
    (dalmuti_site.errors), with DEBUG on too; failures outside the views (a middleware
    reading the session or the user) reach the same answer through handler500."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, CONNECTION_FAILURES):
            return database_unavailable(request, exception)
        return None
