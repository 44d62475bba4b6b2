"""What the skilled bot knows about the cards, and the odds it reads from them.

Everything comes from the seat's view. The unseen cards (``deck - played - hand``) are
exactly the other hands together, so a ``Knowledge`` tells which sets somebody could
still beat: a set nobody can beat is a *control*, it wins the lead back. It values a hand
by roughly how many leads it still needs to shed it (``hand_cost``: a weak set costs about
one, a control gives one back, a jester helps), with the chance that a set is beaten taken
from how the unseen cards may be spread over the other hands (the tables below), less the
seats that passed on a weaker set of the same size this round.

The same ``Knowledge`` drives the ``expert`` bot's playouts, so it is written to be fast:
values are worked out on demand and cached for the one decision.
"""

from __future__ import annotations

from math import comb

from ..cards import JESTER
from ..hands import UNBEATABLE
from .common import counts, unseen_of

# Tuned with the arena (arena.py), with the move scores of ``skilled``. FOLLOW[k]: how
# likely a k-card set is shed on somebody else's lead (times the share of worse cards
# out); CONTROL[k]: what a k-card set nobody can beat is worth (a lead won back); then a
# jester and a card in hand.
FOLLOW = (0.0, 0.75, 0.55, 0.35, 0.25, 0.2, 0.15, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1)
CONTROL = (0.0, 0.9, 0.8, 0.7, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6)
JESTER_VALUE = 0.6
CARD_VALUE = 0.04


class Knowledge:
    """What a seat knows about the cards.

    ``hand`` and ``unseen`` are count lists (index 0 the total, 1..13 the ranks);
    ``unseen`` is the other hands together (``deck - played - hand``). ``n_opp`` other
    seats still hold cards, the biggest hand has ``max_opp``. Derived values are cached:
    a Knowledge is made for one decision."""

    __slots__ = ("hand", "unseen", "n_opp", "max_opp", "passed_on", "_beat", "_keep", "_cost")

    def __init__(self, hand, unseen, n_opp: int, max_opp: int, passed_on=()):
        self.hand = hand
        self.unseen = unseen
        self.n_opp = n_opp
        self.max_opp = max_opp
        self.passed_on = passed_on
        # Nothing is worked out up front: a playout decision asks for only a few values.
        self._beat = [0] * 16
        self._keep: dict[int, float] = {}
        self._cost: dict[int, float] = {}

    @classmethod
    def from_view(cls, view: dict) -> Knowledge:
        hand = counts(view["hand"])
        seat = view["seat"]
        others = [c for s, c in enumerate(view["counts"]) if s != seat and c]
        return cls(hand, unseen_of(view, hand), len(others), max(others, default=0),
                   passed_on(view))

    def beat(self, k: int) -> int:
        """The best rank of a k-card set somebody else could hold (``UNBEATABLE``: none)."""
        b = self._beat[k]
        if not b:
            b = UNBEATABLE
            if k <= self.max_opp:
                u = self.unseen
                uj = u[JESTER]
                for r in range(1, JESTER):
                    if u[r] and u[r] + uj >= k:
                        b = r
                        break
            self._beat[k] = b
        return b

    def safe(self, move: tuple[int, int, int]) -> bool:
        """Nobody else can beat this set."""
        return self.beat(move[1] + move[2]) >= move[0]

    def keep(self, k: int, rank: int) -> float:
        """A rough chance that nobody else holds a k-card set of a rank better than
        ``rank``, the unseen cards being spread evenly over the other hands, of which
        those that passed on a weaker k-card set this round count as holding none."""
        if (self._beat[k] or self.beat(k)) >= rank:  # (the cached rank, without a call)
            return 1.0
        key = k * 16 + rank
        p = self._keep.get(key)
        if p is None:
            u = self.unseen
            uj = u[JESTER]
            n_opp = self.n_opp
            # A seat that passed on a weaker k-card set this round has shown it holds
            # none better that it would play: only the others may beat it.
            quiet = (sum(1 for caps in self.passed_on if caps[k] >= rank)
                     if self.passed_on else 0)
            miss = miss_row(k, n_opp - quiet, n_opp)
            p = 1.0
            for r in range(1, rank if rank < JESTER else JESTER):
                c = u[r]
                if c:
                    p *= miss[c + uj]
                    if p < 0.02:
                        p = 0.0
                        break
            self._keep[key] = p
        return p

    def group_cost(self, r: int, c: int) -> float:
        """What holding c cards of rank r costs (see ``hand_cost``)."""
        if not c:
            return 0.0
        key = c * 16 + r
        cost = self._cost.get(key)
        if cost is None:
            keep = self.keep(c, r)
            if keep == 1.0:
                cost = -CONTROL[c]  # what the formula below gives: a control, never lost
            else:
                # The share of unseen non-jester cards of a rank worse than r (worked
                # out only for a set that may be beaten, the rank's alone).
                u = self.unseen
                total = u[0] - u[JESTER]
                worse = sum(u[r + 1:JESTER]) / total if total > 0 else 0.0
                cost = -CONTROL[c] * keep + (1.0 - keep) * (1.0 - FOLLOW[c] * worse)
            self._cost[key] = cost
        return cost

    def hand_cost(self, h) -> float:
        """About how many leads a hand still needs. Lower is better."""
        cost = CARD_VALUE * h[0] - JESTER_VALUE * h[JESTER]
        for r in range(1, JESTER):
            if h[r]:
                cost += self.group_cost(r, h[r])
        return cost



