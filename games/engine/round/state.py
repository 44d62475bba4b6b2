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


def table(n: int, options: Options, first_round: bool, seed: int, order: tuple[int, ...],
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


SLOTS = (
    "_t",
    "_phase",
    "_hands",
    "_pending",
    "_decide",
    "_rec",
    "_to_act",
    "_trick",
    "_last",
    "_passed",
    "_finish",
    "_result",
    "_events",
    "_history",
)


class RoundState:
    """The data of one round and what anybody may read of it; ``Round`` (the package)
    adds the moves, the views and the JSON form. Immutable: every move builds a new
    state with ``make``.

    ``_last`` is ``(seat, count, rank)`` of the trick's last play; ``_events`` the compact
    events of the last move (see ``..events``); ``_history`` the tricks so far as
    ``(seat, cards or None for a pass)``."""

    __slots__ = SLOTS

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # ``make`` builds the one class that completes this one (``Round``), so that the
        # phases below it can build rounds without importing it.
        super().__init_subclass__(**kwargs)
        _built[0] = cls

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Round is immutable")

    __delattr__ = __setattr__

    @property
    def n_players(self) -> int:
        return self._t.n

    @property
    def options(self) -> Options:
        return self._t.options

    @property
    def first_round(self) -> bool:
        return self._t.first_round

    @property
    def seed(self) -> int:
        return self._t.seed

    @property
    def phase(self) -> str:
        """``"taxes"``, ``"trade"``, ``"play"`` or ``"over"``."""
        return self._phase

    @property
    def awaiting(self) -> tuple[int, ...]:
        """Every seat that may act now, in position order. Secret: in the tax phase this
        includes a seat deciding on a revolution; show players ``view(seat)["awaiting"]``."""
        if self._phase == "play":
            return (self._to_act,)
        return self._pending

    @property
    def to_act(self) -> int | None:
        return self._to_act if self._phase == "play" else None

    @property
    def order(self) -> tuple[int, ...]:
        """The seats in position order for this round's play."""
        return self._t.order

    def hand(self, seat: int) -> list[int]:
        return cards_of(self._hands[seat])

    def count(self, seat: int) -> int:
        return self._hands[seat][0]

    def position(self, seat: int) -> int:
        """The 0-based position of a seat this round (0 = Great Dalmuti)."""
        return self._t.pos[seat]

    def title(self, seat: int) -> str:
        return title(self._t.pos[seat], self._t.n)

    @property
    def finish_order(self) -> tuple[int, ...]:
        return self._finish

    @property
    def points(self) -> tuple[int, ...] | None:
        """Per seat, what it scored this round; None until the round is over."""
        return self._result[0] if self._result else None

    @property
    def next_order(self) -> tuple[int, ...] | None:
        """This round's seats in the next round's position order; None until over."""
        return self._result[1] if self._result else None

    @property
    def revolution(self) -> dict | None:
        """``{"seat": s, "great": bool}`` once a revolution is declared."""
        rev = self._rec.revolution
        return {"seat": rev[0], "great": rev[1]} if rev else None

    @property
    def trick(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """The plays of the current trick, ``(seat, cards)``."""
        return self._trick

    @property
    def passed(self) -> tuple[int, ...]:
        """The seats that passed since the last play of the current trick."""
        return self._passed

    def _key(self) -> tuple:
        return tuple(getattr(self, name) for name in SLOTS)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RoundState):
            return NotImplemented
        return self._key() == other._key()

    def __repr__(self) -> str:
        return (
            f"<Round {self._phase} n={self._t.n} to_act={self.to_act} "
            f"counts={[h[0] for h in self._hands]}>"
        )


_built: list[type[RoundState]] = [RoundState]
_new = object.__new__
(
    _s_t,
    _s_phase,
    _s_hands,
    _s_pending,
    _s_decide,
    _s_rec,
    _s_to_act,
    _s_trick,
    _s_last,
    _s_passed,
    _s_finish,
    _s_result,
    _s_events,
    _s_history,
) = [RoundState.__dict__[name].__set__ for name in SLOTS]


def make(
    *,
    t: Table,
    phase: str,
    hands: tuple[Hand, ...],
    rec: Records,
    events: tuple,
    pending: tuple[int, ...] = (),
    decide: Decide | None = None,
    to_act: int | None = None,
    trick: tuple = (),
    last: tuple[int, int, int] | None = None,
    passed: tuple[int, ...] = (),
    finish: tuple[int, ...] = (),
    result: tuple[tuple[int, ...], tuple[int, ...]] | None = None,
    history: tuple = (),
) -> RoundState:
    """A new round state (a ``Round``), every part named."""
    r = _new(_built[0])
    _s_t(r, t)
    _s_phase(r, phase)
    _s_hands(r, hands)
    _s_pending(r, pending)
    _s_decide(r, decide)
    _s_rec(r, rec)
    _s_to_act(r, to_act)
    _s_trick(r, trick)
    _s_last(r, last)
    _s_passed(r, passed)
    _s_finish(r, finish)
    _s_result(r, result)
    _s_events(r, events)
    _s_history(r, history)
    return r


def deciding(t: Table, phase: str, hands: tuple[Hand, ...], pending: tuple[int, ...],
             decide: Decide, rec: Records, events: tuple) -> RoundState:
    """A round in the tax or trade phase, waiting on ``pending``."""
    return make(t=t, phase=phase, hands=hands, pending=pending, decide=decide, rec=rec,
                events=events)


def check_seat(r: RoundState, seat: object) -> None:
    if type(seat) is not int or not 0 <= seat < r._t.n:
        raise IllegalMove("no_such_seat", seat=seat)
