"""Whom a host took off a table before it started, in the admin: on the table's own page
for whoever runs it there (an organiser of its league, a superuser), and in a list of
every table's for the site's administrators, who answer "why can't I join?"."""

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from games import commands
from leagues.models import LeagueGame

from ..helpers import make_user
from ..leagues.conftest import make_organiser
from ..leagues.helpers import make_league

pytestmark = pytest.mark.django_db

REMOVALS = reverse("admin:games_removal_changelist")


@pytest.fixture
def lobby():
    bert, anna, cleo = make_user("bert"), make_user("anna"), make_user("cleo")
    table = commands.create_table(bert, "Monday lobby", 5, {})
    for player in (anna, cleo):
        commands.join(table.pk, player)
    commands.remove_seat(table.pk, table.seats.get(user=anna).pk)
    return table


def _taken_off(page: str) -> str:
    return page.split('id="removals-group"')[1].split("</fieldset>")[0]


def test_an_organiser_reads_whom_the_host_took_off_her_leagues_table(client, lobby):
    mondays = make_league("Mondays", "mondays", members=[lobby.host])
    olga = make_organiser("olga")
    mondays.organisers.add(olga)
    LeagueGame.objects.create(game=lobby, league=mondays)
    client.force_login(olga)
    page = client.get(reverse("admin:games_game_change", args=[lobby.pk])).content.decode()
    listed = _taken_off(page)
    assert "Players taken off this table" in listed
    assert ">Anna<" in listed and "Cleo" not in listed
    assert "Taken off" in listed
    assert "icon-no.svg" in listed  # not invited again since
    # Nothing there to change: the host's decision stands, the record is the site's.
    assert 'name="removals-0-user"' not in page
    commands.invite(lobby, lobby.host, user=lobby.removals.get().user)
    page = client.get(reverse("admin:games_game_change", args=[lobby.pk])).content.decode()
    assert "icon-yes.svg" in _taken_off(page)


def test_only_the_site_administrators_list_every_tables_removals(client, lobby):
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    assert [(r.game.name, r.user.username)
            for r in client.get(REMOVALS, {"q": "ann"}).context["cl"].result_list] \
        == [("Monday lobby", "anna")]
    assert client.get(REMOVALS, {"q": "cleo"}).context["cl"].result_count == 0
    removal = lobby.removals.get()
    assert client.get(f"{REMOVALS}add/").status_code == 403
    assert client.post(f"{REMOVALS}{removal.pk}/change/",
                       {"game": lobby.pk, "user": lobby.host.pk}).status_code == 403
    assert lobby.removals.get().user.username == "anna"
    olga = make_organiser("olga")
    assert olga.groups.filter(name="league organiser").exists()
    client.force_login(olga)
    assert client.get(REMOVALS).status_code == 403
    index = client.get("/admin/").context["app_list"]
    assert "Removal" not in [m["object_name"] for a in index for m in a["models"]]


def test_an_organiser_of_another_league_reads_nothing_of_it(client, lobby):
    fridays = make_league("Fridays", "fridays", members=[])
    fred = make_organiser("fred")
    fridays.organisers.add(fred)
    assert Group.objects.filter(name="league organiser").exists()
    client.force_login(fred)
    response = client.get(reverse("admin:games_game_change", args=[lobby.pk]))
    assert response.status_code == 302 and "anna" not in response.content.decode()


def _taken_off_from(host, *players):
    """A table whose host took each of `players` off it before it started."""
    table = commands.create_table(host, f"Lobby {players[0].username}", 10, {})
    for player in players:
        commands.join(table.pk, player)
        commands.remove_seat(table.pk, table.seats.get(user=player).pk)
    return table


def test_the_list_of_removals_asks_the_same_few_queries_for_every_page_size(
        client, django_assert_max_num_queries):
    """A hundred rows a page: whether the host invited each again comes with the rows, not
    as a question per row."""
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    host = make_user("bert")
    _taken_off_from(host, make_user("anna"))
    with django_assert_max_num_queries(12) as few:
        client.get(REMOVALS)
    _taken_off_from(host, *(make_user(f"player{i}") for i in range(8)))
    with django_assert_max_num_queries(len(few.captured_queries)):
        page = client.get(REMOVALS)
    assert page.context["cl"].result_count == 9


def test_invited_again_reads_alike_in_the_list_and_for_one_removal(client):
    """By name, by the address a player confirmed (not one they have not), and only to
    the same table: the list's column and the check that lets a player back agree."""
    host = make_user("bert")
    by_name, by_address, unconfirmed, elsewhere, not_again = (
        make_user("anna"), make_user("cleo"),
        make_user("dirk", email_verified=False), make_user("eva"), make_user("fien"))
    table = _taken_off_from(host, by_name, by_address, unconfirmed, elsewhere, not_again)
    other = commands.create_table(host, "Another lobby", 5, {})
    commands.invite(table, host, user=by_name)
    commands.invite(table, host, email="CLEO@example.com")
    commands.invite(table, host, email="dirk@example.com")
    commands.invite(other, host, user=elsewhere)
    from games.models import Removal

    listed = {r.user.username: r.invited_again
              for r in Removal.objects.with_invited_again().select_related("user")}
    assert listed == {"anna": True, "cleo": True, "dirk": False, "eva": False,
                      "fien": False}
    assert listed == {r.user.username: not Removal.keeps_out(r.game, r.user)
                      for r in Removal.objects.select_related("game", "user")}
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    still_out = client.get(REMOVALS, {"invited_again": "0"}).context["cl"].result_list
    assert sorted(r.user.username for r in still_out) == ["dirk", "eva", "fien"]


def test_a_table_nobody_was_taken_off_shows_no_empty_list(client):
    """An empty record says nothing: no heading over an empty table on the table's page.
    Its forms' count still goes with the page, so a save made before somebody is taken
    off counts its forms as the admin expects."""
    bert = make_user("bert")
    table = commands.create_table(bert, "Tuesday lobby", 5, {})
    commands.join(table.pk, make_user("anna"))
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    page = client.get(reverse("admin:games_game_change", args=[table.pk])).content.decode()
    assert "Players taken off this table" not in page
    assert 'id="removals-group"' not in page and 'id="never_dealt_in-group"' not in page
    assert 'name="removals-TOTAL_FORMS"' in page
    assert 'name="never_dealt_in-TOTAL_FORMS"' in page
