"""Every bot level answers every view with a legal action, the same one for a seed.

The random states here (``random_round``, ``random_states``) are shared with the other
``test_bots_*`` files."""

import json
import random
import time

import pytest

from games.engine import (
    BOTS,
    Effort,
    GiveBack,
    Options,
    Pass,
    Play,
    Revolution,
    Round,
    Trade,
    TradeCard,
    choose_action,
    deal,
)
from games.engine.bots.expert import expert_bot
from games.engine.bots.skilled import skilled_bot
from tests.engine.helpers import give_both_jesters

LEVELS = ["random", "basic", "skilled", "expert"]


def random_options(rng: random.Random) -> Options:
    return Options(
        reduced_deck=rng.random() < 0.3,
        first_round_taxes=rng.random() < 0.7,
        tribute_return=rng.choice(["choice", "choice", "worst"]),
        merchant_trade=rng.choice(["off", "chosen", "random"]),
        master_rule=rng.random() < 0.5,
        philanthropic=rng.choice(["off", "off", "per_position", "flat"]),
    )


def random_round(rng: random.Random, n: int | None = None) -> Round:
    """A fresh round with 4-10 players and random options; often one hand holds both
    jesters, so that revolutions happen."""
    n = n or rng.randint(4, 10)
    options = random_options(rng)
    hands = deal(n, options, rng.randrange(10**9))
    if rng.random() < 0.35:
        holder = rng.choice([n - 1, n - 2, 0, rng.randrange(n)])
        hands = give_both_jesters(hands, holder)
    return Round.start(hands, options, first_round=rng.random() < 0.3, seed=rng.randrange(99))


def skilled_or_random(r: Round, seat: int, rng: random.Random):
    """A plausible action: mostly the skilled bot's, sometimes any legal one (always in
    the trade, which the skilled bot declines)."""
    if r.phase == "trade" or rng.random() < 0.25:
        return rng.choice(r.legal_actions(seat))
    return skilled_bot(r.view(seat), rng)


def random_states(seed: int, count: int, every: float = 0.12) -> list[tuple[Round, int]]:
    """``count`` (round, seat) pairs where the seat must act, from random rounds played on
    by the skilled bot with some random moves; every phase and decision kind appears."""
    rng = random.Random(seed)
    out: list[tuple[Round, int]] = []
    while len(out) < count:
        r = random_round(rng)
        while r.phase != "over" and len(out) < count:
            seat = rng.choice(r.awaiting)
            if r.phase != "play" or rng.random() < every:
                out.append((r, seat))
            r = r.apply(seat, skilled_or_random(r, seat, rng))
    return out


def kind(r: Round, seat: int) -> str:
    actions = r.legal_actions(seat)
    if r.phase == "play":
        return "follow" if Pass() in actions else "lead"
    return type(actions[0]).__name__ if len({type(a) for a in actions}) == 1 else "mixed"


STATES = random_states(3, 400, every=0.04)


def test_the_random_states_cover_every_phase_and_decision():
    kinds = {kind(r, s) for r, s in STATES}
    assert {"lead", "follow", "GiveBack", "Revolution", "Trade", "TradeCard"} <= kinds | {
        t for r, s in STATES for t in (type(a).__name__ for a in r.legal_actions(s))
    }
    assert {r.n_players for r, _ in STATES} == set(range(4, 11))
    assert any(Revolution(True) in r.legal_actions(s) for r, s in STATES)
    assert any(GiveBack in {type(a) for a in r.legal_actions(s)} for r, s in STATES)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_answers_every_view_with_a_legal_action(level):
    states = STATES if level != "expert" else STATES[::2]
    for i, (r, seat) in enumerate(states):
        action = choose_action(level, r.view(seat), i, Effort(samples=2))
        assert action in r.legal_actions(seat), (level, kind(r, seat), action)


def test_the_levels_are_registered():
    assert {"random", "basic", "skilled", "expert"} <= set(BOTS)
    assert BOTS["skilled"] is skilled_bot
    assert BOTS["expert"] is expert_bot


@pytest.mark.parametrize("level", ["skilled", "expert"])
def test_a_level_is_deterministic_for_a_seed(level):
    effort = Effort(samples=3)
    for i, (r, seat) in enumerate(STATES[:120]):
        view = r.view(seat)
        first = choose_action(level, view, i, effort)
        assert choose_action(level, json.loads(json.dumps(view)), i, effort) == first


def test_the_expert_searches_for_its_time_budget_and_no_longer():
    states = [(r, s) for r, s in STATES if kind(r, s) == "follow"
              and sum(isinstance(a, Play) for a in r.legal_actions(s)) >= 3]
    r, seat = states[0]
    start = time.perf_counter()
    action = expert_bot(r.view(seat), random.Random(1), budget=0.05)
    elapsed = time.perf_counter() - start
    assert action in r.legal_actions(seat)
    assert 0.04 < elapsed < 0.5


def test_the_expert_takes_its_budget_and_samples_from_its_caller():
    r, seat = next((r, s) for r, s in STATES if kind(r, s) == "lead" and r.count(s) > 8)
    view = r.view(seat)
    asked = choose_action("expert", view, 2, Effort(samples=5))
    assert asked == expert_bot(view, random.Random(2), samples=5)
    start = time.perf_counter()
    choose_action("expert", view, 2, Effort(budget=0.02))
    assert time.perf_counter() - start < 0.4


def test_the_levels_answer_a_game_view_too():
    from games.engine import Game

    game = Game.new(6, Options(merchant_trade="chosen"), seed=4)
    rng = random.Random(0)
    while not game.is_over and game.round_number < 3:
        if game.round.phase == "over":
            game = game.next_round()
        player = game.awaiting_players[0]
        level = ["skilled", "basic"][player % 2]
        action = BOTS[level](game.view(player), rng)
        game = game.apply(player, action)
    assert game.round_number == 3


@pytest.mark.parametrize("action_type", [Trade, TradeCard, GiveBack, Revolution])
def test_the_skilled_bot_handles_each_tax_and_trade_decision(action_type):
    found = [(r, s) for r, s in STATES if any(isinstance(a, action_type)
                                               for a in r.legal_actions(s))]
    assert found
    for r, seat in found:
        assert skilled_bot(r.view(seat), random.Random(0)) in r.legal_actions(seat)
