import csv
import io

import pytest
from django.core import mail
from django.urls import reverse

from games.models import Game, Invitation
from leagues.models import League, LeagueGame

from .helpers import make_league, make_user, record_game, this_year_season

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:leagues_league_changelist")


@pytest.fixture
def people():
    return [make_user(n) for n in ("anna", "bert", "cleo", "dirk")]


@pytest.fixture
def league(people):
    return make_league(members=people, options={"rounds": 3, "master_rule": True})


def inline_management(prefix, total=0):
    return {f"{prefix}-TOTAL_FORMS": str(total), f"{prefix}-INITIAL_FORMS": "0",
            f"{prefix}-MIN_NUM_FORMS": "0", f"{prefix}-MAX_NUM_FORMS": "1000"}


def standard_options(**chosen):
    """The league form's option widgets as the admin posts them, at the standard rules."""
    data = {"turn_limit": "86400",
            "end": "rounds", "rounds": "10", "target_score": "", "seating_ties": "tied_redraw",
            "first_round_taxes": "on", "tribute_return": "choice",
            "great_revolution": "declared", "merchant_trade": "off",
            "merchant_trade_from": "6", "philanthropic": "off"}
    data.update(chosen)
    return {k: v for k, v in data.items() if v is not None}


def test_the_changelist_searches_members_and_filters_by_activity(admin_client, league):
    make_league(name="Sleepy Club", slug="sleepy", active=False)
    response = admin_client.get(CHANGELIST, {"q": "cleo"})
    assert response.status_code == 200
    assert list(response.context["cl"].result_list) == [league]
    response = admin_client.get(CHANGELIST, {"active__exact": "0"})
    assert [lg.slug for lg in response.context["cl"].result_list] == ["sleepy"]


