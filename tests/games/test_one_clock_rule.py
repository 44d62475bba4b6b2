"""One rule for the turn clock: it runs from the moment the wait began and stands still
only for the time a vacation or an absence actually lasted. Starting and ending a pause,
again and again, must never restart the wait."""

import zoneinfo
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games import commands
from games.core.clock import run_clock
from games.models import Action, TurnLimit
from tests.helpers import make_user, start_table, waiting_humans

pytestmark = pytest.mark.django_db

START = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)
AMSTERDAM = zoneinfo.ZoneInfo("Europe/Amsterdam")


@pytest.fixture
def table(db):
    players = [make_user(name, time_zone="Europe/Amsterdam") for name in ("ana", "ben", "cas")]
    with time_machine.travel(START, tick=False):
        game = start_table(players[0], players[1:], bots=1, turn_limit=TurnLimit.HOUR)
    game.seats.update(auto_pass=False)
    return game


def _waiting(game):
    seat = waiting_humans(game)[0]
    return seat, datetime.fromisoformat(game.awaiting[str(seat.player)][1])


def _deadline(game, seat):
    game.refresh_from_db()
    return datetime.fromisoformat(game.awaiting[str(seat.player)][2])


def _timed_out(game, seat) -> bool:
    return Action.objects.filter(game=game, by="timeout", player=seat.player).exists()


def _profile(client, user, away_until):
    client.force_login(user)
    return client.post("/accounts/profile/", {
        "display_name": user.display_name, "email": user.email, "notify": user.notify,
        "notify_by": user.notify_by, "language": user.language,
        "time_zone": user.time_zone, "away_until": away_until,
    })


def test_vacation_started_and_ended_at_once_again_and_again_does_not_restart_the_wait(
    client, table,
):
    seat, began = _waiting(table)
    client.force_login(seat.user)
    used = timedelta(0)
    for cycle in range(5):
        moment = began + timedelta(minutes=11 * (cycle + 1))
        with time_machine.travel(moment, tick=False):
            assert client.post(f"/t/{table.pk}/vacation/", {"days": 1}).status_code == 302
        with time_machine.travel(moment + timedelta(seconds=3), tick=False):
            assert client.post(f"/t/{table.pk}/vacation/", {"end": 1}).status_code == 302
        used += timedelta(seconds=3)
        # Only the seconds the vacation lasted are added.
        assert _deadline(table, seat) == began + HOUR + used
    seat.refresh_from_db()
    assert seat.vacation_used == used
    with time_machine.travel(began + HOUR + used - timedelta(seconds=1), tick=False):
        assert commands.enforce_deadlines(table.pk) == 0
    with time_machine.travel(began + HOUR + used, tick=False):
        assert commands.enforce_deadlines(table.pk) >= 1
    assert _timed_out(table, seat)


def test_away_until_tomorrow_and_back_again_and_again_does_not_restart_the_wait(
    client, table,
):
    seat, began = _waiting(table)
    taken = timedelta(0)
    for cycle in range(5):
        moment = began + timedelta(minutes=11 * (cycle + 1))
        tomorrow = (moment.astimezone(AMSTERDAM) + timedelta(days=1)).date().isoformat()
        with time_machine.travel(moment, tick=False):
            assert _profile(client, seat.user, tomorrow).status_code == 302
        # Away: the clock waits for the whole absence.
        assert _deadline(table, seat) > moment + timedelta(hours=12)
        with time_machine.travel(moment + timedelta(minutes=1), tick=False):
            assert _profile(client, seat.user, "").status_code == 302
        taken += timedelta(minutes=1)
        assert _deadline(table, seat) == began + HOUR + taken
    with time_machine.travel(began + HOUR + taken - timedelta(seconds=1), tick=False):
        assert commands.enforce_deadlines(table.pk) == 0
    with time_machine.travel(began + HOUR + taken, tick=False):
        assert commands.enforce_deadlines(table.pk) >= 1
    assert _timed_out(table, seat)


def test_coming_back_with_the_profiles_button_gives_back_only_the_time_taken(client, table):
    seat, began = _waiting(table)
    tomorrow = (began.astimezone(AMSTERDAM) + timedelta(days=1)).date().isoformat()
    with time_machine.travel(began + timedelta(minutes=50), tick=False):
        _profile(client, seat.user, tomorrow)
    with time_machine.travel(began + timedelta(minutes=52), tick=False):
        client.post("/accounts/profile/", {"back": 1})
    assert _deadline(table, seat) == began + HOUR + timedelta(minutes=2)


def test_vacation_and_absence_that_overlap_count_once(client, table):
    seat, began = _waiting(table)
    tomorrow = (began.astimezone(AMSTERDAM) + timedelta(days=1)).date().isoformat()
    with time_machine.travel(began + timedelta(minutes=10), tick=False):
        commands.start_vacation(table.pk, seat.user, 1)
    with time_machine.travel(began + timedelta(minutes=15), tick=False):
        _profile(client, seat.user, tomorrow)
    with time_machine.travel(began + timedelta(minutes=20), tick=False):
        commands.end_vacation(table.pk, seat.user)
    with time_machine.travel(began + timedelta(minutes=30), tick=False):
        _profile(client, seat.user, "")
    # Paused from minute 10 to minute 30: twenty minutes, not thirty.
    assert _deadline(table, seat) == began + HOUR + timedelta(minutes=20)


