"""The turn clock: when a player's wait times out, with vacations and absences pausing it.

Deadlines live in the database (the time each wait began, in Game.awaiting) and are
enforced by whoever looks next (a page load, a poll, the periodic sweep), never by
countdowns held in the broker.

One rule moves a deadline: the clock runs from the moment the wait began and stands
still during the player's pauses (Pause: a vacation at the table, an account-wide
absence); the turn times out once it has run for the table's limit. A pause ended early
is cut to the time it lasted, so starting and ending one gives back only the time taken
and never restarts the wait; a pause that begins after the time ran out adds nothing.

A table may add a time bank to its limit per turn (`Rules`): each player starts with a
reserve, a turn may last its limit plus what is left in the player's bank, and when it
ends the bank is settled by one rule (`Rules.settle`): the time the turn took beyond its
limit comes out of the bank, the time it saved goes in, up to the cap. A forced pass
(nothing in the hand beats the table) leaves the bank as it was, a turn the bot played
from its start never touches it, and one the stand-in finished can only take from it. A
secret wait (a revolution decided in private, models.Wait) has the time per turn alone
and leaves the bank as it was: every page shows the bank on the player's seat.
Banks are kept per player and table (Game.banks, by user), so no change of seat,
stand-in or pause can give one back.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TypeVar

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from games import engine
from games.models import Game, Pause, Seat, Wait

T = TypeVar("T")

TIMEOUTS_BEFORE_STAND_IN = 3
VACATION_DAYS = 7

Spans = list[tuple[datetime, datetime]]

# A bank can grow back to this share of the reserve it started with.
BANK_CAP_SHARE = 1.5


@dataclass(frozen=True)
class Rules:
    """A table's clock: the time per turn, and the reserve each player's bank starts
    with (zero: no bank). Pure: the commands and the tests share it."""

    per_turn: timedelta
    reserve: timedelta = timedelta(0)

    @classmethod
    def of(cls, game: Game) -> "Rules":
        return cls(timedelta(seconds=game.turn_limit), timedelta(seconds=game.bank_reserve))

    @property
    def timed(self) -> bool:
        return self.per_turn > timedelta(0)

    @property
    def banked(self) -> bool:
        return self.timed and self.reserve > timedelta(0)

    @property
    def cap(self) -> timedelta:
        return self.reserve * BANK_CAP_SHARE

    def allowance(self, bank: timedelta | None) -> timedelta:
        """How long a turn may last on the clock, with `bank` left (None: untouched)."""
        if not self.banked:
            return self.per_turn
        return self.per_turn + (self.reserve if bank is None else bank)

    def settle(self, bank: timedelta | None, used: timedelta, forced: bool = False,
               by_bot: bool = False) -> timedelta:
        """The bank after a turn that took `used` on the clock: the time beyond the limit
        per turn comes out of it, the time saved goes in, never below nothing nor above
        the cap. A forced pass changes nothing; a turn the stand-in (or the bot of a
        player who left) finished costs the time the player let run and never adds."""
        bank = self.reserve if bank is None else bank
        if forced:
            return bank
        left = max(timedelta(0), min(self.cap, bank + self.per_turn - used))
        return min(left, bank) if by_bot else left

    def remind_before(self, bank: timedelta | None) -> timedelta:
        """How long before the deadline the reminder goes out: a quarter of the turn's
        allowance."""
        return self.allowance(bank) / 4


def run_clock(since: datetime, limit: timedelta, pauses: Iterable[tuple[datetime, datetime]]
              ) -> datetime:
    """When a clock started at `since` has run for `limit`, standing still during
    `pauses` (start, end; they may overlap)."""
    now, left = since, limit
    for start, end in sorted(pauses):
        if end <= now:
            continue
        if start > now:
            if start >= now + left:
                break  # the time ran out before this pause began
            left -= start - now
        now = end
    return now + left


def clock_time(since: datetime, until: datetime,
               pauses: Iterable[tuple[datetime, datetime]]) -> timedelta:
    """How long a clock started at `since` has run by `until`, standing still during
    `pauses` (the inverse of run_clock)."""
    ran, now = timedelta(0), since
    for start, end in sorted(pauses):
        if end <= now:
            continue
        if start >= until:
            break
        if start > now:
            ran += start - now
        now = max(now, end)
        if now >= until:
            return ran
    return ran + max(timedelta(0), until - now)


def forced_pass(view: dict) -> bool:
    """Whether the player's only choice in this view is to pass: nothing in the hand
    beats the table."""
    return view["phase"] == "play" and {a["type"] for a in view["legal_actions"]} == {"pass"}


def bank_left(game: Game, user_id: int | None) -> timedelta | None:
    """What is left in the player's bank at this table (None: untouched, the whole
    reserve; also for a bot)."""
    seconds = game.banks.get(str(user_id)) if user_id else None
    return None if seconds is None else timedelta(seconds=seconds)


def bank_for_show(game: Game, user_id: int | None) -> timedelta | None:
    """The bank a page shows for a person at a banked table, else None."""
    rules = Rules.of(game)
    if not rules.banked or not user_id:
        return None
    left = bank_left(game, user_id)
    return rules.reserve if left is None else left


def settle_banks(game: Game, ended: dict[int, Wait], seats: dict[int, Seat], now: datetime,
                 state_before) -> None:
    """The running waits in `ended` are over (the player moved, or the clock or a bot
    moved for them): settle each player's bank by the rules. `state_before` is the
    engine's state the waits ran in (whether a wait was a forced pass). A wait with no
    deadline (a bot played it from its start) leaves the bank alone. The caller saves."""
    rules = Rules.of(game)
    if not rules.banked:
        return
    # A secret wait never drew on the bank (`deadline`): settling it would show on the
    # player's seat that they decided something in private.
    timed = {player: wait for player, wait in ended.items()
             if wait.deadline is not None and not wait.secret
             and (seat := seats.get(player)) and seat.user_id}
    if not timed:
        return
    earliest = min(wait.since for wait in timed.values())
    pauses = pauses_of(game, [seats[p] for p in timed], earliest)
    banks = dict(game.banks)
    for player, wait in timed.items():
        user = seats[player].user_id
        used = clock_time(wait.since, now, pauses.get(user, []))
        forced = state_before is not None and forced_pass(state_before.view(player))
        left = rules.settle(bank_left(game, user), used, forced, seats[player].played_by_bot)
        banks[str(user)] = int(left.total_seconds())
    game.banks = banks


def pauses_of(game: Game, seats: Iterable[Seat], since: datetime) -> dict[int, Spans]:
    """The pauses of the seats' players at this table that end after `since`, by user."""
    users = [s.user_id for s in seats if s.user_id]
    spans: dict[int, Spans] = {user: [] for user in users}
    if not users:
        return spans
    for user, start, end in Pause.objects.filter(
        Q(game=game) | Q(game=None), user__in=users, end__gt=since,
    ).values_list("user_id", "start", "end"):
        spans[user].append((start, end))
    return spans


