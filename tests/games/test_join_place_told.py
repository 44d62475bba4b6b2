"""A friend joins a game in progress where two middle places are free: the Great Dalmuti
chooses theirs (RULES.md section 8) until the round ends. The Great Dalmuti is often out
of cards early and has no turn to bring them back to the table, so they are told, by
their way and in their language, once; not if the choice is made, or no longer theirs to
make, by then."""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from games import commands
from games.models import Notification, Seat
from push.sender import message
from tests.helpers import deliver_due, make_user, play_until, start_table

pytestmark = pytest.mark.django_db

LATER = timedelta(minutes=10)


def _mail_to(user):
    return [m for m in mail.outbox if m.to == [user.email]]


def _told(user):
    return [m for m in _mail_to(user) if "Dana" in m.subject]


def _deliver_later():
    with time_machine.travel(timezone.now() + LATER, tick=False):
        return deliver_due()


def _table(players: int):
    people = [make_user(name, display_name=name.title())
              for name in ("ana", "ben", "cas", "dia", "eve")[:players]]
    game = start_table(people[0], people[1:], options={"rounds": 3})
    deliver_due()
    mail.outbox.clear()
    return game


def _great_dalmuti(game) -> Seat:
    state = game.engine_state()
    return game.seats.select_related("user").get(player=state.seats[state.round.order[0]])


@pytest.fixture
def five(db, eager_tasks):
    """Five friends in round 1 of three (six at the table next round: places 3 and 4)."""
    return _table(5)


@pytest.fixture
def dana(db):
    return make_user("dana", display_name="Dana")


def test_the_great_dalmuti_hears_that_a_newcomer_waits_for_their_choice(five, dana):
    great = _great_dalmuti(five)
    great.user.language = "de"
    great.user.save()
    commands.join_in_progress(five.pk, dana)
    _deliver_later()
    (told,) = _told(great.user)
    assert told.subject == "Wähle, wo Dana bei „Test table“ sitzt"
    assert "Dana kommt in Runde 2 an den Tisch" in told.body
    assert "wählst du den Platz: 3 oder 4." in told.body
    assert "ohne Wahl wird es Platz 4." in told.body and f"/t/{five.pk}/" in told.body
    # Only the Great Dalmuti chooses: nobody else is told.
    others = [m for m in mail.outbox if m.to != [great.user.email]]
    assert [m.subject for m in others if "Dana" in m.subject + m.body] == []
    assert {n.user for n in Notification.objects.filter(kind="join_place")} == {great.user}
    _deliver_later()  # told once
    assert len(_told(great.user)) == 1


def test_the_push_says_it_and_opens_the_table(five, dana):
    great = _great_dalmuti(five)
    commands.join_in_progress(five.pk, dana)
    pushed = message(Notification.objects.get(user=great.user, kind="join_place",
                                              channel="email"))
    assert pushed["title"] == "Choose where Dana sits at “Test table”"
    assert pushed["body"] == ("Dana joins at round 2. As Great Dalmuti you choose their "
                              "place: 3 or 4.")
    assert pushed["url"] == f"/t/{five.pk}/"


def test_with_one_middle_place_nobody_is_told(eager_tasks, dana):
    game = _table(4)
    commands.join_in_progress(game.pk, dana)
    _deliver_later()
    assert not Notification.objects.filter(kind="join_place").exists()


@pytest.mark.parametrize("meanwhile", ["chose", "round over", "newcomer gone", "at the table"])
def test_a_choice_made_or_no_longer_theirs_is_not_told(meanwhile, five, dana, client):
    great = _great_dalmuti(five)
    seat = commands.join_in_progress(five.pk, dana)
    if meanwhile == "chose":
        commands.choose_join_place(five.pk, great.user, seat.pk, upper=True)
    elif meanwhile == "round over":
        play_until(five, lambda g: g.round_number == 2)
    elif meanwhile == "newcomer gone":
        commands.leave_game(five.pk, dana)
    else:
        client.force_login(great.user)
        client.get(f"/t/{five.pk}/")
    _deliver_later()
    assert _told(great.user) == []
    told = Notification.objects.get(user=great.user, kind="join_place")
    # (A round's end seats the newcomer: no longer waiting for a place.)
    why = {"chose": "chosen", "at the table": "at the table"}.get(meanwhile, "no newcomer")
    assert (told.status, told.note) == ("skipped", why)


def test_a_great_dalmuti_who_wants_no_word_is_not_told(five, dana):
    great = _great_dalmuti(five)
    great.user.notify = great.user.Notify.NEVER
    great.user.save()
    commands.join_in_progress(five.pk, dana)
    _deliver_later()
    assert _told(great.user) == []
