"""The time bank, with a fake clock over whole games: every turn settles the player's bank
by the one rule (time beyond the limit per turn comes out, time saved goes in up to the
cap, a forced pass costs nothing), pauses stop it, timeouts empty it and bring the
stand-in, and nothing a player (or the table) can do gives a spent bank back."""

import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games import commands, engine
from games.core.clock import Rules, bank_for_show, clock_time, forced_pass, run_clock
from games.models import Game, Notification, Pause, TimeBank, TurnLimit
from tests.helpers import bots_play_on, make_user, start_table

pytestmark = pytest.mark.django_db

START = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)
PER_TURN = timedelta(seconds=TurnLimit.HALF_DAY)
RESERVE = timedelta(seconds=TimeBank.TWO_DAYS)
RULES = Rules(PER_TURN, RESERVE)
ZERO = timedelta(0)


# -- the rule itself --


def test_a_turn_eats_the_bank_only_beyond_its_time_and_refills_it_up_to_the_cap():
    assert RULES.cap == RESERVE * 1.5
    assert RULES.allowance(None) == PER_TURN + RESERVE
    assert RULES.settle(None, 3 * HOUR) == RESERVE + 9 * HOUR
    assert RULES.settle(None, PER_TURN + 5 * HOUR) == RESERVE - 5 * HOUR
    assert RULES.settle(RULES.cap, ZERO) == RULES.cap
    assert RULES.settle(HOUR, PER_TURN + 2 * HOUR) == ZERO
    assert RULES.settle(HOUR, 30 * HOUR, forced=True) == HOUR
    assert RULES.remind_before(ZERO) == PER_TURN / 4
    # A per-turn clock without a bank is the old clock.
    plain = Rules(PER_TURN)
    assert not plain.banked and plain.allowance(HOUR) == PER_TURN


def test_clock_time_is_run_clock_backwards_with_pauses():
    pauses = [(START + HOUR, START + 5 * HOUR), (START + 3 * HOUR, START + 7 * HOUR),
              (START - 2 * HOUR, START - HOUR), (START + 20 * HOUR, START + 21 * HOUR)]
    for hours in (0, 0.5, 1, 2, 6, 13, 30):
        length = timedelta(hours=hours)
        assert clock_time(START, run_clock(START, length, pauses), pauses) == length
    assert clock_time(START, START + 4 * HOUR, pauses) == HOUR


# -- whole games, engine-level: the engine deals and referees, the clock's own rules
# settle every turn, the fake clock is a variable --

# How long each kind of player thinks about a turn (wall time, pauses included).
QUICK, STEADY, SLOW, RETURNED = 30 * timedelta(minutes=1), 3 * HOUR, 22 * HOUR, HOUR


