"""The ``expert`` bot: determinized Monte-Carlo search over deals inferred from the round.

Candidates. For a play it searches every legal move when there are few (``ALL_MOVES``),
else the skilled bot's best few (``CANDIDATES``) plus passing. A play that empties the
hand or a sure way out (the skilled bot's exact endgame) is played at once.

Deals. Again and again it deals the unseen cards at random consistently with everything
the seat has seen (``Sampler``: each hand's size, the cards played, the taxes and the trade
it took part in, a declared revolution), and weighs each deal by how well it explains the
other seats' past plays and passes (``infer.Inference``: every past decision that a
model player holding the guessed hand would have made differently multiplies the weight
by ``EPS``). Of ``PROPOSALS`` deals drawn, one is kept with probability proportional to its
weight, so every kept deal counts the same and the true deal is never ruled out. The
model of each other seat is the one of two (the skilled bot, or the plain whole-set
player of ``infer.plain_model``) that explains its decisions so far better on a few
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

Time: ``budget`` seconds per move (``DEFAULT_BUDGET`` unless the caller says otherwise:
the site passes its settings through ``bots.Effort``). Reproducible: ``samples`` fixes the
number of sampled deals instead, with the same search otherwise; then the move depends
only on the view and ``rng``, and the arena measures the bot players meet.

The deals are drawn in ``deals``, the playouts run in ``playouts``; this module holds the
candidates, the search over them and the decisions before the first trick.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement

from ..actions import PASS, Action, GiveBack, Play, Revolution, Trade, TradeCard
from ..cards import JESTER
from ..hands import best_cards, with_cards, without, worst_cards
from ..sim import Move, Sim, move_cards, move_of
from .common import legal_actions, unseen_of
from .deals import Deals
from .endgame import sure_move
from .knowledge import Knowledge
from .playouts import Values
from .skilled import (
    give_back_choice,
    last_of,
    play_moves,
    scored_moves,
    tax_or_trade_action,
)

DEFAULT_BUDGET = 0.5
ALL_MOVES = 8  # up to this many legal moves, all are searched
CANDIDATES = 6  # else the skilled bot's best ones (and passing)
MIN_SAMPLES = 4  # even when the time is up
PRUNE_FROM, PRUNE_EVERY, PRUNE_Z = 8, 4, 2.5  # dropping clearly worse candidates
LOOKAHEAD = 2  # at the seat's own decisions in a playout: the best of this many moves
WIDE_MOVES = 12  # a review: up to this many legal moves, all are measured
DEPTH = 2  # how many of the seat's own next decisions branch in a playout


def expert_bot(view: dict, rng: random.Random, budget: float | None = None,
               samples: int | None = None) -> Action:
    """See the module docstring. ``samples`` (if set) wins over ``budget`` (None:
    ``DEFAULT_BUDGET``)."""
    if budget is None:
        budget = DEFAULT_BUDGET
    deadline = None if samples else time.perf_counter() + budget
    choice = choice_of(view, rng)
    if choice.trial is None:
        return choice.actions[0]
    trial = choice.trial

    def points(r: random.Random, active: list[int]) -> list[float]:
        return [value for value, _ in trial(r, active)]

    index = _search(list(range(len(choice.actions))), points, rng, samples, deadline)
    return choice.actions[index]


# --- the decision as a search problem ------------------------------------------------------

# What one playout of a candidate gives: the seat's points and its 0-based finishing place.
Outcome = tuple[float, int]
Trial = Callable[[random.Random, list[int]], list[Outcome]]


@dataclass(frozen=True)
class Choice:
    """A decision as the search sees it: its candidate ``actions`` and the ``trial`` that
    samples one deal and plays each active candidate (by index) out on it. No trial: the
    first action is taken without searching (an only move, a sure way out)."""

    actions: list[Action]
    trial: Trial | None


def choice_of(view: dict, rng: random.Random, wide: bool = False,
              also: Sequence[Action] = (), plan: bool = True) -> Choice:
    """The candidates of the seat's decision in ``view`` and how to play them out, for the
    expert (``wide=False``: its own few candidates, a sure way out taken at once) or for a
    review (``wide=True``: every legal action when there are few, else the expert's
    candidates; never a shortcut). The legal actions in ``also`` are always candidates
    (the move a player chose, to be measured beside the best). ``rng`` only draws the
    deals the inference starts from, as the expert always has.

    ``plan``: whether the seat's own next decisions in a playout search its plan on the
    sampled deal (``LOOKAHEAD``), as the expert's own search does. A review measures
    without it (``plan=False``): every seat, the deciding one included, plays on as its
    model would. Searching the plan on a known deal lets a later decision repair an
    earlier one with hindsight, so a move that commits too early or keeps cards too long
    costs nothing in such a playout; with one fixed way of playing on, the places a
    player loses decision by decision add up to what their way of playing costs them in a
    round (the performance difference of two policies is the sum of one's advantages
    under the other), which is what a review should report."""
    width = LOOKAHEAD if plan else 0
    if view["phase"] == "play":
        return _play(view, rng, wide, also, width)
    actions = legal_actions(view)
    if len(actions) == 1:
        return Choice(actions, None)
    if Revolution(True) in actions:
        return Choice([Revolution(True), Revolution(False)], _revolution(view, rng, width))
    gives = [a.cards for a in actions if isinstance(a, GiveBack)]
    if len(gives) > 1:
        chosen = [a.cards for a in also if isinstance(a, GiveBack) and a in actions]
        candidates, trial = _give_back(view, gives, rng, wide, chosen, width)
        return Choice([GiveBack(g) for g in candidates], trial)
    partners = [a.partner for a in actions if isinstance(a, Trade)]
    if len(partners) > 1:
        return Choice([Trade(p) for p in partners],
                      _trade_partner(view, partners, rng, width))
    cards = [a.card for a in actions if isinstance(a, TradeCard)]
    if len(cards) > 1:
        return Choice([TradeCard(c) for c in cards], _trade_card(view, cards, rng, width))
    return Choice([tax_or_trade_action(view, actions)], None)


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


def _play(view: dict, rng: random.Random, wide: bool, also: Sequence[Action],
          width: int) -> Choice:
    kn = Knowledge.from_view(view)
    last = last_of(view)
    moves = play_moves(view)
    if len(moves) == 1:
        return Choice([_action(moves[0])], None)
    if not wide:
        move = sure_move(kn, last)
        if move is not False:
            return Choice([_action(move)], None)
    if len(moves) <= (WIDE_MOVES if wide else ALL_MOVES):
        candidates = moves
    else:
        candidates = [m for _, m in scored_moves(kn, last)][:CANDIDATES]
        if last is not None and None not in candidates:
            candidates.append(None)
        for action in also:
            move = None if action == PASS else move_of(action.cards) if isinstance(
                action, Play) else False
            if move in moves and move not in candidates:
                candidates.append(move)
    if len(candidates) == 1:
        return Choice([_action(candidates[0])], None)
    seat = view["seat"]
    deals = Deals(view, rng)
    trick = view["trick"]
    last_play = (trick["plays"][-1]["seat"], last[0], last[1]) if last else None
    order = view["order"]
    finish = view["finish_order"]
    passes = len(trick["passed"])
    values = Values(view)
    values.policy = deals.policies()

    def trial(r: random.Random, active: list[int]) -> list[Outcome]:
        hands = deals.draw(r)
        base = Sim(order, hands, seat, last_play, passes, finish)
        out = []
        for i in active:
            sim = base.copy()
            sim.step(candidates[i])
            out.append(values.outcome(sim, width, DEPTH))
        return out

    return Choice([_action(m) for m in candidates], trial)


def _action(move: Move) -> Action:
    return PASS if move is None else Play(move_cards(move))


# --- before the first trick: tribute return, revolution, merchant trade -------------------


def _give_back(view: dict, gives: list[tuple[int, ...]], rng: random.Random, wide: bool,
               chosen: list[tuple[int, ...]], width: int) -> tuple[list[tuple[int, ...]], Trial]:
    kn = Knowledge.from_view(view)
    first = give_back_choice(kn, gives)
    rest = sorted((g for g in gives if g != first), key=lambda g: _cost_after(kn, g))
    candidates = [first] + rest[: (WIDE_MOVES if wide else CANDIDATES) - 1]
    candidates += [g for g in chosen if g not in candidates]
    seat = view["seat"]
    deals = Deals(view, rng)
    plan = [(e["from"], e["to"], e["count"]) for e in view["taxes"]["exchanges"]]
    order = view["order"]
    values = Values(view)

    def trial(r: random.Random, active: list[int]) -> list[Outcome]:
        hands = deals.draw(r)
        returns = {d: _dalmuti_return(view, hands, d, k) for _, d, k in plan if d != seat}
        out = []
        for i in active:
            give = candidates[i]
            after = _taxed(hands, plan, {**returns, seat: list(give)})
            out.append(values.outcome(Sim(order, after, order[0]), width, DEPTH))
        return out

    return candidates, trial


def _revolution(view: dict, rng: random.Random, width: int) -> Trial:
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

    def trial(r: random.Random, active: list[int]) -> list[Outcome]:
        # Two candidates are never pruned (``_search`` keeps at least two), so both are
        # always active.
        hands = deals.draw(r)
        declared = values.outcome(Sim(turned, hands, turned[0]), width, DEPTH)
        returns = {d: _dalmuti_return(view, hands, d, k) for _, d, k in plan}
        after = _taxed(hands, plan, returns)
        quiet = values.outcome(Sim(order, after, order[0]), width, DEPTH)
        return [(declared, quiet)[i] for i in active]

    return trial


def _trade_partner(view: dict, partners: list[int | None], rng: random.Random,
                   width: int) -> Trial:
    seat = view["seat"]
    order = view["order"]
    deals = Deals(view, rng)
    values = Values(view)
    chosen = view["options"]["merchant_trade"] == "chosen"

    def trial(r: random.Random, active: list[int]) -> list[Outcome]:
        hands = deals.draw(r)
        out = []
        for i in active:
            p = partners[i]
            after = hands
            if p is not None:
                mine = _trade_card_of(view, hands, seat) if chosen else _random_card(hands[seat], r)
                theirs = _trade_card_of(view, hands, p) if chosen else _random_card(hands[p], r)
                after = _swapped(hands, seat, p, mine, theirs)
            out.append(values.outcome(Sim(order, after, order[0]), width, DEPTH))
        return out

    return trial


def _trade_card(view: dict, cards: list[int], rng: random.Random, width: int) -> Trial:
    seat = view["seat"]
    trade = view["trade"]
    partner = trade["to"] if trade["from"] == seat else trade["from"]
    order = view["order"]
    deals = Deals(view, rng)
    values = Values(view)

    def trial(r: random.Random, active: list[int]) -> list[Outcome]:
        hands = deals.draw(r)
        theirs = _trade_card_of(view, hands, partner)
        out = []
        for i in active:
            card = cards[i]
            after = _swapped(hands, seat, partner, card, theirs)
            out.append(values.outcome(Sim(order, after, order[0]), width, DEPTH))
        return out

    return trial


def _knowledge_of(view: dict, hands: list[list[int]], s: int) -> Knowledge:
    """What seat s knows in a sampled deal before the first trick."""
    h = hands[s]
    others = [o[0] for t, o in enumerate(hands) if t != s and o[0]]
    return Knowledge(h, unseen_of(view, h), len(others), max(others, default=0))


def _dalmuti_return(view: dict, hands: list[list[int]], d: int, k: int) -> list[int]:
    """What the Dalmuti d gives back (as the skilled bot would), from its dealt hand."""
    h = hands[d]
    if view["options"]["tribute_return"] == "worst":
        return list(worst_cards(h, k))
    ranks = [r for r in range(1, JESTER) if h[r]]
    options = [c for c in combinations_with_replacement(ranks, k)
               if all(c.count(r) <= h[r] for r in c)]
    if not options:
        return list(worst_cards(h, k))
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
        _move_cards(after, peon, dalmuti, best_cards(hands[peon], k))
        _move_cards(after, dalmuti, peon, returns[dalmuti])
    return after


def _cost_after(kn: Knowledge, cards) -> float:
    return kn.hand_cost(without(kn.hand, cards))


def _move_cards(hands: list, giver: int, taker: int, cards) -> None:
    hands[giver] = without(hands[giver], cards)
    hands[taker] = with_cards(hands[taker], cards)
