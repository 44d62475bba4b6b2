"""The no-spam rules hold for push exactly as for email: the grace period, nothing while
the player is at the table, one per game until they act, nothing once they acted, and
nothing for a player who wants none. Each rule is checked on each channel."""

import json
from datetime import timedelta

import http_ece
import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from games import commands, engine
from games.commands import notifications
from games.models import Notification
from games.tasks import send_notification
from push import services
from tests.helpers import legal, make_user, start_table, waiting_humans

from .conftest import Device

pytestmark = pytest.mark.django_db

GRACE = timedelta(minutes=3)


@pytest.fixture(params=["email", "push"])
def channel(request):
    return request.param


@pytest.fixture
def table(channel, push_service):
    people = [make_user(n) for n in ("ava", "bo", "cy", "di")]
    devices = {}
    for user in people:
        user.notify_by = channel
        user.save()
        devices[user.pk] = Device(push_service, user.username)
        services.subscribe(user, devices[user.pk].info())
    game = start_table(people[0], people[1:])
    _deliver_due()  # the "game started" notices
    mail.outbox.clear()
    push_service.received.clear()
    return game, devices


def _deliver_due():
    return [send_notification(pk) for pk in notifications.due_ids()]


def _told(channel, push_service, devices, user) -> list[str]:
    """What reached the player on the channel: email subjects, push titles."""
    if channel == "email":
        return [m.subject for m in mail.outbox if m.to == [user.email]]
    device = devices[user.pk]
    return [json.loads(http_ece.decrypt(r["body"], private_key=device.key,
                                        auth_secret=device.secret))["title"]
            for r in push_service.received if r["path"] == device.path]


def test_the_turn_waits_for_the_grace_period(channel, table, push_service):
    game, devices = table
    seat = waiting_humans(game)[0]
    _deliver_due()
    assert _told(channel, push_service, devices, seat.user) == []
    with time_machine.travel(timezone.now() + GRACE):
        _deliver_due()
    told = _told(channel, push_service, devices, seat.user)
    assert len(told) == 1 and game.name in told[0]


def test_nothing_while_the_player_is_at_the_table(channel, table, push_service):
    game, devices = table
    seat = waiting_humans(game)[0]
    with time_machine.travel(timezone.now() + GRACE):
        seat.last_seen = timezone.now()
        seat.save()
        assert "postpone" in _deliver_due()
    assert _told(channel, push_service, devices, seat.user) == []


def test_nothing_once_the_player_acted(channel, table, push_service):
    game, devices = table
    seat = waiting_humans(game)[0]
    action = legal(game, seat)[0]
    commands.act(game.pk, seat.user, engine.action_from_json(action),
                 game.awaiting[str(seat.player)][0])
    with time_machine.travel(timezone.now() + GRACE):
        _deliver_due()
    assert _told(channel, push_service, devices, seat.user) == []


def test_one_per_game_until_the_player_acts(channel, table, push_service):
    game, devices = table
    seat = waiting_humans(game)[0]
    with time_machine.travel(timezone.now() + GRACE):
        _deliver_due()
        first = Notification.objects.get(user=seat.user, kind="turn", channel=channel)
        # Another state of the same game waits for them before they acted.
        Notification.objects.filter(pk=first.pk).update(key=first.key + ":told")
        second = Notification.objects.create(user=seat.user, game=game, kind="turn",
                                             channel=channel, due=timezone.now(),
                                             key=first.key)
        assert send_notification(second.pk) == "already told"
    assert len(_told(channel, push_service, devices, seat.user)) == 1


def test_never_means_never(channel, table, push_service):
    game, devices = table
    for seat in game.seats.select_related("user"):
        seat.user.notify = "never"
        seat.user.save()
    with time_machine.travel(timezone.now() + GRACE):
        _deliver_due()
    assert mail.outbox == [] and push_service.received == []


def test_only_the_chosen_channel(channel, table, push_service):
    game, devices = table
    seat = waiting_humans(game)[0]
    with time_machine.travel(timezone.now() + GRACE):
        _deliver_due()
    other = "push" if channel == "email" else "email"
    assert _told(other, push_service, devices, seat.user) == []
