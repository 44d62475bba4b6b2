"""A table that closes before its start (its host cancels it, or nobody starts it within
its fourteen days) tells the friends seated at it, by the way each chose, once: else they
would wait for a start they never hear of. Its host is not told what they did, nor a
player who wants no word."""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from games import commands
from games.models import OPEN_TABLE_DAYS, Notification
from push.sender import message
from tests.helpers import deliver_due, make_user

pytestmark = pytest.mark.django_db


def _mail_to(user):
    return [m for m in mail.outbox if m.to == [user.email]]


def _table(host, *guests):
    game = commands.create_table(host, "Friday", 6, {"rounds": 2})
    for guest in guests:
        commands.join(game.pk, guest)
    commands.add_bot(game.pk, "basic")
    return game


def test_the_friends_seated_hear_the_host_cancelled_the_table(
        django_capture_on_commit_callbacks, eager_tasks):
    olga = make_user("olga", display_name="Olga")
    bram = make_user("bram", display_name="Bram", language="nl")
    cleo = make_user("cleo", display_name="Cleo")
    quiet = make_user("quiet")
    quiet.notify = quiet.Notify.NEVER
    quiet.save()
    game = _table(olga, bram, cleo, quiet)
    with django_capture_on_commit_callbacks(execute=True):
        commands.cancel_table(game.pk, olga)
    deliver_due()
    (told,) = _mail_to(bram)
    assert told.subject == "Olga heeft “Friday” gesloten voordat het spel begon"
    assert "Je andere spellen" in told.body and "/unsubscribe/" in told.body
    assert len(_mail_to(cleo)) == 1
    assert _mail_to(olga) == [] and _mail_to(quiet) == []
    pushed = message(Notification.objects.get(user=cleo, kind="closed", channel="email"))
    assert pushed["title"] == "Olga closed “Friday” before it started"
    deliver_due()  # told once
    assert len(_mail_to(bram)) == 1


def test_the_friends_seated_hear_a_table_nobody_started_closed(
        django_capture_on_commit_callbacks, eager_tasks):
    olga = make_user("olga", display_name="Olga")
    bram = make_user("bram", display_name="Bram")
    _table(olga, bram)
    later = timezone.now() + timedelta(days=OPEN_TABLE_DAYS, minutes=1)
    with time_machine.travel(later, tick=False):
        with django_capture_on_commit_callbacks(execute=True):
            assert commands.expire_open_tables() == 1
        deliver_due()
    closed = [m for m in _mail_to(bram) if "closed" in m.subject]
    assert [m.subject for m in closed] == ["“Friday” closed: nobody started it in time"]
    assert "Nobody started the table within 14 days." in closed[0].body
    assert not [m for m in _mail_to(olga) if "closed" in m.subject]


def test_the_friends_seated_hear_the_host_deleted_their_account(
        django_capture_on_commit_callbacks, eager_tasks):
    olga = make_user("olga", display_name="Olga")
    bram = make_user("bram", display_name="Bram")
    _table(olga, bram)
    with django_capture_on_commit_callbacks(execute=True):
        commands.delete_account(olga.pk)
    deliver_due()
    (told,) = _mail_to(bram)
    assert told.subject == "“Friday” closed before it started"
    assert "The host deleted their account." in told.body


def test_my_games_lists_a_table_closed_before_its_start_as_such(client):
    """Not "Ended early", as a game stopped in play is: no game was played there."""
    olga = make_user("olga", display_name="Olga")
    bram = make_user("bram", display_name="Bram")
    game = _table(olga, bram)
    commands.cancel_table(game.pk, olga)
    client.force_login(bram)
    page = client.get("/").content.decode()
    entry = page.split("Friday", 1)[1].split("</li>", 1)[0]
    assert "Closed before it started" in entry and "Ended early" not in entry
    # Under a heading of its own, not among the finished games.
    heading = page[:page.index("Friday")].rsplit("<h2>", 1)[1]
    assert heading.startswith("Closed before they started")
