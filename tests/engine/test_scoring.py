"""The end of a round: points, the next positions, the master rule (docs/RULES.md 6 and 7)."""

import pytest

from games.engine import JESTER, PASS, Play, Revolution, Round
from games.engine.options import Options

from .helpers import open_round, passes, run


def test_each_player_scores_one_point_per_player_who_finished_below_them():
    r = open_round([[1], [2], [3], [4], [5, 12]])
    r = run(r, [(0, [1]), *passes(1, 2, 3, 4)])
    r = run(r, [(1, [2]), *passes(2, 3, 4)])
    r = run(r, [(2, [3]), *passes(3, 4)])
    r = run(r, [(3, [4])])
    assert r.finish_order == (0, 1, 2, 3, 4)
    assert r.points == (4, 3, 2, 1, 0)
    assert sum(r.points) == 10


def _round_finishing(order, **options):
    """A 5-player round in which the seats go out in ``order``: each holds its place card
    (1 for the first out, ...) and a 10, an 11 and a 12. Leaders lead their worst card,
    the next to go out beats it with the place card, everyone else passes."""
    hands = [[order.index(s) + 1, 10, 11, 12] for s in range(5)]
    r = open_round(hands, **options)
    while r.phase != "over":
        seat = r.to_act
        going_out = order[len(r.finish_order)]
        place_card = Play((order.index(seat) + 1,))
        if r.trick == ():
            r = r.apply(seat, Play((max(r.hand(seat)),)))
        elif seat == going_out and place_card in r.legal_actions(seat):
            r = r.apply(seat, place_card)
        else:
            r = r.apply(seat, PASS)
    return r


@pytest.mark.parametrize("order", [(3, 0, 4, 1, 2), (4, 3, 2, 1, 0), (0, 1, 2, 3, 4)])
def test_without_the_master_rule_the_finishing_order_is_the_next_position_order(order):
    r = _round_finishing(order)
    assert r.finish_order == order
    assert r.next_order == order


@pytest.mark.parametrize(
    ("finish", "expected"),
    [
        # The Greater Peon wins: rises one place only; the Great Dalmuti falls to the bottom.
        ((4, 3, 2, 1, 0), (1, 2, 3, 4, 0)),
        ((0, 1, 2, 3, 4), (0, 1, 2, 3, 4)),
        ((1, 0, 2, 3, 4), (1, 0, 2, 3, 4)),
        ((2, 1, 0, 3, 4), (1, 2, 0, 3, 4)),
        ((3, 0, 4, 1, 2), (0, 1, 3, 4, 2)),
        ((0, 4, 3, 2, 1), (0, 2, 3, 4, 1)),
    ],
)
def test_with_the_master_rule_nobody_rises_more_than_one_place(finish, expected):
    r = _round_finishing(finish, master_rule=True)
    assert r.finish_order == finish
    assert r.next_order == expected
    old = {s: i for i, s in enumerate(r.order)}
    new = {s: i for i, s in enumerate(r.next_order)}
    assert all(old[s] - new[s] <= 1 for s in range(5))
    assert r.points == tuple(4 - finish.index(s) for s in range(5))


@pytest.mark.parametrize(
    ("finish", "mode", "bonus"),
    [
        # Greater Peon (seat 4) finishes 1st: rose 4 places; Lesser Peon (3) 2nd: rose 2.
        ((4, 3, 0, 1, 2), "per_position", {0: 4, 1: 2}),
        ((4, 3, 0, 1, 2), "flat", {0: 1, 1: 1}),
        ((0, 1, 2, 3, 4), "per_position", {}),
        ((0, 1, 2, 4, 3), "per_position", {0: 1}),
        ((0, 1, 2, 4, 3), "flat", {0: 1}),
        ((0, 1, 3, 2, 4), "per_position", {1: 1}),
    ],
)
def test_philanthropic_scoring_rewards_the_dalmutis_when_their_peons_rise(finish, mode, bonus):
    r = _round_finishing(finish, philanthropic=mode)
    base = [4 - finish.index(s) for s in range(5)]
    assert r.points == tuple(base[s] + bonus.get(s, 0) for s in range(5))


def test_philanthropic_scoring_measures_the_rise_by_the_next_positions_under_the_master_rule():
    r = _round_finishing((4, 3, 0, 1, 2), philanthropic="per_position", master_rule=True)
    assert r.next_order == (0, 1, 3, 4, 2)
    # The Peons rose one place each (the master rule allows no more).
    assert r.points == (2 + 1, 1 + 1, 0, 3, 4)


def test_philanthropic_scoring_follows_the_positions_after_a_great_revolution():
    hands = [[1], [2], [3], [4, 5], [12, 12, JESTER, JESTER]]
    r = Round.start(
        hands, Options(first_round_taxes=False, philanthropic="per_position"), first_round=True
    )
    r = r.apply(4, Revolution(True))
    assert r.order == (4, 3, 2, 1, 0)
    # Seat 0, the Greater Peon during this round, goes out first: it rose four places,
    # which scores for seat 4, the Great Dalmuti during this round.
    r = run(r, [(4, [12]), *passes(3, 2, 1), (0, [1])])
    while r.phase != "over":
        seat = r.to_act
        r = r.apply(seat, Play((min(r.hand(seat)),)) if r.trick == () else PASS)
    assert r.finish_order[0] == 0
    base = [4 - r.finish_order.index(s) for s in range(5)]
    lesser_peon_rise = 3 - r.next_order.index(1)
    assert r.points[4] == base[4] + 4
    assert r.points[3] == base[3] + max(lesser_peon_rise, 0)
    assert r.points[0] == base[0] and r.points[1] == base[1] and r.points[2] == base[2]