def test_an_organiser_adds_a_league_with_members_and_a_season(admin_client, people):
    data = {
        "name": "Tuesday Club", "slug": "tuesday", "description": "", "active": "on",
        **standard_options(rounds="5", master_rule="on"),
        **inline_management("memberships", 2),
        "memberships-0-user": people[0].pk, "memberships-0-joined": "2025-01-01",
        "memberships-1-user": people[1].pk, "memberships-1-joined": "2025-01-01",
        **inline_management("seasons", 1),
        "seasons-0-name": "Winter", "seasons-0-start": "2025-01-01",
        "seasons-0-end": "2025-03-31",
    }
    response = admin_client.post(reverse("admin:leagues_league_add"), data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    league = League.objects.get(slug="tuesday")
    assert set(league.members.all()) == set(people[:2])
    assert league.seasons.get().name == "Winter"
    assert league.default_options == {"rounds": 5, "master_rule": True}


def test_the_default_options_are_the_new_table_widgets_and_standard_rules_store_as_empty(
    admin_client, league
):
    response = admin_client.get(reverse("admin:leagues_league_change", args=[league.pk]))
    assert b'name="merchant_trade"' in response.content
    assert b'name="default_options"' not in response.content
    form = response.context["adminform"].form
    assert form.initial["rounds"] == 3 and form.initial["master_rule"] is True
    data = {
        "name": league.name, "slug": league.slug, "active": "on", **standard_options(),
        **inline_management("memberships"), **inline_management("seasons"),
    }
    response = admin_client.post(reverse("admin:leagues_league_change", args=[league.pk]), data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    league.refresh_from_db()
    assert league.default_options == {}


def test_it_refuses_default_options_the_engine_does_not_accept(admin_client):
    data = {
        "name": "Odd Club", "slug": "odd", **standard_options(rounds="99"),
        **inline_management("memberships"), **inline_management("seasons"),
    }
    response = admin_client.post(reverse("admin:leagues_league_add"), data)
    assert response.status_code == 200
    assert "rounds" in response.context["adminform"].form.errors
    assert not League.objects.filter(slug="odd").exists()


def test_it_refuses_a_season_that_ends_before_it_starts(admin_client, league):
    data = {
        "name": league.name, "slug": league.slug, "active": "on",
        **standard_options(),
        **inline_management("memberships"), **inline_management("seasons", 1),
        "seasons-0-name": "Backwards", "seasons-0-start": "2025-05-01",
        "seasons-0-end": "2025-04-01",
    }
    response = admin_client.post(reverse("admin:leagues_league_change", args=[league.pk]), data)
    assert response.status_code == 200
    assert not league.seasons.exists()


def test_the_create_table_action_asks_for_the_players_first(admin_client, league):
    response = admin_client.post(CHANGELIST, {
        "action": "create_table", "_selected_action": [league.pk], "index": "0",
    })
    assert response.status_code == 200
    assert b"Create the table and invite" in response.content
    assert not Game.objects.exists()


def test_the_create_table_action_opens_a_table_with_the_league_defaults_and_invites(
    admin_client, league, people, django_capture_on_commit_callbacks, eager_tasks
):
    season = this_year_season(league)
    anna, bert, cleo, dirk = people
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(CHANGELIST, {
            "action": "create_table", "_selected_action": [league.pk], "apply": "yes",
            "name": "Friday night", "host": anna.pk, "players": [bert.pk, cleo.pk],
            "bots": "1", "bot_level": "basic", "season": season.pk,
        })
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.name == "Friday night"
    assert game.host == anna
    assert game.options == {"rounds": 3, "master_rule": True}
    assert game.seats_wanted == 4
    assert [s.name for s in game.seats.all() if not s.is_bot] == ["Anna"]
    assert game.seats.filter(user__isnull=True).count() == 1
    assert set(Invitation.objects.filter(game=game).values_list("user__username", flat=True)) == {
        "bert", "cleo"
    }
    link = LeagueGame.objects.get(game=game)
    assert (link.league, link.season) == (league, season)
    assert sorted(m.to[0] for m in mail.outbox) == ["bert@example.com", "cleo@example.com"]
    assert reverse("join", args=[game.invite_token]) in mail.outbox[0].body
    assert "Friday night" in mail.outbox[0].body


def test_a_league_on_the_standard_rules_opens_a_table_that_renders_and_starts(
    admin_client, client, people, django_capture_on_commit_callbacks, eager_tasks
):
    # {} is what the league admin stores for the standard rules.
    league = make_league(name="Plain Club", slug="plain", members=people, options={})
    anna = people[0]
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(CHANGELIST, {
            "action": "create_table", "_selected_action": [league.pk], "apply": "yes",
            "name": "Plain table", "host": anna.pk, "bots": "3", "bot_level": "basic",
        })
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.options == {}
    client.force_login(anna)
    assert client.get(game.get_absolute_url()).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("start", args=[game.pk]))
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    page = client.get(game.get_absolute_url())
    assert page.status_code == 200
    assert "Plain table" in page.content.decode()


def test_a_table_needs_four_seats(admin_client, league, people):
    response = admin_client.post(CHANGELIST, {
        "action": "create_table", "_selected_action": [league.pk], "apply": "yes",
        "name": "Too small", "host": people[0].pk, "players": [people[1].pk],
        "bots": "0", "bot_level": "basic",
    })
    assert response.status_code == 200
    assert response.context["form"].non_field_errors()
    assert not Game.objects.exists()


def test_the_create_table_action_takes_one_league_at_a_time(admin_client, league):
    other = make_league(name="Other", slug="other")
    response = admin_client.post(CHANGELIST, {
        "action": "create_table", "_selected_action": [league.pk, other.pk], "index": "0",
    }, follow=True)
    assert b"Choose exactly one league." in response.content
    assert not Game.objects.exists()


def test_the_export_action_writes_all_time_and_season_standings(admin_client, league, people):
    season = this_year_season(league, "Season one")
    record_game(people, [([0, 1, 2, 3], [3, 2, 1, 0])], league, season)
    response = admin_client.post(CHANGELIST, {
        "action": "export_standings", "_selected_action": [league.pk], "index": "0",
    })
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:4] == ["League", "Season", "Rank", "Player"]
    assert [(r[1], r[2], r[3], r[6]) for r in rows[1:]] == [
        ("All time", "1", "Dirk", "3"), ("All time", "2", "Cleo", "2"),
        ("All time", "3", "Bert", "1"), ("All time", "4", "Anna", "0"),
        ("Season one", "1", "Dirk", "3"), ("Season one", "2", "Cleo", "2"),
        ("Season one", "3", "Bert", "1"), ("Season one", "4", "Anna", "0"),
    ]


@pytest.mark.parametrize("options, said", [
    ({}, ["10 rounds"]),
    ({"rounds": 3, "master_rule": True},
     ["3 rounds", "Master rule: nobody rises more than one position per round"]),
])
def test_a_tables_page_in_the_admin_says_its_rules_in_words(admin_client, people, options,
                                                            said):
    """As the lobby and the league's page say them: the standard rules are rules too (the
    page said "-" for them)."""
    from games import commands

    game = commands.create_table(people[0], "Rules", 5, options)
    page = admin_client.get(reverse("admin:games_game_change", args=[game.pk]))
    text = page.content.decode()
    for words in said:
        assert words in text
    rules_row = text.split("field-rules", 1)[1][:1500]
    assert 'class="option-list"' in rules_row
