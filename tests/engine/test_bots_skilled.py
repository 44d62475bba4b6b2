"""The skilled bot: card counting, whole sets, controls, the exact endgame, taxes."""

import random

import pytest

from games.engine import JESTER, PASS, GiveBack, Options, Play, Round
from games.engine.bots import basic_bot
from games.engine.bots.common import counts
from games.engine.bots.endgame import sure_move
from games.engine.bots.knowledge import Knowledge, passed_on, spread_chance, spread_part
from games.engine.bots.skilled import JESTER_HAND, last_of, skilled_bot
from games.engine.sim import move_of

from .helpers import open_round, run
from .test_bots_levels import STATES, random_states

J = JESTER


def skilled(r: Round, seat: int | None = None):
    seat = r.to_act if seat is None else seat
    return skilled_bot(r.view(seat), random.Random(0))


def test_it_counts_the_unseen_cards_exactly():
    for r, seat in STATES:
        kn = Knowledge.from_view(r.view(seat))
        others = [counts(r.hand(s)) for s in range(r.n_players) if s != seat]
        assert kn.unseen == [sum(h[i] for h in others) for i in range(14)]
        assert kn.hand == counts(r.hand(seat))
        assert kn.max_opp == max(h[0] for h in others)


def test_a_set_it_counts_as_unbeatable_is_never_beatable():
    checked = 0
    for r, seat in STATES:
        if r.phase != "play":
            continue
        kn = Knowledge.from_view(r.view(seat))
        for action in r.legal_actions(seat):
            if action == PASS:
                continue
            if not kn.safe(move_of(action.cards)):
                continue
            after = r.apply(seat, action)
            while after.phase == "play" and after.to_act != seat and after.trick:
                assert after.legal_actions(after.to_act) == [PASS], (r.view(seat), action)
                after = after.apply(after.to_act, PASS)
            checked += 1
    assert checked > 40


def test_it_always_takes_a_play_that_empties_its_hand():
    r = open_round([[9, 9, 12], [5, J], [3, 3, 7], [4, 4, 11]])
    r = run(r, [(0, [9, 9])])
    assert skilled(r) == Play((5, J))


def test_it_leads_what_nobody_can_beat_first_when_that_surely_goes_out():
    r = open_round([[1, 12, 12], [2, 3, 11, 11], [4, 5, 10], [6, 7, 9]])
    assert skilled(r) == Play((1,))
    assert basic_bot(r.view(0), random.Random(0)) == Play((12, 12))


def test_it_takes_the_lead_with_a_control_when_the_rest_then_goes_out():
    r = open_round([[8, 12, 12], [1, 10, 10], [3, 4, 11], [5, 6, 9, 9]])
    r = run(r, [(0, [8])])
    assert skilled(r) == Play((1,))


def test_it_keeps_its_sets_when_it_gives_back():
    hands = [
        [2, 4, 6, 6, 8, 8, 10, 11, 12, 12],
        [3, 5, 7, 9, 9, 10, 11, 12],
        [5, 6, 7, 8, 9, 10, 11, 12],
        [1, 3, 4, 7, 7, 9, 10, 11],
    ]
    r = Round.start(hands, Options())
    assert r.phase == "taxes"
    assert skilled(r, 0) == GiveBack((10, 11))
    assert basic_bot(r.view(0), random.Random(0)) == GiveBack((12, 12))
    (one,) = skilled(r, 1).cards
    assert hands[1].count(one) == 1


@pytest.mark.parametrize(("holder", "declares"), [(3, True), (2, True), (0, False)])
def test_a_peon_with_both_jesters_declares_a_revolution_and_a_dalmuti_does_not(holder,
                                                                                declares):
    hands = [[2, 3, 4, 5], [6, 7, 8, 9], [10, 11, 12, 12], [11, 11, 12, 12]]
    hands[holder] = hands[holder][:2] + [J, J]
    r = Round.start(hands, Options())
    view = r.view(holder)
    assert {"type": "revolution", "declare": True} in view["legal_actions"]
    answers = set()
    while holder in r.awaiting:
        action = skilled(r, holder)
        answers.add(action)
        r = r.apply(holder, action)
    assert any(getattr(a, "declare", None) is declares for a in answers)


