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
# A turn token is the public version at which a wait began times TOKEN_STEPS, plus the
# private steps the player has taken since (at most a few: a revolution declined).
TOKEN_STEPS = 16


def deadline(game: Game, seat: Seat, since: datetime) -> datetime | None:
    """When the player's current turn times out: the table's limit after the wait began,
    with the clock paused while they are on vacation or away."""
    if not game.turn_limit or seat.played_by_bot:
        return None
    start = since
    paused = seat.paused_until
    if paused and paused > start:
        start = paused
    return start + timedelta(seconds=game.turn_limit)


def wait_began(game: Game, player: int) -> datetime | None:
    wait = game.awaiting.get(str(player))
    return datetime.fromisoformat(wait[1]) if wait else None


def stored_deadline(game: Game, seat: Seat, since: datetime) -> str | None:
    """The deadline as kept in Game.awaiting, so that a poll can tell from the row alone
    whether anything is due."""
    limit = deadline(game, seat, since)
    return limit.isoformat() if limit else None


def deadlines_may_have_passed(game: Game, now: datetime | None = None) -> bool:
    """A cheap check on the row alone, for the lazy enforcement on page loads."""
    return game.is_playing and some_deadline_passed(game.awaiting, now)


def some_deadline_passed(awaiting: dict, now: datetime | None = None) -> bool:
    """Whether some wait's stored deadline has passed (vacations are counted in it;
    enforce_deadlines checks again under the lock)."""
    now_iso = None
    for wait in awaiting.values():
        if len(wait) > 2 and wait[2]:
            now_iso = now_iso or (now or timezone.now())
            if datetime.fromisoformat(wait[2]) <= now_iso:
                return True
    return False
