from django.urls import path

from . import views

urlpatterns = [
    path("", views.league_list, name="leagues"),
    path("<slug:slug>/", views.league_page, name="league"),
    path("<slug:slug>/standings.csv", views.standings_csv, name="league_standings_csv"),
    path("<slug:slug>/players/<int:user_id>/", views.player_page, name="league_player"),
]
