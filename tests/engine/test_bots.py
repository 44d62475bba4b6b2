"""Bots see only a view and always answer with a legal action."""

import random

import pytest

from games.engine import (
    BOTS,
    JESTER,
    PASS,
    GiveBack,
    Options,
    Play,
    Revolution,
    Round,
    Trade,
    TradeCard,
    choose_action,
    deal,
    timeout_action,
)
from games.engine.bots import basic_bot

from .helpers import open_round, run

J = JESTER


def play_with(levels, n, seed, options=Options()):  # noqa: B008
    r = Round.start(deal(n, options, seed), options, seed=seed)
    step = 0
    while r.phase != "over":
        for seat in r.awaiting:
            view = r.view(seat)
            level = levels[seat]
            action = (
                timeout_action(view)
                if level == "timeout"
                else choose_action(level, view, seed * 1000 + step)
            )
            assert action in r.legal_actions(seat)
            r = r.apply(seat, action)
            step += 1
            break
    return r


@pytest.mark.parametrize("n", [4, 6, 8, 10])
def test_every_bot_and_the_timeout_play_legal_actions_to_the_end(n):
    options = Options(merchant_trade="chosen", tribute_return="choice")
    for seed in range(3):
        levels = [["random", "basic", "timeout"][(s + seed) % 3] for s in range(n)]
        r = play_with(levels, n, seed, options)
        assert sorted(r.finish_order) == list(range(n))


def test_the_registry_has_the_shipped_bots_and_refuses_unknown_levels():
    assert {"random", "basic"} <= set(BOTS)
    view = open_round([[12, 3], [11], [10], [9]]).view(0)
    with pytest.raises(ValueError):
        choose_action("grandmaster", view, 1)


def test_a_bot_is_deterministic_for_a_seed():
    r = open_round([[12, 11, 10, 9, 8, 7, 6, 5], [4], [3], [2]])
    view = r.view(0)
    assert len({choose_action("random", view, 5) for _ in range(3)}) == 1
    assert {choose_action("random", view, s) for s in range(40)} == set(r.legal_actions(0))


def test_the_basic_bot_leads_its_worst_whole_set():
    r = open_round([[3, 9, 9, 12, 12, 12, J], [11], [10], [2]])
    assert basic_bot(r.view(0), random.Random(0)) == Play((12, 12, 12))


def test_the_basic_bot_does_not_break_a_set_to_follow():
    r = open_round([[12, 2], [9, 9, 9, 5, 5, 11], [10], [4]])
    r = r.apply(0, Play((12,)))
    assert basic_bot(r.view(1), random.Random(0)) == Play((11,))
    r = open_round([[12, 2], [9, 9, 9, 5, 5], [10], [4]])
    r = r.apply(0, Play((12,)))
    assert basic_bot(r.view(1), random.Random(0)) == PASS


def test_the_basic_bot_keeps_its_jesters_unless_they_take_it_out():
    r = open_round([[12, 12, 2], [10, J, 3, 4, 5, 6, 7, 8], [10], [4]])
    r = r.apply(0, Play((12, 12)))
    assert basic_bot(r.view(1), random.Random(0)) == PASS
    r = open_round([[12, 12, 2], [10, J], [10], [4]])
    r = r.apply(0, Play((12, 12)))
    assert basic_bot(r.view(1), random.Random(0)) == Play((10, J))


def test_the_basic_bot_plays_everything_at_once_when_it_can():
    r = open_round([[8, 8, J], [11], [10], [2]])
    assert basic_bot(r.view(0), random.Random(0)) == Play((8, 8, J))


def test_the_basic_bot_gives_back_its_worst_cards():
    hands = [[3, 9, 12, 11, 10], [5, 8, 10, 11], [4, 6, 7, 11], [2, 6, 8, 12], [1, 2, 7, 9]]
    r = Round.start(hands)
    assert basic_bot(r.view(0), random.Random(0)) == GiveBack((11, 12))
    assert basic_bot(r.view(1), random.Random(0)) == GiveBack((11,))
    assert timeout_action(r.view(0)) == GiveBack((11, 12))


@pytest.mark.parametrize(("holder", "declares"), [(4, True), (3, True), (2, False), (0, False)])
def test_the_basic_bot_declares_a_revolution_only_as_a_peon(holder, declares):
    hands = [[9, 10, 11, 12], [5, 8, 10, 11], [4, 6, 7, 11], [2, 6, 8, 12], [1, 2, 7, 9]]
    hands[holder] = hands[holder] + [J, J]
    r = Round.start(hands)
    if holder == 0:
        r = r.apply(0, GiveBack((11, 12)))
    assert basic_bot(r.view(holder), random.Random(0)) == Revolution(declares)
    assert timeout_action(r.view(holder)) == Revolution(False)


def test_the_timeout_passes_when_following_and_leads_like_the_basic_bot():
    r = open_round([[12, 12, 3], [11, 11, 4], [10, 5], [9, 6]])
    assert timeout_action(r.view(0)) == Play((12, 12))
    r = run(r, [(0, [12, 12])])
    assert timeout_action(r.view(1)) == PASS


def test_the_timeout_declines_a_merchant_trade_and_gives_its_worst_card_if_picked():
    six = [
        [1, 9, 10, 11, 12],
        [2, 8, 10, 11, 12],
        [3, 7, 11, 12],
        [4, 6, 11, 12],
        [5, 5, 10, 12],
        [6, 7, 8, 9],
    ]
    r = Round.start(six, Options(merchant_trade="chosen"))
    r = r.apply(0, GiveBack((11, 12))).apply(1, GiveBack((12,)))
    assert timeout_action(r.view(2)) == Trade(None)
    r = r.apply(2, Trade(3))
    assert timeout_action(r.view(3)) == TradeCard(12)


def test_the_basic_bot_beats_random_bots():
    places = []
    for seed in range(30):
        r = play_with(["basic", "random", "random", "random", "random"], 5, seed)
        places.append(r.finish_order.index(0))
    assert sum(places) / len(places) < 1.0  # a random seat would average 2
