"""The playout simulator follows the same rules as ``Round``, move by move."""

import random

from games.engine import PASS, Options, Play, Round, deal
from games.engine.bots.greedy import greedy_bot
from games.engine.bots.playouts import plain_playout_move, playout_move
from games.engine.bots.skilled import skilled_bot
from games.engine.sim import Sim, move_cards, move_of, round_points

from .test_bots_levels import random_round, skilled_or_random


def _play_phase(seed: int) -> Round:
    """A random round taken through its taxes and trade by the public ``Round``."""
    rng = random.Random(seed)
    r = random_round(rng)
    while r.phase in ("taxes", "trade"):
        seat = rng.choice(r.awaiting)
        r = r.apply(seat, rng.choice(r.legal_actions(seat)))
    return r


def _same(r: Round, sim: Sim) -> None:
    n = r.n_players
    assert [sim.hands[s][0] for s in range(n)] == [r.count(s) for s in range(n)]
    for s in range(n):
        assert [c for c in range(1, 14) for _ in range(sim.hands[s][c])] == r.hand(s)
    assert tuple(sim.finish) == r.finish_order
    if r.phase == "over":
        assert sim.over and sim.to_act is None
        assert tuple(round_points(r.order, sim.finish, r.options.to_json())) == r.points
        return
    assert not sim.over
    assert sim.to_act == r.to_act
    assert (sim.last is None) == (not r.trick)
    assert sim.passes == len(r.passed)
    legal = [PASS if m is None else Play(move_cards(m)) for m in sim.legal()]
    assert legal == r.legal_actions(r.to_act)


def test_the_simulator_agrees_with_round_move_by_move():
    rounds = moves = 0
    for seed in range(80):
        rng = random.Random(seed)
        r = _play_phase(seed)
        if r.phase != "play":
            continue
        sim = Sim.from_round(r)
        _same(r, sim)
        while r.phase != "over":
            seat = r.to_act
            action = skilled_or_random(r, seat, rng)
            move = None if action == PASS else move_of(action.cards)
            assert move in sim.legal()
            r = r.apply(seat, action)
            sim.step(move)
            _same(r, sim)
            moves += 1
            if r.phase == "play" and rng.random() < 0.02:
                _same(r, Sim.from_round(r))
        rounds += 1
    assert rounds > 50 and moves > 3000


def test_the_playouts_play_the_skilled_bot_and_legal_moves():
    compared = 0
    for seed in range(40):
        rng = random.Random(seed)
        r = _play_phase(1000 + seed)
        if r.phase != "play":
            continue
        sim = Sim.from_round(r)
        left = [sum(h[i] for h in sim.hands) for i in range(14)]
        while r.phase != "over":
            move = playout_move(sim, left)
            assert move in sim.legal()
            if rng.random() < 0.3:
                view = r.view(r.to_act)
                view["history"] = []  # a playout keeps no history of passes
                action = skilled_bot(view, rng)
                assert move == (None if action == PASS else move_of(action.cards))
                compared += 1
            r = r.apply(r.to_act, PASS if move is None else Play(move_cards(move)))
            sim.step(move)
            if move is not None:
                q, m, j = move
                left[q] -= m
                left[13] -= j
                left[0] -= m + j
        assert sorted(sim.finish) == list(range(r.n_players))
    assert compared > 300


def test_moves_and_cards_convert_both_ways():
    for cards in [(5,), (5, 5, 13), (13,), (13, 13), (1, 13, 13), (12,) * 12]:
        assert move_cards(move_of(cards)) == cards
    assert move_of(()) is None and move_cards(None) == ()


def test_round_points_match_the_engine_with_philanthropic_scoring():
    for mode in ("per_position", "flat"):
        for master in (False, True):
            options = Options(philanthropic=mode, master_rule=master, first_round_taxes=False)
            for seed in range(20):
                r = _finished(options, seed)
                assert tuple(round_points(r.order, r.finish_order, options.to_json())) == r.points


def _finished(options: Options, seed: int) -> Round:
    rng = random.Random(seed)
    r = Round.start(deal(6, options, seed), options, first_round=True)
    while r.phase != "over":
        seat = r.awaiting[0]
        r = r.apply(seat, rng.choice(r.legal_actions(seat)))
    return r


def test_the_plain_playouts_play_the_greedy_yardstick_and_legal_moves():
    compared = 0
    for seed in range(30):
        r = _play_phase(2000 + seed)
        if r.phase != "play":
            continue
        sim = Sim.from_round(r)
        left = [sum(h[i] for h in sim.hands) for i in range(14)]
        while r.phase != "over":
            move = plain_playout_move(sim, left)
            assert move in sim.legal()
            action = greedy_bot(r.view(r.to_act), random.Random(seed))
            assert move == (None if action == PASS else move_of(action.cards))
            compared += 1
            r = r.apply(r.to_act, PASS if move is None else Play(move_cards(move)))
            sim.step(move)
            _same(r, sim)
            if move is not None:
                q, m, j = move
                left[q] -= m
                left[13] -= j
                left[0] -= m + j
    assert compared > 500
