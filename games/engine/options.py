"""Table options (RULES.md sections 4, 5, 6 and 7)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

TRIBUTE_RETURNS = ("choice", "worst")
MERCHANT_TRADES = ("off", "chosen", "random")
PHILANTHROPIC = ("off", "per_position", "flat")


@dataclass(frozen=True, slots=True)
class Options:
    """The options a table agrees on before the first deal.

    ``rounds`` and ``target_score`` end the game: it ends after ``rounds`` rounds, or as
    soon as a round ends with somebody at ``target_score`` points or more, whichever comes
    first (use ``rounds=30`` to play "to a score").
    """

    reduced_deck: bool = False
    first_round_taxes: bool = True
    tribute_return: str = "choice"
    merchant_trade: str = "off"
    master_rule: bool = False
    philanthropic: str = "off"
    rounds: int = 10
    target_score: int | None = None

    def __post_init__(self) -> None:
        for name in ("reduced_deck", "first_round_taxes", "master_rule"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false")
        for name, allowed in (
            ("tribute_return", TRIBUTE_RETURNS),
            ("merchant_trade", MERCHANT_TRADES),
            ("philanthropic", PHILANTHROPIC),
        ):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}")
        if not _is_int(self.rounds) or not 1 <= self.rounds <= 30:
            raise ValueError("rounds must be a whole number from 1 to 30")
        if self.target_score is not None and (
            not _is_int(self.target_score) or self.target_score < 1
        ):
            raise ValueError("target_score must be a positive whole number or None")

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> Options:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown options: {', '.join(sorted(unknown))}")
        return cls(**data)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
