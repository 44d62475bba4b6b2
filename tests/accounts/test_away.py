"""Away from every table: an account-wide "away until" (up to 14 days, set and cleared
in the profile) that the clocks of all the player's timed tables treat as a vacation, that
the tables see by the player's seat, and that leaves each table's own vacation alone."""

import zoneinfo
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games import commands, tasks
from games.models import Game, TurnLimit
from games.read.seat import table_context
from tests.helpers import make_user, start_table, waiting_humans

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 23, 10, 0, tzinfo=UTC)
AMSTERDAM = zoneinfo.ZoneInfo("Europe/Amsterdam")


@pytest.fixture
def friends(db):
    return [make_user(name, time_zone="Europe/Amsterdam") for name in ("ana", "ben", "cas", "dia")]


@pytest.fixture
def timed(friends):
    with time_machine.travel(NOW, tick=False):
        return start_table(friends[0], friends[1:], turn_limit=TurnLimit.DAY)


def _profile(client, user, **changes):
    data = {"display_name": user.display_name, "email": user.email, "notify": user.notify,
            "notify_by": user.notify_by,
            "language": user.language, "time_zone": user.time_zone, "away_until": ""}
    data.update(changes)
    client.force_login(user)
    return client.post("/accounts/profile/", data)


def _deadline(game, user):
    game.refresh_from_db()
    seat = game.seats.get(user=user)
    return datetime.fromisoformat(game.awaiting[str(seat.player)][2])


def test_away_holds_the_clock_of_every_timed_table_and_the_sweep_respects_it(
    client, friends, timed,
):
    away = waiting_humans(timed)[0].user
    with time_machine.travel(NOW, tick=False):
        second = start_table(friends[1], [f for f in friends if f != friends[1]],
                             turn_limit=TurnLimit.HALF_DAY, name="Second", seed=20261130)
        untimed = start_table(friends[2], [f for f in friends if f != friends[2]],
                              name="Untimed")
        assert _profile(client, away, away_until="2026-11-26").status_code == 302
    away.refresh_from_db()
    # To the end of that day in the player's zone.
    assert away.away_until == datetime(2026, 11, 27, tzinfo=AMSTERDAM)
    assert _deadline(timed, away) == away.away_until + timedelta(days=1)
    waiting_at_second = {s.user for s in waiting_humans(second)}
    if away in waiting_at_second:
        assert _deadline(second, away) == away.away_until + timedelta(seconds=second.turn_limit)
    untimed.refresh_from_db()
    assert all(len(w) < 3 or w[2] is None for w in untimed.awaiting.values())

    # Past the table's own limit, the sweep times out the others, never the away player.
    with time_machine.travel(NOW + timedelta(days=2), tick=False):
        tasks.sweep()
    assert away in {s.user for s in waiting_humans(timed)}
    seat = timed.seats.get(user=away)
    assert seat.timeouts_in_row == 0
    # Once back and a day more, it is their turn that times out.
    with time_machine.travel(away.away_until + timedelta(days=1, minutes=1), tick=False):
        tasks.sweep()
    seat.refresh_from_db()
    assert seat.timeouts_in_row == 1


def test_a_turn_that_begins_while_away_waits_until_the_player_is_back(client, friends):
    player = friends[3]
    with time_machine.travel(NOW, tick=False):
        _profile(client, player, away_until="2026-11-25")
        player.refresh_from_db()
        game = start_table(friends[0], friends[1:], turn_limit=TurnLimit.DAY)
    for seat in waiting_humans(game):
        expected = NOW + timedelta(days=1)
        if seat.user == player:
            expected = player.away_until + timedelta(days=1)
        assert _deadline(game, seat.user) == expected


def test_coming_back_early_restarts_the_clocks_now_not_in_the_past(client, timed):
    away = waiting_humans(timed)[0].user
    with time_machine.travel(NOW, tick=False):
        _profile(client, away, away_until="2026-11-30")
    back = NOW + timedelta(days=3)  # the table's day is long over by then
    with time_machine.travel(back, tick=False):
        client.force_login(away)
        answer = client.post("/accounts/profile/", {"back": "1"}, follow=True)
        assert "Welcome back: your clocks run again." in answer.content.decode()
        assert _deadline(timed, away) == back + timedelta(days=1)
        tasks.sweep()
        assert away in {s.user for s in waiting_humans(timed)}
        away.refresh_from_db()
        assert not away.is_away()
        # Nothing of the absence stays on the account: it was cut short.
        assert away.away_until is None
        page = client.get("/accounts/profile/").content.decode()
        assert "You are away until" not in page


def test_emptying_the_date_in_the_profile_also_ends_the_absence(client, timed):
    away = waiting_humans(timed)[0].user
    with time_machine.travel(NOW, tick=False):
        _profile(client, away, away_until="2026-11-30")
    back = NOW + timedelta(days=2)
    with time_machine.travel(back, tick=False):
        away.refresh_from_db()
        _profile(client, away, away_until="")
        assert _deadline(timed, away) == back + timedelta(days=1)
    away.refresh_from_db()
    assert away.away_until is None


def test_the_absence_ends_with_the_last_day_in_the_players_new_zone(client, timed):
    away = waiting_humans(timed)[0].user
    with time_machine.travel(NOW, tick=False):
        _profile(client, away, away_until="2026-11-26")
        away.refresh_from_db()
        _profile(client, away, away_until="2026-11-26", time_zone="America/New_York")
    away.refresh_from_db()
    assert away.away_until == datetime(2026, 11, 27, tzinfo=zoneinfo.ZoneInfo("America/New_York"))
    assert _deadline(timed, away) == away.away_until + timedelta(days=1)


