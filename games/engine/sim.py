"""A fast, mutable simulator of the play phase, for the bots' playouts.

``Round`` is the referee: immutable, checked, with events and views. A Monte-Carlo bot
plays thousands of rounds per move, so this module replays the same rules (docs/RULES.md
section 6) on plain lists, with no checks and nothing else. ``tests/engine/test_bots_sim.py``
plays seeded random rounds through both and checks that they agree move by move.

A hand is a list of 14 counts (``hand[r]`` cards of rank r, ``hand[0]`` the total), as in
``cards.py``. A move is ``None`` (pass) or ``(q, m, j)``: m cards of rank q and j jesters,
or ``(JESTER, m, 0)`` for m jesters alone.
"""

from __future__ import annotations

from .cards import JESTER, counts_of
from .hands import MOVES, follow_sets, lead_sets, set_cards
from .hands import round_points as points_of

Move = tuple[int, int, int] | None


def move_cards(move: Move) -> tuple[int, ...]:
    """The sorted cards of a move (``()`` for a pass)."""
    if move is None:
        return ()
    return set_cards(*move)


def move_of(cards) -> Move:
    """The move of a set of cards (``None`` for no cards)."""
    cards = tuple(cards)
    if not cards:
        return None
    j = cards.count(JESTER)
    if j == len(cards):
        return (JESTER, j, 0)
    return (min(cards), len(cards) - j, j)


def lead_moves(h) -> list[tuple[int, int, int]]:
    """Every set a hand can lead, in the order of ``Round.legal_actions``."""
    return lead_sets(h, MOVES)


def follow_moves(h, count: int, rank: int) -> list[tuple[int, int, int]]:
    """Every set of ``count`` cards of a rank better than ``rank`` (passing not included)."""
    return follow_sets(h, count, rank, MOVES, [])


class Sim:
    """The play phase. ``nxt[seat]`` is the seat after it in position order; ``last`` is
    ``(seat, count, rank)`` of the trick's last play or None when ``to_act`` leads."""

    __slots__ = ("n", "nxt", "order", "hands", "to_act", "last", "passes", "finish")

    def __init__(self, order, hands, to_act, last=None, passes=0, finish=()):
        n = len(order)
        nxt = [0] * n
        for i, s in enumerate(order):
            nxt[s] = order[(i + 1) % n]
        self.n = n
        self.nxt = nxt
        self.order = tuple(order)
        self.hands = [list(h) for h in hands]
        self.to_act = to_act
        self.last = last
        self.passes = passes
        self.finish = list(finish)

    @classmethod
    def from_round(cls, r) -> Sim:
        """The simulator at the state of a ``Round`` in its play phase (public API only)."""
        hands = [counts_of(r.hand(s)) for s in range(r.n_players)]
        last = None
        if r.trick:
            seat, cards = r.trick[-1]
            move = move_of(cards)
            last = (seat, move[1] + move[2], move[0])
        return cls(r.order, hands, r.to_act, last, len(r.passed), r.finish_order)

    def copy(self) -> Sim:
        new = Sim.__new__(Sim)
        new.n = self.n
        new.nxt = self.nxt
        new.order = self.order
        new.hands = [h[:] for h in self.hands]
        new.to_act = self.to_act
        new.last = self.last
        new.passes = self.passes
        new.finish = self.finish[:]
        return new

    @property
    def over(self) -> bool:
        return len(self.finish) == self.n

    def legal(self) -> list[Move]:
        """The moves of ``to_act``, in the order of ``Round.legal_actions``."""
        h = self.hands[self.to_act]
        last = self.last
        if last is None:
            return lead_sets(h, MOVES)
        return follow_sets(h, last[1], last[2], MOVES, [None])

    def step(self, move: Move) -> None:
        """``to_act`` makes ``move`` (assumed legal)."""
        seat = self.to_act
        hands = self.hands
        nxt = self.nxt
        if move is None:
            last = self.last
            self.passes += 1
            s = nxt[seat]
            while not hands[s][0]:
                s = nxt[s]
            holders = self.n - len(self.finish)
            if self.passes >= (holders - 1 if hands[last[0]][0] else holders):
                self.last = None
                self.passes = 0
            self.to_act = s
            return
        q, m, j = move
        h = hands[seat]
        h[q] -= m
        h[JESTER] -= j
        k = m + j
        h[0] -= k
        self.last = (seat, k, q)
        self.passes = 0
        if not h[0]:
            finish = self.finish
            finish.append(seat)
            if len(finish) == self.n - 1:
                for s in self.order:
                    if hands[s][0]:
                        finish.append(s)
                        break
                self.to_act = None
                return
        s = nxt[seat]
        while not hands[s][0]:
            s = nxt[s]
        self.to_act = s

    def place(self, seat: int) -> int | None:
        """The 0-based finishing place of ``seat`` once it is out, else None."""
        try:
            return self.finish.index(seat)
        except ValueError:
            return None


def round_points(order, finish, options: dict) -> list[int]:
    """The points of each seat for a complete finishing order (as ``Round.points``)."""
    return points_of(order, finish, options.get("philanthropic", "off"),
                     bool(options.get("master_rule")))
