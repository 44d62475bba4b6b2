"""What a round is made of: the table, the records of taxes and trade, the open decisions,
and the immutable state that every phase reads and builds anew (``make``)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple

from ..cards import cards_of, title
from ..errors import IllegalMove
from ..options import Options

Hand = tuple[int, ...]
Exchange = tuple[int, int, tuple[int, ...]]  # (from seat, to seat, cards)


class TaxStatus(StrEnum):
    """Where the taxes stand. ``none``: no taxes this round (a first round without them);
    ``cancelled``: a revolution cancelled them."""

    NONE = "none"
    PENDING = "pending"
    CANCELLED = "cancelled"
    DONE = "done"


class TradeStatus(StrEnum):
    """Where the merchant trade stands."""

    NONE = "none"
    CHOOSING_PARTNER = "choosing_partner"
    CHOOSING_CARDS = "choosing_cards"
    DECLINED = "declined"
    DONE = "done"


class Table(NamedTuple):
    """What stays fixed while the round is played."""

    n: int
    options: Options
    first_round: bool
    seed: int
    order: tuple[int, ...]
    pos: tuple[int, ...]  # pos[seat]: 0-based position in order
    nxt: tuple[int, ...]  # nxt[seat]: the seat after it in order
    deck: tuple[int, ...]  # counts of the cards the round was dealt with


def new_table(n: int, options: Options, first_round: bool, seed: int, order: tuple[int, ...],
          deck: tuple[int, ...]) -> Table:
    pos = [0] * n
    nxt = [0] * n
    for i, s in enumerate(order):
        pos[s] = i
        nxt[s] = order[(i + 1) % n]
    return Table(n, options, first_round, seed, tuple(order), tuple(pos), tuple(nxt), deck)


class Records(NamedTuple):
    """What was decided and exchanged before the play."""

    revolution: tuple[int, bool] | None = None  # (seat, great)
    taxes_status: TaxStatus = TaxStatus.NONE
    tax_plan: tuple[tuple[int, int, int], ...] = ()  # (peon, dalmuti, count)
    taxes: tuple[Exchange, ...] = ()
    trade_status: TradeStatus = TradeStatus.NONE
    trade_pair: tuple[int, int] | None = None
    trades: tuple[Exchange, ...] = ()


class Decide(NamedTuple):
    """Decisions still open in the tax or trade phase."""

    jester_seat: int | None  # seat still deciding on a revolution
    choices: tuple[tuple[int, ...] | None, ...]  # per seat: chosen give-back / trade card


class Fields(NamedTuple):
    """The parts of a round, every one immutable."""

    table: Table
    phase: str  # "taxes", "trade", "play" or "over"
    hands: tuple[Hand, ...]  # per seat
    pending: tuple[int, ...]  # taxes and trade: the seats still to decide, in position order
    decide: Decide | None  # taxes and trade: the decisions still open
    records: Records
    to_act: int | None  # play: the seat to act (None in the other phases)
    trick: tuple[tuple[int, tuple[int, ...]], ...]  # the open trick's plays, (seat, cards)
    last: tuple[int, int, int] | None  # the trick's last play, (seat, count, rank)
    passed: tuple[int, ...]  # the seats that passed since the trick's last play
    finish_order: tuple[int, ...]  # the seats out of cards, first out first
    result: tuple[tuple[int, ...], tuple[int, ...]] | None  # over: (points, next order)
    events: tuple[tuple, ...]  # the last move's events, as stored (see ``..events``)
    history: tuple[tuple[tuple[int, tuple[int, ...] | None], ...], ...]  # tricks so far;
    # a move is (seat, cards) or (seat, None) for a pass


class RoundState(Fields):
    """The data of one round and what anybody may read of it; ``Round`` (the package)
    adds the moves, the views and the JSON form. Immutable: every move builds a new
    state with ``make``. (A tuple underneath: building one is what every move costs.)"""

    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # ``make`` builds the one class that completes this one (``Round``), so that the
        # phases below it can build rounds without importing it.
        global _built
        super().__init_subclass__(**kwargs)
        _built = cls

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Round is immutable")

    __delattr__ = __setattr__

    @property
    def n_players(self) -> int:
        return self.table.n

    @property
    def options(self) -> Options:
        return self.table.options

    @property
    def first_round(self) -> bool:
        return self.table.first_round

    @property
    def seed(self) -> int:
        return self.table.seed

    @property
    def awaiting(self) -> tuple[int, ...]:
        """Every seat that may act now, in position order. Secret: in the tax phase this
        includes a seat deciding on a revolution; show players ``view(seat)["awaiting"]``."""
        if self.phase == "play":
            return (self.to_act,)
        return self.pending

    @property
    def order(self) -> tuple[int, ...]:
        """The seats in position order for this round's play."""
        return self.table.order

    def hand(self, seat: int) -> list[int]:
        return cards_of(self.hands[seat])

    def count(self, seat: int) -> int:
        return self.hands[seat][0]

    def position(self, seat: int) -> int:
        """The 0-based position of a seat this round (0 = Great Dalmuti)."""
        return self.table.pos[seat]

    def title(self, seat: int) -> str:
        return title(self.table.pos[seat], self.table.n)

    @property
    def points(self) -> tuple[int, ...] | None:
        """Per seat, what it scored this round; None until the round is over."""
        return self.result[0] if self.result else None

    @property
    def next_order(self) -> tuple[int, ...] | None:
        """This round's seats in the next round's position order; None until over."""
        return self.result[1] if self.result else None

    @property
    def revolution(self) -> dict | None:
        """``{"seat": s, "great": bool}`` once a revolution is declared."""
        rev = self.records.revolution
        return {"seat": rev[0], "great": rev[1]} if rev else None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RoundState):
            return NotImplemented
        return tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, RoundState):
            return NotImplemented
        return tuple.__ne__(self, other)

    def __repr__(self) -> str:
        return (
            f"<Round {self.phase} n={self.table.n} to_act={self.to_act} "
            f"counts={[h[0] for h in self.hands]}>"
        )


_built: type[RoundState] = RoundState
_new = tuple.__new__


def make(
    *,
    table: Table,
    phase: str,
    hands: tuple[Hand, ...],
    records: Records,
    events: tuple,
    pending: tuple[int, ...] = (),
    decide: Decide | None = None,
    to_act: int | None = None,
    trick: tuple = (),
    last: tuple[int, int, int] | None = None,
    passed: tuple[int, ...] = (),
    finish_order: tuple[int, ...] = (),
    result: tuple[tuple[int, ...], tuple[int, ...]] | None = None,
    history: tuple = (),
) -> RoundState:
    """A new round state (a ``Round``), every part named."""
    return _new(_built, (table, phase, hands, pending, decide, records, to_act, trick, last,
                         passed, finish_order, result, events, history))


def deciding(*, table: Table, phase: str, hands: tuple[Hand, ...], pending: tuple[int, ...],
             decide: Decide, records: Records, events: tuple) -> RoundState:
    """A round in the tax or trade phase, waiting on ``pending``."""
    return make(table=table, phase=phase, hands=hands, pending=pending, decide=decide,
                records=records, events=events)


def check_seat(r: RoundState, seat: object) -> None:
    if type(seat) is not int or not 0 <= seat < r.table.n:
        raise IllegalMove("no_such_seat", seat=seat)
