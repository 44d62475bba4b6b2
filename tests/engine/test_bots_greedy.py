"""The greedy yardstick: the typical heuristic bot, for the arena only."""

import random

from games.engine import BOTS, JESTER, PASS, GiveBack, Options, Play, Round, TradeCard
from games.engine.bots import YARDSTICKS
from games.engine.bots.greedy import greedy_bot

from .helpers import open_round, run
from .test_bots_hidden import STATES as JSON_STATES
from .test_bots_hidden import reads_only_its_view
from .test_bots_levels import STATES

J = JESTER


def greedy(r: Round, seat: int | None = None):
    seat = r.to_act if seat is None else seat
    return greedy_bot(r.view(seat), random.Random(0))


def test_it_is_a_yardstick_and_not_a_level_offered_to_players():
    assert YARDSTICKS["greedy"] is greedy_bot
    assert "greedy" not in BOTS


def test_it_answers_every_view_with_a_legal_action_and_reads_only_its_view():
    for r, seat in STATES:
        assert greedy(r, seat) in r.legal_actions(seat)
    assert reads_only_its_view(greedy_bot, JSON_STATES)


def test_it_leads_its_worst_rank_whole_without_jesters():
    r = open_round([[3, 7, 9, 9, 9, J], [2, 10, 11], [4, 4, 4, 12], [6, 8, 11, 12]])
    assert greedy(r) == Play((9, 9, 9))


def test_it_follows_with_its_worst_whole_set_of_the_size_asked():
    r = open_round([[11, 11, 3], [4, 4, 6, 6, 8, 8, 8], [5, 5, 12], [7, 7, 9]])
    r = run(r, [(0, [11, 11])])
    assert greedy(r) == Play((6, 6))


def test_it_never_breaks_a_set_and_keeps_its_jesters_when_not_going_out():
    r = open_round([[12, 3], [5, 5, 5, J, 10, 10, 10], [4, 12], [6, 11]])
    r = run(r, [(0, [12])])
    assert greedy(r) == PASS
    r = open_round([[12, 12, 3], [5, J, 9, 9, 9], [4, 4, 12], [6, 6, 11]])
    r = run(r, [(0, [12, 12])])
    assert greedy(r) == PASS


def test_it_uses_a_jester_to_go_out():
    r = open_round([[12, 12, 3], [5, J], [4, 4, 11], [6, 6, 11]])
    r = run(r, [(0, [12, 12])])
    assert greedy(r) == Play((5, J))


def test_it_counts_cards_to_lead_a_control_before_its_last_set():
    r = open_round([[1, 12, 12], [2, 3, 11, 11], [4, 5, 10], [6, 7, 9]])
    assert greedy(r) == Play((1,))
    r = open_round([[2, 12, 12], [1, 3, 11, 11], [4, 5, 10], [6, 7, 9]])
    assert greedy(r) == Play((12, 12))  # the Dalmuti is out: the 2 is no control


def test_it_gives_back_its_worst_cards_and_trades_its_worst_card():
    hands = [
        [2, 4, 6, 6, 8, 8, 10, 11, 12, 12],
        [3, 5, 7, 9, 9, 10, 11, 12],
        [5, 6, 7, 8, 9, 10, 11, 12],
        [1, 3, 4, 7, 7, 9, 10, 11],
    ]
    r = Round.start(hands, Options())
    assert greedy(r, 0) == GiveBack((12, 12))
    assert greedy(r, 1) == GiveBack((12,))
    for r, seat in STATES:
        if any(isinstance(a, TradeCard) for a in r.legal_actions(seat)):
            assert greedy(r, seat) == TradeCard(max(c for c in r.hand(seat) if c != J))
