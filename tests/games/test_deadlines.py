"""Turn time limits, reminders, timeouts, the bot stand-in and vacation (time travel)."""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from games import commands
from games.models import Action
from tests.helpers import (
    act_as,
    bots_play_on,
    deliver_due,
    start_on_the_clock,
    waiting_humans,
)

pytestmark = pytest.mark.django_db

HOUR = 3600


@pytest.fixture
def table(alice, bob):
    return start_on_the_clock(alice, [bob], HOUR, {"rounds": 3})


def _waiting_seat(game):
    game.refresh_from_db()
    return waiting_humans(game)[0]


def test_nothing_happens_before_the_deadline(table):
    seat = _waiting_seat(table)
    with time_machine.travel(timezone.now() + timedelta(minutes=59)):
        assert commands.enforce_deadlines(table.pk) == 0
    table.refresh_from_db()
    assert str(seat.player) in table.awaiting


def test_a_reminder_goes_out_before_the_deadline(table):
    waiting = {seat.user.email for seat in waiting_humans(table)}
    with time_machine.travel(timezone.now() + timedelta(minutes=44)):
        deliver_due()
    assert not [m for m in mail.outbox if m.subject.startswith("Reminder")]
    with time_machine.travel(timezone.now() + timedelta(minutes=46)):
        deliver_due()
    reminders = [m for m in mail.outbox if m.subject.startswith("Reminder")]
    assert waiting and sorted(m.to[0] for m in reminders) == sorted(waiting)


def test_an_expired_turn_takes_the_timeout_action(table):
    seat = _waiting_seat(table)
    before = table.seq
    with time_machine.travel(timezone.now() + timedelta(minutes=61)):
        assert commands.enforce_deadlines(table.pk) >= 1
    timeout = Action.objects.get(game=table, seq=before + 1)
    assert timeout.by == "timeout" and timeout.player == seat.player
    seat.refresh_from_db()
    assert seat.timeouts_in_row == 1 and not seat.stand_in


def test_the_page_enforces_an_expired_deadline_when_loaded(client, table):
    seat = _waiting_seat(table)
    other = table.seats.exclude(pk=seat.pk).exclude(user=None).get()
    before = table.seq
    client.force_login(other.user)
    with time_machine.travel(timezone.now() + timedelta(minutes=61)):
        client.get(f"/t/{table.pk}/")
    assert Action.objects.filter(game=table, seq__gt=before, by="timeout").exists()


def test_after_three_timeouts_in_a_row_a_bot_stands_in(client, table):
    seat = _waiting_seat(table)
    now = timezone.now()
    for _attempt in range(30):
        now += timedelta(minutes=61)
        with time_machine.travel(now):
            commands.enforce_deadlines(table.pk)
        bots_play_on(table)
        seat.refresh_from_db()
        if seat.stand_in:
            break
        # the other human acts in time, resetting nothing of this player's count
        other = waiting_humans(table)
        for waiting in other:
            if waiting.pk != seat.pk:
                from games import engine
                from tests.helpers import legal

                commands.act(table.pk, waiting.user,
                             engine.action_from_json(legal(table, waiting)[0]),
                             table.awaiting[str(waiting.player)][0])
                bots_play_on(table)
    assert seat.stand_in and seat.timeouts_in_row >= 3
    # The record tells it, once, and the player's record of reliability counts it.
    taken = Action.objects.get(game=table, kind="stand_in")
    assert (taken.player, taken.events) == (seat.player, [
        {"type": "stand_in_plays", "player": seat.player}])
    from players.reliability import reliability
    record = reliability(seat.user, now + timedelta(hours=1))
    assert record.stand_ins == 1 and record.timeouts == seat.timeouts_in_row
    # Everybody sees the stand-in; the bot now plays the seat.
    client.force_login(table.host)
    assert "a bot stands in" in client.get(f"/t/{table.pk}/").content.decode()
    bots_play_on(table)
    assert str(seat.player) not in table.awaiting
    # The player takes the seat back any time.
    client.force_login(seat.user)
    client.post(f"/t/{table.pk}/back/")
    seat.refresh_from_db()
    assert not seat.stand_in and seat.timeouts_in_row == 0