class EngineTable:
    """Four people (quick; slow until the stand-in comes, then quick again; steady with
    two vacations; steady with two absences, making every pass themselves) and bots in
    the other seats, over a whole game of ten rounds. People with the standing order
    pass at once when they cannot beat the table (no wait, as at the site); bots and the
    stand-in move at once and never touch a bank."""

    def __init__(self, players: int, vote: bool):
        self.state = engine.Game.new(players, engine.Options.from_json({"rounds": 10}),
                                     seed=players * 31)
        self.people = {0: QUICK, 1: SLOW, 2: STEADY, 3: STEADY}
        self.auto_pass = {0: True, 1: True, 2: True, 3: False}
        self.vote = vote
        self.now = START
        self.banks: dict[int, timedelta | None] = dict.fromkeys(self.people)
        self.pauses: dict[int, list] = {p: [] for p in self.people}
        self.waits: dict[int, datetime] = {}
        self.stand_in: set[int] = set()
        self.timeouts = dict.fromkeys(self.people, 0)
        self.turns = dict.fromkeys(self.people, 0)
        self.bot_turns = 0
        self.stand_in_moves = dict.fromkeys(self.people, 0)
        self.seen = dict.fromkeys(("forced", "timeouts", "stand_in", "voted", "vacation",
                                   "away", "refills", "drains", "bot_finished"), 0)

    def apply(self, player, action) -> None:
        self.state = self.state.apply(player, action)
        if self.state.round.phase == "over" and not self.state.is_over:
            self.state = self.state.next_round()

    def automatic(self) -> None:
        """Bots, the stand-in and the standing order "pass when I cannot beat the
        table" act at once, until a person must decide."""
        for _step in range(10000):
            for player in self.state.awaiting_players:
                view = self.state.view(player)
                if player not in self.people or player in self.stand_in:
                    action = engine.choose_action("basic", view, self.bot_turns)
                    self.bot_turns += 1
                    if player in self.waits:  # the stand-in finishes a person's turn
                        self.settle(player, view, by_bot=True)
                    self.apply(player, action)
                    if player in self.stand_in:
                        self.stand_in_moves[player] += 1
                        if self.stand_in_moves[player] % 3 == 0:
                            self.take_seat_back(player)
                    break
                if self.auto_pass[player] and forced_pass(view) and player not in self.waits:
                    self.apply(player, engine.Pass())
                    break
            else:
                return
            if self.state.is_over:
                return
        raise AssertionError("the bots never stop")

    def settle(self, player, view, by_bot=False, timeout=False) -> None:
        since = self.waits.pop(player)
        used = clock_time(since, self.now, self.pauses[player])
        before = RESERVE if self.banks[player] is None else self.banks[player]
        forced = forced_pass(view)
        after = RULES.settle(self.banks[player], used, forced, by_bot)
        # The rule by hand.
        if forced:
            assert after == before
        elif by_bot:
            assert after == max(ZERO, min(before, before + PER_TURN - used))
        else:
            assert after == max(ZERO, min(RESERVE * 1.5, before + PER_TURN - used))
        if timeout and not forced:
            assert after == ZERO and used >= RULES.allowance(before)
        assert ZERO <= after <= RULES.cap
        self.banks[player] = after
        self.seen["forced"] += forced
        self.seen["refills"] += after > before
        self.seen["drains"] += after < before
        self.seen["bot_finished"] += by_bot

    def take_seat_back(self, player) -> None:
        self.stand_in.discard(player)
        self.timeouts[player] = 0
        self.people[player] = RETURNED

    def habits(self, player, since) -> None:
        turn = self.turns[player]
        if player == 2:
            self.people[2] = STEADY
            if turn in (2, 7):  # a day's vacation five minutes into the turn
                start = since + timedelta(minutes=5)
                self.pauses[2].append((start, start + 24 * HOUR))
                self.people[2] = 24 * HOUR + STEADY
                self.seen["vacation"] += 1
        if player == 3:
            self.people[3] = STEADY
            if turn in (4, 9):  # away, overlapping a vacation of the same length
                start = since + timedelta(minutes=10)
                self.pauses[3] += [(start, start + 10 * HOUR),
                                   (start + HOUR, start + 10 * HOUR)]
                self.people[3] = 10 * HOUR + STEADY
                self.seen["away"] += 1

    def play(self) -> None:
        for _event in range(5000):
            self.automatic()
            if self.state.is_over:
                return
            for player in self.state.awaiting_players:
                if player not in self.waits:
                    self.waits[player] = self.now
                    self.habits(player, self.now)
            events = []
            for player, since in self.waits.items():
                bank = self.banks[player]
                deadline = run_clock(since, RULES.allowance(bank), self.pauses[player])
                act_at = since + self.people[player]
                if self.vote and player == 1 and self.timeouts[1] >= 2:
                    # The others vote the stand-in in an hour into the turn.
                    events.append((since + HOUR, "vote", player))
                events.append((act_at, "act", player) if act_at < deadline
                              else (deadline, "timeout", player))
            when, kind, player = min(events)
            self.now = max(self.now, when)
            view = self.state.view(player)
            self.turns[player] += 1
            if kind == "vote":
                self.stand_in.add(player)
                self.seen["voted"] += 1
                self.seen["stand_in"] += 1
                continue  # the stand-in plays the turn at once (automatic)
            if kind == "act":
                self.settle(player, view)
                self.timeouts[player] = 0
                self.apply(player, engine.choose_action("basic", view, self.turns[player]))
            else:
                self.settle(player, view, timeout=True)
                self.seen["timeouts"] += 1
                self.timeouts[player] += 1
                if self.timeouts[player] >= 3:
                    self.stand_in.add(player)
                    self.seen["stand_in"] += 1
                self.apply(player, engine.timeout_action(view))
        raise AssertionError("the game did not end")


