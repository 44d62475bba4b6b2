"""The clock and absent players: timeouts with a bot standing in after a few, vacation,
taking one's seat back, and noting who is at the table."""

from dataclasses import replace
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.commands import group_channel, notifications
from games.core import background
from games.core.clock import (
    TIMEOUTS_BEFORE_STAND_IN,
    VACATION_DAYS,
    deadline,
    deadlines_may_have_passed,
    pauses_of,
)
from games.core.turns import (
    NUDGE_AFTER,
    at_the_table,
    nudge_after,
    nudge_open,
    stand_in_vote_open,
    stand_in_votes,
)

from .. import engine
from ..models import Game, Notification, Pause, Seat, StandInVote, Wait
from .base import Rejected, record, refresh_deadlines, save_state, table_touched
from .moves import apply_one, run_automatic, wake_bots


def enforce_deadlines(game_id: int, now: datetime | None = None) -> int:
    """Apply the timeout action for every player whose turn has expired; after three in a
    row a bot stands in for them. Returns how many timeouts were applied."""
    now = now or timezone.now()
    applied = 0
    with transaction.atomic():
        game = Game.locked_if_there(game_id)
        if game is None or not deadlines_may_have_passed(game, now):
            return 0
        seats = {s.player: s for s in game.seats_with_users()}
        earliest = min(wait.since for wait in game.waits().values())
        pauses = pauses_of(game, seats.values(), earliest)
        for _step in range(len(seats) * 2):
            expired = [
                (seats[p], wait)
                for p, wait in sorted(game.waits().items(), key=lambda pw: str(pw[0]))
                if (limit := deadline(game, seats[p], wait.since,
                                      pauses.get(seats[p].user_id, []), wait.secret))
                and limit <= now
            ]
            if not expired:
                break
            seat, wait = expired[0]
            state = game.engine_state()
            action = engine.timeout_action(state.view(seat.player))
            stood_in = seat.stand_in
            if not wait.secret:
                # A secret wait's timeout is no missed turn: the others would see it in
                # the count (a vote on a stand-in offered, the stand-in taking over).
                seat.timeouts_in_row += 1
                seat.stand_in = seat.stand_in or seat.timeouts_in_row >= TIMEOUTS_BEFORE_STAND_IN
            seat.pass_trick = ""
            seat.save(update_fields=["timeouts_in_row", "stand_in", "pass_trick"])
            state = apply_one(game, seat.player, action, "timeout", None, state)
            state = run_automatic(game, state)
            if seat.stand_in and not stood_in:
                stand_in_takes_over(game, seat, "timeouts")
            save_state(game, state, actor=seat.player)
            applied += 1
            if seat.timeouts_in_row == 1 and not wait.secret:
                notifications.for_absence(game, seat, Notification.Kind.TIMED_OUT)
            if seat.stand_in and not stood_in:
                notifications.for_absence(game, seat, Notification.Kind.STAND_IN)
        if applied:
            wake_bots(game)
    return applied


def stand_in_takes_over(game: Game, seat: Seat, reason: str) -> None:
    """Record that the stand-in bot now plays for an absent player (after timeouts in a
    row, or by the others' vote): the table's log tells it, and the player's record of
    reliability counts it. Not once the game is over."""
    if game.is_playing:
        record(game, seat.player, "stand_in", {"reason": reason},
               [{"type": "stand_in_plays", "player": seat.player}], "system")


def take_seat_back(game_id: int, user) -> None:
    """The player takes their seat back from the bot standing in for them; their turn, if
    it is theirs, starts afresh (the wait so far was the bot's). Without a stand-in this
    changes nothing (it must not be a way to reset one's own clock)."""
    with transaction.atomic():
        game = Game.locked(game_id)
        seat = game.seats.get(user=user)
        if seat.leaving or seat.left:
            raise Rejected(_("You left this game: the bot keeps the seat."), 409)
        if not seat.stand_in:
            raise Rejected(_("No bot is standing in for you: your seat is yours."), 409)
        seat.stand_in = False
        seat.timeouts_in_row = 0
        seat.last_seen = timezone.now()
        seat.save(update_fields=["stand_in", "timeouts_in_row", "last_seen"])
        StandInVote.objects.filter(target=seat).delete()
        if game.is_playing:
            save_state(game, game.engine_state(), actor=seat.player)
            waits = game.waits()
            if seat.player in waits:
                # While the bot held the seat the wait had no deadline: it gets one now.
                waits[seat.player] = replace(waits[seat.player], since=timezone.now())
                game.set_waits(waits)
                refresh_deadlines(game)


