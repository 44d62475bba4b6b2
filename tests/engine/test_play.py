"""The play phase (docs/RULES.md section 6): leading, following, jesters, passing, going out."""

import pytest

from games.engine import JESTER, PASS, IllegalMove, Play, Round

from .helpers import open_round, passes, run

J = JESTER
FOUR = [[12, 12, 3], [11, 11, 4], [10, 10, 5], [9, 9, 6]]


def test_the_great_dalmuti_leads_the_first_trick():
    r = open_round(FOUR)
    assert r.phase == "play"
    assert r.to_act == 0 and r.awaiting == (0,)


def test_the_leader_must_play():
    r = open_round(FOUR)
    assert PASS not in r.legal_actions(0)
    with pytest.raises(IllegalMove) as exc:
        r.apply(0, PASS)
    assert exc.value.code == "leader_must_play"


def test_a_lead_can_be_any_set_of_one_rank_with_or_without_jesters():
    r = open_round([[5, 5, J], [11], [10], [9]])
    assert r.legal_actions(0) == [
        Play((5,)),
        Play((5, J)),
        Play((5, 5)),
        Play((5, 5, J)),
        Play((J,)),
    ]


@pytest.mark.parametrize(
    ("cards", "code"),
    [
        ((12, 3), "mixed_ranks"),
        ((), "empty_play"),
        ((12, 12, 12), "cards_not_in_hand"),
        ((1,), "cards_not_in_hand"),
        ((0,), "bad_card"),
        ((14,), "bad_card"),
        (("12",), "bad_card"),
        ((J, J, J), "cards_not_in_hand"),
    ],
)
def test_a_lead_that_is_not_a_set_from_the_hand_is_refused(cards, code):
    r = open_round(FOUR)
    with pytest.raises(IllegalMove) as exc:
        r.apply(0, Play(cards))
    assert exc.value.code == code


def test_only_the_player_to_act_may_play():
    r = open_round(FOUR)
    with pytest.raises(IllegalMove) as exc:
        r.apply(1, Play((11,)))
    assert exc.value.code == "not_your_turn"


@pytest.mark.parametrize(
    ("lead", "follow", "code"),
    [
        ((12, 12), (11,), "wrong_count"),
        ((12,), (11, 11), "wrong_count"),
        ((12, 12), (12, 12), "cards_not_in_hand"),
        ((3,), (4,), "not_better"),
    ],
)
def test_a_follow_needs_as_many_cards_of_a_strictly_better_rank(lead, follow, code):
    r = open_round([[12, 12, 3], [12, 11, 11, 4], [10, 10, 5], [9, 9, 6]])
    r = r.apply(0, Play(lead))
    with pytest.raises(IllegalMove) as exc:
        r.apply(1, Play(follow))
    assert exc.value.code == code


def test_an_equal_rank_does_not_beat_a_play():
    r = open_round([[8, 8, 3], [8, 8, 4], [10, 10, 5], [9, 9, 6]])
    r = r.apply(0, Play((8, 8)))
    assert Play((8, 8)) not in r.legal_actions(1)
    with pytest.raises(IllegalMove) as exc:
        r.apply(1, Play((8, 8)))
    assert exc.value.code == "not_better"


def test_following_lists_pass_and_every_better_set_of_the_same_size():
    r = open_round([[12, 12, 3], [11, 11, 11, 4, J], [10, 10, 5], [9, 9, 6]])
    r = r.apply(0, Play((12, 12)))
    assert set(r.legal_actions(1)) == {
        PASS,
        Play((11, 11)),
        Play((11, J)),
        Play((4, J)),
    }


def test_a_jester_joins_a_set_of_any_rank_even_the_dalmuti():
    r = open_round([[2, 2, 3], [1, J, 7], [10, 10, 5], [9, 9, 6]])
    r = r.apply(0, Play((2, 2)))
    r = r.apply(1, Play((1, J)))
    assert r.trick[-1] == (1, (1, J))
    assert r.view(2)["trick"]["to_beat"] == {"count": 2, "rank": 1}


def test_jesters_alone_are_thirteens_and_beaten_by_anything():
    r = open_round([[J, J, 3], [12, 12, 4], [10, 10, 5], [9, 9, 6]])
    r = r.apply(0, Play((J, J)))
    assert r.view(1)["trick"]["to_beat"] == {"count": 2, "rank": 13}
    r = r.apply(1, Play((12, 12)))
    assert r.trick[-1] == (1, (12, 12))


def test_a_single_jester_cannot_follow_a_two():
    r = open_round([[9, 3], [2, 4], [J, 5], [9, 6]])
    r = r.apply(0, Play((9,))).apply(1, Play((2,)))
    assert Play((J,)) not in r.legal_actions(2)
    with pytest.raises(IllegalMove) as exc:
        r.apply(2, Play((J,)))
    assert exc.value.code == "not_better"


