"""The "league organiser" group (created by a data migration) runs leagues and tables from
the admin, but cannot touch anybody's account or credentials."""

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from games.models import Game
from leagues.models import League

from .helpers import make_league, make_user, record_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    return [make_user(n) for n in ("anna", "bert", "cleo", "dirk")]


@pytest.fixture
def client_for(client, organiser):
    client.force_login(organiser)
    return client


def test_the_migration_creates_the_group_with_its_permissions():
    perms = set(
        Group.objects.get(name="league organiser").permissions.values_list(
            "content_type__app_label", "codename"
        )
    )
    assert ("leagues", "add_league") in perms
    assert ("games", "change_game") in perms
    assert ("accounts", "view_user") in perms
    assert not {p for p in perms if p[0] == "accounts" and not p[1].startswith("view_")}
    assert not {p for p in perms if p[0] == "auth"}


def _group_permissions():
    return set(Group.objects.get(name="league organiser").permissions.values_list(
        "content_type__app_label", "codename"))


@pytest.mark.django_db(transaction=True)
def test_a_flushed_database_gets_the_group_back_as_the_migration_made_it():
    """A flush (as between tests that commit) empties what the data migration wrote; the
    group comes back after it, with the very permissions the migration gives it."""
    from django.core.management import call_command

    made_by_migration = _group_permissions()
    call_command("flush", interactive=False, verbosity=0)
    assert _group_permissions() == made_by_migration


def test_an_organiser_manages_leagues(client_for, organiser, people):
    assert client_for.get(reverse("admin:index")).status_code == 200
    assert client_for.get(reverse("admin:leagues_league_add")).status_code == 200
    response = client_for.post(reverse("admin:leagues_league_add"), {
        "name": "Olga's league", "slug": "olga", "active": "on", "turn_limit": "86400",
        # The standard rules, as the default-options widgets show them.
        "end": "rounds", "rounds": "10", "first_round_taxes": "on", "tribute_return": "choice",
        "merchant_trade": "off", "merchant_trade_from": "6", "philanthropic": "off",
        "seating_ties": "tied_redraw", "great_revolution": "declared",
        "memberships-TOTAL_FORMS": "1", "memberships-INITIAL_FORMS": "0",
        "memberships-MIN_NUM_FORMS": "0", "memberships-MAX_NUM_FORMS": "1000",
        "memberships-0-user": people[0].pk, "memberships-0-joined": "2025-01-01",
        "seasons-TOTAL_FORMS": "0", "seasons-INITIAL_FORMS": "0",
        "seasons-MIN_NUM_FORMS": "0", "seasons-MAX_NUM_FORMS": "1000",
    })
    assert response.status_code == 302
    league = League.objects.get(slug="olga")
    assert league.default_options == {}
    assert list(league.organisers.all()) == [organiser]
    assert list(league.members.all()) == [people[0]]
    # ...and finds people to add (the member picker searches users).
    response = client_for.get(reverse("admin:autocomplete"), {
        "app_label": "leagues", "model_name": "membership", "field_name": "user", "term": "ber",
    })
    assert response.status_code == 200
    assert [r["text"] for r in response.json()["results"]] == ["Bert (@bert)"]


def test_an_organiser_sees_the_site_pages_of_the_leagues_she_runs_alone(
        client_for, organiser, people):
    """Her own league's page, standings and player pages; another league's are not found,
    as its admin pages are not hers."""
    mine = make_league(members=people)
    mine.organisers.add(organiser)
    other = make_league(members=people[:2], name="Sunday", slug="sunday")
    for league, status in ((mine, 200), (other, 404)):
        assert client_for.get(reverse("league", args=[league.slug])).status_code == status
        assert client_for.get(
            reverse("league_standings_csv", args=[league.slug])).status_code == status
        assert client_for.get(
            reverse("league_player", args=[league.slug, people[0].pk])).status_code == status


def test_an_organiser_manages_games_and_ends_a_stalled_one(client_for, organiser, people):
    league = make_league(members=people)
    league.organisers.add(organiser)
    game = record_game(people, [([0, 1, 2, 3], [0, 1, 2, 3]), ([0, 1, 2, 3], None)], league,
                       status=Game.Status.PLAYING)
    assert client_for.get(reverse("admin:games_game_changelist")).status_code == 200
    assert client_for.get(reverse("admin:games_game_change", args=[game.pk])).status_code == 200
    response = client_for.post(reverse("admin:games_game_changelist"), {
        "action": "end_stalled_games", "_selected_action": [game.pk], "apply": "yes",
        "reason": "Nobody has played for a month.",
    })
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED


def test_an_organiser_cannot_delete_a_game(client_for, people):
    game = record_game(people, [([0, 1, 2, 3], [0, 1, 2, 3])])
    assert client_for.get(reverse("admin:games_game_delete", args=[game.pk])).status_code == 403
    assert Game.objects.filter(pk=game.pk).exists()


def test_an_organiser_sees_people_but_not_their_credentials(client_for, people):
    anna = people[0]
    assert client_for.get(reverse("admin:accounts_user_changelist")).status_code == 200
    page = client_for.get(reverse("admin:accounts_user_change", args=[anna.pk]))
    assert page.status_code == 200
    assert anna.password.encode() not in page.content
    assert client_for.get(
        reverse("admin:auth_user_password_change", args=[anna.pk])
    ).status_code == 403
    response = client_for.post(reverse("admin:auth_user_password_change", args=[anna.pk]), {
        "password1": "a-new-secret-123", "password2": "a-new-secret-123",
    })
    assert response.status_code == 403
    anna.refresh_from_db()
    assert anna.check_password("correct-horse-battery")


def test_an_organiser_cannot_change_add_or_delete_people(client_for, people):
    anna = people[0]
    response = client_for.post(reverse("admin:accounts_user_change", args=[anna.pk]), {
        "username": "anna", "email": "olga@example.com", "is_staff": "on",
        "is_superuser": "on",
    })
    assert response.status_code == 403
    anna.refresh_from_db()
    assert (anna.email, anna.is_superuser) == ("anna@example.com", False)
    assert client_for.get(reverse("admin:accounts_user_add")).status_code == 403
    assert client_for.get(reverse("admin:accounts_user_delete", args=[anna.pk])).status_code == 403


def test_an_organiser_cannot_hand_out_permissions(client_for):
    assert client_for.get(reverse("admin:auth_group_changelist")).status_code == 403
    group = Group.objects.get(name="league organiser")
    assert client_for.get(reverse("admin:auth_group_change", args=[group.pk])).status_code == 403


def test_a_seasons_time_limit_is_labelled_as_its_other_fields(client_for, organiser):
    page = client_for.get(reverse("admin:leagues_season_add")).content.decode()
    assert ">Time limit per turn:</label>" in page


def test_an_organiser_of_one_league_adds_to_it_without_choosing_it(client_for, organiser):
    """A new season starts in the organiser's league when she runs just one; with two,
    she chooses (none is chosen for her)."""
    fridays = make_league(name="Fridays", slug="fridays")
    fridays.organisers.add(organiser)
    make_league(name="Not hers", slug="not-hers")
    form = client_for.get(reverse("admin:leagues_season_add")).context["adminform"].form
    assert form.initial.get("league") == fridays.pk
    mondays = make_league(name="Mondays", slug="mondays")
    mondays.organisers.add(organiser)
    form = client_for.get(reverse("admin:leagues_season_add")).context["adminform"].form
    assert "league" not in form.initial