# "Last seen at the table" is written at most this often (seconds); the settings keep
# NOTIFY_WATCHING_SECONDS from going below it.
SEEN_SECONDS = settings.LAST_SEEN_SECONDS


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
        game = Game.locked(game_id)
        seat = game.seats.get(user=user)
        if not (game.is_playing and game.turn_limit):
            raise Rejected(_("There is no clock to pause at this table."), 409)
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
        Pause.objects.create(user=user, game=game, start=now, end=seat.vacation_until)
        refresh_deadlines(game)
        # Every page of the table shows the pause and the clock it moved.
        table_touched(game)
    return seat


def end_vacation(game_id: int, user) -> Seat:
    """Back early: the pause is cut to the time it lasted, and the unused days return to
    the player's allowance. The wait does not start again."""
    with transaction.atomic():
        game = Game.locked(game_id)
        seat = game.seats.get(user=user)
        now = timezone.now()
        if seat.vacation_until and seat.vacation_until > now:
            seat.vacation_used -= seat.vacation_until - now
            seat.vacation_until = now
            seat.save(update_fields=["vacation_until", "vacation_used"])
            Pause.objects.filter(user=user, game=game, end__gt=now).update(end=now)
            refresh_deadlines(game)
            # Every page of the table shows the pause and the clock it moved.
            table_touched(game)
    return seat


def set_away(user, until) -> None:
    """An account-wide absence (or its end, with None): every timed table the player
    sits at gets its deadlines moved. The absence is one pause, from when it was set
    until it ends: moving its end moves the deadlines with it, and coming back early
    cuts it to the time it lasted (a turn that began while they were away gets its whole
    time from their return; one that began before keeps what was left of it). Back,
    the account keeps no date of the absence: its pause says how long it lasted."""
    now = timezone.now()
    if until is not None and until <= now:
        until = None
    with transaction.atomic():
        type(user).objects.filter(pk=user.pk).update(away_until=until)
        user.away_until = until
        running = Pause.objects.filter(user=user, game=None, end__gt=now)
        if until is not None:
            if not running.update(end=until):
                Pause.objects.create(user=user, start=now, end=until)
        else:
            running.update(end=now)
        for game_id in Seat.objects.filter(
            user=user, game__status=Game.Status.PLAYING,
        ).exclude(game__turn_limit=0).order_by("game_id").values_list("game_id", flat=True):
            game = Game.locked(game_id)
            refresh_deadlines(game)
            # Every page of the table shows the pause and the clock it moved.
            table_touched(game)


def forget_old_pauses(now: datetime | None = None) -> int:
    """Delete the pauses that ended before every running wait began: no deadline can
    depend on them any more. Returns how many went."""
    now = now or timezone.now()
    oldest = now
    for awaiting in Game.objects.filter(status=Game.Status.PLAYING).exclude(
        turn_limit=0,
    ).values_list("awaiting", flat=True):
        for stored in awaiting.values():
            oldest = min(oldest, Wait.from_stored(stored).since)
    deleted, _kinds = Pause.objects.filter(end__lt=oldest).delete()
    return deleted


