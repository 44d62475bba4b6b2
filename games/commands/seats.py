"""Joining and leaving a game in progress (docs/RULES.md section 8). Both are asked for
at any time and take effect when the round in play ends, between its result and the next deal: the
newcomer sits in the middle (the Great Dalmuti picks when there are two middle places),
the leaver is out from the next round on and keeps their points. A leaver's cards are
played to the end of the round by the stand-in bot.

Also the names at a table: a bot is named away from every person at it, whoever sat down
or renamed themselves first."""

import math
import re
import time

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from games.core.turns import no_next_round
from leagues.models import Replacement
from players.reliability import why_not_admitted

from .. import engine
from ..models import Game, Invitation, Removal, Seat
from . import notifications
from .base import Rejected, record, save_state, table_touched
from .moves import wake_bots

BOT_NAMES = [
    "Ada", "Bram", "Cato", "Dido", "Ezra", "Fien", "Gus", "Hedda", "Ivo", "Juno", "Kees",
    "Lotte", "Mats", "Nora", "Otto", "Pim", "Quin", "Roos", "Sem", "Tess",
]


def called(name: str) -> set[str]:
    """What a player may be called at the table (casefolded): their whole name and each of
    its words. A bot "Bram" beside "Bram van Oosterhout" reads as him in every log line
    that names him short, and in the phone's seats, which cut the longer name."""
    folded = name.casefold()
    return {folded, *(word for word in re.split(r"[\s\-]+", folded) if word)}


def names_taken(game: Game) -> set[str]:
    """The names at the table (casefolded), bots' and people's (each word of theirs too),
    and those of the friends invited to it by name, who may sit down yet."""
    taken = set()
    for seat in game.seats_with_users():
        taken |= called(seat.name) if seat.user_id is not None else {seat.name.casefold()}
    for user in User.objects.filter(pk__in=game.invitations.exclude(user=None).values("user")):
        taken |= called(user.name)
    return taken


def free_bot_name(game: Game) -> str:
    """A bot's name that nobody at the table has yet, bot or person, nor a friend invited
    to it (two "Ada"s at one table, one of them a bot, would leave every log line in
    doubt)."""
    taken = names_taken(game)
    return next((n for n in BOT_NAMES if n.casefold() not in taken), str(_("Bot")))


def keep_names_apart(game: Game) -> bool:
    """Give another name to each bot that bears a person's at the table: a friend sat down
    after it, or renamed themselves. A bot that replaced a player keeps its record of the
    replacement in step. Under the table's lock; whether a bot was renamed."""
    seats = game.seats_with_users()
    people = set().union(*(called(seat.name) for seat in seats if seat.user_id is not None))
    renamed = False
    for seat in seats:
        if seat.user_id is None and seat.name.casefold() in people:
            old, seat.bot_name = seat.bot_name, free_bot_name(game)
            seat.save(update_fields=["bot_name"])
            Replacement.objects.filter(game=game, player=seat.player, bot_name=old).update(
                bot_name=seat.bot_name)
            renamed = True
    return renamed


def name_changed(user) -> None:
    """A player renamed themselves (their profile, or an organiser in the admin): the bots
    at their tables not yet over keep their names apart, and the open pages are told. A
    finished game's record is left as it was played."""
    for game_id in Seat.objects.filter(
            user=user, game__status__in=(Game.Status.OPEN, Game.Status.PLAYING),
    ).values_list("game_id", flat=True):
        with transaction.atomic():
            game = Game.locked(game_id)
            if game.status in (Game.Status.OPEN, Game.Status.PLAYING) \
                    and keep_names_apart(game):
                if game.is_playing:
                    table_touched(game)
                else:
                    game.save(update_fields=["updated"])


def taken_off() -> str:
    """Why the table's link does not seat a player the host took off, until invited."""
    return " ".join((_("The host took you off this table."),
                     _("To sit at it again, ask them to invite you again.")))


