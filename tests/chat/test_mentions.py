"""Naming a seated player in the table talk ("@Bob") tells them by email and push when
they are away: at most once per table every half hour, never while they are at the
table, never if they muted this table's talk; sent by the notification machinery (due
after the grace period, claimed once, tried again)."""

import json
from datetime import timedelta

import http_ece
import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from chat import services as chat
from games.commands import notifications
from games.models import Notification
from games.tasks import send_notification
from push import services as push
from tests.push.conftest import Device, push_service  # noqa: F401

from .conftest import say, seat_of

pytestmark = pytest.mark.django_db


def _deliver(at) -> list[str]:
    with time_machine.travel(at, tick=False):
        return [send_notification(pk) for pk in notifications.due_ids()]


def _away(game, user, minutes=60):
    game.seats.filter(user=user).update(last_seen=timezone.now() - timedelta(minutes=minutes))


def test_a_name_is_a_seated_players_on_its_own(game, alice, bob, make_user):
    me = seat_of(game, alice)
    named = lambda text: [s.name for s in chat.named_seats(game, text, me)]  # noqa: E731
    assert named("@bob are you there?") == ["Bob"]
    assert named("hey @BOB, your turn") == ["Bob"]
    assert named("@bobby and me@bob.nl and @alice") == []


def test_a_mention_reaches_an_absent_player_on_both_channels_once_per_half_hour(
        game, alice, bob, push_service):  # noqa: F811
    bob.notify_by = bob.Channel.BOTH
    bob.save()
    device = Device(push_service, "bob")
    push.subscribe(bob, device.info())
    _away(game, bob)
    Notification.objects.all().delete()
    start = timezone.now()

    say(game, alice, "Welcome back soon")
    say(game, alice, "@Bob, your Peons are waiting")
    notices = Notification.objects.filter(kind="mention")
    assert sorted(n.channel for n in notices) == ["email", "push"]
    assert all(n.user == bob for n in notices)
    # Within the half hour: nothing more, however often he is named.
    say(game, alice, "@bob hello?")
    assert notices.count() == 2

    assert _deliver(start + timedelta(minutes=3)) == ["sent", "sent"]
    (email,) = mail.outbox
    assert email.to == [bob.email]
    assert email.subject == f"Alice named you at “{game.name}”"
    body = email.body
    assert "“@Bob, your Peons are waiting”" in body
    # The other unread lines come with it, the mention not twice.
    assert "Alice: Welcome back soon" in body and "Alice: @bob hello?" in body
    html = email.alternatives[0][0]
    assert "@Bob, your Peons are waiting" in html
    (pushed,) = push_service.received
    told = json.loads(http_ece.decrypt(pushed["body"], private_key=device.key,
                                       auth_secret=device.secret))
    assert told["title"] == f"Alice named you at “{game.name}”"
    assert told["body"] == "Alice: @Bob, your Peons are waiting"
    assert _deliver(start + timedelta(minutes=4)) == []  # sent once

    with time_machine.travel(start + timedelta(minutes=31), tick=False):
        say(game, alice, "@Bob?")
    assert Notification.objects.filter(kind="mention").count() == 4  # both channels again


def test_no_notice_at_the_table_nor_when_this_tables_talk_is_muted(client, game, alice, bob):
    Notification.objects.all().delete()
    game.seats.filter(user=bob).update(last_seen=timezone.now())
    say(game, alice, "@Bob look at this")
    assert not Notification.objects.filter(kind="mention").exists()

    # Away when named, back at the table before the notice goes: it is dropped, and the
    # next mention may be told (a dropped notice does not count against the half hour).
    _away(game, bob)
    start = timezone.now()
    say(game, alice, "@Bob are you there?")
    game.seats.filter(user=bob).update(last_seen=start + timedelta(minutes=1))
    assert _deliver(start + timedelta(minutes=3)) == ["at the table"]
    _away(game, bob)
    say(game, alice, "@Bob still there?")
    assert Notification.objects.filter(kind="mention", status="pending").count() == 1

    # Muted from the seat's settings: the pending notice is dropped, no new one is made.
    client.force_login(bob)
    client.post(f"/t/{game.pk}/talk-notices/", {})
    assert seat_of(game, bob).talk_muted
    assert 'name="talk_notices">' in client.get(f"/t/{game.pk}/").content.decode()
    assert _deliver(start + timedelta(minutes=6)) == ["muted"]
    _away(game, bob)
    with time_machine.travel(start + timedelta(hours=1), tick=False):
        say(game, alice, "@Bob!")
    assert Notification.objects.filter(kind="mention").count() == 2
    client.post(f"/t/{game.pk}/talk-notices/", {"talk_notices": "on"})
    assert not seat_of(game, bob).talk_muted
