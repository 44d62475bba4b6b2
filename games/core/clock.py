"""The turn clock: when a player's wait times out, with vacations and absences pausing it.

Deadlines live in the database (the time each wait began, in Game.awaiting) and are
enforced by whoever looks next (a page load, a poll, the periodic sweep), never by
countdowns held in the broker.

One rule moves a deadline: the clock runs from the moment the wait began and stands
still during the player's pauses (Pause: a vacation at the table, an account-wide
absence); the turn times out once it has run for the table's limit. A pause ended early
is cut to the time it lasted, so starting and ending one gives back only the time taken
and never restarts the wait; a pause that begins after the time ran out adds nothing.
"""

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone

from games.models import Game, Pause, Seat, Wait

TIMEOUTS_BEFORE_STAND_IN = 3
VACATION_DAYS = 7
# A turn token is the public version at which a wait began times TOKEN_STEPS, plus the
# private steps the player has taken since (at most a few: a revolution declined).
TOKEN_STEPS = 16

Spans = list[tuple[datetime, datetime]]


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


def deadline(game: Game, seat: Seat, since: datetime, pauses: Spans | None = None
             ) -> datetime | None:
    """When the player's current turn, begun at `since`, times out (None: never)."""
    if not game.turn_limit or seat.played_by_bot:
        return None
    if pauses is None:
        pauses = pauses_of(game, [seat], since).get(seat.user_id, [])
    return run_clock(since, timedelta(seconds=game.turn_limit), pauses)


def wait_began(game: Game, player: int) -> datetime | None:
    wait = game.wait_for(player)
    return wait.since if wait else None


def current_deadline(game: Game, seat: Seat) -> datetime | None:
    """The deadline of the seat's running wait as stored (kept up to date by every change
    of a pause), for the pages and emails."""
    wait = game.wait_for(seat.player)
    if wait is None or seat.played_by_bot:
        return None
    return wait.deadline


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
