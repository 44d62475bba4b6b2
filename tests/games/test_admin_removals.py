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
