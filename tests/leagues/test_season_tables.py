"""A season's admin page lists the tables that count for it, and an end moved before one
of them was opened says so: the tables stay in the season (its standings keep them), and
the organiser learns which, rather than finding them there later."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.models import LeagueGame

from .helpers import make_league, make_season, make_user, record_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def season_with_tables(organiser):
    people = [make_user(n) for n in ("anna", "bert", "cleo", "dirk")]
    league = make_league(members=people)
    league.organisers.add(organiser)
    today = timezone.localdate()
    season = make_season(league, "Winter", today - datetime.timedelta(days=30),
                         today + datetime.timedelta(days=60))
    early = record_game(people, [([0, 1, 2, 3], [0, 1, 2, 3])], league, season,
                        name="First Tuesday")
    LeagueGame.objects.filter(game=early).update(
        added=timezone.now() - datetime.timedelta(days=20))
    record_game(people, [([0, 1, 2, 3], None)], league, season, name="Last Tuesday")
    return season


def _form(season, end):
    return {"league": season.league_id, "name": season.name,
            "start": season.start.isoformat(), "end": end.isoformat(), "turn_limit": ""}


def test_a_seasons_page_lists_its_tables_and_links_its_standings(
        client, organiser, season_with_tables):
    client.force_login(organiser)
    season = season_with_tables
    page = client.get(reverse("admin:leagues_season_change", args=[season.pk])).content.decode()
    for game in season.league_games.select_related("game"):
        assert reverse("admin:games_game_change", args=[game.game_id]) in page
        assert game.game.name in page
    assert f"{reverse('league', args=[season.league.slug])}?season={season.pk}" in page
    assert page.count("Its tables") == 1 and "&lt;br&gt;" not in page


def test_an_end_moved_before_a_table_was_opened_names_the_table(
        client, organiser, season_with_tables):
    client.force_login(organiser)
    season = season_with_tables
    response = client.post(
        reverse("admin:leagues_season_change", args=[season.pk]),
        _form(season, timezone.localdate() - datetime.timedelta(days=10)), follow=True)
    said = [str(m) for m in response.context["messages"]]
    assert any("Last Tuesday" in m and "still count" in m for m in said), said
    assert not any("First Tuesday" in m for m in said)
    assert season.league_games.count() == 2  # nothing moved out of it


def test_an_end_that_keeps_every_table_inside_says_nothing_more(
        client, organiser, season_with_tables):
    client.force_login(organiser)
    season = season_with_tables
    response = client.post(
        reverse("admin:leagues_season_change", args=[season.pk]),
        _form(season, timezone.localdate() + datetime.timedelta(days=5)), follow=True)
    assert not any("still count" in str(m) for m in response.context["messages"])
