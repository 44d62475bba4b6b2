"""The worked examples of the rulebooks (docs/RULES.md section 10)."""

import pytest

from games.engine import (
    JESTER,
    PASS,
    GiveBack,
    IllegalMove,
    Options,
    Play,
    Round,
    seating_from_cards,
)

from .helpers import open_round, passes, run

J = JESTER

# German (004) and Dutch (000): Sandra/Anne (Great Dalmuti), Anton/Marc, Andrea/Katrien,
# Kerstin/Lowie, Dana/Maria (Greater Peon).
SANDRA, ANTON, ANDREA, KERSTIN, DANA = range(5)
OPENING_HANDS = [
    [11, 11, 11, 11, 12, 12, 12, 6, 6, J, 8, 7],
    [10, 10, 10, 2, 7],
    [J, 12, 12, 4],
    [8, 8, 8, 5, 5, 5, 9, 7],
    [9, 9, 9, 9, 9, 3, 4],
]


def test_the_five_player_opening_of_the_german_and_dutch_rulebooks():
    r = open_round(OPENING_HANDS)

    # Sandra leads four Stonecutters; everyone passes. Dana keeps her five Cooks together:
    # she could follow with four of them, but not with all five.
    r = r.apply(SANDRA, Play((11, 11, 11, 11)))
    assert Play((9, 9, 9, 9)) not in r.legal_actions(ANTON)
    r = run(r, passes(ANTON, ANDREA, KERSTIN))
    assert Play((9, 9, 9, 9)) in r.legal_actions(DANA)
    with pytest.raises(IllegalMove) as exc:
        r.apply(DANA, Play((9, 9, 9, 9, 9)))
    assert exc.value.code == "wrong_count"
    r = r.apply(DANA, PASS)
    assert r.to_act == SANDRA and r.trick == ()

    # Three Peasants, beaten by three Shepherdesses, three Masons, two Knights and a
    # Jester as three Knights, then three Abbesses; then everyone passes.
    r = run(
        r,
        [
            (SANDRA, [12, 12, 12]),
            (ANTON, [10, 10, 10]),
            (ANDREA, None),
            (KERSTIN, [8, 8, 8]),
            (DANA, None),
            (SANDRA, [6, 6, J]),
            (ANTON, None),
            (ANDREA, None),
        ],
    )
    assert r.last_events[0]["type"] == "pass"
    r = r.apply(KERSTIN, Play((5, 5, 5)))
    r = run(r, passes(DANA, SANDRA, ANTON, ANDREA))
    assert r.to_act == KERSTIN and r.trick == ()

    # Kerstin leads a Cook; Dana passes; Sandra plays a Mason and Anton an Archbishop.
    # Andrea's single Jester is a 13 and cannot follow a 2.
    r = run(r, [(KERSTIN, [9]), (DANA, None), (SANDRA, [8]), (ANTON, [2])])
    assert Play((J,)) not in r.legal_actions(ANDREA)
    with pytest.raises(IllegalMove) as exc:
        r.apply(ANDREA, Play((J,)))
    assert exc.value.code == "not_better"
    r = run(r, passes(ANDREA, KERSTIN, DANA, SANDRA))
    assert r.to_act == ANTON and r.trick == ()
    assert r.hand(SANDRA) == [7]
    assert r.hand(DANA) == [3, 4, 9, 9, 9, 9, 9]


# French (002): Tatiana, Elliot, Marie, Victor and Eric.
VICTOR, MARIE, TATIANA, ERIC, ELLIOT = range(5)


def test_the_french_seating_draw_breaks_a_tie_among_the_tied_players_only():
    # Victor draws a Peasant, Marie a Knight, Tatiana the Dalmuti, Eric a Peasant and
    # Elliot an Archbishop; Victor and Eric draw again: an Abbess and a Jester.
    draws, lineup = seating_from_cards(5, [12, 6, 1, 12, 2, 5, J])
    assert draws == [
        [
            {"player": VICTOR, "card": 12},
            {"player": MARIE, "card": 6},
            {"player": TATIANA, "card": 1},
            {"player": ERIC, "card": 12},
            {"player": ELLIOT, "card": 2},
        ],
        [{"player": VICTOR, "card": 5}, {"player": ERIC, "card": J}],
    ]
    assert lineup == [TATIANA, ELLIOT, MARIE, VICTOR, ERIC]


def test_the_french_taxes_example():
    tatiana = [3, 6, 6, 7, 9, 9, 9, 10, 10, 11, 11, 11, 11, 12, 12, 12]
    eric = [2, 4, 6, 7, 7, 7, 9, 9, 11, 11, 12, 12, 12, J]
    elliot = [1, 2, 3, 5, 8, 8, 10]
    marie = [5, 5, 6, 8, 10, 12]
    victor = [3, 4, 5, 6, 8, 9, 11]
    r = Round.start([tatiana, elliot, marie, victor, eric], Options())
    assert r.phase == "taxes" and r.awaiting == (0, 1)
    r = r.apply(0, GiveBack((10, 10)))
    # Tatiana has chosen before seeing anything of Eric's tribute.
    assert r.view(0)["taxes"]["received"] is None
    r = r.apply(1, GiveBack((10,)))
    assert r.phase == "play"
    assert r.hand(0) == [2, 3, 4, 6, 6, 7, 9, 9, 9, 11, 11, 11, 11, 12, 12, 12]
    assert r.hand(4) == [6, 7, 7, 7, 9, 9, 10, 10, 11, 11, 12, 12, 12, J]
    assert r.view(0)["taxes"]["received"] == [2, 4]
    assert r.view(4)["taxes"]["gave"] == [2, 4]
    assert r.view(4)["taxes"]["received"] == [10, 10]
    # Victor, the Lesser Peon, gave his best card, the Earl Marshal, to Elliot.
    assert r.view(3)["taxes"]["gave"] == [3] and r.view(1)["taxes"]["received"] == [3]


def test_the_french_end_of_round_where_the_lead_passes_on_from_a_player_who_went_out():
    t, e, m, v, x = range(5)  # Tatiana, Elliot, Marie, Victor, Eric in position order
    r = open_round([[2, 12, 12, 12], [1], [4], [5, 5], [7, 7]])
    r = run(r, [(t, [12]), (e, None)])  # Elliot waits for a single card worth his Dalmuti
    r = r.apply(m, Play((4,)))
    assert r.finish_order == (m,)  # Marie goes out first: next Great Dalmuti
    r = run(r, [(v, None), (x, None), (t, [2])])
    assert r.hand(t) == [12, 12]
    r = r.apply(e, Play((1,)))
    assert r.finish_order == (m, e)
    # Nobody can beat the Dalmuti. Marie would lead, but she is out: Victor leads.
    r = run(r, passes(v, x, t))
    assert r.to_act == v
    r = r.apply(v, Play((5, 5)))
    r = run(r, passes(x, t))
    assert r.to_act == x
    r = r.apply(x, Play((7, 7)))
    assert r.phase == "over"
    assert r.finish_order == (m, e, v, x, t)
    assert r.points == (0, 3, 4, 2, 1)
    assert r.next_order == (m, e, v, x, t)
