"""A hint at a table where the host allows them: the expert's evaluation of the decision in
front of the player, made from that player's own view only, once per decision.

The suggestion is kept on the seat with the turn token it answers (`Seat.hint_turn`):
asking again in the same turn, or twice at once (the seat's row lock makes the second
wait for the first), costs nothing more, so hints cannot be used to keep the server busy.
What is kept is plain data (actions and expected places); `games.read.hints` says it in
the reader's language.
"""

import hashlib
import json
import logging

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from .. import engine
from ..engine.review import evaluate
from ..models import Game, Seat
from .base import Rejected

logger = logging.getLogger(__name__)


def expert_effort() -> engine.Effort:
    """The expert bot's own search effort on this site (its time budget per move)."""
    return engine.Effort(budget=settings.DALMUTI_EXPERT_BUDGET,
                         samples=settings.DALMUTI_EXPERT_SAMPLES)


def advise(view: dict, effort: engine.Effort) -> dict:
    """The hint for the decision in `view` (a seat's own view, nothing else): the best
    candidate and the next one with their expected places in the round. The sampling is
    seeded from the view itself, so the same view always gets the same hint whatever the
    hidden cards are."""
    seed = int.from_bytes(hashlib.sha256(
        json.dumps(view, sort_keys=True).encode()).digest()[:8], "big")
    candidates = evaluate(view, seed, effort)
    best = candidates[0]
    hint = {"best": best.action, "best_place": best.place, "samples": best.samples,
            "alternative": None, "alternative_place": None}
    if len(candidates) > 1 and best.place is not None:
        hint["alternative"] = candidates[1].action
        hint["alternative_place"] = candidates[1].place
    return hint


def give_hint(game_id: int, user) -> Seat:
    """The hint for `user`'s decision at this table, computed once per decision; the seat
    comes back with it (`hint`, for the turn `hint_turn`). Refused at a table without
    hints (403) and when the player has nothing to decide (409)."""
    with transaction.atomic():
        seat = Seat.objects.select_for_update().select_related("game").filter(
            game_id=game_id, user=user).first()
        if seat is None:
            raise Rejected(_("You have no seat at this table."), 404)
        game: Game = seat.game
        if not game.hints_allowed:
            raise Rejected(_("This table does not allow hints."), 403)
        wait = game.wait_for(seat.player) if game.is_playing else None
        view = game.engine_state().view(seat.player) if wait else None
        if wait is None or not view["legal_actions"] or seat.played_by_bot:
            raise Rejected(_("There is nothing for you to decide now."), 409)
        if seat.hint_turn == wait.token and seat.hint:
            return seat
        try:
            seat.hint = advise(view, expert_effort())
        except Exception:  # a flaw of the search must not break the table: no hint
            logger.exception("no hint for table %s, player %s", game.pk, seat.player)
            raise Rejected(_("No hint can be given for this decision."), 503) from None
        seat.hint_turn = wait.token
        seat.save(update_fields=["hint", "hint_turn"])
    return seat
