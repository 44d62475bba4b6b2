from django.urls import path

import dalmuti_site.converters  # noqa: F401  (the <id:…> converter)

from . import views

urlpatterns = [
    path("", views.league_list, name="leagues"),
    path("<slug:slug>/", views.league_page, name="league"),
    path("<slug:slug>/standings.csv", views.standings_csv, name="league_standings_csv"),
    path("<slug:slug>/players/<id:user_id>/", views.player_page, name="league_player"),
]
