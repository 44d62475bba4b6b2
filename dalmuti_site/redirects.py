"""Where a form may send the browser next."""

from urllib.parse import urlsplit

from django.utils.http import url_has_allowed_host_and_scheme


def on_this_site(request, url: str | None) -> str:
    """`url` if it is a page of this site (a path, or an address on this host), else "".
    Never a bare word: Django's `redirect()` would take it for a route's name ("logout")."""
    if not url or not url_has_allowed_host_and_scheme(
            url, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return ""
    parts = urlsplit(url)
    if parts.netloc or url.startswith("/"):
        return url
    return ""
