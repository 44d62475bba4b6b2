"""The registry's unit: one phase of a round, with its legal actions and its moves.

``Round.legal_actions`` and ``Round.apply`` look the current phase up in the registry
(``PHASE_RULES`` in the package) and hand over to it. The checks every phase makes in the
same order (the seat exists, the action is one the engine knows, the round is not over,
the action belongs to this phase, the seat is awaited) are written here once, so that a
move refused for several reasons is always refused for the same one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from ..actions import Action, GiveBack, Pass, Play, Revolution, Trade, TradeCard
from ..errors import IllegalMove
from .state import RoundState, check_seat

ACTION_TYPES = (Play, Pass, GiveBack, Revolution, Trade, TradeCard)

Handler = Callable[[RoundState, int, Action], RoundState]


class PhaseRules:
    """How one phase is played. ``moves`` maps each action type of the phase to the
    function applying it once the common checks have passed."""

    name: ClassVar[str]
    moves: ClassVar[dict[type, Handler]] = {}

    def legal_actions(self, r: RoundState, seat: int) -> list[Action]:
        """Exactly the actions ``apply`` accepts from ``seat`` now."""
        if seat not in r.pending:
            return []
        return self.choices(r, seat)

    def choices(self, r: RoundState, seat: int) -> list[Action]:
        """The actions of ``seat``, awaited now."""
        return []

    def apply(self, r: RoundState, seat: int, action: Action) -> RoundState:
        check_seat(r, seat)
        kind = type(action)
        if kind not in ACTION_TYPES:
            raise IllegalMove("unknown_action")
        move = self.moves.get(kind)
        if move is None:
            raise IllegalMove("wrong_phase", phase=self.name)
        if seat not in r.pending:
            self.refuse_unawaited(r, seat, action)
        return move(r, seat, action)

    def refuse_unawaited(self, r: RoundState, seat: int, action: Action) -> None:
        """Raise why ``seat``, not awaited now, may not take ``action``."""
        raise IllegalMove("not_awaited")


class Over(PhaseRules):
    """The round is over: nobody acts."""

    name = "over"

    def apply(self, r: RoundState, seat: int, action: Action) -> RoundState:
        check_seat(r, seat)
        if type(action) not in ACTION_TYPES:
            raise IllegalMove("unknown_action")
        raise IllegalMove("round_over")
