"""The actions a seat can take, and their JSON form.

Card tuples are normalised to sorted order, so ``Play((13, 6, 6)) == Play((6, 6, 13))``.
"""

from __future__ import annotations

from dataclasses import dataclass


def _sorted_tuple(cards) -> tuple:
    try:
        return tuple(sorted(cards))
    except TypeError:
        return tuple(cards)


@dataclass(frozen=True, slots=True)
class Play:
    """Play a set: cards of one rank, jesters allowed among them (or jesters alone)."""

    cards: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _sorted_tuple(self.cards))


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass when following a play (the leader may not pass)."""


@dataclass(frozen=True, slots=True)
class GiveBack:
    """A Dalmuti's return in the taxes: chosen from the dealt hand, no jesters."""

    cards: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _sorted_tuple(self.cards))


@dataclass(frozen=True, slots=True)
class Revolution:
    """The holder of both jesters declares a revolution (True) or keeps quiet (False)."""

    declare: bool


@dataclass(frozen=True, slots=True)
class Trade:
    """The best placed Merchant picks another Merchant's seat to trade with, or declines
    with ``partner=None``."""

    partner: int | None


@dataclass(frozen=True, slots=True)
class TradeCard:
    """In a ``chosen`` merchant trade, the card each of the two Merchants gives."""

    card: int


Action = Play | Pass | GiveBack | Revolution | Trade | TradeCard

PASS = Pass()


def action_to_json(action: Action) -> dict:
    """The JSON form of an action: ``{"type": ..., ...}``."""
    kind = type(action)
    if kind is Play:
        return {"type": "play", "cards": list(action.cards)}
    if kind is Pass:
        return {"type": "pass"}
    if kind is GiveBack:
        return {"type": "give_back", "cards": list(action.cards)}
    if kind is Revolution:
        return {"type": "revolution", "declare": action.declare}
    if kind is Trade:
        return {"type": "trade", "partner": action.partner}
    if kind is TradeCard:
        return {"type": "trade_card", "card": action.card}
    raise TypeError(f"not an action: {action!r}")


def action_from_json(data: dict) -> Action:
    """The action of a JSON form made by ``action_to_json``; ValueError if malformed."""
    if not isinstance(data, dict):
        raise ValueError("an action must be a JSON object")
    kind = data.get("type")
    try:
        if kind == "play":
            return Play(tuple(data["cards"]))
        if kind == "pass":
            return PASS
        if kind == "give_back":
            return GiveBack(tuple(data["cards"]))
        if kind == "revolution":
            return Revolution(bool(data["declare"]))
        if kind == "trade":
            return Trade(data["partner"])
        if kind == "trade_card":
            return TradeCard(data["card"])
    except (KeyError, TypeError) as exc:
        raise ValueError(f"malformed {kind} action") from exc
    raise ValueError(f"unknown action type: {kind!r}")