# How long a table without a clock waits for a player before something ends the wait:
# the others may vote a stand-in in (games.core.turns), and a secret decision (a
# revolution, Wait.secret), which no vote may name, is kept quiet.
UNTIMED_PATIENCE = timedelta(days=2)


def deadline(game: Game, seat: Seat, since: datetime, pauses: Spans | None = None,
             secret: bool = False) -> datetime | None:
    """When the player's current turn, begun at `since`, times out (None: never). A
    secret wait (Wait.secret) has the time per turn alone, UNTIMED_PATIENCE at a table
    without a clock."""
    rules = Rules.of(game)
    if seat.played_by_bot or not (rules.timed or secret):
        return None
    if pauses is None:
        pauses = pauses_of(game, [seat], since).get(seat.user_id, [])
    if not rules.timed:
        limit = UNTIMED_PATIENCE
    else:
        limit = rules.per_turn if secret else rules.allowance(bank_left(game, seat.user_id))
    return run_clock(since, limit, pauses)


def remind_before(game: Game, seat: Seat, wait: Wait) -> timedelta:
    """How long before the deadline of the seat's `wait` its reminder goes out."""
    rules = Rules.of(game)
    if wait.secret:
        return rules.per_turn / 4
    return rules.remind_before(bank_left(game, seat.user_id))


def wait_began(game: Game, player: int) -> datetime | None:
    wait = game.wait_for(player)
    return wait.since if wait else None


def current_deadline(game: Game, seat: Seat) -> datetime | None:
    """The deadline of the seat's running wait as stored (kept up to date by every change
    of a pause): when the table moves on without its player."""
    wait = game.wait_for(seat.player)
    if wait is None or seat.played_by_bot:
        return None
    return wait.deadline


def promised_deadline(game: Game, seat: Seat) -> datetime | None:
    """The deadline the player is told of, on their pages, in My games, their emails and
    their pushes, and which orders them: none for a decision on a revolution in private
    (Wait.secret), which closes when the Dalmutis have chosen their give-back, before its
    deadline as often as not, which no clock can say."""
    wait = game.wait_for(seat.player)
    return None if wait is None or wait.secret else current_deadline(game, seat)


def soonest_first(items: Iterable[T], deadline_of: Callable[[T], datetime | None]) -> list[T]:
    """The items with a deadline, the soonest first, then those without in their order:
    how every list of the tables awaiting a player is ordered."""
    pairs = [(item, deadline_of(item)) for item in items]
    timed = sorted((pair for pair in pairs if pair[1]), key=lambda pair: pair[1])
    return [item for item, _ in timed] + [item for item, when in pairs if not when]


