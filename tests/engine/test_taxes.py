"""Revolution, taxes and merchant trade (docs/RULES.md section 5)."""

import pytest

from games.engine import (
    JESTER,
    GiveBack,
    IllegalMove,
    Options,
    Play,
    Revolution,
    Round,
    Trade,
    TradeCard,
)

J = JESTER
# Position order: Great Dalmuti, Lesser Dalmuti, Merchant, Lesser Peon, Greater Peon.
FIVE = [
    [9, 9, 10, 11, 12, 12],
    [5, 8, 10, 11, 12],
    [4, 6, 7, 11, 12],
    [3, 6, 8, 10, 12],
    [1, 2, 7, 9, 12, 11],
]


def test_the_peons_pay_their_best_cards_and_the_dalmutis_give_back_their_choice():
    r = Round.start(FIVE)
    assert r.phase == "taxes" and r.awaiting == (0, 1) and r.to_act is None
    r = r.apply(0, GiveBack((10, 12)))
    assert r.phase == "taxes" and r.awaiting == (1,)
    r = r.apply(1, GiveBack((5,)))
    assert r.phase == "play" and r.to_act == 0
    assert r.hand(0) == [1, 2, 9, 9, 11, 12]
    assert r.hand(4) == [7, 9, 10, 11, 12, 12]
    assert r.hand(1) == [3, 8, 10, 11, 12]
    assert r.hand(3) == [5, 6, 8, 10, 12]
    events = r.last_events
    assert {
        "type": "taxes",
        "exchanges": [
            {"from": 4, "to": 0, "count": 2},
            {"from": 3, "to": 1, "count": 1},
        ],
    } in events
    assert {
        "type": "tax_exchange",
        "from": 4,
        "to": 0,
        "cards": [1, 2],
        "visible_to": [0, 4],
    } in events
    assert all(e["type"] != "tax_exchange" for e in r.events_for(2))


def test_the_dalmutis_choose_from_the_dealt_hand_before_seeing_the_tribute():
    r = Round.start(FIVE)
    view = r.view(0)
    assert view["hand"] == [9, 9, 10, 11, 12, 12]
    assert view["taxes"]["received"] is None and view["taxes"]["to_give_back"] == 2
    with pytest.raises(IllegalMove) as exc:
        r.apply(0, GiveBack((1, 12)))  # the Dalmuti the Peon will pay is not yet in hand
    assert exc.value.code == "cards_not_in_hand"
    r = r.apply(0, GiveBack((12, 12)))
    view = r.view(0)
    assert view["taxes"]["choice"] == [12, 12] and view["taxes"]["received"] is None
    assert r.view(4)["taxes"]["choice"] is None


def test_jesters_are_never_given_and_never_taken_in_taxes():
    hands = [[9, 10, 11, 12, J], [5, 8, 10, 11], [4, 6, 7, 11], [3, 6, 8, 10], [J, 2, 7, 9]]
    r = Round.start(hands)
    assert all(J not in a.cards for a in r.legal_actions(0))
    with pytest.raises(IllegalMove) as exc:
        r.apply(0, GiveBack((12, J)))
    assert exc.value.code == "jester_not_given"
    r = r.apply(0, GiveBack((11, 12))).apply(1, GiveBack((11,)))
    assert r.hand(4).count(J) == 1 and r.hand(0).count(J) == 1
    assert r.hand(0) == [2, 7, 9, 10, J]  # the Peon's best non-jester cards: 2 and 7


@pytest.mark.parametrize(
    ("seat", "cards", "code"),
    [
        (0, (12,), "wrong_give_count"),
        (0, (12, 12, 11), "wrong_give_count"),
        (1, (5, 8), "wrong_give_count"),
        (0, (1, 12), "cards_not_in_hand"),
        (2, (11,), "not_awaited"),
        (4, (12,), "not_awaited"),
    ],
)
def test_a_wrong_give_back_is_refused(seat, cards, code):
    r = Round.start(FIVE)
    with pytest.raises(IllegalMove) as exc:
        r.apply(seat, GiveBack(cards))
    assert exc.value.code == code


def test_a_dalmuti_chooses_only_once():
    r = Round.start(FIVE).apply(0, GiveBack((12, 12)))
    assert r.legal_actions(0) == []
    with pytest.raises(IllegalMove) as exc:
        r.apply(0, GiveBack((9, 9)))
    assert exc.value.code == "already_chosen"


