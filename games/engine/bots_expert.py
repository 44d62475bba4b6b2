"""The ``expert`` bot: determinized flat Monte-Carlo search at the root.

For a decision it keeps the skilled bot's best few moves (plus passing), then again and
again deals the unseen cards at random in a way consistent with everything the seat has
seen (each hand's size, the cards played, the taxes and the trade it took part in, a
declared revolution), plays the round out from every candidate move on that same deal,
every seat playing the skilled bot (which sees only its own hand and the cards gone), and
takes the move with the best mean finishing points. A play that empties the hand or a sure
way out (the skilled bot's exact endgame) is played at once, without searching. A
Dalmuti's tribute return is chosen the same way, playing out whole rounds after the
exchange; revolutions and merchant trades are the skilled bot's decisions.

Time: ``budget`` seconds per move (``DEFAULT_BUDGET``, or the ``DALMUTI_EXPERT_BUDGET``
environment variable). Reproducible: ``samples`` fixes the number of sampled deals
instead (``DALMUTI_EXPERT_SAMPLES``); then the move depends only on the view and ``rng``.
"""

from __future__ import annotations

import os
import random
import time

from .actions import PASS, Action, GiveBack, Play
from .bots_common import legal_actions
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
CANDIDATES = 6  # moves searched: the skilled bot's best ones
MIN_SAMPLES = 4  # even when the time is up
SKILLED_BONUS = 0.02  # points: a tie goes to the skilled bot's own choice


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
    phase = view["phase"]
    if phase == "play":
        move = _play(view, rng, samples, deadline)
        return PASS if move is None else Play(move_cards(move))
    actions = legal_actions(view)
    if not actions:
        raise ValueError("this seat has nothing to do")
    gives = [a.cards for a in actions if isinstance(a, GiveBack)]
    if phase == "taxes" and len(gives) > 1:
        return GiveBack(_give_back(view, gives, rng, samples, deadline))
    return tax_or_trade_action(view, actions)


# --- the search -------------------------------------------------------------------------


def _search(candidates: list, trial, rng: random.Random, samples: int | None,
            deadline: float | None):
    """The candidate with the best mean value over sampled deals; ``trial(rng)`` samples a
    deal and returns one value per candidate. Candidates come best first (the skilled
    bot's order), which breaks ties."""
    totals = [0.0] * len(candidates)
    done = 0
    while True:
        for i, value in enumerate(trial(rng)):
            totals[i] += value
        done += 1
        if samples is not None:
            if done >= samples:
                break
        elif done >= MIN_SAMPLES and time.perf_counter() >= deadline:
            break
    totals[0] += SKILLED_BONUS * done
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    return candidates[best]


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
    ranked = [m for _, m in scored_moves(kn, last)]
    candidates = ranked[:CANDIDATES]
    if last is not None and None not in candidates:
        candidates.append(None)
    if len(candidates) == 1:
        return candidates[0]
    seat = view["seat"]
    sampler = Sampler(view)
    trick = view["trick"]
    last_play = (trick["plays"][-1]["seat"], last[0], last[1]) if last else None
    order = view["order"]
    finish = view["finish_order"]
    passes = len(trick["passed"])
    values = Values(view)

    def trial(r: random.Random) -> list[float]:
        hands = sampler.sample(r)
        base = Sim(order, hands, seat, last_play, passes, finish)
        out = []
        for move in candidates:
            sim = base.copy()
            sim.step(move)
            out.append(values.playout(sim))
        return out

    return _search(candidates, trial, rng, samples, deadline)


def _give_back(view: dict, gives: list[tuple[int, ...]], rng: random.Random,
               samples: int | None, deadline: float | None) -> tuple[int, ...]:
    kn = Knowledge.from_view(view)
    first = give_back_choice(kn, gives)
    rest = sorted((g for g in gives if g != first), key=lambda g: _cost_after(kn, g))
    candidates = [first] + rest[: CANDIDATES - 1]
    seat = view["seat"]
    sampler = Sampler(view)
    plan = [(e["from"], e["to"], e["count"]) for e in view["taxes"]["exchanges"]]
    order = view["order"]
    values = Values(view)

    def trial(r: random.Random) -> list[float]:
        hands = sampler.sample(r)
        out = []
        for give in candidates:
            after = [h[:] for h in hands]
            for peon, dalmuti, k in plan:
                tribute = _best(hands[peon], k)
                back = give if dalmuti == seat else _worst(hands[dalmuti], k)
                _move_cards(after, peon, dalmuti, tribute)
                _move_cards(after, dalmuti, peon, back)
            out.append(values.playout(Sim(order, after, order[0])))
        return out

    return _search(candidates, trial, rng, samples, deadline)


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
        order = view["order"]
        # Philanthropic points of a Dalmuti depend on how the others finish.
        self.to_the_end = self.options["philanthropic"] != "off" and self.seat in order[:2]

    def playout(self, sim: Sim) -> float:
        """Play the round on (every seat plays the skilled bot) until the seat's place
        is known; what it scores."""
        seat = self.seat
        stop = None if self.to_the_end else seat
        hands = sim.hands
        left = [sum(h[r] for h in hands) for r in range(14)]
        finish = sim.finish
        while sim.to_act is not None and stop not in finish:
            move = playout_move(sim, left)
            sim.step(move)
            if move is not None:
                q, m, j = move
                left[q] -= m
                left[JESTER] -= j
                left[0] -= m + j
        if self.to_the_end:
            return round_points(sim.order, finish, self.options)[seat]
        return self.n - 1 - finish.index(seat)


def playout_move(sim: Sim, left: list[int]) -> Move:
    """The skilled bot's move for ``sim.to_act``, which knows its own hand and the cards
    still held (``left``: all hands together), as it would from its view."""
    seat = sim.to_act
    hands = sim.hands
    h = hands[seat]
    last = sim.last
    if last is not None:
        k, q = last[1], last[2]
        jesters = h[JESTER]
        for r in range(1, q if q < JESTER else JESTER):
            if h[r] and h[r] + jesters >= k:
                break
        else:
            return None  # nothing can follow
        last = (k, q)
    unseen = [a - b for a, b in zip(left, h, strict=True)]
    n_opp = max_opp = 0
    for s, other in enumerate(hands):
        c = other[0]
        if c and s != seat:
            n_opp += 1
            if c > max_opp:
                max_opp = c
    return best_move(Knowledge(h, unseen, n_opp, max_opp), last)