def deadlines_may_have_passed(game: Game, now: datetime | None = None) -> bool:
    """A cheap check on the row alone, for the lazy enforcement on page loads."""
    return game.is_playing and some_deadline_passed(game.awaiting, now)


def some_deadline_passed(awaiting: dict, now: datetime | None = None) -> bool:
    """Whether some wait's stored deadline has passed (pauses are counted in it;
    enforce_deadlines checks again under the lock)."""
    now_iso = None
    for stored in awaiting.values():
        wait = Wait.from_stored(stored)
        if wait.deadline:
            now_iso = now_iso or (now or timezone.now())
            if wait.deadline <= now_iso:
                return True
    return False


def shortest_hold() -> timedelta:
    """The least the Dalmutis' automatic choices wait after a deal, and after the last
    person at the table saw it: REVOLUTION_WINDOW_SECONDS."""
    return timedelta(seconds=settings.REVOLUTION_WINDOW_SECONDS)


def revolution_window(game: Game) -> timedelta:
    """How long after the deal a person dealt both jesters has, at the least, to call a
    revolution: the Dalmutis' choices of what to give back that nobody makes by hand (a
    bot's, a standing order's) wait so long; a person who chooses by hand takes the time
    they take. REVOLUTION_WINDOW_SECONDS, or a quarter of the time per turn when that is
    longer, never more than an hour.

    The holder may decide until the Dalmutis have chosen, never after: a table that
    waited on that decision alone would tell everybody that somebody holds both jesters
    (games.commands.moves closes it)."""
    least = shortest_hold()
    if not least:
        return least
    return max(least, min(Rules.of(game).per_turn / 4, timedelta(hours=1)))


def dalmutis_hold_until(game: Game, state: engine.Game, seats: Iterable[Seat],
                        dealt_now: bool = False) -> datetime | None:
    """Until when the choices of what to give back that nobody makes by hand (the bots',
    the standing orders') wait after the deal (`revolution_window`), at a table where a
    person plays; None if they do not. Once every person at the table has seen the deal,
    the hold ends REVOLUTION_WINDOW_SECONDS after the last of them did, if that is sooner:
    the long hold of a slow table is for a holder who is not there. `dealt_now`: `state`
    was dealt by the change being made, whose waits begin now (the stored ones are the
    last round's). Read from what every spectator knows (the Dalmutis the table is seen
    to wait for, who plays, when the deal came, when each person first had it in front of
    them), never from the jesters nor anybody's standing orders: a hold that came with
    them would tell."""
    if not game.is_playing or state.round.phase != "taxes":
        return None
    window = revolution_window(game)
    seats = list(seats)
    if not window or all(seat.played_by_bot for seat in seats):
        return None
    if state.view(None)["taxes"]["status"] != "pending":
        return None
    if dealt_now:
        return timezone.now() + window
    return _hold_from_waits(game, state, window, seats)


def hold_began(game: Game, state: engine.Game) -> datetime | None:
    """When the table began to wait for its Dalmutis' choices (the deal)."""
    waits = game.waits()
    began = [waits[p].since for p in state.publicly_awaited if p in waits]
    return min(began) if began else None


def _hold_from_waits(game: Game, state: engine.Game, window: timedelta,
                     seats: list[Seat] | None) -> datetime | None:
    """The end of the hold, from when the table began to wait for its Dalmutis (the deal)
    and, with `seats`, from when the people at the table first saw it."""
    began = hold_began(game, state)
    if began is None:
        return None
    until = began + window
    if seats is not None:
        people = [s for s in seats if s.player is not None and not s.played_by_bot]
        if people and all(s.deal_seen is not None and s.deal_seen >= began for s in people):
            last = max(s.deal_seen for s in people)
            until = min(until, last + shortest_hold())
    return until


def dalmutis_hold_may_have_ended(game: Game, state: engine.Game,
                                 now: datetime | None = None) -> bool:
    """A cheap check, for the pages and the sweep: whether the hold after the deal is over
    while the table still waits for Dalmutis (what was held may be due;
    `dalmutis_hold_until` says). The seats are read only where everybody's having seen
    the deal may have ended the hold early."""
    if not game.is_playing or state.round.phase != "taxes":
        return False
    window = revolution_window(game)
    if not window:
        return False
    now = now or timezone.now()
    began = hold_began(game, state)
    if began is None or now < began + shortest_hold():
        return False
    if began + window <= now:
        return True
    until = _hold_from_waits(game, state, window, list(game.seats.all()))
    return until is not None and until <= now
