"""What every bot level builds on, below the registry (games.engine.bots), so that a level
never imports the registry that lists it."""

from __future__ import annotations

from .actions import Action, action_from_json


def legal_actions(view: dict) -> list[Action]:
    """The view's legal actions as action objects."""
    return [action_from_json(a) for a in view["legal_actions"]]