def test_the_give_back_choices_are_every_distinct_pair_of_non_jester_cards():
    r = Round.start([[9, 9, 12, J], [5, 8, 10, 11], [4, 6, 7, 11], [3, 6, 8, 10], [1, 2, 7, 9]])
    assert r.legal_actions(0) == [GiveBack((9, 9)), GiveBack((9, 12))]


def test_with_tribute_return_worst_the_dalmutis_must_give_their_worst_cards():
    r = Round.start(FIVE, Options(tribute_return="worst"))
    assert r.phase == "taxes" and r.awaiting == (0, 1)
    assert r.legal_actions(0) == [GiveBack((12, 12))]
    assert r.legal_actions(1) == [GiveBack((12,))]
    with pytest.raises(IllegalMove) as exc:
        r.apply(0, GiveBack((11, 12)))
    assert exc.value.code == "worst_required"
    r = r.apply(0, GiveBack((12, 12))).apply(1, GiveBack((12,)))
    assert r.hand(4) == [7, 9, 11, 12, 12, 12]


def test_the_holder_of_both_jesters_may_declare_a_revolution_and_there_are_no_taxes():
    hands = [list(h) for h in FIVE]
    hands[2] = [4, 6, J, J, 12]
    r = Round.start(hands)
    assert r.awaiting == (0, 1, 2)
    assert r.view(0)["awaiting"] == [0, 1]
    assert r.view(2)["awaiting"] == [0, 1, 2]
    assert r.legal_actions(2) == [Revolution(True), Revolution(False)]
    r = r.apply(0, GiveBack((12, 12)))
    r = r.apply(2, Revolution(True))
    assert r.phase == "play" and r.to_act == 0 and r.order == (0, 1, 2, 3, 4)
    assert r.hand(0) == hands[0] and r.hand(4) == sorted(hands[4])
    assert r.revolution == {"seat": 2, "great": False}
    assert r.view(3)["revolution"] == {"seat": 2, "great": False}
    assert r.view(3)["taxes"]["status"] == "cancelled"
    assert {"type": "revolution", "seat": 2, "great": False} in r.last_events


def test_keeping_quiet_about_the_jesters_lets_the_taxes_happen():
    hands = [list(h) for h in FIVE]
    hands[2] = [4, 6, J, J, 12]
    r = Round.start(hands).apply(2, Revolution(False))
    assert r.awaiting == (0, 1)
    assert r.events_for(0) == []
    assert r.events_for(2) == [{"type": "revolution_declined", "seat": 2, "visible_to": [2]}]
    with pytest.raises(IllegalMove) as exc:
        r.apply(2, Revolution(True))
    assert exc.value.code == "already_chosen"
    r = r.apply(0, GiveBack((12, 12))).apply(1, GiveBack((12,)))
    assert r.phase == "play" and r.hand(0) == [1, 2, 9, 9, 10, 11]


def test_only_the_holder_of_both_jesters_may_declare():
    r = Round.start(FIVE)
    with pytest.raises(IllegalMove) as exc:
        r.apply(0, Revolution(True))
    assert exc.value.code == "no_revolution"
    with pytest.raises(IllegalMove) as exc:
        r.apply(3, Revolution(True))
    assert exc.value.code == "no_revolution"


def test_a_greater_peon_with_both_jesters_calls_a_great_revolution():
    hands = [list(h) for h in FIVE]
    hands[4] = [1, 2, J, J, 12, 11]
    r = Round.start(hands)
    r = r.apply(4, Revolution(True))
    assert r.revolution == {"seat": 4, "great": True}
    assert r.order == (4, 3, 2, 1, 0)
    assert r.phase == "play" and r.to_act == 4  # the new Great Dalmuti leads
    assert r.title(4) == "great_dalmuti" and r.title(0) == "greater_peon"
    assert r.title(2) == "merchant"
    assert r.hand(4) == sorted(hands[4])  # hands are kept
    view = r.view(1)
    assert view["positions"] == [5, 4, 3, 2, 1]
    assert view["titles"][3] == "lesser_dalmuti"
    r = r.apply(4, Play((12,)))
    assert r.to_act == 3  # play follows the new position order