@pytest.mark.parametrize(("players", "vote"), [(4, False), (8, True)])
def test_whole_games_on_the_engine_settle_every_bank_by_the_rule(players, vote):
    table = EngineTable(players, vote)
    table.play()
    assert table.state.is_over and table.state.round_number == 10
    seen = table.seen
    assert seen["forced"] and seen["timeouts"] >= 2 and seen["stand_in"] >= 1
    assert seen["vacation"] == 2 and seen["away"] == 2
    assert seen["refills"] and seen["drains"]
    # Voted in, the stand-in finishes the turn the player let run; three timeouts end it.
    assert (seen["voted"] and seen["bot_finished"]) if vote else not seen["bot_finished"]


# -- a game at the site, through the commands --

class Table:
    """A timed table with a bank, played through the commands on a fake clock: four
    people with their habits (quick; slow until the stand-in comes, then quick; a
    vacation; an absence, making every pass themselves) and bots for the other seats.
    Every settlement is checked against the rule worked out here by hand."""

    def __init__(self, players: int, traveller):
        self.clock = traveller
        self.now = START
        self.people = [make_user(name) for name in ("quinn", "sloane", "vera", "avery")]
        self.game = start_table(self.people[0], self.people[1:], bots=players - 4,
                                options={"rounds": 10}, turn_limit=TurnLimit.HALF_DAY,
                                bank=TimeBank.TWO_DAYS, seed=7 + players)
        self.game.seats.filter(user=self.people[3]).update(auto_pass=False)
        self.turns = {user.pk: 0 for user in self.people}
        self.think = {user.pk: t for user, t in zip(self.people, (QUICK, SLOW, STEADY, STEADY),
                                                    strict=True)}
        self.seen = {"forced": 0, "timeouts": 0, "stand_in": 0, "vacation": 0, "away": 0,
                     "refills": 0, "drains": 0}

    # what the test knows by hand

    def bank(self, user) -> timedelta:
        self.game.refresh_from_db()
        return bank_for_show(self.game, user.pk)

    def paused(self, user, since, until) -> timedelta:
        spans = sorted(Pause.objects.filter(user=user).values_list("start", "end"))
        merged: list[list[datetime]] = []
        for start, end in spans:
            start, end = max(start, since), min(end, until)
            if end <= start:
                continue
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        return sum((end - start for start, end in merged), ZERO)

    def expect(self, before, used, forced):
        if forced:
            return before
        return max(ZERO, min(RULES.cap, before + PER_TURN - used))

    # the moves

    def play(self, done) -> None:
        for _step in range(200):
            self.game = bots_play_on(self.game)
            if not self.game.is_playing or done(self.seen):
                return
            self.next_human_event()
        raise AssertionError("the table never got there")

    def next_human_event(self) -> None:
        game = self.game
        seats = {s.player: s for s in game.seats.select_related("user")}
        events = []
        for player, wait in game.waits().items():
            seat = seats[player]
            if seat.played_by_bot:
                continue
            events.append((wait.deadline, "timeout", seat, wait))
            act_at = wait.since + self.think[seat.user_id]
            if act_at < wait.deadline:
                events.append((act_at, "act", seat, wait))
        assert events, "the table waits for nobody"
        when, kind, seat, wait = min(events, key=lambda e: (e[0], e[1]))
        self.habits(seat, wait)
        game.refresh_from_db()
        wait = game.wait_for(seat.player)
        # The habits may have moved the clock on; it never goes back (a deadline passed
        # meanwhile is enforced late, as by a sweep that comes late).
        act_at = wait.since + self.think[seat.user_id]
        when, kind = (act_at, "act") if act_at < wait.deadline else (wait.deadline, "timeout")
        when = max(when, self.now)
        view = game.engine_state().view(seat.player)
        forced = forced_pass(view)
        before = self.bank(seat.user)
        self.clock.move_to(when)
        self.now = when
        if kind == "act":
            action = engine.choose_action("basic", view, self.turns[seat.user_id])
            commands.act(game.pk, seat.user, action, wait.token)
        else:
            assert commands.enforce_deadlines(game.pk) >= 1
            self.seen["timeouts"] += 1
        self.turns[seat.user_id] += 1
        used = clock_time(wait.since, when, []) - self.paused(seat.user, wait.since, when)
        after = self.bank(seat.user)
        assert after == self.expect(before, used, forced), (kind, before, used, forced)
        assert ZERO <= after <= RULES.cap
        self.seen["forced"] += forced
        self.seen["refills"] += after > before
        self.seen["drains"] += after < before
        if kind == "timeout" and not forced:
            assert after == ZERO
        seat.refresh_from_db()
        if seat.stand_in:
            self.stand_in_came(seat)

    def habits(self, seat, wait) -> None:
        """What each person does during a turn of theirs, and the tries at getting a bank
        back that must change nothing."""
        user, turn = seat.user, self.turns[seat.user_id]
        if user == self.people[0] and turn == 3:
            self.unchanged(seat, lambda: commands.set_standing_orders(
                self.game.pk, user, seat.auto_pass, seat.auto_tax_worst, seat.auto_revolution,
                None))
            self.unchanged(seat, lambda: commands.set_profile_standing_orders(
                user, seat.auto_pass, seat.auto_tax_worst, seat.auto_revolution))
        if user == self.people[2] and turn in (2, 7):
            # Away for a day a few minutes into the turn, then back: the bank and the
            # deadline move only by the time the vacation lasted.
            self.move_to(wait.since + timedelta(minutes=5))
            self.unchanged(seat, lambda: commands.start_vacation(self.game.pk, user, 2))
            self.move_to(wait.since + timedelta(minutes=5) + 24 * HOUR)
            self.unchanged(seat, lambda: commands.end_vacation(self.game.pk, user))
            self.unchanged(seat, lambda: commands.start_vacation(self.game.pk, user, 1))
            self.unchanged(seat, lambda: commands.end_vacation(self.game.pk, user))
            self.seen["vacation"] += 1
            self.think[seat.user_id] = 24 * HOUR + STEADY
        elif user == self.people[2]:
            self.think[seat.user_id] = STEADY
        if user == self.people[3] and turn in (4, 9):
            self.move_to(wait.since + timedelta(minutes=10))
            self.unchanged(seat, lambda: commands.set_away(user, wait.since + 3 * 24 * HOUR))
            self.move_to(wait.since + timedelta(minutes=10) + 10 * HOUR)
            self.unchanged(seat, lambda: commands.set_away(user, None))
            self.unchanged(seat, lambda: commands.set_away(user, wait.since + 48 * HOUR))
            self.unchanged(seat, lambda: commands.set_away(user, None))
            self.seen["away"] += 1
            self.think[seat.user_id] = 10 * HOUR + STEADY
        elif user == self.people[3]:
            self.think[seat.user_id] = STEADY

    def move_to(self, when) -> None:
        self.now = max(self.now, when)
        self.clock.move_to(self.now)

    def unchanged(self, seat, change) -> None:
        user = type(seat.user).objects.get(pk=seat.user_id)
        before = self.bank(user)
        change()
        assert self.bank(user) == before
        # The running turn keeps its start: a pause moves its deadline by what the
        # pause lasts, never gives it a new beginning.
        self.game.refresh_from_db()
        wait = self.game.wait_for(seat.player)
        assert wait.deadline == run_clock(
            wait.since, RULES.allowance(before),
            Pause.objects.filter(user=user).values_list("start", "end"))

    def stand_in_came(self, seat) -> None:
        """The slow player timed out three times in a row: the stand-in plays a few
        turns, then they take their seat back, to the bank they had (empty)."""
        self.seen["stand_in"] += 1
        before = self.bank(seat.user)
        assert before == ZERO
        for _move in range(6):
            if not commands.play_bot_move(self.game.pk):
                break
        assert self.bank(seat.user) == before
        commands.take_seat_back(self.game.pk, seat.user)
        assert self.bank(seat.user) == before
        self.think[seat.user_id] = RETURNED


