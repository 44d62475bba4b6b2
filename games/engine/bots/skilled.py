"""The ``skilled`` bot: card counting, whole sets, controls and an exact endgame.

Everything comes from the seat's view. The unseen cards (``deck - played - hand``) are
exactly the other hands together, so the bot knows which sets somebody could still beat:
a set nobody can beat is a *control*, it wins the lead back. The bot values a hand by
roughly how many leads it still needs to shed it (a weak set costs about one, a control
gives one back, a jester helps), and picks the move that leaves the best hand, counting
the lead it may win. It always takes a play that empties its hand, and with few cards it
searches for a sequence of plays that goes out whatever the others hold.

What it will not do, because the arena showed it loses: spend a jester while its hand is
big (a lead won that way is worth less than the jester), or break a set to follow unless
the play is worth more than the weaker set left behind. It reads the round's public
history: a seat that passed on a weaker set of the same size counts as holding none
better. A tribute return weighs what the cards do for the receiver as well as what they
leave in the hand: a spare weak pair rather than a good single that would beat it later.

What the seat knows and how a hand is valued live in ``knowledge``, the exact endgame in
``endgame``; here are the move scores and the decisions of each phase. The same
``Knowledge`` and ``best_move`` drive the ``expert`` bot's playouts, so they are written
to be fast: a move's score only looks at the set it touches.
"""

from __future__ import annotations

import random

from ..actions import PASS, Action, GiveBack, Play, Revolution, Trade, TradeCard
from ..cards import JESTER, counts_of
from ..hands import without
from ..sim import Move, move_cards, move_of
from .common import legal_actions
from .endgame import sure_move
from .knowledge import CARD_VALUE, JESTER_VALUE, Knowledge

# Tuned with the arena (arena.py), with the hand values of ``knowledge``: holding the
# lead, and leading a size of which more sets are in hand.
LEAD_VALUE = 1.2
SIZE_BONUS = 0.15
# Following with part of a rank costs this much besides what the score sees: the rest of
# the rank is left as a weaker set that still needs a lead of its own.
BREAK_COST = 0.6
# Jesters join a set only from this many cards in hand down (or to go out): early on, a
# jester spent to win one lead costs more than the lead is worth.
JESTER_HAND = 8
# In a give-back, what the cards are worth to the receiver counts this much against them.
RECEIVER_WEIGHT = 0.5


# --- choosing a move ----------------------------------------------------------------------


def candidates(kn: Knowledge, last: tuple[int, int] | None) -> list[Move]:
    """The moves worth scoring: to lead, whole ranks, with jesters only where they make a
    set nobody can beat, or jesters alone; to follow, a pass, sets of the needed size from
    one rank (whole or broken) or a whole rank with jesters. Jesters join a rank only from
    ``JESTER_HAND`` cards down. (Leading part of a rank, or adding jesters to part of one,
    is left to the endgame search.)"""
    h = kn.hand
    jesters = h[JESTER]
    out: list[Move] = []
    if h[0] > JESTER_HAND:
        jesters = 0
    if last is None:
        for r in range(1, JESTER):
            c = h[r]
            if c:
                out.append((r, c, 0))
                for j in range(1, jesters + 1):
                    if kn.beat(c + j) >= r:
                        out.append((r, c, j))
        for j in range(1, h[JESTER] + 1):
            out.append((JESTER, j, 0))
        return out
    out.append(None)
    k, q = last
    for r in range(1, q if q < JESTER else JESTER):
        c = h[r]
        if c >= k:
            out.append((r, k, 0))
        elif c and c + jesters >= k:
            out.append((r, c, k - c))
    return out


def move_score(kn: Knowledge, move: Move, lead: bool, sizes) -> float:
    """How much better the hand is after the move than before (a pass scores 0)."""
    if move is None:
        return 0.0
    h = kn.hand
    q, m, j = move
    k = m + j
    if k == h[0]:
        return 100.0
    score = CARD_VALUE * k - JESTER_VALUE * j + LEAD_VALUE * kn.keep(k, q)
    if q < JESTER:
        c = h[q]
        if m < c:  # (what is left of the rank costs nothing once the rank is gone)
            score += kn.group_cost(q, c) - kn.group_cost(q, c - m)
        else:
            score += kn.group_cost(q, c)
        if lead:
            score += SIZE_BONUS * (sizes[k] - (1 if m == c and sizes[0] & (1 << q) else 0))
        elif m < c:
            score -= BREAK_COST
    else:
        score -= JESTER_VALUE * m
        if lead:
            score += SIZE_BONUS * sizes[k]
    return score


