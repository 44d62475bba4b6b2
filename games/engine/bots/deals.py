"""The expert bot's deals: the unseen cards dealt again and again, each time consistently
with everything the seat has seen (``Sampler``), and drawn by how well they explain the
other seats' past plays and passes (``Deals``, with ``infer.Inference``).
"""

from __future__ import annotations

import random

from ..cards import JESTER
from .common import counts, unseen_of
from .infer import Inference, plain_model
from .playouts import plain_playout_move, playout_move

EPS = 0.3  # a past decision the model player would not have made: the deal's weight times this
PROPOSALS = 4  # deals drawn per sample, one kept by weight
MODEL_DEALS = 8  # deals on which to find which model explains each seat's play best


class Deals:
    """Sampled deals of the unseen cards (``Sampler``), drawn by how well they explain
    the other seats' past decisions (``Inference``)."""

    def __init__(self, view: dict, rng: random.Random, proposals: int = PROPOSALS,
                 eps: float = EPS):
        self.sampler = Sampler(view)
        self.inference = Inference(view, eps)
        self.proposals = proposals if self.inference.informative else 1
        if self.proposals > 1 and MODEL_DEALS:
            self.inference.choose_models([self.sampler.sample(rng) for _ in range(MODEL_DEALS)])

    def policies(self) -> list:
        """How each seat plays in the playouts, as the inference sees it."""
        return [plain_playout_move if m is plain_model else playout_move
                for m in self.inference.models]

    def draw(self, rng: random.Random) -> list[list[int]]:
        if self.proposals <= 1:
            return self.sampler.sample(rng)
        deals = [self.sampler.sample(rng) for _ in range(self.proposals)]
        weights = [self.inference.weight(h) for h in deals]
        return rng.choices(deals, weights)[0]

class Sampler:
    """Deals the unseen cards to the other seats, consistently with the view.

    Each hand gets its size. ``low[s][r]``: seat s surely still holds that many rank-r
    cards (cards it received from this seat in the taxes or the trade and cannot all
    have played since; a declared revolution's jesters). ``high[s][r]``: it holds at most
    that many (a Peon's tribute was its best cards, so it holds no better card than the
    worse of them except those given back to it; with ``tribute_return="worst"`` a
    Dalmuti gave back its worst cards)."""

    def __init__(self, view: dict):
        n = view["n_players"]
        seat = view["seat"]
        hand = counts(view["hand"])
        self.seat = seat
        self.hand = hand
        played = view["played"]
        self.pool = unseen_of(view, hand)
        self.pool[0] = 0
        self.sizes = [0 if s == seat else c for s, c in enumerate(view["counts"])]
        big = 99
        self.low = [[0] * 14 for _ in range(n)]
        self.high = [[big] * 14 for _ in range(n)]

        def holds_at_least(s: int, cards) -> None:
            if s == seat:
                return
            for c in set(cards):
                self.low[s][c] = max(self.low[s][c], cards.count(c) - played[c])

        taxes = view["taxes"]
        if taxes["status"] == "done":
            gave = taxes["gave"] or []
            received = taxes["received"] or []
            for e in taxes["exchanges"]:
                peon, dalmuti = e["from"], e["to"]
                if dalmuti == seat and received:
                    holds_at_least(peon, gave)
                    worst_tribute = max(received)
                    for r in range(1, worst_tribute):
                        self.high[peon][r] = gave.count(r)
                if peon == seat and received:
                    holds_at_least(dalmuti, gave)
                    if view["options"]["tribute_return"] == "worst":
                        for r in range(min(received) + 1, JESTER):
                            self.high[dalmuti][r] = gave.count(r)
        trade = view["trade"]
        if trade["status"] == "done" and trade["gave"]:
            partner = trade["to"] if trade["from"] == seat else trade["from"]
            holds_at_least(partner, trade["gave"])
        rev = view["revolution"]
        if rev is not None:
            holds_at_least(rev["seat"], [JESTER, JESTER])
        for s in range(n):
            for r in range(1, 14):
                self.low[s][r] = min(self.low[s][r], self.high[s][r], self.pool[r])
        self.lows = [(s, r, self.low[s][r]) for s in range(n) for r in range(1, 14)
                     if self.low[s][r] and self.sizes[s]]
        self.restricted = [r for r in range(1, 14)
                           if any(self.high[s][r] < big for s in range(n) if self.sizes[s])]

    def sample(self, rng: random.Random) -> list[list[int]]:
        """Every seat's hand as counts (this seat's own hand included)."""
        for _ in range(20):
            hands = self._try(rng, True)
            if hands is not None:
                return hands
        return self._try(rng, False)

    def _try(self, rng: random.Random, strict: bool) -> list[list[int]] | None:
        n = len(self.sizes)
        pool = self.pool[:]
        room = self.sizes[:]
        hands = [[0] * 14 for _ in range(n)]
        for s, r, low in self.lows:
            k = min(low, pool[r], room[s])
            if k:
                hands[s][r] += k
                pool[r] -= k
                room[s] -= k
        if strict:
            for r in self.restricted:
                for _ in range(pool[r]):
                    seats = [s for s in range(n) if room[s] and hands[s][r] < self.high[s][r]]
                    if not seats:
                        return None
                    weights = [room[s] for s in seats]
                    s = rng.choices(seats, weights)[0]
                    hands[s][r] += 1
                    room[s] -= 1
                pool[r] = 0
        cards = [r for r in range(1, 14) for _ in range(pool[r])]
        rng.shuffle(cards)
        i = 0
        for s in range(n):
            for _ in range(room[s]):
                hands[s][cards[i]] += 1
                i += 1
        for s in range(n):
            hands[s][0] = sum(hands[s][1:])
        hands[self.seat] = self.hand[:]
        return hands
