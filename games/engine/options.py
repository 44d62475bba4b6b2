"""Table options (docs/RULES.md sections 3 to 7, and the rulebooks' other readings).

Every option defaults to the standard rules, so ``Options.from_json({})`` is the classic
game and option dicts stored before an option existed still load unchanged.

* ``seating_ties`` (the first seating draw, section 3): ``"tied_redraw"`` (French book and
  the Korean-German text): all players who drew the same rank draw again, and a redraw
  only orders them among themselves; ``"until_unique"`` (both Dutch books and the German
  Amigo book): players draw one after another, and whoever draws a rank somebody already
  drew keeps drawing until they hold a rank of their own, which places them against
  everyone.
* ``great_revolution`` (section 5): ``"declared"`` (German Korean text "kann", French
  "peut"): a Greater Peon dealt both jesters may declare a Great Revolution or keep quiet;
  ``"at_once"`` (Dutch "onverwijld", German Amigo "dann kommt es zum großen Aufstand"): it
  happens as soon as the cards are dealt. An ordinary revolution is always a choice.
* ``reduced_deck``, ``first_round_taxes``, ``tribute_return``: sections 4 and 5.
* ``merchant_trade`` (section 5) and ``merchant_trade_from``: the Merchants trade from 6
  players (the default, two Merchants at least) or only from 7 (German Korean text: "wenn
  mehr als sechs Personen spielen"). Below that number of players there is no trade.
* ``master_rule``, ``philanthropic``: section 6 and 7.
* ``scoring``: True scores points (section 7); False (French book: points are "for the
  players who want a points system") scores none: the standings rank the players by the
  positions the last round gave them (``Game.standings``). It excludes a target score and
  philanthropic scoring.
* The length of the game: ``rounds`` (1 to 30) ends it after that many rounds;
  ``target_score`` ends it as soon as a round ends with somebody at that score or more;
  with both, whichever comes first (tables stored before games could be open-ended played
  "to a score" with ``rounds=30``). With neither (``rounds=None, target_score=None``) the
  game is open-ended (German Amigo book: "gleich die ganze Nacht lang"): it goes on until
  ``Game.end_after_this_round`` is called. ``Game.end_after_this_round`` also ends any
  other game early.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

TRIBUTE_RETURNS = ("choice", "worst")
MERCHANT_TRADES = ("off", "chosen", "random")
MERCHANT_TRADE_FROM = (6, 7)
PHILANTHROPIC = ("off", "per_position", "flat")
SEATING_TIES = ("tied_redraw", "until_unique")
GREAT_REVOLUTIONS = ("declared", "at_once")
MAX_ROUNDS = 30


@dataclass(frozen=True, slots=True)
class Options:
    """The options a table agrees on before the first deal (see the module docstring)."""

    reduced_deck: bool = False
    first_round_taxes: bool = True
    tribute_return: str = "choice"
    merchant_trade: str = "off"
    master_rule: bool = False
    philanthropic: str = "off"
    rounds: int | None = 10
    target_score: int | None = None
    seating_ties: str = "tied_redraw"
    great_revolution: str = "declared"
    scoring: bool = True
    merchant_trade_from: int = 6

    def __post_init__(self) -> None:
        for name in ("reduced_deck", "first_round_taxes", "master_rule", "scoring"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false")
        for name, allowed in (
            ("tribute_return", TRIBUTE_RETURNS),
            ("merchant_trade", MERCHANT_TRADES),
            ("philanthropic", PHILANTHROPIC),
            ("seating_ties", SEATING_TIES),
            ("great_revolution", GREAT_REVOLUTIONS),
        ):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}")
        if not _is_int(self.merchant_trade_from) or self.merchant_trade_from not in (
            MERCHANT_TRADE_FROM
        ):
            raise ValueError("merchant_trade_from must be 6 or 7")
        if self.rounds is not None and (
            not _is_int(self.rounds) or not 1 <= self.rounds <= MAX_ROUNDS
        ):
            raise ValueError(f"rounds must be a whole number from 1 to {MAX_ROUNDS} or None")
        if self.target_score is not None and (
            not _is_int(self.target_score) or self.target_score < 1
        ):
            raise ValueError("target_score must be a positive whole number or None")
        if not self.scoring and self.target_score is not None:
            raise ValueError("a target score needs scoring")
        if not self.scoring and self.philanthropic != "off":
            raise ValueError("philanthropic scoring needs scoring")

    @property
    def open_ended(self) -> bool:
        """True when only ``Game.end_after_this_round`` ends the game."""
        return self.rounds is None and self.target_score is None

    def to_json(self) -> dict:
        # Every field is a plain value, so asdict's recursive copy would only cost time,
        # and this runs for every view of the table.
        return {name: getattr(self, name) for name in _FIELD_NAMES}

    @classmethod
    def from_json(cls, data: dict) -> Options:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown options: {', '.join(sorted(unknown))}")
        return cls(**data)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_FIELD_NAMES = tuple(f.name for f in fields(Options))