def test_spread_chance_is_exact_on_small_cases():
    assert spread_chance(2, 2, 2) == pytest.approx(0.5)
    assert spread_chance(3, 2, 3) == pytest.approx(1 - 6 / 27)
    assert spread_chance(1, 2, 4) == 0.0 and spread_chance(3, 1, 4) == 1.0
    assert spread_chance(5, 3, 1) == 1.0


def test_it_keeps_its_jesters_while_its_hand_is_big():
    """A jester spent early to win one lead costs more than the lead is worth: from a big
    hand it joins a set only to go out."""
    checked = 0
    for r, seat in random_states(31, 1500):
        if r.phase != "play" or len(r.hand(seat)) <= JESTER_HAND or JESTER not in r.hand(seat):
            continue
        view = r.view(seat)
        if sure_move(Knowledge.from_view(view), last_of(view)) is not False:
            continue  # a sure way out may use them
        action = skilled(r, seat)
        if action != PASS:
            assert JESTER not in action.cards, (view, action)
        checked += 1
    assert checked > 50


def test_it_keeps_a_pair_rather_than_break_it_to_follow():
    r = open_round([[9, 10, 11], [7, 7, 7, 8, 8], [3, 4, 12, 12], [5, 6, 12, 12]])
    r = run(r, [(0, [9])])
    assert skilled(r) == PASS
    r = run(r, [(1, None), (2, None), (3, None), (0, [10])])
    assert skilled(r) == PASS


def test_a_dalmuti_gives_back_weak_cards_rather_than_a_good_single():
    """A 3 given back to the Greater Peon would beat the Dalmuti's sets later; a 10 and a
    12 cost the Dalmuti about as little and help the Peon far less."""
    hands = [
        [2, 3, 7, 7, 8, 8, 8, 8, 10, 11, 11, 11, 11, 12, 12, 12],
        [4, 5, 6, 7, 9, 9, 9, 10, 10, 11, 12, 12, 12, 12],
        [4, 4, 5, 6, 6, 6, 7, 9, 9, 9, 10, 10, 11, 11],
        [1, 2, 3, 5, 6, 8, 8, 10, 10, 11, 11, 11, 12, 12],
    ]
    r = Round.start(hands, Options())
    assert r.phase == "taxes" and 0 in r.awaiting
    assert skilled(r, 0) == GiveBack((10, 12))


def test_it_reads_who_passed_on_what_from_the_history():
    r = open_round([[9, 10, 12, 12], [3, 11, 11, 11], [4, 7, 12, 12], [5, 6, 8, 12]])
    r = run(r, [(0, [9]), (1, None), (2, [7]), (3, None), (0, None), (1, None)])
    caps = passed_on(r.view(2))
    single = [[0, q] + [0] * 14 for q in (7, 9, 7)]  # seats 0, 1 and 3: worst single passed on
    assert caps == single
    # Seat 2 leads again. Everybody else passed on a single 7 or worse: a single 4
    # now counts as safer than the same single with no history to read.
    view = r.view(2)
    assert view["trick"]["to_beat"] is None
    with_history = Knowledge.from_view(view)
    view["history"] = []
    without = Knowledge.from_view(view)
    assert with_history.keep(1, 4) > without.keep(1, 4)
    assert with_history.keep(2, 12) == without.keep(2, 12)  # nobody passed on a pair


def test_the_seats_that_passed_count_as_holding_nothing_better():
    assert spread_part(3, 2, 2, 2) == pytest.approx(spread_chance(3, 2, 2))
    assert spread_part(2, 2, 0, 3) == 0.0
    # Two cards into three hands: one given hand gets both with chance 1/9.
    assert spread_part(2, 2, 1, 3) == pytest.approx(1 / 9)