def nudge(game_id: int, user, player: int) -> bool:
    """`user` nudges the player the table is waiting for: an email like a reminder, at
    most one from each player per turn, and only once that turn has lasted an hour (half
    the time limit on a shorter clock). Whether it reaches them: not if they take no
    notifications (or have nowhere to take them)."""
    with transaction.atomic():
        game = Game.locked(game_id)
        me = game.seats.filter(user=user).first()
        target = game.seats.select_related("user").filter(player=player).first()
        if (not game.is_playing or me is None or target is None or target.pk == me.pk
                or not at_the_table(me)):
            raise Rejected(_("There is nobody to nudge there."), 409)
        view = game.engine_state().view(me.player)
        wait = game.wait_for(player)
        # Only a wait every player can see: a private decision is nobody's business.
        if wait is None or view["seats"].index(player) not in view["awaiting"]:
            raise Rejected(_("%(name)s is not the one the table is waiting for.")
                           % {"name": target.name}, 409)
        if target.played_by_bot:
            raise Rejected(_("A bot is playing for %(name)s.") % {"name": target.name}, 409)
        paused = target.paused_until
        if paused is not None and paused > timezone.now():
            raise Rejected(_("%(name)s is away: their clock stands still until they are "
                             "back.") % {"name": target.name}, 409)
        if not nudge_open(game, wait.since, timezone.now()):
            wait_for = nudge_after(game)
            if wait_for == NUDGE_AFTER:
                raise Rejected(_("You can nudge %(name)s once their turn has lasted an "
                                 "hour.") % {"name": target.name}, 409)
            minutes = max(1, int(wait_for.total_seconds()) // 60)
            raise Rejected(ngettext(
                "You can nudge %(name)s once their turn has lasted %(minutes)d minute.",
                "You can nudge %(name)s once their turn has lasted %(minutes)d minutes.",
                minutes) % {"name": target.name, "minutes": minutes}, 409)
        key = f"nudge:{game.pk}:{wait.public_token}:{player}:{me.player}"
        if Notification.objects.filter(user=target.user, key=key).exists():
            raise Rejected(_("You have already nudged %(name)s this turn.")
                           % {"name": target.name}, 409)
        made = notifications.notify(target.user, key, Notification.Kind.NUDGE, timezone.now(),
                                    game)
        if not made:
            # Nothing reaches them (no confirmed address, no device): still counted, so
            # the button does not invite a second try.
            Notification.objects.create(user=target.user, key=key, game=game,
                                        kind=Notification.Kind.NUDGE, due=timezone.now(),
                                        status=Notification.Status.SKIPPED, note="no channel")
        for notification in made:
            background.after_commit("send_notification", notification.pk)
        group_channel.for_nudge(game, me.player, player, wait.public_token)
    return bool(made) and target.user.notify != target.user.Notify.NEVER


def vote_stand_in(game_id: int, user, player: int) -> bool:
    """`user` votes to let the stand-in bot play for `player`, who missed their last turns;
    once most of the other human players agree, it does. True if it now plays."""
    with transaction.atomic():
        game = Game.locked(game_id)
        voter = game.seats.filter(user=user).first()
        target = game.seats.select_related("user").filter(player=player).first()
        if (not game.is_playing or voter is None or target is None or target.pk == voter.pk
                or target.user_id is None or not at_the_table(target)):
            raise Rejected(_("There is nobody to vote about there."), 409)
        if not at_the_table(voter) or voter.played_by_bot:
            raise Rejected(_("Only the players at the table vote."), 403)
        if target.stand_in:
            raise Rejected(_("A bot is playing for %(name)s.") % {"name": target.name}, 409)
        if not stand_in_vote_open(target, game):
            if game.turn_limit:
                raise Rejected(_("%(name)s has not missed two turns in a row.")
                               % {"name": target.name}, 409)
            raise Rejected(_("The table has not waited two days for %(name)s.")
                           % {"name": target.name}, 409)
        vote, created = StandInVote.objects.get_or_create(target=target, voter=voter)
        if not created:
            if target.last_acted is None or vote.created > target.last_acted:
                raise Rejected(_("You have already voted."), 409)
            # A vote from an earlier absence: it counts again, from now.
            vote.created = timezone.now()
            vote.save(update_fields=["created"])
        votes, needed = stand_in_votes(game, target)
        # The count is on every page at the table.
        table_touched(game)
        if votes < needed:
            return False
        target.stand_in = True
        target.save(update_fields=["stand_in"])
        stand_in_takes_over(game, target, "vote")
        save_state(game, game.engine_state(), actor=target.player)
        notifications.for_absence(game, target, Notification.Kind.STAND_IN)
        wake_bots(game)
        return True
