"""What deleting an account would do to the tables its player is at, read before anyone
confirms it: by the player on their own page, by a superuser in the admin."""

from dataclasses import dataclass, field

from games.core.turns import leaving_ends_game
from games.models import Game, Seat


@dataclass
class TablesLeft:
    in_play: list[Game] = field(default_factory=list)  # a bot plays their cards
    ended: set[int] = field(default_factory=set)  # in play, and ended by their leaving
    hosted: list[Game] = field(default_factory=list)  # open, closed with them
    seated: list[Game] = field(default_factory=list)  # open, their seat freed

    def __bool__(self) -> bool:
        return bool(self.in_play or self.hosted or self.seated)


def tables_left(user_id: int) -> TablesLeft:
    """The tables the account's deletion leaves, oldest first, as `delete_account`
    leaves them (a seat already leaving or left is not left again)."""
    seats = (Seat.objects.filter(user_id=user_id, leaving=False, left=False,
                                 game__status__in=(Game.Status.OPEN, Game.Status.PLAYING))
             .select_related("game").order_by("game__created"))
    left = TablesLeft()
    for seat in seats:
        game = seat.game
        if game.is_playing:
            left.in_play.append(game)
            if leaving_ends_game(game, list(game.seats.all()), game.engine_state()):
                left.ended.add(game.pk)
        elif game.host_id == user_id:
            left.hosted.append(game)
        else:
            left.seated.append(game)
    return left