def _seat_change(game: Game, user, check: bool = True) -> None:
    """Count a join or a leave of a game in progress; with `check`, Rejected (429) if this
    player joined or left this table less than SEAT_CHANGE_SECONDS ago. Each one redraws
    every open page of the table, so anyone with the link could otherwise keep them all
    busy. Only joining waits: giving a place back (a join by mistake) is always allowed,
    and it is counted, so a join and a leave cost at most two redraws per cooldown.

    Called under the table's row lock, so two requests of the same player cannot both
    pass; the time is kept in the cache (with the database cache, inside this very
    transaction)."""
    cooldown = settings.SEAT_CHANGE_SECONDS
    if cooldown <= 0:
        return
    key = f"seat-change:{game.pk}:{user.pk}"
    now = time.time()
    last = cache.get(key)
    if check and last is not None and now < last + cooldown:
        wait = max(1, math.ceil(last + cooldown - now))
        raise Rejected(ngettext(
            "You joined or left this table a moment ago. You can do it again in "
            "%(seconds)d second.",
            "You joined or left this table a moment ago. You can do it again in "
            "%(seconds)d seconds.", wait) % {"seconds": wait}, 429)
    cache.set(key, now, timeout=cooldown)


def join_in_progress(game_id: int, user) -> Seat:
    """Take a seat from the next round on."""
    with transaction.atomic():
        game = Game.locked(game_id)
        if not game.is_playing:
            raise Rejected(_("This game is over: there is no seat to take."), 409)
        seat = game.seats.filter(user=user).first()
        if seat is not None:
            return seat
        state = game.engine_state()
        if no_next_round(state):
            raise Rejected(_("This is the game's last round: there is no next round to "
                             "join."), 409)
        joining = game.seats.filter(joining=True).count()
        if len(state.lineup) + joining >= engine.MAX_PLAYERS:
            raise Rejected(_("The table is full: %(max)d players.")
                           % {"max": engine.MAX_PLAYERS}, 409)
        if Removal.keeps_out(game, user):
            raise Rejected(taken_off(), 403)
        refusal = why_not_admitted(user, game.min_on_time)
        if refusal:
            raise Rejected(refusal, 403)
        _seat_change(game, user)
        seat = Seat.for_user(game, user, joining=True)
        answer_invitations(game, user)
        keep_names_apart(game)
        table_touched(game)
        notifications.for_join_place(game, state, seat)
    return seat


def answer_invitations(game: Game, user) -> None:
    """Whoever takes a seat answers the invitations to it: by name, and by the address
    they gave (confirmed or not: the invitation email is how many reach the sign-up).
    A host's earlier removal of them is over too."""
    mine = Q(user=user)
    if user.email:
        mine |= Q(user=None, email__iexact=user.email)
    Invitation.objects.filter(mine, game=game).delete()
    Removal.objects.filter(game=game, user=user).delete()


def choose_join_place(game_id: int, user, seat_id: int, upper: bool) -> None:
    """The Great Dalmuti seats a newcomer in the upper or the lower middle place."""
    with transaction.atomic():
        game = Game.locked(game_id)
        newcomer = game.seats.filter(pk=seat_id, joining=True).first()
        me = game.seats.filter(user=user).first()
        state = game.engine_state()
        if newcomer is None or me is None or not game.is_playing:
            raise Rejected(_("Nobody is waiting for a place there."), 409)
        if state.seats[state.round.order[0]] != me.player:
            raise Rejected(_("Only the Great Dalmuti chooses where a newcomer sits."), 403)
        newcomer.join_choice = "upper" if upper else "lower"
        newcomer.save(update_fields=["join_choice"])


def leave_game(game_id: int, user) -> Seat:
    """Leave a game in progress: a bot plays the seat to the end of this round, then the
    player is out (or, at a table where a bot takes the seat of whoever leaves, the bot
    goes on playing it)."""
    with transaction.atomic():
        game = Game.locked(game_id)
        seat = game.seats.filter(user=user).first()
        if not game.is_playing or seat is None:
            raise Rejected(_("There is no game in progress to leave here."), 409)
        if seat.leaving or seat.left:
            raise Rejected(_("You have already left this game."), 409)
        _seat_change(game, user, check=False)
        if seat.joining:
            seat.delete()
            table_touched(game)
            return seat
        seat.stand_in = True
        if game.leaver_bot:
            seat.left = True
        else:
            seat.leaving = True
        seat.save(update_fields=["stand_in", "left", "leaving"])
        # The log tells it at once: at a table where a bot takes the seat, nothing more
        # is told of it between the rounds.
        record(game, seat.player, "leaving", {"bot": game.leaver_bot},
               [{"type": "leaving", "player": seat.player, "bot": game.leaver_bot}],
               "player", user)
        save_state(game, game.engine_state(), actor=seat.player)
        table_touched(game)
        wake_bots(game)
    return seat
