"""The ``skilled`` bot: card counting, whole sets, controls and an exact endgame.

Everything comes from the seat's view. The unseen cards (``deck - played - hand``) are
exactly the other hands together, so the bot knows which sets somebody could still beat:
a set nobody can beat is a *control*, it wins the lead back. The bot values a hand by
roughly how many leads it still needs to shed it (weak sets cost a lead each, controls
give one back), and picks the move that leaves the best hand; with few cards it searches
for a sequence of plays that goes out whatever the others hold.

``Knowledge`` and the scoring here are shared with the ``expert`` bot.
"""

from __future__ import annotations

import random
from functools import lru_cache
from math import comb

from .actions import PASS, Action, GiveBack, Play, Revolution, Trade, TradeCard
from .bots import legal_actions
from .cards import JESTER
from .sim import Move, follow_moves, lead_moves, move_cards, move_of

NONE = 14  # a rank worse than any: "nobody can beat this"

# Tuned with the arena (see arena.py). How likely a set of a size is to be shed on
# somebody else's lead, what a control is worth, a jester, and holding the lead.
FOLLOW = (0.0, 0.75, 0.55, 0.35, 0.25, 0.2, 0.15, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1)
CONTROL = (0.0, 0.9, 0.8, 0.7, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6)
JESTER_VALUE = 0.6
LEAD_VALUE = 0.9
CARD_VALUE = 0.04
SIZE_BONUS = 0.15
ENDGAME_CARDS = 12


class Knowledge:
    """What a seat knows about the cards, from its view.

    ``hand`` and ``unseen`` are count lists (``[total, rank 1, ..., rank 13]``);
    ``unseen`` is the other hands together. ``beat[k]`` is the best rank of a k-card set
    somebody else could still hold (``NONE`` if nobody can make one)."""

    __slots__ = ("hand", "unseen", "opponents", "beat", "worse", "n_opp", "max_opp")

    def __init__(self, hand, unseen, opponent_counts):
        self.hand = hand
        self.unseen = unseen
        self.opponents = [c for c in opponent_counts if c]
        self.n_opp = len(self.opponents)
        self.max_opp = max(self.opponents, default=0)
        self.beat = beat_ranks(unseen, self.max_opp)
        # worse[r]: the share of unseen non-jester cards of a rank worse than r.
        total = sum(unseen[1:JESTER])
        worse = [0.0] * 14
        below = 0
        for r in range(12, 0, -1):
            worse[r] = below / total if total else 0.0
            below += unseen[r]
        self.worse = worse

    @classmethod
    def from_view(cls, view: dict) -> Knowledge:
        hand = counts(view["hand"])
        deck, played = view["deck"], view["played"]
        unseen = [0] * 14
        for r in range(1, 14):
            unseen[r] = deck[r] - played[r] - hand[r]
        unseen[0] = sum(unseen[1:])
        seat = view["seat"]
        others = [c for s, c in enumerate(view["counts"]) if s != seat]
        return cls(hand, unseen, others)

    def safe(self, move: tuple[int, int, int]) -> bool:
        """Nobody else can beat this set."""
        return self.beat[move[1] + move[2]] >= move[0]

    def keep_chance(self, k: int, rank: int) -> float:
        """A rough chance that nobody else holds a k-card set of a rank better than
        ``rank`` (the cards spread evenly over the other hands)."""
        if self.beat[k] >= rank:
            return 1.0
        u = self.unseen
        uj = u[JESTER]
        m = self.n_opp
        p = 1.0
        for r in range(1, rank if rank < JESTER else JESTER):
            if u[r]:
                p *= 1.0 - spread_chance(u[r] + uj, k, m)
                if p < 0.02:
                    return 0.0
        return p


def counts(cards) -> list[int]:
    h = [0] * 14
    for c in cards:
        h[c] += 1
    h[0] = len(cards)
    return h


def beat_ranks(unseen, max_opp: int) -> list[int]:
    """``beat[k]`` for k = 0..14: the best rank of a k-card set the unseen cards make."""
    uj = unseen[JESTER]
    beat = [NONE] * 16
    for k in range(1, min(max_opp, 15) + 1):
        for r in range(1, JESTER):
            if unseen[r] and unseen[r] + uj >= k:
                beat[k] = r
                break
    return beat


@lru_cache(maxsize=4096)
def spread_chance(u: int, k: int, m: int) -> float:
    """The chance that, of u cards dealt at random into m hands, one hand gets k or more."""
    if k <= 1:
        return 1.0 if u else 0.0
    if u < k or m <= 0:
        return 0.0
    if m == 1:
        return 1.0
    # ways[b][t]: ways to put t distinct cards into b hands, each fewer than k.
    ways = [1] + [0] * u
    for _ in range(m):
        new = [0] * (u + 1)
        for t in range(u + 1):
            new[t] = sum(comb(t, i) * ways[t - i] for i in range(min(t, k - 1) + 1))
        ways = new
    return 1.0 - ways[u] / m**u


# --- valuing a hand -----------------------------------------------------------------------


def hand_cost(h, kn: Knowledge) -> float:
    """About how many leads the hand still needs: a weak set costs up to one, a control
    gives one back, a jester helps. Lower is better."""
    cost = CARD_VALUE * h[0] - JESTER_VALUE * h[JESTER]
    worse = kn.worse
    for r in range(1, JESTER):
        c = h[r]
        if c:
            keep = kn.keep_chance(c, r)
            weak = 1.0 - FOLLOW[c] * worse[r]
            cost += keep * -CONTROL[c] + (1.0 - keep) * weak
    return cost