def _sizes(kn: Knowledge) -> list[int]:
    """``sizes[k]``: how many weak (beatable) whole ranks of k cards the hand holds;
    ``sizes[0]`` is a bit mask of those ranks."""
    h = kn.hand
    sizes = [0] * 16
    for r in range(1, JESTER):
        c = h[r]
        if c and kn.beat(c) < r:
            sizes[c] += 1
            sizes[0] |= 1 << r
    return sizes


def scored_moves(kn: Knowledge, last: tuple[int, int] | None) -> list[tuple[float, Move]]:
    """The candidate moves with their scores, best first (ties: candidate order)."""
    lead = last is None
    sizes = _sizes(kn) if lead else None
    scored = [(move_score(kn, move, lead, sizes), -i, move)
              for i, move in enumerate(candidates(kn, last))]
    scored.sort(reverse=True, key=lambda t: (t[0], t[1]))
    return [(s, move) for s, _, move in scored]


def best_move(kn: Knowledge, last: tuple[int, int] | None) -> Move:
    """The skilled move: go out, or a sure way out, or the best scored candidate."""
    move = sure_move(kn, last)
    if move is not False:
        return move
    lead = last is None
    sizes = _sizes(kn) if lead else None
    best = None
    best_score = -1e9
    for move in candidates(kn, last):
        # A pass (the first candidate to follow) scores 0: no need to ask.
        score = 0.0 if move is None else move_score(kn, move, lead, sizes)
        if score > best_score:
            best, best_score = move, score
    return best


# --- the bot --------------------------------------------------------------------------------


def last_of(view: dict) -> tuple[int, int] | None:
    """``(count, rank)`` to beat, or None when leading."""
    to_beat = view["trick"]["to_beat"]
    return None if to_beat is None else (to_beat["count"], to_beat["rank"])


def play_moves(view: dict) -> list[Move]:
    """The view's legal moves in the play phase, as simulator moves."""
    return [None if a["type"] == "pass" else move_of(a["cards"]) for a in view["legal_actions"]]


def give_back_choice(kn: Knowledge, options: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The give-back (or trade card) that leaves the best hand, so it keeps its sets, and
    helps the receiver least: good singles given away are controls against us later, a
    spare pair of weak cards is a lead the receiver still has to find."""
    h = kn.hand
    best = None
    for cards in options:
        given = counts_of(cards)
        cost = kn.hand_cost(without(h, cards))
        for r in range(1, JESTER):
            if given[r]:
                cost -= RECEIVER_WEIGHT * kn.group_cost(r, given[r])
        cost += RECEIVER_WEIGHT * JESTER_VALUE * given[JESTER]
        if best is None or cost < best[0] - 1e-12:
            best = (cost, cards)
    return best[1]


def wants_revolution(view: dict) -> bool:
    """A Peon holding both jesters declares (no tribute; a Great Revolution leads)."""
    return view["titles"][view["seat"]] in ("lesser_peon", "greater_peon")


def skilled_bot(view: dict, rng: random.Random) -> Action:
    """See the module docstring. Deterministic: ``rng`` is not needed."""
    if view["phase"] == "play":
        move = best_move(Knowledge.from_view(view), last_of(view))
        return PASS if move is None else Play(move_cards(move))
    actions = legal_actions(view)
    return tax_or_trade_action(view, actions)


def tax_or_trade_action(view: dict, actions: list[Action]) -> Action:
    """Revolution, give-back and merchant-trade decisions."""
    if Revolution(True) in actions:
        return Revolution(wants_revolution(view))
    if actions == [Revolution(False)]:  # asked without holding both jesters
        return Revolution(False)
    kn = Knowledge.from_view(view)
    gives = [a.cards for a in actions if isinstance(a, GiveBack)]
    if gives:
        return GiveBack(give_back_choice(kn, gives))
    if Trade(None) in actions:
        return Trade(None)
    cards = [(a.card,) for a in actions if isinstance(a, TradeCard)]
    return TradeCard(give_back_choice(kn, cards)[0])
