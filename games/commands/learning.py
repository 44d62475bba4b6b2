"""Learning the game: the guided first game ("Learn by playing") and its dismissed tips."""

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from .. import engine
from ..models import DismissedTip, Game
from .base import Rejected
from .tables import add_bot, create_table, start

# A short game against the simplest bots, which answer at once.
GUIDED_BOTS = 4
GUIDED_LEVEL = "basic"
GUIDED_ROUNDS = 3


def start_guided_game(user) -> Game:
    """A table for `user` and four basic bots, started at once, with the tips of a guided
    game and hints allowed (so it is not rated). A player with a guided game in play
    goes back to it rather than opening another."""
    running = Game.objects.filter(
        guided=True, host=user, status=Game.Status.PLAYING).order_by("-created").first()
    if running is not None:
        return running
    options = engine.Options(rounds=GUIDED_ROUNDS).to_json()
    with transaction.atomic():
        game = create_table(user, _("Learning table"), GUIDED_BOTS + 1, options,
                            hints_allowed=True, guided=True)
        for _bot in range(GUIDED_BOTS):
            add_bot(game.pk, GUIDED_LEVEL)
        start(game.pk, started_by=user)
    return Game.objects.get(pk=game.pk)


def dismiss_tip(user, key: str, known: set[str]) -> None:
    """Remember that `user` read the tip `key` (one of `known`): it is not shown again."""
    if key not in known:
        raise Rejected(_("There is no such tip."), 404)
    try:
        with transaction.atomic():
            DismissedTip.objects.get_or_create(user=user, key=key)
    except IntegrityError:  # dismissed twice at once: once is enough
        pass
