"""What every bot level builds on, below the registry (``games.engine.bots``), so that a
level never imports the registry that lists it."""

from __future__ import annotations

from ..actions import Action, action_from_json
from ..cards import counts_of


def legal_actions(view: dict) -> list[Action]:
    """The view's legal actions as action objects; a seat with none has nothing to decide,
    and asking a bot is a mistake."""
    actions = [action_from_json(a) for a in view["legal_actions"]]
    if not actions:
        raise ValueError("this seat has nothing to do")
    return actions


def counts(cards) -> list[int]:
    """A hand's count list (``cards.counts_of``) as a list, for a bot to change in place."""
    return list(counts_of(cards))


def unseen_of(view: dict, hand) -> list[int]:
    """The cards a seat holding ``hand`` has not seen, as counts: the other hands together
    (``deck - played - hand``), index 0 their total."""
    deck, played = view["deck"], view["played"]
    out = [0] * 14
    for r in range(1, 14):
        out[r] = deck[r] - played[r] - hand[r]
    out[0] = sum(out[1:])
    return out
