from django.urls import path

import dalmuti_site.converters  # noqa: F401  (the <id:…> converter)

from . import views

urlpatterns = [
    path("sw.js", views.service_worker, name="service_worker"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("offline/", views.offline, name="offline"),
    path("push/subscribe/", views.subscribe, name="push_subscribe"),
    path("push/devices/<id:pk>/remove/", views.remove, name="push_remove"),
]