def _after(h, move: tuple[int, int, int]) -> list[int]:
    q, m, j = move
    new = h[:]
    new[q] -= m
    new[JESTER] -= j
    new[0] -= m + j
    return new


def _is_one_set(h) -> bool:
    ranks = sum(1 for r in range(1, JESTER) if h[r])
    return ranks <= 1


def _whole(h) -> tuple[int, int, int]:
    """The single set that empties a hand of at most one rank plus jesters."""
    for r in range(1, JESTER):
        if h[r]:
            return (r, h[r], h[JESTER])
    return (JESTER, h[JESTER], 0)


def guaranteed_out(h, kn: Knowledge, memo: dict | None = None) -> tuple[int, int, int] | None:
    """A lead from which the hand surely goes out: sets nobody can beat, then the rest in
    one set. None if there is no such sequence."""
    if memo is None:
        memo = {}
    key = tuple(h)
    if key in memo:
        return memo[key]
    memo[key] = None
    if _is_one_set(h):
        memo[key] = _whole(h)
        return memo[key]
    for move in lead_moves(h):
        if kn.safe(move) and guaranteed_out(_after(h, move), kn, memo):
            memo[key] = move
            return move
    return None


def score_moves(kn: Knowledge, last: tuple[int, int] | None,
                moves: list[Move]) -> list[tuple[float, Move]]:
    """Each move with its score (higher is better), best first."""
    h = kn.hand
    base = hand_cost(h, kn)
    sizes = [0] * 16
    if last is None:
        for r in range(1, JESTER):
            if h[r] and not kn.safe((r, h[r], 0)):
                sizes[h[r]] += 1
    scored = []
    for i, move in enumerate(moves):
        if move is None:
            scored.append((0.0, i, move))
            continue
        q, m, j = move
        k = m + j
        after = _after(h, move)
        if not after[0]:
            scored.append((100.0, i, move))
            continue
        keep = kn.keep_chance(k, q)
        score = base - hand_cost(after, kn) + LEAD_VALUE * keep
        if last is None:
            score += SIZE_BONUS * (sizes[k] - (1 if m == h[q] and j == 0 else 0))
        scored.append((score, i, move))
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [(s, move) for s, _, move in scored]


def sure_move(kn: Knowledge, last: tuple[int, int] | None, moves: list[Move]) -> Move | bool:
    """A play that empties the hand, or the first step of a sure way out; False if none."""
    h = kn.hand
    for move in moves:
        if move is not None and move[1] + move[2] == h[0]:
            return move
    if h[0] <= ENDGAME_CARDS:
        memo: dict = {}
        if last is None:
            move = guaranteed_out(h, kn, memo)
            if move is not None:
                return move
        else:
            for move in moves:
                if move is not None and kn.safe(move) and guaranteed_out(_after(h, move), kn,
                                                                         memo):
                    return move
    return False


def play_move(kn: Knowledge, last: tuple[int, int] | None, moves: list[Move]) -> Move:
    """The skilled move in the play phase: go out, or a sure way out, or the best score."""
    move = sure_move(kn, last, moves)
    if move is not False:
        return move
    return score_moves(kn, last, moves)[0][1]


def last_of(view: dict) -> tuple[int, int] | None:
    """``(count, rank)`` to beat, or None when leading."""
    to_beat = view["trick"]["to_beat"]
    return None if to_beat is None else (to_beat["count"], to_beat["rank"])


def play_moves(view: dict) -> list[Move]:
    """The view's legal moves in the play phase, as simulator moves."""
    out: list[Move] = []
    for a in view["legal_actions"]:
        out.append(None if a["type"] == "pass" else move_of(a["cards"]))
    return out


def give_back_choice(kn: Knowledge, options: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The give-back that leaves the best hand (so it keeps its sets)."""
    h = kn.hand
    best = None
    for cards in options:
        after = h[:]
        for c in cards:
            after[c] -= 1
        after[0] -= len(cards)
        cost = hand_cost(after, kn)
        if best is None or cost < best[0] - 1e-12:
            best = (cost, cards)
    return best[1]


def wants_revolution(view: dict) -> bool:
    """A Peon holding both jesters declares (no tribute; a Great Revolution leads)."""
    return view["titles"][view["seat"]] in ("lesser_peon", "greater_peon")


def skilled_bot(view: dict, rng: random.Random) -> Action:
    """See the module docstring. Deterministic: ``rng`` is not needed."""
    phase = view["phase"]
    if phase == "play":
        move = play_move(Knowledge.from_view(view), last_of(view), play_moves(view))
        return PASS if move is None else Play(move_cards(move))
    actions = legal_actions(view)
    if not actions:
        raise ValueError("this seat has nothing to do")
    return tax_or_trade_action(view, actions)


def tax_or_trade_action(view: dict, actions: list[Action]) -> Action:
    """Revolution, give-back and merchant-trade decisions."""
    kn = Knowledge.from_view(view)
    if Revolution(True) in actions:
        return Revolution(wants_revolution(view))
    gives = [a.cards for a in actions if isinstance(a, GiveBack)]
    if gives:
        return GiveBack(give_back_choice(kn, gives))
    if Trade(None) in actions:
        return Trade(None)
    cards = [(a.card,) for a in actions if isinstance(a, TradeCard)]
    return TradeCard(give_back_choice(kn, cards)[0])


__all__ = ["Knowledge", "follow_moves", "guaranteed_out", "hand_cost", "skilled_bot"]