def test_acting_in_time_resets_the_count(table):
    from tests.helpers import legal

    seat = _waiting_seat(table)
    with time_machine.travel(timezone.now() + timedelta(minutes=61)):
        commands.enforce_deadlines(table.pk)
    bots_play_on(table)
    seat.refresh_from_db()
    assert seat.timeouts_in_row == 1
    for waiting in waiting_humans(table):
        if waiting.pk == seat.pk:
            act_as(table, seat, legal(table, seat)[0])
            seat.refresh_from_db()
            assert seat.timeouts_in_row == 0


def test_vacation_pauses_the_clock_and_the_table_sees_it(client, table):
    seat = _waiting_seat(table)
    client.force_login(seat.user)
    client.post(f"/t/{table.pk}/vacation/", {"days": 2})
    seat.refresh_from_db()
    assert seat.vacation_until > timezone.now() + timedelta(days=1)
    with time_machine.travel(timezone.now() + timedelta(days=1)):
        assert commands.enforce_deadlines(table.pk) == 0
    other = table.seats.exclude(pk=seat.pk).exclude(user=None).get()
    client.force_login(other.user)
    # The seat's tags carry soft hyphens where they may break.
    assert "on vacation" in client.get(f"/t/{table.pk}/").content.decode().replace("\u00ad", "")
    with time_machine.travel(timezone.now() + timedelta(days=2, minutes=61)):
        assert commands.enforce_deadlines(table.pk) >= 1


def test_vacation_is_at_most_seven_days_per_game(table):
    seat = _waiting_seat(table)
    commands.start_vacation(table.pk, seat.user, 5)
    commands.end_vacation(table.pk, seat.user)  # back at once: nothing used
    commands.start_vacation(table.pk, seat.user, 7)
    with time_machine.travel(timezone.now() + timedelta(days=8)):
        with pytest.raises(commands.Rejected):
            commands.start_vacation(table.pk, seat.user, 1)


def test_taking_back_a_seat_nobody_stands_in_for_leaves_the_clock_alone(client, table):
    seat = _waiting_seat(table)
    began = table.awaiting[str(seat.player)][1]
    client.force_login(seat.user)
    start = timezone.now()
    with time_machine.travel(start + timedelta(minutes=55)):
        answer = client.post(f"/t/{table.pk}/back/", follow=True)
    assert "No bot is standing in for you" in answer.content.decode()
    table.refresh_from_db()
    assert table.awaiting[str(seat.player)][1] == began
    # The hour is up an hour after the turn began, not after the request.
    with time_machine.travel(start + timedelta(minutes=61)):
        assert commands.enforce_deadlines(table.pk) >= 1
    timeout = Action.objects.get(game=table, by="timeout")
    assert timeout.player == seat.player


def test_an_excused_wait_keeps_the_unchanged_poll_cheap(client, table):
    seat = _waiting_seat(table)
    commands.start_vacation(table.pk, seat.user, 3)
    table.refresh_from_db()
    other = table.seats.exclude(pk=seat.pk).exclude(user=None).get()
    client.force_login(other.user)
    with time_machine.travel(timezone.now() + timedelta(days=1)):
        answer = client.get(f"/t/{table.pk}/poll/?v={table.version}")
    assert answer.status_code == 204


def _end_vacation(table, user):
    commands.end_vacation(table.pk, user)


def _come_back(table, user):
    commands.set_away(user, None)


def _pause(how, table, user):
    if how is _end_vacation:
        commands.start_vacation(table.pk, user, 1)
    else:
        commands.set_away(user, timezone.now() + timedelta(days=1))


@pytest.mark.parametrize("back", [_end_vacation, _come_back], ids=["vacation", "away"])
def test_a_pause_ended_early_brings_the_reminder_forward_with_the_deadline(table, back):
    """A pause of a day pushed the reminder (postponed at its first time, 45 minutes in,
    to a day later); cut short after 50 minutes, the deadline comes 110 minutes in and
    the reminder a quarter of the hour before it, not after it."""
    seat = _waiting_seat(table)
    start = table.wait_for(seat.player).since

    def reminded():
        return [m for m in mail.outbox
                if m.subject.startswith("Reminder") and m.to == [seat.user.email]]

    with time_machine.travel(start + timedelta(minutes=10), tick=False):
        _pause(back, table, seat.user)
    with time_machine.travel(start + timedelta(minutes=50), tick=False):
        deliver_due()
    assert not reminded()
    with time_machine.travel(start + timedelta(minutes=60), tick=False):
        back(table, seat.user)
    table.refresh_from_db()
    assert table.wait_for(seat.player).deadline == start + timedelta(minutes=110)
    with time_machine.travel(start + timedelta(minutes=94), tick=False):
        deliver_due()
    assert not reminded()
    with time_machine.travel(start + timedelta(minutes=96), tick=False):
        deliver_due()
    assert len(reminded()) == 1
    with time_machine.travel(start + timedelta(minutes=109), tick=False):
        assert commands.enforce_deadlines(table.pk) == 0


