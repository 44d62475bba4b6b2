"""Once every seat is taken, the invitation panel goes (nobody more can be invited), but
the invitations still waiting stay in the host's sight, with a way to withdraw each: an
invitee would otherwise be left with an invitation to a full table, and the host with no
way to take it back."""

import pytest
from django.urls import reverse

from games import commands
from games.models import Invitation
from tests.helpers import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def full_table():
    host = make_user("hanna")
    game = commands.create_table(host, "Friday court", 4, {"rounds": 2})
    commands.invite(game, host, email="dora@example.com")
    for name in ("bob", "carla", "dirk"):
        commands.join(game.pk, make_user(name))
    return game


def test_the_host_of_a_full_table_still_sees_and_withdraws_a_waiting_invitation(
        client, full_table):
    client.force_login(full_table.host)
    page = client.get(reverse("game", args=[full_table.pk])).content.decode()
    assert "Invite friends" not in page  # no room: no more invitations
    assert "dora@example.com" in page
    invitation = Invitation.objects.get(game=full_table)
    withdraw = reverse("withdraw_invitation", args=[full_table.pk, invitation.pk])
    assert withdraw in page
    client.post(withdraw)
    assert not Invitation.objects.filter(pk=invitation.pk).exists()


def test_the_others_at_a_full_table_see_no_invitee(client, full_table):
    client.force_login(full_table.seats.exclude(user=full_table.host).first().user)
    page = client.get(reverse("game", args=[full_table.pk])).content.decode()
    assert "dora@example.com" not in page


def test_a_host_starting_short_of_the_seats_is_told_how_many_play(client):
    host = make_user("hanna")
    game = commands.create_table(host, "Friday court", 6, {"rounds": 2})
    for name in ("bob", "carla", "dirk"):
        commands.join(game.pk, make_user(name))
    client.force_login(host)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "Start with 4 players" in page and "Start the game" not in page
    commands.join(game.pk, make_user("emil"))
    commands.join(game.pk, make_user("fay"))
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "Start the game" in page and "Start with" not in page
