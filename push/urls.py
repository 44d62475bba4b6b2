from django.urls import path

from . import views

urlpatterns = [
    path("sw.js", views.service_worker, name="service_worker"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("offline/", views.offline, name="offline"),
    path("push/subscribe/", views.subscribe, name="push_subscribe"),
    path("push/devices/<int:pk>/remove/", views.remove, name="push_remove"),
]
