"""The ``greedy`` bot: a yardstick for the arena, not a level offered to players.

It plays like the heuristic bot of a typical President or Dalmuti app: lead the worst
whole rank, follow with the worst whole set of the size asked, never break a set, keep
the jesters for going out, and count the cards: a set nobody else can beat any more is a
*control*, led when only one other set is left, so that the last one goes out on the lead
it wins back. Taxes: a Peon declares a revolution, a Dalmuti gives back its worst cards;
it declines a merchant trade and gives its worst card when picked.

A stronger level has to beat this one clearly in the arena to earn its name.
"""

from __future__ import annotations

import random

from ..actions import PASS, Action, GiveBack, Play, Revolution, Trade, TradeCard
from ..cards import JESTER
from ..hands import UNBEATABLE
from .common import counts, legal_actions, unseen_of


class _Count:
    """The seat's hand and the cards it has not seen (the other hands together)."""

    def __init__(self, view: dict):
        self.hand = hand = counts(view["hand"])
        self.unseen = unseen_of(view, hand)
        seat = view["seat"]
        self.max_opp = max((c for s, c in enumerate(view["counts"]) if s != seat), default=0)

    def best_beat(self, k: int) -> int:
        """The best rank of a k-card set somebody else could still hold."""
        if k > self.max_opp:
            return UNBEATABLE
        u = self.unseen
        for r in range(1, JESTER):
            if u[r] and u[r] + u[JESTER] >= k:
                return r
        if u[JESTER] >= k:
            return JESTER
        return UNBEATABLE

    def control(self, rank: int, k: int) -> bool:
        return self.best_beat(k) >= rank


def greedy_bot(view: dict, rng: random.Random) -> Action:
    """See the module docstring. Deterministic: ``rng`` is not needed."""
    actions = legal_actions(view)
    phase = view["phase"]
    if phase == "taxes":
        if Revolution(True) in actions:
            title = view["titles"][view["seat"]]
            return Revolution(title in ("lesser_peon", "greater_peon"))
        gives = [a for a in actions if isinstance(a, GiveBack)]
        if not gives:
            return Revolution(False)
        return max(gives, key=lambda a: sorted(a.cards, reverse=True))
    if phase == "trade":
        if Trade(None) in actions:
            return Trade(None)
        return max((a for a in actions if isinstance(a, TradeCard)), key=lambda a: a.card)
    return _play(view, actions)


def _play(view: dict, actions: list[Action]) -> Action:
    count = _Count(view)
    h = count.hand
    plays = [a for a in actions if isinstance(a, Play)]
    for play in plays:
        if len(play.cards) == h[0]:
            return play  # going out, jesters and all
    to_beat = view["trick"]["to_beat"]
    if to_beat is None:
        return _lead(count)
    k = to_beat["count"]
    whole = [p for p in plays if JESTER not in p.cards and h[p.cards[0]] == k]
    if not whole:
        return PASS
    return max(whole, key=lambda p: p.cards[0])


def _lead(count: _Count) -> Action:
    h = count.hand
    ranks = [r for r in range(1, JESTER) if h[r]]
    if not ranks:
        return Play((JESTER,) * h[JESTER])
    controls = [r for r in ranks if count.control(r, h[r])]
    others = [r for r in ranks if r not in controls]
    if controls and len(others) <= 1:
        # The control wins the lead back; the one set left then goes out on it.
        r = max(controls)
        return Play((r,) * h[r])
    r = max(others)
    return Play((r,) * h[r])
