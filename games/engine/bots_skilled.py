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

The same ``Knowledge`` and ``best_move`` drive the ``expert`` bot's playouts, so they are
written to be fast: a move's score only looks at the set it touches.
"""

from __future__ import annotations

import random
from math import comb

from .actions import PASS, Action, GiveBack, Play, Revolution, Trade, TradeCard
from .bots_common import legal_actions
from .cards import JESTER
from .sim import Move, move_cards, move_of

NONE = 14  # a rank worse than any: "nobody can beat this"

# Tuned with the arena (arena.py). FOLLOW[k]: how likely a k-card set is shed on somebody
# else's lead (times the share of worse cards out); CONTROL[k]: what a k-card set nobody
# can beat is worth (a lead won back); then a jester, holding the lead, a card in hand,
# and leading a size of which more sets are in hand.
FOLLOW = (0.0, 0.75, 0.55, 0.35, 0.25, 0.2, 0.15, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1)
CONTROL = (0.0, 0.9, 0.8, 0.7, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6)
JESTER_VALUE = 0.6
LEAD_VALUE = 1.2
CARD_VALUE = 0.04
SIZE_BONUS = 0.15
ENDGAME_CARDS = 12  # search for a sure way out from this many cards in hand
# Following with part of a rank costs this much besides what the score sees: the rest of
# the rank is left as a weaker set that still needs a lead of its own.
BREAK_COST = 0.6
# Jesters join a set only from this many cards in hand down (or to go out): early on, a
# jester spent to win one lead costs more than the lead is worth.
JESTER_HAND = 8
# In a give-back, what the cards are worth to the receiver counts this much against them.
RECEIVER_WEIGHT = 0.5


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
        deck, played = view["deck"], view["played"]
        unseen = [0] * 14
        for r in range(1, 14):
            unseen[r] = deck[r] - played[r] - hand[r]
        unseen[0] = sum(unseen[1:])
        seat = view["seat"]
        others = [c for s, c in enumerate(view["counts"]) if s != seat and c]
        return cls(hand, unseen, len(others), max(others, default=0), passed_on(view))

    def beat(self, k: int) -> int:
        """The best rank of a k-card set somebody else could hold (``NONE``: none)."""
        b = self._beat[k]
        if not b:
            b = NONE
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


def counts(cards) -> list[int]:
    h = [0] * 14
    for c in cards:
        h[c] += 1
    h[0] = len(cards)
    return h


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


# --- the endgame ----------------------------------------------------------------------------


def _after(h, move: tuple[int, int, int]) -> list[int]:
    q, m, j = move
    new = h[:]
    new[q] -= m
    new[JESTER] -= j
    new[0] -= m + j
    return new


def _one_set(h) -> tuple[int, int, int] | None:
    """The set that empties a hand of one rank plus jesters (or only jesters)."""
    found = None
    for r in range(1, JESTER):
        if h[r]:
            if found:
                return None
            found = (r, h[r], h[JESTER])
    return found or (JESTER, h[JESTER], 0)


def _hopeful(h, kn: Knowledge) -> bool:
    """At most one rank in hand is hopeless: somebody could beat it even with all the
    jesters added, so it needs a lead of its own that may be lost. A sure way out can
    only play such a rank last. (It stops at the second one, so it looks at the weakest
    ranks first, the likeliest to be hopeless.)"""
    jesters = h[JESTER]
    beat = kn.beat
    hopeless = False
    for r in range(JESTER - 1, 0, -1):
        c = h[r]
        if c and beat(c + jesters) < r:
            if hopeless:
                return False
            hopeless = True
    return True


def guaranteed_out(h, kn: Knowledge) -> tuple[int, int, int] | None:
    """A lead from which the hand surely goes out: sets nobody can beat, then the rest in
    one set; None if there is no such sequence. It is the first such lead in the order of
    ``lead_moves``; ``_goes_out`` tells, without a search, whether what it leaves goes
    out (``_hopeful`` is the same test's quick first part)."""
    move = _one_set(h)
    if move is None and _hopeful(h, kn) and _goes_out(h, kn):
        move = next((m for m in _safe_leads(h, kn) if _goes_out(_after(h, m), kn)), None)
    return move


def _goes_out(h, kn: Knowledge) -> bool:
    """Some sequence of sets nobody can beat leaves one set (one rank and every jester
    left, or jesters alone), found without searching: the sets nobody can beat stay so
    (the Knowledge does not change), so their order does not matter. Each rank but the
    last one is led whole with the fewest jesters that make it safe (split, it would need
    more), and the jesters left over go with the last one: the rank that needs the most
    is best kept for last."""
    jesters = h[JESTER]
    beat = kn.beat
    need = most = 0
    for q in range(1, JESTER):
        c = h[q]
        if c:
            if beat(c + jesters) < q:
                extra = jesters + 1  # not even with every jester: it must come last
            else:
                extra = 0  # a bigger set is at least as safe: the fewest that will do
                while beat(c + extra) < q:
                    extra += 1
            need += extra
            if extra > most:
                most = extra
    return need - most <= jesters


def _safe_leads(h, kn: Knowledge) -> list[tuple[int, int, int]]:
    """The sets of ``lead_moves(h)`` that nobody can beat, in the same order. A bigger set
    is at least as safe (fewer ranks make one), so a rank whose whole, with every jester,
    can be beaten has none."""
    jesters = h[JESTER]
    beat = kn.beat
    out = []
    for q in range(1, JESTER):
        c = h[q]
        if c and beat(c + jesters) >= q:
            for m in range(1, c + 1):
                for j in range(jesters + 1):
                    if beat(m + j) >= q:
                        out.append((q, m, j))
    for m in range(1, jesters + 1):
        if beat(m) >= JESTER:
            out.append((JESTER, m, 0))
    return out


def out_on(h, last: tuple[int, int]) -> tuple[int, int, int] | None:
    """The play of one rank and every jester that beats ``last`` and empties the hand."""
    k, q = last
    if h[0] == k:
        jesters = h[JESTER]
        for r in range(1, q if q < JESTER else JESTER):
            if h[r] and h[r] + jesters == k:
                return (r, h[r], jesters)
    return None


def sure_move(kn: Knowledge, last: tuple[int, int] | None) -> Move | bool:
    """A play that empties the hand, or the first step of a sure way out; False if none."""
    h = kn.hand
    jesters = h[JESTER]
    if last is None:
        move = _one_set(h)
        if move is not None:
            return move
        if h[0] <= ENDGAME_CARDS:
            move = guaranteed_out(h, kn)
            if move is not None:
                return move
        return False
    k, q = last
    top = q if q < JESTER else JESTER
    move = out_on(h, last)
    if move is not None:
        return move
    reach = min(top, kn.beat(k) + 1)  # a safe play has a rank below this
    need = k - jesters if k > jesters else 1  # cards of one rank that make a play
    if (h[0] <= ENDGAME_CARDS and max(h[1:reach], default=0) >= need
            and _hopeful(h, kn)):
        for r in range(1, reach):
            c = h[r]
            for m in range(max(1, k - jesters), min(c, k) + 1):
                move = (r, m, k - m)
                if kn.safe(move) and _goes_out(_after(h, move), kn):
                    return move
    return False


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
        after = h[:]
        given = [0] * 14
        for c in cards:
            after[c] -= 1
            given[c] += 1
        after[0] -= len(cards)
        cost = kn.hand_cost(after)
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
    if not actions:
        raise ValueError("this seat has nothing to do")
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
