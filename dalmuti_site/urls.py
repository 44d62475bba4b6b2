from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("leagues/", include("leagues.urls")),
    path("", include("games.urls")),
    path("", include("chat.urls")),
]
