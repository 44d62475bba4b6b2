"""A decision on a revolution taken in private (by the holder of both jesters, in a round
with taxes) leaves everything anybody else can read exactly as it was: the pages, the
poll and the log, the seats' clocks and banks, the nudges, the votes on a stand-in, the
players' record of keeping turns and the organisers' admin. Two worlds that differ only in
who holds the jesters, or a table read just before and just after the private step, must
read the same.

The pages and the engine's views are compared elsewhere (test_jester_secrecy,
test_privacy); these are the things kept beside the engine's state, per seat and per
player, that a private step could move."""

import dataclasses
import difflib
import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.contrib.auth.models import Group
from django.urls import reverse

from games import commands, engine
from games.commands.base import Rejected, save_state
from games.models import Notification
from leagues.models import League, LeagueGame
from players.reliability import reliability
from tests.engine.helpers import give_both_jesters
from tests.helpers import make_user, start_table

pytestmark = pytest.mark.django_db

# The form tokens, and the table talk's token for the next message: random, drawn afresh
# for every page whatever the cards.
CSRF = re.compile(r'(csrfmiddlewaretoken" value="|X-CSRFToken": "|name="token" value=")[^"]+')
FROZEN = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
GREAT_DALMUTI, LESSER_DALMUTI, LESSER_PEON, GREATER_PEON = 0, 1, 2, 3  # four players


def _table(name: str, holder: int, **clock):
    """Four people in round 2 (taxes to make), the seat at position `holder` dealt both
    jesters; the game and its people by position."""
    users = [make_user(f"{name}{i}") for i in range(4)]
    with time_machine.travel(FROZEN, tick=False):
        game = start_table(users[0], users[1:], options={"rounds": 3}, **clock)
        game.seats.update(first_game=False, auto_pass=False)
        state = game.engine_state()
        hands = give_both_jesters(engine.deal(4, state.options, 7), holder)
        rnd = engine.Round.start(hands, state.options, first_round=False, seed=1)
        game.awaiting = {}
        save_state(game, dataclasses.replace(state, round=rnd, round_number=2))
        game.refresh_from_db()
    by_player = {s.player: s.user for s in game.seats.select_related("user")}
    return game, [by_player[state.seats[p]] for p in range(4)]


def _sent_to(client, user, game) -> list[str]:
    """What the player's page, poll and log say now."""
    client.force_login(user)
    pk = game.pk
    pages = [client.get(f"/t/{pk}/"), client.get(f"/t/{pk}/poll/?v=-1&me="),
             client.get(f"/t/{pk}/log/")]
    assert [p.status_code for p in pages] == [200, 200, 200]
    return [CSRF.sub(r"\1*", p.content.decode()) for p in pages]


def _same(before: list[str], after: list[str]) -> None:
    """Equal, or the lines that differ."""
    diff = [line for b, a in zip(before, after, strict=True)
            for line in difflib.unified_diff(b.splitlines(), a.splitlines(), lineterm="", n=0)
            if line[:1] in "+-" and line[:3] not in ("---", "+++")]
    assert not diff, "\n".join(diff)


def _decline(game, user) -> None:
    seat = game.seats.get(user=user)
    commands.act(game.pk, user, engine.Revolution(False), game.wait_for(seat.player).token)
    game.refresh_from_db()


def test_a_nudge_made_stays_made_after_the_nudged_dalmuti_declines_in_private(client):
    # The Great Dalmuti holds both jesters; everybody sees them choosing what to give back.
    game, users = _table("nd", GREAT_DALMUTI)
    dalmuti, other = users[GREAT_DALMUTI], users[LESSER_PEON]
    player = game.seats.get(user=dalmuti).player
    with time_machine.travel(FROZEN + timedelta(hours=2), tick=False):
        commands.nudge(game.pk, other, player)
        before = _sent_to(client, other, game)
        _decline(game, dalmuti)
        _same(before, _sent_to(client, other, game))
        with pytest.raises(Rejected, match="already nudged"):
            commands.nudge(game.pk, other, player)
    assert Notification.objects.filter(kind=Notification.Kind.NUDGE).count() == 1


def test_the_dalmutis_reminder_still_goes_out_after_a_private_decline():
    game, users = _table("rm", GREAT_DALMUTI, turn_limit=3600)
    dalmuti = users[GREAT_DALMUTI]
    # The reminder of the round's turn (the round dealt last).
    reminder = Notification.objects.filter(user=dalmuti,
                                           kind=Notification.Kind.REMINDER).latest("pk")
    with time_machine.travel(FROZEN + timedelta(minutes=5), tick=False):
        _decline(game, dalmuti)
    with time_machine.travel(reminder.due + timedelta(seconds=1), tick=False):
        # Still choosing what to give back: the turn the reminder is for goes on.
        assert commands.notifications.still_wanted(reminder)[0] == "send"


def test_a_vote_on_a_stand_in_stays_open_after_a_private_decline(client):
    # The Greater Peon holds both jesters and had missed their last two turns.
    game, users = _table("vt", GREATER_PEON)
    holder, other = users[GREATER_PEON], users[LESSER_PEON]
    game.seats.filter(user=holder).update(timeouts_in_row=2)
    with time_machine.travel(FROZEN + timedelta(minutes=5), tick=False):
        before = _sent_to(client, other, game)
        assert "missed their last turns" in before[0]
        _decline(game, holder)
        _same(before, _sent_to(client, other, game))


