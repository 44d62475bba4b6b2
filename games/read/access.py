"""The one door to a table's private parts: the requesting user's seat at it.

Every view of every app that shows or changes a table goes through here, so the rule
"no seat, no table" lives in one place.
"""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _

from dalmuti_site.compiled import CompiledQuery
from games.models import Game, Seat

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
        raise Http404(_("You have no seat at this table."))
    seat = found[0]
    # The seat's user is the one the request already read.
    seat.user = getattr(user, "_wrapped", user)
    return seat


def finished_seat_for_user(request, game_id: int) -> tuple[Game, Seat]:
    """The table and the user's seat at it, once the game is over. No seat: 404, as for
    the game itself; a seat at a game not yet over: 403 (its record reveals every hand)."""
    game, seat = seat_for_user(request, game_id)
    if not game.is_over:
        raise PermissionDenied(_("The record of a game opens once the game is over."))
    return game, seat


def game_to_watch(token: str) -> Game:
    """The game a watch link shows, while its host lets people watch; else 404."""
    game = Game.objects.filter(watch_token=token).exclude(watch_token="") \
        .exclude(status=Game.Status.OPEN).first()
    if game is None or not token:
        raise Http404(_("Nobody can watch this table."))
    return game