def test_a_game_at_the_site_settles_every_bank_by_the_rule_and_nothing_resets_one():
    """Through the commands, as long as it takes for a vacation, an absence, forced
    passes, a drained bank, three timeouts, the stand-in and a return (the whole games
    are played on the engine above: at the site they would take minutes)."""
    with time_machine.travel(START, tick=False) as traveller:
        table = Table(4, traveller)
        table.play(lambda seen: seen["stand_in"] and seen["away"])
    seen = table.seen
    assert seen["forced"] and seen["timeouts"] >= 3 and seen["stand_in"] == 1
    assert seen["vacation"] >= 1 and seen["away"] >= 1 and seen["drains"]


# -- what must not give a bank back --

LOW = 3 * HOUR


@pytest.fixture
def banked(alice, bob):
    with time_machine.travel(START, tick=False):
        game = start_table(alice, [bob], bots=2, turn_limit=TurnLimit.HALF_DAY,
                           bank=TimeBank.TWO_DAYS)
    game.seats.update(auto_pass=False)
    Game.objects.filter(pk=game.pk).update(banks={str(bob.pk): int(LOW.total_seconds())})
    return game


def _bobs_turn(game, bob, traveller):
    """Play on (bots, and Alice at once) until the table waits for Bob."""
    for _step in range(200):
        game = bots_play_on(game)
        seats = {s.player: s for s in game.seats.select_related("user")}
        waiting = [seats[p] for p in game.waits() if not seats[p].played_by_bot]
        if any(s.user_id == bob.pk for s in waiting):
            return game, next(s for s in waiting if s.user_id == bob.pk)
        seat = waiting[0]
        view = game.engine_state().view(seat.player)
        commands.act(game.pk, seat.user, engine.choose_action("basic", view, _step),
                     game.wait_for(seat.player).token)
    raise AssertionError("Bob's turn never came")