def test_without_first_round_taxes_the_greater_peon_opens_the_first_round():
    # Asked whether to call a Great Revolution even without the jesters: a question put
    # only to a holder would tell everybody who holds them.
    r = Round.start(FIVE, Options(first_round_taxes=False), first_round=True)
    assert r.phase == "taxes" and r.awaiting == (4,)
    assert r.legal_actions(4) == [Revolution(False)]
    assert r.view(0)["awaiting"] == [4] and r.view(0)["taxes"]["status"] == "none"
    with pytest.raises(IllegalMove):
        r.apply(4, Revolution(True))
    r = r.apply(4, Revolution(False))
    assert r.phase == "play" and r.to_act == 0
    later = Round.start(FIVE, Options(first_round_taxes=False), first_round=False)
    assert later.phase == "taxes" and later.view(4)["taxes"]["status"] == "pending"


def test_without_first_round_taxes_others_see_the_same_whoever_holds_the_jesters():
    with_jesters = [list(h) for h in FIVE]
    with_jesters[4] = [1, 2, J, J, 12, 11]
    plain = Round.start(FIVE, Options(first_round_taxes=False), first_round=True)
    holder = Round.start(with_jesters, Options(first_round_taxes=False), first_round=True)
    for seat in (0, 1, 2):
        mine, theirs = plain.view(seat), holder.view(seat)
        assert (mine["phase"], mine["awaiting"]) == (theirs["phase"], theirs["awaiting"])


def test_without_first_round_taxes_a_greater_peon_with_both_jesters_may_still_rise():
    hands = [list(h) for h in FIVE]
    hands[4] = [1, 2, J, J, 12, 11]
    r = Round.start(hands, Options(first_round_taxes=False), first_round=True)
    assert r.phase == "taxes" and r.awaiting == (4,)
    assert r.legal_actions(4) == [Revolution(True), Revolution(False)]
    assert r.view(0)["awaiting"] == [4]
    quiet = r.apply(4, Revolution(False))
    assert quiet.phase == "play" and quiet.order == (0, 1, 2, 3, 4)
    great = r.apply(4, Revolution(True))
    assert great.order == (4, 3, 2, 1, 0) and great.to_act == 4


def test_without_first_round_taxes_other_jester_holders_have_nothing_to_declare():
    hands = [list(h) for h in FIVE]
    hands[3] = [3, 6, J, J, 12]
    r = Round.start(hands, Options(first_round_taxes=False), first_round=True)
    assert r.legal_actions(3) == []
    assert r.legal_actions(4) == [Revolution(False)]


SIX = [
    [1, 9, 10, 11, 12],
    [2, 8, 10, 11, 12],
    [3, 7, 11, 12],
    [4, 6, 11, 12],
    [5, 5, 10, 12],
    [6, 7, 8, 9],
]


@pytest.mark.parametrize("mode", ["chosen", "random"])
def test_merchant_trade_needs_six_players(mode):
    r = Round.start(FIVE, Options(merchant_trade=mode))
    r = r.apply(0, GiveBack((12, 12))).apply(1, GiveBack((12,)))
    assert r.phase == "play"


def test_in_a_chosen_merchant_trade_each_merchant_gives_a_card_of_their_choice():
    r = Round.start(SIX, Options(merchant_trade="chosen"))
    r = r.apply(0, GiveBack((11, 12))).apply(1, GiveBack((12,)))
    assert r.phase == "trade" and r.awaiting == (2,)
    assert r.legal_actions(2) == [Trade(3), Trade(None)]
    for partner, code in ((0, "not_a_merchant"), (4, "not_a_merchant"), (2, "not_a_merchant")):
        with pytest.raises(IllegalMove) as exc:
            r.apply(2, Trade(partner))
        assert exc.value.code == code
    r = r.apply(2, Trade(3))
    assert r.phase == "trade" and r.awaiting == (2, 3)
    assert r.view(5)["trade"] | {"gave": None} == {
        "status": "choosing_cards",
        "from": 2,
        "to": 3,
        "gave": None,
        "received": None,
        "choice": None,
    }
    assert r.legal_actions(3) == [TradeCard(4), TradeCard(6), TradeCard(11), TradeCard(12)]
    with pytest.raises(IllegalMove) as exc:
        r.apply(3, TradeCard(J))
    assert exc.value.code == "jester_not_given"
    with pytest.raises(IllegalMove) as exc:
        r.apply(3, TradeCard(1))
    assert exc.value.code == "cards_not_in_hand"
    r = r.apply(3, TradeCard(12))
    assert r.awaiting == (2,)
    assert r.view(2)["trade"]["choice"] is None and r.view(3)["trade"]["choice"] == 12
    r = r.apply(2, TradeCard(11))
    assert r.phase == "play"
    assert r.hand(2) == [3, 7, 12, 12] and r.hand(3) == [4, 6, 11, 11]
    assert r.view(2)["trade"]["gave"] == [11] and r.view(2)["trade"]["received"] == [12]
    assert r.view(0)["trade"]["gave"] is None and r.view(0)["trade"]["status"] == "done"


