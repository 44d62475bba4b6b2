"""The turn clock: when a player's wait times out, with vacations pausing it.

Deadlines live in the database (the time each wait began, in Game.awaiting) and are
enforced by whoever looks next (a page load, a poll, the periodic sweep), never by
countdowns held in the broker.
"""

from datetime import datetime, timedelta

from django.utils import timezone

from .models import Game, Seat

TIMEOUTS_BEFORE_STAND_IN = 3
VACATION_DAYS = 7


def deadline(game: Game, seat: Seat, since: datetime) -> datetime | None:
    """When the player's current turn times out: the table's limit after the wait began,
    with the clock paused while they are on vacation."""
    if not game.turn_limit or seat.played_by_bot:
        return None
    start = since
    if seat.vacation_until and seat.vacation_until > start:
        start = seat.vacation_until
    return start + timedelta(seconds=game.turn_limit)


def wait_began(game: Game, player: int) -> datetime | None:
    wait = game.awaiting.get(str(player))
    return datetime.fromisoformat(wait[1]) if wait else None


def deadlines_may_have_passed(game: Game, now: datetime | None = None) -> bool:
    """A cheap check on the row alone, for the lazy enforcement on page loads."""
    return game.is_playing and some_deadline_passed(game.turn_limit, game.awaiting, now)


def some_deadline_passed(turn_limit: int, awaiting: dict, now: datetime | None = None) -> bool:
    """Whether the oldest wait is older than the turn limit (vacations may still excuse
    it: enforce_deadlines decides)."""
    if not turn_limit or not awaiting:
        return False
    now = now or timezone.now()
    earliest = min(datetime.fromisoformat(wait[1]) for wait in awaiting.values())
    return earliest + timedelta(seconds=turn_limit) <= now