def test_a_turn_that_began_during_a_vacation_gets_its_whole_time_from_the_return(table):
    seat, began = _waiting(table)
    others = [s for s in waiting_humans(table) if s.pk != seat.pk]
    with time_machine.travel(began + timedelta(minutes=5), tick=False):
        commands.start_vacation(table.pk, seat.user, 2)
    with time_machine.travel(began + timedelta(hours=30), tick=False):
        commands.end_vacation(table.pk, seat.user)
    assert _deadline(table, seat) == began + HOUR + timedelta(hours=30) - timedelta(minutes=5)
    assert not others or all(_deadline(table, o) == began + HOUR for o in others)


def test_a_pause_begun_after_the_time_ran_out_adds_nothing(table):
    seat, began = _waiting(table)
    # Nobody looked at the table in time; the vacation comes too late.
    with time_machine.travel(began + timedelta(minutes=70), tick=False):
        commands.start_vacation(table.pk, seat.user, 1)
        assert commands.enforce_deadlines(table.pk) >= 1
    assert _timed_out(table, seat)


def test_run_clock_stands_still_only_inside_the_pauses():
    t0 = START
    assert run_clock(t0, HOUR, []) == t0 + HOUR
    # A pause that ended before the wait began adds nothing; one under way at the start
    # holds the clock until it ends.
    assert run_clock(t0, HOUR, [(t0 - HOUR * 3, t0 - HOUR)]) == t0 + HOUR
    assert run_clock(t0, HOUR, [(t0 - HOUR, t0 + HOUR)]) == t0 + 2 * HOUR
    # Overlapping pauses count once, separate ones add up.
    minute = timedelta(minutes=1)
    assert run_clock(t0, HOUR, [(t0 + 10 * minute, t0 + 20 * minute),
                                (t0 + 15 * minute, t0 + 25 * minute),
                                (t0 + 40 * minute, t0 + 45 * minute)]) == t0 + HOUR + 20 * minute
    # A pause from the very moment the time runs out comes too late.
    assert run_clock(t0, HOUR, [(t0 + HOUR, t0 + 2 * HOUR)]) == t0 + HOUR


def test_the_sweep_forgets_only_pauses_no_running_wait_can_need(table):
    seat, began = _waiting(table)
    with time_machine.travel(began + timedelta(minutes=5), tick=False):
        commands.start_vacation(table.pk, seat.user, 1)
    with time_machine.travel(began + timedelta(minutes=6), tick=False):
        commands.end_vacation(table.pk, seat.user)
        assert commands.forget_old_pauses() == 0
    table.refresh_from_db()
    table.status = table.Status.FINISHED
    table.save(update_fields=["status"])
    with time_machine.travel(began + timedelta(minutes=7), tick=False):
        assert commands.forget_old_pauses() == 1


def test_taking_the_seat_back_from_the_stand_in_gives_the_wait_a_deadline_again(table):
    seat, began = _waiting(table)
    # The stand-in took the seat while the table waited for it: that wait had no clock.
    seat.stand_in = True
    seat.save(update_fields=["stand_in"])
    table.refresh_from_db()
    table.awaiting[str(seat.player)][2] = None
    table.save(update_fields=["awaiting"])
    back = began + timedelta(minutes=30)
    with time_machine.travel(back, tick=False):
        commands.take_seat_back(table.pk, seat.user)
    assert _deadline(table, seat) == back + HOUR
    with time_machine.travel(back + HOUR, tick=False):
        assert commands.enforce_deadlines(table.pk) >= 1
    assert _timed_out(table, seat)


def test_as_reported_five_vacations_ended_at_once_55_minutes_apart(client, table):
    seat, began = _waiting(table)
    client.force_login(seat.user)
    timed_out_at = None
    for cycle in range(1, 6):
        moment = began + timedelta(minutes=55 * cycle)
        with time_machine.travel(moment, tick=False):
            client.get(f"/t/{table.pk}/")  # any page load enforces what is due
            if timed_out_at is None and _timed_out(table, seat):
                timed_out_at = moment
            client.post(f"/t/{table.pk}/vacation/", {"days": 1})
        with time_machine.travel(moment + timedelta(seconds=1), tick=False):
            client.post(f"/t/{table.pk}/vacation/", {"end": 1})
    # The hour ran out (plus the one second of vacation) before the second cycle.
    assert timed_out_at == began + timedelta(minutes=110)
    timeout = Action.objects.filter(game=table, by="timeout", player=seat.player).first()
    assert timeout.created <= began + timedelta(minutes=110)
