"""The clock and absent players: timeouts with a bot standing in after a few, vacation,
taking one's seat back, and noting who is at the table."""

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import engine
from ..clock import TIMEOUTS_BEFORE_STAND_IN, VACATION_DAYS, deadline, deadlines_may_have_passed
from ..models import Game, Seat
from .base import Rejected, refresh_deadlines, save_state
from .moves import apply_one, run_automatic, wake_bots


def enforce_deadlines(game_id: int, now: datetime | None = None) -> int:
    """Apply the timeout action for every player whose turn has expired; after three in a
    row a bot stands in for them. Returns how many timeouts were applied."""
    now = now or timezone.now()
    applied = 0
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or not deadlines_may_have_passed(game, now):
            return 0
        seats = {s.player: s for s in game.seats.select_related("user")}
        for _step in range(len(seats) * 2):
            expired = [
                seats[int(p)] for p, wait in sorted(game.awaiting.items())
                if (limit := deadline(game, seats[int(p)], datetime.fromisoformat(wait[1])))
                and limit <= now
            ]
            if not expired:
                break
            seat = expired[0]
            state = game.engine_state()
            action = engine.timeout_action(state.view(seat.player))
            seat.timeouts_in_row += 1
            seat.stand_in = seat.stand_in or seat.timeouts_in_row >= TIMEOUTS_BEFORE_STAND_IN
            seat.pass_trick = ""
            seat.save(update_fields=["timeouts_in_row", "stand_in", "pass_trick"])
            state = apply_one(game, seat.player, action, "timeout", None, state)
            state = run_automatic(game, state)
            save_state(game, state, actor=seat.player)
            applied += 1
        if applied:
            wake_bots(game)
    return applied


def take_seat_back(game_id: int, user) -> None:
    """The player takes their seat back from the bot standing in for them; their turn, if
    it is theirs, starts afresh. Without a stand-in this changes nothing (it must not be a
    way to reset one's own clock)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        seat = game.seats.get(user=user)
        if not seat.stand_in:
            raise Rejected(_("No bot is standing in for you: your seat is yours."), 409)
        seat.stand_in = False
        seat.timeouts_in_row = 0
        seat.last_seen = timezone.now()
        seat.save(update_fields=["stand_in", "timeouts_in_row", "last_seen"])
        if game.is_playing:
            save_state(game, game.engine_state(), actor=seat.player)


# "Last seen at the table" is written at most this often (seconds).
SEEN_SECONDS = 60


def seen(seat: Seat) -> None:
    """Note that the player is at the table now (written at most once a minute)."""
    seat.last_seen = seen_at(seat.pk, seat.last_seen)


def seen_at(seat_pk: int, last_seen: datetime | None) -> datetime:
    now = timezone.now()
    if last_seen is not None and last_seen > now - timedelta(seconds=SEEN_SECONDS):
        return last_seen
    Seat.objects.filter(pk=seat_pk).update(last_seen=now)
    return now


def start_vacation(game_id: int, user, days: int) -> Seat:
    """Pause the player's clock for up to `days` days (at most VACATION_DAYS per game)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        seat = game.seats.get(user=user)
        now = timezone.now()
        if seat.vacation_until and seat.vacation_until > now:
            raise Rejected(_("Your clock is already paused."), 409)
        left = timedelta(days=VACATION_DAYS) - seat.vacation_used
        length = min(timedelta(days=days), left)
        if length <= timedelta(0):
            raise Rejected(_("You have used all your vacation at this table."), 409)
        seat.vacation_until = now + length
        seat.vacation_used += length
        seat.save(update_fields=["vacation_until", "vacation_used"])
        refresh_deadlines(game)
        game.save(update_fields=["updated"])
    return seat


def end_vacation(game_id: int, user) -> Seat:
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        seat = game.seats.get(user=user)
        now = timezone.now()
        if seat.vacation_until and seat.vacation_until > now:
            seat.vacation_used -= seat.vacation_until - now
            seat.vacation_until = now
            seat.save(update_fields=["vacation_until", "vacation_used"])
            refresh_deadlines(game)
            game.save(update_fields=["updated"])
    return seat