_SPREAD: dict[tuple[int, int], list[float]] = {}
MAX_SPREAD = 16


def spread_row(k: int, m: int) -> list[float]:
    """``row[u]``: the chance that, of u cards dealt at random into m hands, one hand gets
    k or more."""
    row = _SPREAD.get((k, m))
    if row is None:
        row = [spread_chance(u, k, m) for u in range(MAX_SPREAD)]
        _SPREAD[(k, m)] = row
    return row


def passed_on(view: dict) -> list[list[int]]:
    """For each other seat still holding cards, ``caps[k]``: the worst rank of a k-card set
    it passed on this round (0: none). It held no k-card set it was willing to play better
    than that, and has received no cards since."""
    seat = view["seat"]
    holding = [s != seat and c > 0 for s, c in enumerate(view["counts"])]
    caps = {s: [0] * 16 for s, h in enumerate(holding) if h}
    for trick in view.get("history") or ():
        to_beat = None
        for move in trick:
            s = move["seat"]
            if move["type"] == "play":
                cards = move["cards"]
                to_beat = (len(cards), min(cards))
            elif s in caps and to_beat is not None:
                k, q = to_beat
                if q > caps[s][k]:
                    caps[s][k] = q
    return list(caps.values())


_PART: dict[tuple[int, int, int], list[float]] = {}


def spread_part_row(k: int, m: int, total: int) -> list[float]:
    """``row[u]``: the chance that, of u cards dealt at random into ``total`` hands, one of
    ``m`` given hands gets k or more."""
    row = _PART.get((k, m, total))
    if row is None:
        row = [spread_part(u, k, m, total) for u in range(MAX_SPREAD)]
        _PART[(k, m, total)] = row
    return row


_MISS: dict[int, list[float]] = {}


def miss_row(k: int, m: int, total: int) -> list[float]:
    """``row[u]``: the chance that, of u cards dealt at random into ``total`` hands, none
    of ``m`` given hands gets k or more (``1 - spread_part_row``, kept ready for
    ``Knowledge.keep``)."""
    key = (k * 16 + m) * 16 + total
    row = _MISS.get(key)
    if row is None:
        part = spread_row(k, total) if m == total else spread_part_row(k, m, total)
        row = [1.0 - x for x in part]
        _MISS[key] = row
    return row


def spread_part(u: int, k: int, m: int, total: int) -> float:
    if m >= total:
        return spread_chance(u, k, total)
    if m <= 0 or u < k:
        return 0.0
    ways = _ways_below(u, k, m)
    rest = total - m
    return 1.0 - sum(comb(u, t) * ways[t] * rest ** (u - t) for t in range(u + 1)) / total**u


def spread_chance(u: int, k: int, m: int) -> float:
    if k <= 1:
        return 1.0 if u else 0.0
    if u < k or m <= 0:
        return 0.0
    if m == 1:
        return 1.0
    return 1.0 - _ways_below(u, k, m)[u] / m**u


def _ways_below(u: int, k: int, m: int) -> list[int]:
    """``ways[t]``: the ways to put t distinct cards (t up to u) into m hands, each getting
    fewer than k."""
    ways = [1] + [0] * u
    for _ in range(m):
        ways = [sum(comb(t, i) * ways[t - i] for i in range(min(t, k - 1) + 1))
                for t in range(u + 1)]
    return ways