def test_each_tables_own_vacation_is_kept(client, timed):
    seat = waiting_humans(timed)[0]
    with time_machine.travel(NOW, tick=False):
        commands.start_vacation(timed.pk, seat.user, 5)
        seat.refresh_from_db()
        vacation = seat.vacation_until
        # Away for less long than the vacation: the vacation still holds the clock.
        _profile(client, seat.user, away_until="2026-11-24")
        assert _deadline(timed, seat.user) == vacation + timedelta(days=1)
        # Back early from being away: the vacation at this table goes on.
        client.post("/accounts/profile/", {"back": "1"})
    seat.refresh_from_db()
    assert seat.vacation_until == vacation
    assert _deadline(timed, seat.user) == vacation + timedelta(days=1)


def test_the_limits_are_today_to_fourteen_days_ahead(client, timed):
    user = waiting_humans(timed)[0].user
    with time_machine.travel(NOW, tick=False):
        too_far = _profile(client, user, away_until="2026-12-07").content.decode()
        assert "You can be away for at most 14 days." in too_far
        past = _profile(client, user, away_until="2026-11-22").content.decode()
        assert "Choose today or a later day." in past
        assert _profile(client, user, away_until="2026-12-06").status_code == 302
        page = client.get("/accounts/profile/").content.decode()
        assert 'min="2026-11-23"' in page and 'max="2026-12-06"' in page
    user.refresh_from_db()
    assert user.away_until == datetime(2026, 12, 7, tzinfo=AMSTERDAM)


def test_the_tables_see_who_is_away_and_the_player_sees_it_too(client, timed):
    away = waiting_humans(timed)[0].user
    with time_machine.travel(NOW, tick=False):
        _profile(client, away, away_until="2026-11-26")
        away.refresh_from_db()
        other = timed.seats.exclude(user=away).select_related("user").first()
        seats = list(timed.seats.select_related("user"))
        rows = {row.name: row for row in table_context(Game.objects.get(pk=timed.pk),
                                                      other, seats)["players"]}
        assert rows[away.name].away_until == away.away_until
        assert rows[away.name].on_vacation and rows[away.name].pause == "away"
        assert all(row.away_until is None for name, row in rows.items() if name != away.name)
        client.force_login(other.user)
        page = client.get(f"/t/{timed.pk}/").content.decode()
        # Away from every table, not on vacation at this one: the seat says which.
        seat = next(chunk for chunk in page.split('<li class="seat')[1:] if away.name in chunk)
        assert '<span class="tag">away</span>' in seat and "on vacation" not in page
        client.force_login(away)
        page = client.get(f"/t/{timed.pk}/").content.decode()
        assert ("You are away until the end of Nov. 26, 2026: your clock waits at every "
                "timed table.") in page
        profile = client.get("/accounts/profile/").content.decode()
        assert "You are away until the end of Nov. 26, 2026:" in profile
        assert "I&#x27;m back: start my clocks" in profile or "I'm back: start my clocks" in profile


def test_the_profile_says_what_time_it_is_in_the_chosen_zone(client, friends):
    with time_machine.travel(NOW, tick=False):
        client.force_login(friends[0])
        page = client.get("/accounts/profile/").content.decode()
        # The zone named as every moment on the site names it.
        assert "(there it is now 11:00 CET)" in page
        friends[0].time_zone = "Asia/Tokyo"
        friends[0].language = "de"
        friends[0].save()
        page = client.get("/accounts/profile/").content.decode()
        assert "(dort ist es jetzt 19:00 JST)" in page
        assert '<option value="Asia/Tokyo" selected>Tokio (UTC+9)</option>' in page
        # A zone the tz database names by its offset alone ("-03") is named by it.
        friends[0].time_zone = "America/Sao_Paulo"
        friends[0].save()
        page = client.get("/accounts/profile/").content.decode()
        assert "(dort ist es jetzt 07:00 UTC−3)" in page


@pytest.mark.parametrize("language", ["en", "nl", "de", "fr"])
def test_the_day_set_comes_back_as_the_date_field_reads_it_in_every_language(
    client, timed, language
):
    # A browser's date field reads only 2026-11-30: a date shown as 30.11.2026 would leave
    # it empty, and the next save of the profile (for anything else) would end the absence.
    user = waiting_humans(timed)[0].user
    user.language = language
    user.save(update_fields=["language"])
    with time_machine.travel(NOW, tick=False):
        assert _profile(client, user, away_until="2026-11-30").status_code == 302
        page = client.get("/accounts/profile/").content.decode()
    assert 'name="away_until" value="2026-11-30"' in page


def test_my_games_says_the_player_is_away_and_takes_them_back_there(client, timed):
    away = waiting_humans(timed)[0].user
    with time_machine.travel(NOW, tick=False):
        _profile(client, away, away_until="2026-11-26")
        home = client.get("/").content.decode()
        assert "You are away until the end of Nov. 26, 2026" in home
        assert 'name="next" value="/"' in home
        back = client.post("/accounts/profile/", {"back": "1", "next": "/"})
        assert back.status_code == 302 and back.url == "/"
        away.refresh_from_db()
        assert not away.is_away()
        home = client.get("/").content.decode()
        assert "Welcome back: your clocks run again." in home
        assert "You are away until" not in home
        # A next address off the site leads to the profile instead.
        _profile(client, away, away_until="2026-11-26")
        back = client.post("/accounts/profile/", {"back": "1", "next": "https://evil.example/"})
        assert back.url == "/accounts/profile/"