def test_the_best_placed_merchant_may_decline_to_trade():
    r = Round.start(SIX, Options(merchant_trade="chosen"))
    r = r.apply(0, GiveBack((11, 12))).apply(1, GiveBack((12,)))
    r = r.apply(2, Trade(None))
    assert r.phase == "play" and r.view(4)["trade"]["status"] == "declined"


def test_a_random_merchant_trade_swaps_one_random_card_each_way_from_the_seed():
    outcomes = set()
    for seed in range(12):
        r = Round.start(SIX, Options(merchant_trade="random"), seed=seed)
        r = r.apply(0, GiveBack((11, 12))).apply(1, GiveBack((12,)))
        r = r.apply(2, Trade(3))
        assert r.phase == "play"
        a, b = r.view(2)["trade"]["gave"], r.view(3)["trade"]["gave"]
        assert r.view(2)["trade"]["received"] == b
        assert sorted(r.hand(2) + r.hand(3)) == sorted(SIX[2] + SIX[3])
        outcomes.add((a[0], b[0]))
        again = Round.start(SIX, Options(merchant_trade="random"), seed=seed)
        again = again.apply(0, GiveBack((11, 12))).apply(1, GiveBack((12,))).apply(2, Trade(3))
        assert again == r
    assert len(outcomes) > 1


def test_there_is_no_merchant_trade_after_a_revolution():
    hands = [list(h) for h in SIX]
    hands[2] = [3, 7, J, J]
    r = Round.start(hands, Options(merchant_trade="chosen")).apply(2, Revolution(True))
    assert r.phase == "play" and r.view(2)["trade"]["status"] == "none"


def test_peons_holding_only_jesters_pay_no_tribute():
    r = Round.start([[1, 5], [2, 6], [3], [J], [J]])
    assert r.phase == "play"
    assert r.view(0)["taxes"] == {
        "status": "done",
        "exchanges": [],
        "gave": None,
        "received": None,
        "choice": None,
        "to_give_back": 0,
        "tribute": None,
    }


def test_a_peon_alone_knows_the_tribute_they_are_to_pay_until_it_is_paid():
    """Each Peon's view names the best cards the taxes will take from them (never a
    jester), while the Dalmutis choose; nobody else's does, and once paid it is "gave"."""
    hands = [list(h) for h in FIVE]
    hands[4] = [J, 2, 7, 9, 12, 1]
    r = Round.start(hands)
    assert r.view(4)["taxes"]["tribute"] == [1, 2]
    assert r.view(3)["taxes"]["tribute"] == [3]
    assert [r.view(s)["taxes"]["tribute"] for s in (0, 1, 2, None)] == [None] * 4
    r = r.apply(0, GiveBack((12, 12))).apply(1, GiveBack((12,)))
    assert r.view(4)["taxes"]["tribute"] is None and r.view(4)["taxes"]["gave"] == [1, 2]


def test_a_dalmuti_holding_both_jesters_gives_back_and_decides_on_the_revolution():
    hands = [list(h) for h in FIVE]
    hands[0] = [9, 9, 10, J, J, 12]
    r = Round.start(hands)
    assert r.legal_actions(0)[-2:] == [Revolution(True), Revolution(False)]
    r = r.apply(0, GiveBack((12, 10)))
    assert r.awaiting == (0, 1) and r.view(3)["awaiting"] == [1]
    assert r.legal_actions(0) == [Revolution(True), Revolution(False)]
    with pytest.raises(IllegalMove) as exc:
        r.apply(0, GiveBack((9, 9)))
    assert exc.value.code == "already_chosen"
    with pytest.raises(IllegalMove) as exc:
        r.apply(0, Revolution("yes"))
    assert exc.value.code == "unknown_action"
    r = r.apply(0, Revolution(False)).apply(1, GiveBack((12,)))
    assert r.phase == "play" and r.hand(0) == [1, 2, 9, 9, J, J]