def test_the_stand_in_voted_in_or_a_leaver_s_bot_never_refills_a_bank(banked, alice, bob):
    with time_machine.travel(START, tick=False) as traveller:
        game, seat = _bobs_turn(banked, bob, traveller)
        since = game.wait_for(seat.player).since
        assert game.wait_for(seat.player).deadline == since + PER_TURN + LOW
        game.seats.filter(pk=seat.pk).update(timeouts_in_row=2)
        traveller.move_to(since + HOUR)
        assert commands.vote_stand_in(game.pk, alice, seat.player)
        game = bots_play_on(game)
        # An hour of a twelve-hour turn: the bot's move gives nothing back.
        assert bank_for_show(game, bob.pk) == LOW
        commands.take_seat_back(game.pk, bob)
        game, seat = _bobs_turn(game, bob, traveller)
        since = game.wait_for(seat.player).since
        assert game.wait_for(seat.player).deadline == since + PER_TURN + LOW
        traveller.move_to(since + PER_TURN + HOUR)
        commands.leave_game(game.pk, bob)
        game = bots_play_on(game)
        assert bank_for_show(game, bob.pk) == LOW - HOUR


def test_replaced_by_a_bot_and_back_at_the_table_the_player_keeps_the_bank(banked, bob):
    from leagues.services import replace_by_bot

    with time_machine.travel(START, tick=False) as traveller:
        game, seat = _bobs_turn(banked, bob, traveller)
        traveller.move_to(game.wait_for(seat.player).since + PER_TURN + HOUR)
        replace_by_bot(game.pk, seat.pk)
        game = bots_play_on(game)
        assert bank_for_show(game, bob.pk) == LOW - HOUR
        commands.join_in_progress(game.pk, bob)
        game, seat = _bobs_turn(game, bob, traveller)
        assert seat.player != None  # noqa: E711 - a new seat, from the next round
        since = game.wait_for(seat.player).since
        assert game.wait_for(seat.player).deadline == since + PER_TURN + LOW - HOUR