def test_a_player_may_pass_even_when_able_to_play_and_play_later_in_the_same_trick():
    r = open_round([[12, 5], [11, 4], [10, 6], [9, 7]])
    r = run(r, [(0, [12]), (1, None), (2, [10]), (3, None), (0, [5])])
    r = r.apply(1, Play((4,)))  # passed before, plays now in the same trick
    assert [s for s, _ in r.trick] == [0, 2, 0, 1]


def test_the_trick_ends_when_everyone_else_has_passed_in_a_row_and_the_last_player_leads():
    r = open_round(FOUR)
    r = run(r, [(0, [12, 12]), (1, [11, 11]), *passes(2, 3)])
    assert r.trick != ()
    r = r.apply(0, PASS)
    assert r.trick == () and r.to_act == 1
    assert r.last_events[-1] == {"type": "trick_won", "seat": 1, "leader": 1}


def test_players_with_no_cards_are_skipped():
    r = open_round([[12, 3], [11], [10, 5], [9, 6]])
    r = run(r, [(0, [12]), (1, [11])])
    assert r.finish_order == (1,)
    r = r.apply(2, PASS).apply(3, PASS).apply(0, PASS)
    # seat 1 is out: the lead passes on to the next player holding cards
    assert r.to_act == 2
    r = r.apply(2, Play((10,))).apply(3, PASS)
    assert r.to_act == 0


def test_the_lead_passes_to_the_next_player_holding_cards_when_the_winner_went_out():
    r = open_round([[12, 3], [5, 7], [1], [9, 6]])
    r = run(r, [(0, [12]), (1, [7]), (2, [1])])
    assert r.finish_order == (2,)
    r = run(r, passes(3, 0, 1))
    assert r.to_act == 3
    assert r.last_events[-1] == {"type": "trick_won", "seat": 2, "leader": 3}


def test_the_round_ends_when_one_player_holds_cards_and_they_finish_last():
    r = open_round([[1], [2], [3], [12, 12]])
    r = r.apply(0, Play((1,)))
    r = run(r, passes(1, 2, 3))
    r = r.apply(1, Play((2,)))
    r = run(r, passes(2, 3))
    r = r.apply(2, Play((3,)))
    assert r.phase == "over"
    assert r.finish_order == (0, 1, 2, 3)
    assert r.to_act is None and r.awaiting == () and r.legal_actions(3) == []
    assert r.points == (3, 2, 1, 0)
    assert r.next_order == (0, 1, 2, 3)
    with pytest.raises(IllegalMove) as exc:
        r.apply(3, PASS)
    assert exc.value.code == "round_over"
    assert [e["type"] for e in r.last_events] == ["play", "out", "out", "round_over"]


def test_a_player_going_out_with_a_play_others_can_still_beat():
    r = open_round([[12, 12], [11, 11, 5], [10, 5], [9, 6]])
    r = r.apply(0, Play((12, 12)))
    assert r.finish_order == (0,)
    r = r.apply(1, Play((11, 11)))
    assert r.to_act == 2


def test_actions_of_the_wrong_phase_are_refused():
    from games.engine import GiveBack, Revolution, Trade, TradeCard

    r = open_round(FOUR)
    for action in (GiveBack((12,)), Revolution(True), Trade(None), TradeCard(12)):
        with pytest.raises(IllegalMove) as exc:
            r.apply(0, action)
        assert exc.value.code == "wrong_phase"
    with pytest.raises(IllegalMove) as exc:
        r.apply(0, "play")
    assert exc.value.code == "unknown_action"


@pytest.mark.parametrize("seat", [-1, 4, "0", None, 1.0])
def test_a_seat_that_does_not_exist_is_refused(seat):
    r = open_round(FOUR)
    with pytest.raises(IllegalMove) as exc:
        r.apply(seat, Play((12,)))
    assert exc.value.code == "no_such_seat"


def test_a_round_is_immutable():
    r = open_round(FOUR)
    with pytest.raises(AttributeError):
        r._phase = "over"
    r.apply(0, Play((12,)))
    assert r.to_act == 0 and r.hand(0) == [3, 12, 12]


@pytest.mark.parametrize(
    "hands",
    [
        [[1], [2], [3]],
        [[1]] * 11,
        [[1], [2], [3], []],
        [[1], [1], [2], [3]],
        [[J, J], [J], [2], [3]],
        [[0], [2], [3], [4]],
    ],
)
def test_round_start_refuses_impossible_deals(hands):
    with pytest.raises(ValueError):
        Round.start(hands)


def test_cards_in_a_play_may_be_given_in_any_order():
    r = open_round([[5, 5, J], [11], [10], [9]])
    assert Play((J, 5, 5)) == Play((5, 5, J))
    r = r.apply(0, Play((J, 5, 5)))
    assert r.trick == ((0, (5, 5, J)),)


def test_a_play_of_things_that_are_not_cards_is_refused():
    r = open_round(FOUR)
    with pytest.raises(IllegalMove) as exc:
        r.apply(0, Play(([12],)))
    assert exc.value.code == "bad_card"
