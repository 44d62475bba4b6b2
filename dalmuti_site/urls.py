from django.contrib import admin
from django.http import HttpResponse, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.decorators.cache import never_cache

from accounts.middleware import answers_without_user


@answers_without_user
@never_cache
def health(request):
    """For load balancers and uptime checks: answers without a session or the database."""
    return HttpResponse("ok", content_type="text/plain")


@answers_without_user
def favicon(request):
    """Browsers ask for /favicon.ico on pages that name no icon (the admin's among them).
    Looked up on request: static file names are hashed, known only after collectstatic."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))



urlpatterns = [
    path("health/", health, name="health"),
    path("favicon.ico", favicon),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("leagues/", include("leagues.urls")),
    path("", include("push.urls")),
    path("", include("players.urls")),
    path("", include("games.urls")),
    path("", include("chat.urls")),
]

handler400 = "dalmuti_site.errors.bad_request"
handler403 = "dalmuti_site.errors.permission_denied"
handler404 = "dalmuti_site.errors.page_not_found"
# A database that cannot be reached answers 503 "try again", not 500 (dalmuti_site.errors).
handler500 = "dalmuti_site.errors.server_error"
