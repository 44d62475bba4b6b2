"""The ``expert`` bot: determinized Monte-Carlo search over deals inferred from the round.

Candidates. For a play it searches every legal move when there are few (``ALL_MOVES``),
else the skilled bot's best few (``CANDIDATES``) plus passing. A play that empties the
hand or a sure way out (the skilled bot's exact endgame) is played at once.

Deals. Again and again it deals the unseen cards at random consistently with everything
the seat has seen (``Sampler``: each hand's size, the cards played, the taxes and the trade
it took part in, a declared revolution), and weighs each deal by how well it explains the
other seats' past plays and passes (``bots_infer.Inference``: every past decision that a
model player holding the guessed hand would have made differently multiplies the weight
by ``EPS``). Of ``PROPOSALS`` deals drawn, one is kept with probability proportional to its
weight, so every kept deal counts the same and the true deal is never ruled out. The
model of each other seat is the one of two (the skilled bot, or the plain whole-set
player of ``bots_infer.plain_model``) that explains its decisions so far better on a few
deals; the same model plays that seat in the playouts.

Playouts. On the kept deal it plays the round out from every candidate on the fast
simulator (``sim.py``), every seat playing its model (which sees only its own hand and the
cards gone), until the seat's place is known. The seat's own plan is searched too: at each
of its next ``DEPTH`` decisions the playout branches (``LOOKAHEAD``) into the skilled
bot's best move and the plain player's (or the skilled bot's second best) and keeps the
better outcome. On a known deal that is optimistic alike for every candidate, and the
arena showed it matters: a candidate is only as good as the plan that follows it, and a
single fixed continuation undervalues moves that need a different plan after them. It
takes the candidate with the best mean points; exact ties are broken at random, never in
favour of a candidate's place in the list. Candidates clearly worse than the leader stop
being played out, so the others get more deals.

Before the first trick the same search plays whole rounds out after each choice: a
Dalmuti's tribute return (the other Dalmuti returning what the skilled bot would),
declaring a revolution or keeping quiet (a Great Revolution turns the order round; keeping
quiet lets the planned taxes happen), and in the merchant trade the partner (or none) and
the card given (the partner giving what the skilled bot would, or a random card in a
``random`` trade). Only the round's points count, not the positions they lead to.

Time: ``budget`` seconds per move (``DEFAULT_BUDGET``, or the ``DALMUTI_EXPERT_BUDGET``
environment variable). Reproducible: ``samples`` fixes the number of sampled deals
instead (``DALMUTI_EXPERT_SAMPLES``), with the same search otherwise; then the move
depends only on the view and ``rng``, and the arena measures the bot players meet.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from itertools import combinations_with_replacement
from operator import sub

from .actions import PASS, Action, GiveBack, Play, Revolution, Trade, TradeCard
from .bots_common import legal_actions
from .bots_infer import Inference, plain_model
from .bots_skilled import (
    Knowledge,
    best_move,
    give_back_choice,
    last_of,
    play_moves,
    scored_moves,
    sure_move,
    tax_or_trade_action,
)
from .cards import JESTER
from .sim import Move, Sim, move_cards, round_points

DEFAULT_BUDGET = 0.5
ALL_MOVES = 8  # up to this many legal moves, all are searched
CANDIDATES = 6  # else the skilled bot's best ones (and passing)
MIN_SAMPLES = 4  # even when the time is up
PRUNE_FROM, PRUNE_EVERY, PRUNE_Z = 8, 4, 2.5  # dropping clearly worse candidates
EPS = 0.3  # a past decision the model player would not have made: the deal's weight times this
PROPOSALS = 4  # deals drawn per sample, one kept by weight
MODEL_DEALS = 8  # deals on which to find which model explains each seat's play best
LOOKAHEAD = 2  # at the seat's own decisions in a playout: the best of this many moves
DEPTH = 2  # how many of the seat's own next decisions branch in a playout


def _env_number(name: str, kind):
    value = os.environ.get(name)
    return kind(value) if value else None


def expert_bot(view: dict, rng: random.Random, budget: float | None = None,
               samples: int | None = None) -> Action:
    """See the module docstring. ``samples`` (if set) wins over ``budget``."""
    if samples is None and budget is None:
        samples = _env_number("DALMUTI_EXPERT_SAMPLES", int)
    if budget is None:
        budget = _env_number("DALMUTI_EXPERT_BUDGET", float) or DEFAULT_BUDGET
    deadline = None if samples else time.perf_counter() + budget
    if view["phase"] == "play":
        move = _play(view, rng, samples, deadline)
        return PASS if move is None else Play(move_cards(move))
    actions = legal_actions(view)
    if not actions:
        raise ValueError("this seat has nothing to do")
    if len(actions) == 1:
        return actions[0]
    if Revolution(True) in actions:
        return Revolution(_revolution(view, rng, samples, deadline))
    gives = [a.cards for a in actions if isinstance(a, GiveBack)]
    if len(gives) > 1:
        return GiveBack(_give_back(view, gives, rng, samples, deadline))
    partners = [a.partner for a in actions if isinstance(a, Trade)]
    if len(partners) > 1:
        return Trade(_trade_partner(view, partners, rng, samples, deadline))
    cards = [a.card for a in actions if isinstance(a, TradeCard)]
    if len(cards) > 1:
        return TradeCard(_trade_card(view, cards, rng, samples, deadline))
    return tax_or_trade_action(view, actions)


# --- the search -------------------------------------------------------------------------


def _search(candidates: list, trial: Callable[[random.Random, list[int]], list[float]],
            rng: random.Random, samples: int | None, deadline: float | None):
    """The candidate with the best mean value over sampled deals; ``trial(rng, active)``
    samples a deal and returns one value for each candidate index in ``active``. Exact
    ties are broken by ``rng``.

    A candidate clearly worse than the leader on the deals so far (the paired difference
    ``PRUNE_Z`` standard errors above zero) stops being played out, so the rest get more
    deals in the same time. It stops after ``samples`` deals, or at the ``deadline``
    (after at least ``MIN_SAMPLES``)."""
    active = list(range(len(candidates)))
    history: list[list[float]] = [[] for _ in candidates]
    done = 0
    while True:
        for i, value in zip(active, trial(rng, active), strict=True):
            history[i].append(value)
        done += 1
        if samples is not None:
            if done >= samples:
                break
        elif done >= MIN_SAMPLES and time.perf_counter() >= deadline:
            break
        if done >= PRUNE_FROM and done % PRUNE_EVERY == 0 and len(active) > 2:
            active = _survivors(active, history)
    totals = {i: sum(history[i]) for i in active}
    top = max(totals.values())
    best = [i for i in active if totals[i] == top]
    return candidates[best[0] if len(best) == 1 else rng.choice(best)]


def _survivors(active: list[int], history: list[list[float]]) -> list[int]:
    lead = max(active, key=lambda i: sum(history[i]))
    keep = []
    for i in active:
        diffs = [a - b for a, b in zip(history[lead], history[i], strict=True)]
        n = len(diffs)
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if i == lead or mean <= 0 or mean * mean * n <= PRUNE_Z * PRUNE_Z * var:
            keep.append(i)
    return keep


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


def _play(view: dict, rng: random.Random, samples: int | None,
          deadline: float | None) -> Move:
    kn = Knowledge.from_view(view)
    last = last_of(view)
    moves = play_moves(view)
    if len(moves) == 1:
        return moves[0]
    move = sure_move(kn, last)
    if move is not False:
        return move
    if len(moves) <= ALL_MOVES:
        candidates = moves
    else:
        candidates = [m for _, m in scored_moves(kn, last)][:CANDIDATES]
        if last is not None and None not in candidates:
            candidates.append(None)
    if len(candidates) == 1:
        return candidates[0]
    seat = view["seat"]
    deals = Deals(view, rng)
    trick = view["trick"]
    last_play = (trick["plays"][-1]["seat"], last[0], last[1]) if last else None
    order = view["order"]
    finish = view["finish_order"]
    passes = len(trick["passed"])
    values = Values(view)
    values.policy = deals.policies()

    def trial(r: random.Random, active: list[int]) -> list[float]:
        hands = deals.draw(r)
        base = Sim(order, hands, seat, last_play, passes, finish)
        out = []
        for i in active:
            sim = base.copy()
            sim.step(candidates[i])
            out.append(values.playout(sim, LOOKAHEAD, DEPTH))
        return out

    return _search(candidates, trial, rng, samples, deadline)


# --- before the first trick: tribute return, revolution, merchant trade -------------------


def _give_back(view: dict, gives: list[tuple[int, ...]], rng: random.Random,
               samples: int | None, deadline: float | None) -> tuple[int, ...]:
    kn = Knowledge.from_view(view)
    first = give_back_choice(kn, gives)
    rest = sorted((g for g in gives if g != first), key=lambda g: _cost_after(kn, g))
    candidates = [first] + rest[: CANDIDATES - 1]
    seat = view["seat"]
    deals = Deals(view, rng)
    plan = [(e["from"], e["to"], e["count"]) for e in view["taxes"]["exchanges"]]
    order = view["order"]
    values = Values(view)

    def trial(r: random.Random, active: list[int]) -> list[float]:
        hands = deals.draw(r)
        returns = {d: _dalmuti_return(view, hands, d, k) for _, d, k in plan if d != seat}
        out = []
        for i in active:
            give = candidates[i]
            after = _taxed(hands, plan, {**returns, seat: list(give)})
            out.append(values.playout(Sim(order, after, order[0]), LOOKAHEAD, DEPTH))
        return out

    return _search(candidates, trial, rng, samples, deadline)


def _revolution(view: dict, rng: random.Random, samples: int | None,
                deadline: float | None) -> bool:
    """Declare a revolution? Both futures are played out on the same deals: with it (no
    taxes; a Greater Peon's turns the order round), and without it (the taxes as
    planned)."""
    seat = view["seat"]
    order = view["order"]
    great = seat == order[-1]
    turned = order[::-1] if great else order
    plan = [(e["from"], e["to"], e["count"]) for e in view["taxes"]["exchanges"]]
    deals = Deals(view, rng)
    values = Values(view)

    def trial(r: random.Random, active: list[int]) -> list[float]:
        # Two candidates are never pruned (``_search`` keeps at least two), so both are
        # always active.
        hands = deals.draw(r)
        declared = values.playout(Sim(turned, hands, turned[0]), LOOKAHEAD, DEPTH)
        returns = {d: _dalmuti_return(view, hands, d, k) for _, d, k in plan}
        after = _taxed(hands, plan, returns)
        quiet = values.playout(Sim(order, after, order[0]), LOOKAHEAD, DEPTH)
        return [(declared, quiet)[i] for i in active]

    return _search([True, False], trial, rng, samples, deadline)


def _trade_partner(view: dict, partners: list[int | None], rng: random.Random,
                   samples: int | None, deadline: float | None) -> int | None:
    seat = view["seat"]
    order = view["order"]
    deals = Deals(view, rng)
    values = Values(view)
    chosen = view["options"]["merchant_trade"] == "chosen"

    def trial(r: random.Random, active: list[int]) -> list[float]:
        hands = deals.draw(r)
        out = []
        for i in active:
            p = partners[i]
            after = hands
            if p is not None:
                mine = _trade_card_of(view, hands, seat) if chosen else _random_card(hands[seat], r)
                theirs = _trade_card_of(view, hands, p) if chosen else _random_card(hands[p], r)
                after = _swapped(hands, seat, p, mine, theirs)
            out.append(values.playout(Sim(order, after, order[0]), LOOKAHEAD, DEPTH))
        return out

    return _search(partners, trial, rng, samples, deadline)


def _trade_card(view: dict, cards: list[int], rng: random.Random, samples: int | None,
                deadline: float | None) -> int:
    seat = view["seat"]
    trade = view["trade"]
    partner = trade["to"] if trade["from"] == seat else trade["from"]
    order = view["order"]
    deals = Deals(view, rng)
    values = Values(view)

    def trial(r: random.Random, active: list[int]) -> list[float]:
        hands = deals.draw(r)
        theirs = _trade_card_of(view, hands, partner)
        out = []
        for i in active:
            card = cards[i]
            after = _swapped(hands, seat, partner, card, theirs)
            out.append(values.playout(Sim(order, after, order[0]), LOOKAHEAD, DEPTH))
        return out

    return _search(cards, trial, rng, samples, deadline)


def _knowledge_of(view: dict, hands: list[list[int]], s: int) -> Knowledge:
    """What seat s knows in a sampled deal before the first trick."""
    h = hands[s]
    deck, played = view["deck"], view["played"]
    unseen = [0] * 14
    for r in range(1, 14):
        unseen[r] = deck[r] - played[r] - h[r]
    unseen[0] = sum(unseen[1:])
    others = [o[0] for t, o in enumerate(hands) if t != s and o[0]]
    return Knowledge(h, unseen, len(others), max(others, default=0))


def _dalmuti_return(view: dict, hands: list[list[int]], d: int, k: int) -> list[int]:
    """What the Dalmuti d gives back (as the skilled bot would), from its dealt hand."""
    h = hands[d]
    if view["options"]["tribute_return"] == "worst":
        return _worst(h, k)
    ranks = [r for r in range(1, JESTER) if h[r]]
    options = [c for c in combinations_with_replacement(ranks, k)
               if all(c.count(r) <= h[r] for r in c)]
    if not options:
        return _worst(h, k)
    return list(give_back_choice(_knowledge_of(view, hands, d), options))


def _trade_card_of(view: dict, hands: list[list[int]], s: int) -> int | None:
    """The card seat s gives in a chosen trade (as the skilled bot would)."""
    options = [(r,) for r in range(1, JESTER) if hands[s][r]]
    if not options:
        return None
    return give_back_choice(_knowledge_of(view, hands, s), options)[0]


def _random_card(h: list[int], rng: random.Random) -> int | None:
    cards = [r for r in range(1, JESTER) for _ in range(h[r])]
    return rng.choice(cards) if cards else None


def _swapped(hands, a: int, b: int, card_a: int | None, card_b: int | None):
    after = [h[:] for h in hands]
    if card_a is not None:
        _move_cards(after, a, b, [card_a])
    if card_b is not None:
        _move_cards(after, b, a, [card_b])
    return after


def _taxed(hands, plan, returns: dict) -> list[list[int]]:
    """The hands after the taxes: each Peon's best cards for the Dalmuti's ``returns``,
    chosen from the hands as dealt (the exchange is simultaneous)."""
    after = [h[:] for h in hands]
    for peon, dalmuti, k in plan:
        _move_cards(after, peon, dalmuti, _best(hands[peon], k))
        _move_cards(after, dalmuti, peon, returns[dalmuti])
    return after


def _cost_after(kn: Knowledge, cards) -> float:
    after = kn.hand[:]
    for c in cards:
        after[c] -= 1
    after[0] -= len(cards)
    return kn.hand_cost(after)


def _best(h, k: int) -> list[int]:
    out: list[int] = []
    for r in range(1, JESTER):
        out.extend([r] * min(h[r], k - len(out)))
    return out


def _worst(h, k: int) -> list[int]:
    out: list[int] = []
    for r in range(JESTER - 1, 0, -1):
        out.extend([r] * min(h[r], k - len(out)))
    return out


def _move_cards(hands, giver: int, taker: int, cards) -> None:
    for c in cards:
        hands[giver][c] -= 1
        hands[taker][c] += 1
    hands[giver][0] -= len(cards)
    hands[taker][0] += len(cards)


# --- sampling the unseen cards ----------------------------------------------------------


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
        hand = [0] * 14
        for c in view["hand"]:
            hand[c] += 1
        hand[0] = len(view["hand"])
        self.seat = seat
        self.hand = hand
        played = view["played"]
        self.pool = [view["deck"][r] - played[r] - hand[r] for r in range(14)]
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


# --- playouts ---------------------------------------------------------------------------


class Values:
    """What a finished (or decided) playout is worth to the seat: its round points."""

    def __init__(self, view: dict):
        self.seat = view["seat"]
        self.n = view["n_players"]
        self.options = view["options"]
        self.philanthropic = self.options["philanthropic"] != "off"
        # How each seat plays in the playouts: ``playout_move`` (the skilled bot) unless
        # the seat's past decisions fit the plain whole-set player better.
        self.policy = [playout_move] * self.n

    def playout(self, sim: Sim, width: int = 0, depth: int = 1) -> float:
        """Play the round on, every seat playing its model, until the seat's place is
        known (to the end when a Dalmuti's philanthropic points depend on the others);
        what it scores. With ``width`` > 1, each of the seat's own next ``depth``
        decisions instead tries ``width`` moves (``own_moves``) and keeps the best
        outcome: a search of the seat's own plan on this deal."""
        left = [sum(h[r] for h in sim.hands) for r in range(14)]
        return self._run(sim, left, width, depth if width > 1 else 0)

    def _run(self, sim: Sim, left: list[int], width: int, depth: int) -> float:
        seat = self.seat
        to_the_end = self.philanthropic and seat in sim.order[:2]
        stop = None if to_the_end else seat
        finish = sim.finish
        while sim.to_act is not None and stop not in finish:
            if depth and sim.to_act == seat:
                moves = own_moves(sim, left, width)
                if len(moves) > 1:
                    best = -1e9
                    for move in moves:
                        branch = sim.copy()
                        after = left[:]
                        _step(branch, after, move)
                        value = self._run(branch, after, width, depth - 1)
                        if value > best:
                            best = value
                    return best
                move = moves[0]
            else:
                move = self.policy[sim.to_act](sim, left)
            _step(sim, left, move)
        if to_the_end:
            return round_points(sim.order, finish, self.options)[seat]
        return self.n - 1 - finish.index(seat)


def _step(sim: Sim, left: list[int], move: Move) -> None:
    sim.step(move)
    if move is not None:
        q, m, j = move
        left[q] -= m
        left[JESTER] -= j
        left[0] -= m + j


def _knowledge(sim: Sim, left: list[int], seat: int) -> Knowledge:
    """What ``seat`` knows in the simulation: its hand and the cards still held."""
    hands = sim.hands
    h = hands[seat]
    n_opp = max_opp = 0
    for other in hands:
        c = other[0]
        if c and other is not h:
            n_opp += 1
            if c > max_opp:
                max_opp = c
    return Knowledge(h, list(map(sub, left, h)), n_opp, max_opp)


def _forced_pass(h: list[int], last) -> bool:
    """Nothing in the hand can follow ``last`` (``(seat, count, rank)``)."""
    top = last[2] if last[2] < JESTER else JESTER
    if top <= 1:
        return True
    need = last[1] - h[JESTER]
    return max(h[1:top]) < (need if need > 1 else 1)


def own_moves(sim: Sim, left: list[int], width: int) -> list[Move]:
    """``width`` moves worth trying for ``sim.to_act``: the skilled bot's best ones, the
    last of them replaced by the plain whole-set player's move when that differs (two
    different ways to play on, rather than two near-equal skilled scores); only the sure
    one when it has a sure way out, only passing when it cannot follow."""
    last = sim.last
    h = sim.hands[sim.to_act]
    if last is not None and _forced_pass(h, last):
        return [None]
    kn = _knowledge(sim, left, sim.to_act)
    pair = None if last is None else (last[1], last[2])
    move = sure_move(kn, pair)
    if move is not False:
        return [move]
    moves = [m for _, m in scored_moves(kn, pair)][:width]
    plain = plain_model(kn.hand, kn.unseen, 0, kn.max_opp, pair)
    if plain not in moves:
        moves = moves[:max(1, width - 1)] + [plain]
    return moves


def playout_move(sim: Sim, left: list[int]) -> Move:
    """The skilled bot's move for ``sim.to_act``, which knows its own hand and the cards
    still held (``left``: all hands together), as it would from its view."""
    last = sim.last
    seat = sim.to_act
    if last is not None:
        if _forced_pass(sim.hands[seat], last):
            return None
        last = (last[1], last[2])
    return best_move(_knowledge(sim, left, seat), last)


def plain_playout_move(sim: Sim, left: list[int]) -> Move:
    """The plain whole-set player's move for ``sim.to_act`` (``bots_infer.plain_model``)."""
    last = sim.last
    seat = sim.to_act
    hands = sim.hands
    h = hands[seat]
    if last is not None:
        if _forced_pass(h, last):
            return None
        last = (last[1], last[2])
    max_opp = 0
    for other in hands:
        c = other[0]
        if c > max_opp and other is not h:
            max_opp = c
    return plain_model(h, list(map(sub, left, h)), 0, max_opp, last)