def test_turn_and_reminder_emails_and_the_seats_count_the_bank(client, alice, bob, carol):
    """The turn email, the reminder (a quarter of the turn's whole time before it runs
    out) and the seats say the time left with the bank; the table says it has one."""
    from django.core import mail

    from games.away import emails
    from games.commands import notifications

    with time_machine.travel(START, tick=False) as traveller:
        game = start_table(alice, [bob, carol], bots=1, turn_limit=TurnLimit.HALF_DAY,
                           bank=TimeBank.TWO_DAYS)
        seat = next(s for s in game.seats.select_related("user") if not s.is_bot
                    and str(s.player) in game.awaiting)
        since = game.wait_for(seat.player).since
        mail.outbox.clear()
        traveller.move_to(since + timedelta(minutes=3))
        for pk in notifications.due_ids():
            emails.deliver(pk)
        turn = [m.body for m in mail.outbox if m.to == [seat.user.email]
                and "runs out" in m.body]
        assert turn and "(in 2\u00a0d 11\u00a0h)" in turn[0]
        mail.outbox.clear()
        # 60 hours in all: the reminder comes 15 hours before the end.
        traveller.move_to(since + 45 * HOUR - timedelta(minutes=1))
        assert not [pk for pk in notifications.due_ids()
                    if Notification.objects.get(pk=pk).kind == "reminder"
                    and Notification.objects.get(pk=pk).user_id == seat.user_id]
        traveller.move_to(since + 45 * HOUR)
        for pk in notifications.due_ids():
            emails.deliver(pk)
        reminder = [m.body for m in mail.outbox if m.to == [seat.user.email]
                    and "runs out" in m.body]
        assert reminder and "(in 15\u00a0h)" in reminder[0]
        client.force_login(next(u for u in (alice, bob, carol) if u != seat.user))
        page = client.get(f"/t/{game.pk}/").content.decode()
    assert "a time bank of 2 days" in page
    # The others' seats show their whole bank, named (a phone shows no tooltip), the
    # player on turn the turn's time left.
    assert page.count("time bank 2\u00a0d<") >= 1
    assert "15\u00a0h<" in page


def test_on_their_turn_a_player_reads_how_much_of_their_time_is_the_bank(client, banked, bob):
    """The turn's time left counts the bank: the player on turn reads what part of it is
    the bank, and when it is used up, that only the time per turn is left."""
    with time_machine.travel(START, tick=False) as traveller:
        game, seat = _bobs_turn(banked, bob, traveller)
        client.force_login(bob)
        page = client.get(f"/t/{game.pk}/").content.decode()
        assert "It counts 12 hours per turn and your time bank of 3\u00a0h." in page
        Game.objects.filter(pk=game.pk).update(banks={str(bob.pk): 0})
        page = client.get(f"/t/{game.pk}/").content.decode()
        assert "Your time bank is used up: this turn has only its 12 hours." in page


@pytest.mark.parametrize(("code", "said"), [
    ("en", "a time bank of 2 days"), ("de", "ein Zeitkonto von 2 Tagen"),
    ("nl", "een tijdbank van 2 dagen"), ("fr", "une réserve de temps de 2 jours")])
def test_the_tables_header_names_the_bank_as_its_language_declines_it(client, banked, alice,
                                                                        code, said):
    """German declines the days after "von" ("von 2 Tagen", never "von 2 Tage"): the
    header says the bank in a sentence of its own, not the option's label."""
    client.force_login(alice)
    page = client.get(f"/t/{banked.pk}/", HTTP_ACCEPT_LANGUAGE=code).content.decode()
    assert said in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page))
