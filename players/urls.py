from django.urls import path

import dalmuti_site.converters  # noqa: F401  (the <id:…> converter)

from . import views

urlpatterns = [
    path("players/", views.ratings, name="ratings"),
    path("players/<str:username>/", views.player_page, name="player"),
    path("history/<id:game_id>/record.json", views.record_json, name="record_json"),
    path("history/<id:game_id>/record.txt", views.record_text, name="record_text"),
]
