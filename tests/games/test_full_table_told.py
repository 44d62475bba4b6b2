"""A table fills while its host is away: the friend who takes its last seat is the last
one the game waits for, and nothing else tells the host, who alone may start it. They
hear of it by the way they chose, in their language, once; not if they watched it happen,
filled it themselves with a bot, started it meanwhile, or a seat is free again."""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from games import commands
from games.models import Notification, Seat
from push.sender import message
from tests.helpers import deliver_due, make_user

pytestmark = pytest.mark.django_db

LATER = timedelta(minutes=10)


def _mail_to(user):
    return [m for m in mail.outbox if m.to == [user.email]]


def _seated(host, *guests, seats=5):
    """A table of `seats` with the host, a bot, and each guest but the last seated."""
    game = commands.create_table(host, "Friday", seats, {"rounds": 2})
    commands.add_bot(game.pk, "basic")
    for guest in guests[:-1]:
        commands.join(game.pk, guest)
    return game


def _deliver_later():
    with time_machine.travel(timezone.now() + LATER, tick=False):
        return deliver_due()


def test_the_host_hears_that_the_last_seat_was_taken_in_their_language(
        django_capture_on_commit_callbacks, eager_tasks):
    olga = make_user("olga", display_name="Olga", language="nl")
    bram, cleo, dora = (make_user(n, display_name=n.title()) for n in ("bram", "cleo", "dora"))
    game = _seated(olga, bram, cleo, dora)
    assert _deliver_later() == [] and _mail_to(olga) == []  # a seat is still free
    commands.join(game.pk, dora)
    _deliver_later()
    (told,) = _mail_to(olga)
    assert told.subject == "Bij “Friday” zijn alle plaatsen bezet"
    assert "Dora nam bij “Friday” de laatste plaats." in told.body
    assert f"/t/{game.pk}/" in told.body and "/unsubscribe/" in told.body
    assert "Dora" in told.alternatives[0][0]
    assert [m for m in mail.outbox if m.to != [olga.email]] == []
    _deliver_later()  # told once
    assert len(_mail_to(olga)) == 1


def test_the_push_says_it_and_opens_the_table(eager_tasks):
    olga = make_user("olga", display_name="Olga")
    bram, cleo = make_user("bram", display_name="Bram"), make_user("cleo", display_name="Cleo")
    game = _seated(olga, bram, cleo, seats=4)
    commands.join(game.pk, cleo)
    pushed = message(Notification.objects.get(user=olga, kind="seated", channel="email"))
    assert pushed["title"] == "Everyone is seated at “Friday”"
    assert pushed["body"] == "Cleo took the last seat. Start the game when you are ready."
    assert pushed["url"] == f"/t/{game.pk}/"


def test_a_daily_host_hears_it_at_once_and_a_host_who_wants_no_word_never(eager_tasks):
    for notify, told in (("daily", 1), ("never", 0)):
        olga = make_user(f"olga-{notify}", display_name="Olga")
        olga.notify = notify
        olga.save()
        bram, cleo = make_user(f"bram-{notify}"), make_user(f"cleo-{notify}")
        game = _seated(olga, bram, cleo, seats=4)
        commands.join(game.pk, cleo)
        _deliver_later()
        assert len([m for m in _mail_to(olga) if "seated" in m.subject]) == told


def test_a_host_at_the_table_when_it_filled_is_not_told(client, eager_tasks):
    olga = make_user("olga", display_name="Olga")
    bram, cleo = make_user("bram"), make_user("cleo")
    game = _seated(olga, bram, cleo, seats=4)
    commands.join(game.pk, cleo)
    client.force_login(olga)
    # The lobby's poll: the host's page is open and shows the table full.
    client.get(f"/t/{game.pk}/poll/?lobby=1&u=0", headers={"HX-Request": "true"})
    assert Seat.objects.get(game=game, user=olga).last_seen is not None
    _deliver_later()
    assert _mail_to(olga) == []
    told = Notification.objects.get(user=olga, kind="seated")
    assert (told.status, told.note) == ("skipped", "at the table")


@pytest.mark.parametrize("meanwhile", ["started", "a seat freed", "cancelled"])
def test_a_table_started_or_no_longer_full_is_not_told(meanwhile, eager_tasks):
    olga = make_user("olga", display_name="Olga")
    bram, cleo = make_user("bram"), make_user("cleo")
    game = _seated(olga, bram, cleo, seats=4)
    commands.join(game.pk, cleo)
    if meanwhile == "started":
        commands.start(game.pk, olga)
    elif meanwhile == "a seat freed":
        commands.remove_seat(game.pk, game.seats.get(user=cleo).pk, by_host=False)
    else:
        commands.cancel_table(game.pk, olga)
    _deliver_later()
    assert [m for m in _mail_to(olga) if "seated" in m.subject] == []
    told = Notification.objects.get(user=olga, kind="seated")
    assert told.status == "skipped"
    assert told.note == ("a seat freed" if meanwhile == "a seat freed" else "started or closed")


def test_the_host_filling_the_table_with_a_bot_is_not_told(eager_tasks):
    olga = make_user("olga", display_name="Olga")
    game = _seated(olga, make_user("bram"), make_user("cleo"), seats=4)
    commands.add_bot(game.pk, "basic")
    assert game.seats.count() == 4
    _deliver_later()
    assert not Notification.objects.filter(kind="seated").exists()


def test_a_seat_given_back_and_taken_again_is_told_once(eager_tasks):
    olga = make_user("olga", display_name="Olga")
    bram, cleo, dora = make_user("bram"), make_user("cleo"), make_user("dora", display_name="Dora")
    game = _seated(olga, bram, cleo, seats=4)
    commands.join(game.pk, cleo)
    commands.remove_seat(game.pk, game.seats.get(user=cleo).pk, by_host=False)
    commands.join(game.pk, dora)
    _deliver_later()
    (told,) = _mail_to(olga)
    assert "Dora took the last seat" in told.body
