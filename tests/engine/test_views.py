"""What a seat may know: ``Round.view`` and the event trail."""

import json

import pytest

from games.engine import (
    JESTER,
    GiveBack,
    IllegalMove,
    Options,
    Play,
    Revolution,
    Round,
    action_from_json,
)

from .helpers import open_round, passes, run

J = JESTER
VIEW_KEYS = {
    "seat",
    "n_players",
    "phase",
    "first_round",
    "options",
    "order",
    "positions",
    "titles",
    "counts",
    "hand",
    "trick",
    "to_act",
    "awaiting",
    "finish_order",
    "legal_actions",
    "taxes",
    "trade",
    "revolution",
    "played",
    "deck",
    "points",
    "next_order",
    "last_events",
    "history",
}
FIVE = [
    [9, 9, 10, 11, 12, 12],
    [5, 8, 10, 11, 12],
    [4, 6, 7, 11, J, J],
    [3, 6, 8, 10, 12],
    [1, 2, 7, 9, 12, 11],
]


def test_a_view_has_exactly_the_documented_keys_and_is_json():
    view = Round.start(FIVE).view(3)
    assert set(view) == VIEW_KEYS
    assert json.loads(json.dumps(view)) == view


def test_a_view_shows_the_own_hand_and_only_counts_of_the_others():
    r = Round.start(FIVE)
    view = r.view(3)
    assert view["hand"] == [3, 6, 8, 10, 12]
    assert view["counts"] == [6, 5, 6, 5, 6]
    text = json.dumps(view)
    assert "[4, 6, 7, 11, 13, 13]" not in text
    assert Round.start(FIVE).view(None)["hand"] == []
    assert Round.start(FIVE).view(None)["legal_actions"] == []


def test_titles_and_positions_per_seat():
    view = Round.start(FIVE).view(0)
    assert view["titles"] == [
        "great_dalmuti",
        "lesser_dalmuti",
        "merchant",
        "lesser_peon",
        "greater_peon",
    ]
    assert view["positions"] == [1, 2, 3, 4, 5]
    assert view["order"] == [0, 1, 2, 3, 4]


def test_in_the_tax_phase_only_the_dalmutis_are_shown_as_awaiting():
    r = Round.start(FIVE)  # seat 2 holds both jesters and is deciding
    assert r.awaiting == (0, 1, 2)
    for seat in (0, 1, 3, 4):
        assert r.view(seat)["awaiting"] == [0, 1]
    assert r.view(2)["awaiting"] == [0, 1, 2]
    assert r.view(None)["awaiting"] == [0, 1]
    r = r.apply(0, GiveBack((12, 12)))
    assert r.view(3)["awaiting"] == [1]
    assert r.view(0)["last_events"] == [{"type": "give_back_chosen", "seat": 0}]


def test_nothing_in_another_seats_view_depends_on_who_holds_both_jesters():
    moved = [list(h) for h in FIVE]
    moved[2] = [4, 6, 7, 11, 12, 12]
    moved[0] = [9, 9, 10, 11, J, J]
    for seat in (1, 3, 4):
        assert Round.start(moved).view(seat) == Round.start(FIVE).view(seat)


def test_legal_actions_in_a_view_are_json_actions():
    r = Round.start(FIVE)
    view = r.view(0)
    assert view["legal_actions"][0] == {"type": "give_back", "cards": [9, 9]}
    assert [action_from_json(a) for a in view["legal_actions"]] == r.legal_actions(0)
    assert r.view(2)["legal_actions"] == [
        {"type": "revolution", "declare": True},
        {"type": "revolution", "declare": False},
    ]


def test_the_trick_so_far_and_the_passes_since_the_last_play():
    r = open_round([[12, 12, 3], [11, 11, 4], [10, 10, 5], [9, 9, 6]])
    r = run(r, [(0, [12, 12]), (1, None), (2, [10, 10]), (3, None)])
    trick = r.view(1)["trick"]
    assert trick == {
        "plays": [{"seat": 0, "cards": [12, 12]}, {"seat": 2, "cards": [10, 10]}],
        "passed": [3],
        "to_beat": {"count": 2, "rank": 10},
        "leader": 0,
    }
    assert r.view(1)["to_act"] == 0 and r.view(1)["awaiting"] == [0]


def test_the_cards_played_so_far_are_counted_per_rank():
    r = open_round([[12, 12, 3], [11, 11, 4], [10, 10, J], [9, 9, 6]])
    r = run(r, [(0, [12, 12]), (1, [11, 11]), (2, [10, J])])
    played = r.view(3)["played"]
    assert len(played) == 14
    assert played[12] == 2 and played[11] == 2 and played[10] == 1 and played[J] == 1
    assert sum(played) == 6
    assert r.view(3)["deck"][12] == 2


def test_points_and_next_order_appear_when_the_round_is_over():
    r = open_round([[1], [2], [3], [12, 12]])
    assert r.view(0)["points"] is None and r.view(0)["next_order"] is None
    r = run(r, [(0, [1]), *passes(1, 2, 3), (1, [2]), *passes(2, 3), (2, [3])])
    view = r.view(3)
    assert view["phase"] == "over"
    assert view["points"] == [3, 2, 1, 0] and view["next_order"] == [0, 1, 2, 3]
    assert view["finish_order"] == [0, 1, 2, 3]


def test_play_events_say_who_played_what_with_how_many_jesters():
    r = open_round([[6, 6, J, 3], [11, 11, 4], [10, 10, 5], [9, 9, 6]])
    r = r.apply(0, Play((6, 6, J)))
    assert r.last_events == [
        {
            "type": "play",
            "seat": 0,
            "title": "great_dalmuti",
            "cards": [6, 6, J],
            "count": 3,
            "rank": 6,
            "jesters": 1,
        },
    ]


def test_a_declined_revolution_leaves_no_trace_for_the_others():
    r = Round.start(FIVE).apply(2, Revolution(False))
    assert r.events_for(3) == [] and r.events_for(None) == []
    assert r.view(3) == Round.start(FIVE).view(3)


def test_a_dalmuti_does_not_see_the_tribute_before_the_exchange():
    r = Round.start(FIVE).apply(2, Revolution(False)).apply(0, GiveBack((12, 12)))
    view = r.view(0)
    assert view["hand"] == [9, 9, 10, 11, 12, 12]
    assert view["taxes"]["received"] is None and view["taxes"]["gave"] is None
    assert "1, 2" not in json.dumps(view["taxes"])


def test_views_of_a_seat_that_does_not_exist_are_refused():
    with pytest.raises(IllegalMove):
        Round.start(FIVE).view(5)


def test_a_great_revolution_is_public_once_declared():
    hands = [list(h) for h in FIVE]
    hands[2], hands[4] = [4, 6, 7, 11, 12, 11], [1, 2, 7, 9, J, J]
    r = Round.start(hands, Options()).apply(4, Revolution(True))
    for seat in range(5):
        view = r.view(seat)
        assert view["revolution"] == {"seat": 4, "great": True}
        assert view["order"] == [4, 3, 2, 1, 0]
        assert {"type": "revolution", "seat": 4, "great": True} in view["last_events"]
