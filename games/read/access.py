"""The one door to a table's private parts: the requesting user's seat at it.

Every view of every app that shows or changes a table goes through here, so the rule
"no seat, no table" lives in one place.
"""

from typing import NoReturn
from urllib.parse import urlsplit

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _

from dalmuti_site.compiled import CompiledQuery
from games.models import Game, Invitation, NeverDealtIn, Removal, Seat
from leagues.models import League, Rematch, Replacement

# Every page and every action at a table asks one of these first (compiled once).
_SEAT_WITH_TABLE = CompiledQuery(
    lambda game_id, user_id: Seat.objects.select_related("game")
    .filter(game_id=game_id, user_id=user_id)[:1])
_SEAT = CompiledQuery(
    lambda game_id, user_id: Seat.objects.filter(game_id=game_id, user_id=user_id)[:1])


def seat_for_user(request, game_id: int) -> tuple[Game, Seat]:
    """The table and the requesting user's seat at it. Anyone without a seat gets a 404,
    whether or not the table exists."""
    seat = _users_seat(request, game_id, _SEAT_WITH_TABLE)
    return seat.game, seat


def seat_to_act(request, game_id: int) -> Seat:
    """The requesting user's seat at the table, as `seat_for_user` finds it, without the
    table: a change reads the table again under its lock (games.commands), and a move
    is the request made most often."""
    return _users_seat(request, game_id, _SEAT)


def _users_seat(request, game_id: int, query: CompiledQuery) -> Seat:
    user = request.user
    found = query(game_id, user.pk) if user.pk is not None else []
    if not found:
        no_seat(user, game_id)
    seat = found[0]
    # The seat's user is the one the request already read.
    seat.user = getattr(user, "_wrapped", user)
    return seat


class SeatGivenToBot(Exception):
    """The user's seat at this table was given to a bot by an organiser. Not "no seat
    here": a player whose table vanished with a 404 would not know why, nor that the
    rounds they played still count. Answered by games.middleware."""

    def __init__(self, replacement: Replacement):
        super().__init__(replacement)
        self.replacement = replacement


class TakenOffTable(Exception):
    """The host took the user off this table before it started (and has not invited them
    again). Not "no seat here": a friend who sat at a table would think it vanished.
    Answered by games.middleware."""

    def __init__(self, game: Game):
        super().__init__(game)
        self.game = game


class NeverDealtInTable(Exception):
    """The user waited to join this table at its next round, and the game ended first.
    Not "no seat here": the table they joined would seem to have vanished. Answered by
    games.middleware."""

    def __init__(self, game: Game):
        super().__init__(game)
        self.game = game


class InvitedHere(Http404):
    """No seat, but an invitation to this table: its page, asked for by its address, leads
    to the seat offered (games.middleware); anything else is "no seat here", as ever."""

    def __init__(self, game: Game):
        super().__init__(_("You have no seat at this table."))
        self.game = game


def no_seat(user, game_id: int) -> NoReturn:
    """The answer to a user without a seat at the table: what happened to their seat if
    an organiser gave it to a bot, the host took them off or the game ended before their
    first round, the way to the seat offered
    to someone invited, else 404, whether or not the table exists. Only someone who had
    the seat, or is offered one, learns anything."""
    if user.pk is not None:
        replacement = (Replacement.objects.select_related("game")
                       .filter(game_id=game_id, user_id=user.pk).order_by("-created").first())
        if replacement is not None:
            raise SeatGivenToBot(replacement)
        removal = (Removal.objects.select_related("game__host").with_invited_again()
                   .filter(game_id=game_id, user_id=user.pk).first())
        if removal is not None and not removal.invited_again:
            raise TakenOffTable(removal.game)
        never = NeverDealtIn.objects.select_related("game").filter(
            game_id=game_id, user_id=user.pk).first()
        if never is not None:
            raise NeverDealtInTable(never.game)
        invitation = (Invitation.objects.for_user(user).select_related("game")
                      .filter(game_id=game_id).first())
        if invitation is not None:
            raise InvitedHere(invitation.game)
    raise Http404(_("You have no seat at this table."))


def replacement_context(replacement: Replacement) -> dict:
    """What the replaced player is told (their page at the table, the email, the push):
    the table, the bot, from which round, the organiser's reason and the league whose
    standings keep the rounds they played."""
    return {"game": replacement.game, "replacement": replacement,
            "league": League.objects.of_game(replacement.game_id)}


class RecordNotYet(PermissionDenied):
    """The record of a game still in play (it reveals every hand): its 403 page leads to
    the table itself."""

    def __init__(self, game: Game):
        super().__init__(_("The record of a game opens once the game is over."))
        self.way = (game.get_absolute_url(), _("Back to the table"))


def finished_seat_for_user(request, game_id: int) -> tuple[Game, Seat]:
    """The table and the user's seat at it, once the game is over. No seat: 404, as for
    the game itself; a seat at a game not yet over: 403 (its record reveals every hand)."""
    game, seat = seat_for_user(request, game_id)
    if not game.is_over:
        raise RecordNotYet(game)
    if game.started is None:
        raise Http404(_("This table closed before its game began: nothing was played."))
    return game, seat


def record_reader(request, game_id: int) -> tuple[Game, int, Replacement | None]:
    """A finished game's record as one of its players reads it: the game, the player
    index of their seat, and the organiser's replacement when a bot took that seat from
    them. Once the game is over its record shows every hand to all who sat at it, the
    replaced player too; the rounds from the replacement on are the bot's. While it is in
    play, a replaced player is told what happened (`SeatGivenToBot`)."""
    try:
        game, seat = finished_seat_for_user(request, game_id)
    except SeatGivenToBot as gone:
        if not gone.replacement.game.is_over:
            raise
        return gone.replacement.game, gone.replacement.player, gone.replacement
    return game, seat.player, None


def game_to_watch(token: str) -> Game:
    """The game a watch link shows, while its host lets people watch; else 404."""
    game = Game.objects.filter(watch_token=token).exclude(watch_token="") \
        .exclude(status=Game.Status.OPEN).first()
    if game is None or not token:
        raise Http404(_("Nobody can watch this table."))
    return game


def table_named_to(user, path: str) -> Game | None:
    """The table a page of this site (a `next`) leads to, if `user` may read its name
    there: a table's link names it to whoever holds the link, a table's page only to
    someone seated or invited at it. Else None: a `next` is typed by anyone."""
    try:
        match = resolve(urlsplit(path).path)
    except Resolver404:
        return None
    if match.url_name == "join":
        return Game.objects.filter(invite_token=match.kwargs["token"]).first()
    if match.url_name == "game" and user.pk is not None:
        game_id = match.kwargs["game_id"]
        if (Seat.objects.filter(game_id=game_id, user_id=user.pk).exists()
                or Invitation.objects.for_user(user).filter(game_id=game_id).exists()):
            return Game.objects.filter(pk=game_id).first()
    return None


def rematch_for(game: Game, user) -> dict:
    """The one way a finished game's page and record offer to its rematch: to open one;
    to join it while it fills up and the reader has no seat there; else to go to it."""
    rematch = Rematch.objects.filter(previous=game).select_related("game").first()
    return {"rematch": rematch,
            "join_rematch": rematch is not None and rematch.game.is_open
            and not rematch.game.seats.filter(user=user).exists()}