@pytest.mark.parametrize("pause", ["vacation", "away"])
def test_a_pause_and_its_early_end_are_news_to_every_open_page(table, pause):
    """The seat's badge and clock change: a new public version for the pages' polls."""
    seat = _waiting_seat(table)
    versions = [table.version]
    if pause == "vacation":
        commands.start_vacation(table.pk, seat.user, 1)
    else:
        commands.set_away(seat.user, timezone.now() + timedelta(days=1))
    table.refresh_from_db()
    versions.append(table.version)
    if pause == "vacation":
        commands.end_vacation(table.pk, seat.user)
    else:
        commands.set_away(seat.user, None)
    table.refresh_from_db()
    versions.append(table.version)
    assert versions[0] < versions[1] < versions[2]


def test_the_player_whose_time_ran_out_reads_it_on_the_page_until_they_act(client, table):
    """The count of turns that ran out in a row is the player's alone: their page says it,
    and how many more bring the stand-in, until a move of theirs starts it again."""
    from tests.helpers import legal

    seat = _waiting_seat(table)
    other = table.seats.exclude(pk=seat.pk).exclude(user=None).get()
    client.force_login(seat.user)
    told = "Your time ran out on your last turn."
    assert told not in client.get(f"/t/{table.pk}/").content.decode()
    later = timezone.now() + timedelta(minutes=61)
    with time_machine.travel(later):
        commands.enforce_deadlines(table.pk)
        bots_play_on(table)
        page = client.get(f"/t/{table.pk}/").content.decode()
        assert told in page
        assert "If your time runs out 3 times in a row, the stand-in bot plays" in page
        client.force_login(other.user)
        assert "ran out on your last" not in client.get(f"/t/{table.pk}/").content.decode()
    seat.timeouts_in_row = 2
    seat.save(update_fields=["timeouts_in_row"])
    client.force_login(seat.user)
    with time_machine.travel(later):
        page = client.get(f"/t/{table.pk}/").content.decode()
    assert "Your time ran out on your last 2 turns in a row." in page
    assert "The others may now vote the stand-in bot in for you." in page
    with time_machine.travel(later):
        for _move in range(20):
            table.refresh_from_db()
            if str(seat.player) in table.awaiting:
                break
            for waiting in waiting_humans(table):
                act_as(table, waiting, legal(table, waiting)[0])
            bots_play_on(table)
        act_as(table, seat, legal(table, seat)[0])
        assert "ran out on your last" not in client.get(f"/t/{table.pk}/").content.decode()


def test_a_seat_on_vacation_says_when_its_player_is_back(client, table):
    """The seat says how long the clock waits, in a time the page counts down: the same
    for every reader whatever their zone."""
    seat = _waiting_seat(table)
    other = table.seats.exclude(pk=seat.pk).exclude(user=None).get()
    with time_machine.travel(timezone.now(), tick=False):
        commands.start_vacation(table.pk, seat.user, 2)
        seat.refresh_from_db()
        client.force_login(other.user)
        page = client.get(f"/t/{table.pk}/").content.decode().replace("\u00ad", "")
    chunk = next(c for c in page.split('<li class="seat ')
                 if f"<bdi>{seat.user.name}</bdi>" in c)
    assert "on vacation" in chunk
    assert (f'back in <time datetime="{seat.vacation_until.isoformat()}" data-left>2\xa0d'
            in chunk)
    with time_machine.travel(seat.vacation_until + timedelta(minutes=1), tick=False):
        page = client.get(f"/t/{table.pk}/").content.decode()
    assert "back in" not in page