def test_a_private_decline_leaves_the_time_bank_shown_alone(client):
    # Settled, the bank would grow by the time saved (ten minutes a turn, three taken).
    game, users = _table("bk", GREATER_PEON, turn_limit=600, bank=300)
    holder, other = users[GREATER_PEON], users[LESSER_PEON]
    with time_machine.travel(FROZEN + timedelta(minutes=3), tick=False):
        before = _sent_to(client, other, game)
        _decline(game, holder)
        _same(before, _sent_to(client, other, game))


def test_a_private_decision_has_the_time_per_turn_without_the_bank():
    # Its deadline could not show, but a bank drawn on would (above): the time it may take
    # is the table's time per turn, where the Dalmutis' public turns have their banks too.
    game, users = _table("dl", GREATER_PEON, turn_limit=60, bank=300)
    waits = game.waits()
    holder = game.seats.get(user=users[GREATER_PEON]).player
    dalmuti = game.seats.get(user=users[GREAT_DALMUTI]).player
    assert waits[holder].deadline == FROZEN + timedelta(seconds=60)
    assert waits[dalmuti].deadline == FROZEN + timedelta(seconds=360)


@pytest.mark.parametrize("holder", [LESSER_PEON, GREATER_PEON])
def test_a_revolution_left_to_time_out_counts_no_missed_turn(client, holder):
    # Both Peons missed one turn before; every decision of the round times out.
    game, users = _table(f"to{holder}", holder, turn_limit=60)
    game.seats.filter(user__in=users[2:]).update(timeouts_in_row=1)
    with time_machine.travel(FROZEN + timedelta(minutes=10), tick=False):
        commands.enforce_deadlines(game.pk)
        game.refresh_from_db()
        page = _sent_to(client, users[GREAT_DALMUTI], game)[0]
    # Only the Dalmutis had turns the table saw: nobody has missed two in a row.
    assert "missed their last turns" not in page
    assert sorted(game.seats.values_list("timeouts_in_row", flat=True)) == [1, 1, 1, 1]


def test_a_dalmuti_holding_both_jesters_misses_one_turn_when_the_clock_runs_out():
    game, users = _table("dt", GREAT_DALMUTI, turn_limit=60)
    with time_machine.travel(FROZEN + timedelta(minutes=10), tick=False):
        commands.enforce_deadlines(game.pk)
    seat = game.seats.get(user=users[GREAT_DALMUTI])
    assert seat.timeouts_in_row == 1


@pytest.mark.parametrize("holder", [GREAT_DALMUTI, LESSER_PEON])
def test_the_record_of_keeping_turns_counts_no_private_decision(holder):
    game, users = _table(f"rl{holder}", holder)
    before = reliability(users[holder])
    with time_machine.travel(FROZEN + timedelta(minutes=5), tick=False):
        _decline(game, users[holder])
    assert reliability(users[holder]) == before


def _admin():
    from django.contrib import admin

    from games.models import Game
    return admin.site._registry[Game]


def _organiser_of(game, username: str):
    """A league organiser whose league holds the game."""
    organiser = make_user(username, is_staff=True)
    organiser.groups.add(Group.objects.get(name="league organiser"))
    league = League.objects.create(name="Club", slug="club")
    LeagueGame.objects.create(game=game, league=league)
    league.organisers.add(organiser)
    return organiser


@pytest.mark.parametrize("holder", [LESSER_DALMUTI, LESSER_PEON, GREATER_PEON])
def test_the_admin_names_only_the_dalmutis_as_awaited_in_the_taxes(client, holder):
    game, users = _table(f"ad{holder}", holder)
    client.force_login(_organiser_of(game, f"olga{holder}"))
    page = client.get(reverse("admin:games_game_change", args=[game.pk]))
    assert page.status_code == 200
    dalmutis = ", ".join(game.seats.get(user=users[p]).name
                         for p in sorted((GREAT_DALMUTI, LESSER_DALMUTI),
                                         key=lambda p: game.seats.get(user=users[p]).player))
    assert _admin().waiting_for(game) == dalmutis
    assert dalmutis in page.content.decode()


def test_the_admins_log_of_a_game_in_play_shows_no_gap_where_a_step_was_private():
    game, users = _table("lg", LESSER_PEON)
    with time_machine.travel(FROZEN + timedelta(minutes=5), tick=False):
        _decline(game, users[LESSER_PEON])
    for position in (GREAT_DALMUTI, LESSER_DALMUTI):
        seat = game.seats.get(user=users[position])
        give = next(a for a in game.engine_state().view(seat.player)["legal_actions"]
                    if a["type"] == "give_back")
        commands.act(game.pk, users[position], engine.action_from_json(give),
                     game.wait_for(seat.player).token)
        game.refresh_from_db()
    log = str(_admin().log_display(game))
    assert "#" not in log
    assert "(private)" not in log


@pytest.mark.parametrize("holder", [LESSER_DALMUTI, GREATER_PEON])
def test_the_organisers_admin_reads_the_same_before_and_after_a_private_decline(
        client, holder):
    """An organiser may play at the table: the seats the admin lists say when each player
    last made a move everybody saw, never when one merely did something at the table."""
    game, users = _table(f"ar{holder}", holder)
    client.force_login(_organiser_of(game, f"olgar{holder}"))
    url = reverse("admin:games_game_change", args=[game.pk])
    with time_machine.travel(FROZEN + timedelta(minutes=5), tick=False):
        before = client.get(url).content.decode()
        _decline(game, users[holder])
        after = client.get(url).content.decode()
    _same([CSRF.sub(r"\1*", before)], [CSRF.sub(r"\1*", after)])
