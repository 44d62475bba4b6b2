"""The rulebooks' other readings as table options: seating ties, the Great Revolution,
the length of the game, playing without points and merchant trade from 7 players."""

import json
from dataclasses import replace

import pytest

from games.engine import (
    JESTER,
    Game,
    IllegalMove,
    Options,
    Revolution,
    Round,
    deal,
    derive_seed,
    seating_draw,
    seating_from_cards,
)
from tests.engine.helpers import give_both_jesters
from tests.engine.test_game import play_game, play_round

# -- seating draw ties --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ties", "n", "cards", "draws", "lineup"),
    [
        # French book: the two Peasants redraw among themselves; the Abbess (5) still sits
        # below the Knight (6) drawn in the first round.
        ("tied_redraw", 4, [12, 6, 12, 3, 5, 1], [[12, 6, 12, 3], [5, 1]], [3, 1, 2, 0]),
        # Dutch and Amigo books: player 2's second Peasant is redrawn at once; the Earl
        # Marshal (3) is taken too, so player 3 draws again; kept cards place everyone.
        ("until_unique", 4, [12, 6, 12, 3, 3, 5], [[12], [6], [12, 3], [3, 5]], [2, 3, 1, 0]),
        (
            "tied_redraw",
            5,
            [7, 7, 7, 2, 9, 4, 4, 6, 3, 8],
            [[7, 7, 7, 2, 9], [4, 4, 6], [3, 8]],
            [3, 0, 1, 2, 4],
        ),
        (
            "until_unique",
            5,
            [7, 7, 7, 2, 9, 4, 4, 6],
            [[7], [7, 7, 2], [9], [4], [4, 6]],
            [1, 3, 4, 0, 2],
        ),
        # a jester counts as 13 and is a rank like any other
        ("until_unique", 4, [JESTER, JESTER, 1, 5, 2], [[JESTER], [JESTER, 1], [5], [2]],
         [1, 3, 2, 0]),
    ],
)
def test_the_seating_draw_follows_the_tie_rule(ties, n, cards, draws, lineup):
    got_draws, got_lineup = seating_from_cards(n, cards, ties)
    assert [[d["card"] for d in turn] for turn in got_draws] == draws
    assert got_lineup == lineup


def test_until_unique_records_each_players_turn_at_the_deck_in_order():
    for seed in range(60):
        draws, lineup = seating_draw(10, seed, "until_unique")
        assert [turn[0]["player"] for turn in draws] == list(range(10))
        kept = {}
        for turn in draws:
            player = turn[0]["player"]
            assert {d["player"] for d in turn} == {player}
            *redrawn, last = (d["card"] for d in turn)
            assert all(c in kept.values() for c in redrawn)
            assert last not in kept.values()
            kept[player] = last
        assert lineup == sorted(range(10), key=kept.__getitem__)


def test_an_unknown_seating_rule_is_refused():
    with pytest.raises(ValueError):
        seating_from_cards(4, [1, 2, 3, 4], "best_of_three")


@pytest.mark.parametrize("ties", ["tied_redraw", "until_unique"])
def test_a_new_game_draws_for_seats_by_the_tables_rule(ties):
    game = Game.new(8, Options(seating_ties=ties), seed=3)
    expected, lineup = seating_draw(8, derive_seed(3, "seating"), ties)
    assert game.view(None)["game"]["seating_draws"] == expected
    assert list(game.lineup) == lineup


# -- the Great Revolution ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("great_revolution", "first_round_taxes", "holder", "phase", "revolution", "taxes"),
    [
        # the Greater Peon (seat 4) dealt both jesters
        ("declared", True, 4, "taxes", None, "pending"),
        ("declared", False, 4, "taxes", None, "none"),
        ("at_once", True, 4, "play", {"seat": 4, "great": True}, "cancelled"),
        ("at_once", False, 4, "play", {"seat": 4, "great": True}, "none"),
        # anybody else still chooses: an ordinary revolution is always a choice
        ("at_once", True, 3, "taxes", None, "pending"),
        ("at_once", True, 0, "taxes", None, "pending"),
    ],
)
def test_the_great_revolution_is_declared_or_happens_at_once(
    great_revolution, first_round_taxes, holder, phase, revolution, taxes
):
    options = Options(great_revolution=great_revolution, first_round_taxes=first_round_taxes)
    hands = give_both_jesters(deal(5, options, 21), holder)
    r = Round.start(hands, options, first_round=True)
    assert r.phase == phase
    assert r.revolution == revolution
    assert r.view(None)["taxes"]["status"] == taxes
    if phase == "taxes":
        assert Revolution(True) in r.legal_actions(holder)


def test_at_once_the_greater_peon_leads_as_great_dalmuti_and_everyone_is_told():
    options = Options(great_revolution="at_once")
    hands = give_both_jesters(deal(5, options, 8), 4)
    r = Round.start(hands, options)
    assert r.order == (4, 3, 2, 1, 0)
    assert r.to_act == 4 and r.title(4) == "great_dalmuti"
    assert r.hand(4) == hands[4]  # no taxes: nobody's cards changed
    for seat in (None, 0, 2, 4):
        assert r.view(seat)["last_events"] == [
            {"type": "revolution", "seat": 4, "great": True},
            {"type": "play_starts", "leader": 4},
        ]
    assert Round.from_json(json.loads(json.dumps(r.to_json()))) == r


def _greater_peon_dealt_both_jesters(options: Options, k: int) -> int:
    """A game's seed whose deal of round `k` gives the Greater Peon (the last of five
    seats) both jesters."""
    return next(seed for seed in range(5000)
                if deal(5, options, derive_seed(seed, "deal", k))[4].count(JESTER) == 2)


@pytest.mark.parametrize("k", [1, 2])
def test_a_great_revolution_at_once_turns_the_games_lineup_round_with_the_round(k):
    """The game's lineup (and the titles in its view) are this round's positions from the
    deal on, not only from the first card played."""
    options = Options(great_revolution="at_once", rounds=3)
    game = Game.new(5, options, seed=_greater_peon_dealt_both_jesters(options, k))
    if k == 2:
        game = play_round(game).next_round()
    assert game.round.revolution == {"seat": 4, "great": True}
    in_round = tuple(game.seats[s] for s in game.round.order)
    assert game.lineup == in_round
    view = game.view(in_round[0])
    assert [t["player"] for t in view["game"]["titles"]] == list(in_round)
    assert [t["title"] for t in view["game"]["titles"]] == [
        view["titles"][view["seats"].index(p)] for p in in_round]


# -- how long a game lasts --------------------------------------------------------------


def test_a_target_score_game_has_no_hidden_round_cap():
    # 4 players score at most 3 points a round: 100 points take more than 30 rounds
    game = play_game(Game.new(4, Options(rounds=None, target_score=100), seed=2))
    assert game.round_number > 30
    before = [0] * 4
    for r in game.results[:-1]:
        for p in r["players"]:
            before[p["player"]] += p["points"]
    assert max(game.scores) >= 100 > max(before)


@pytest.mark.parametrize(
    ("options", "over_after_round_30"),
    [
        ({"rounds": None, "target_score": 500}, False),
        ({"rounds": None, "target_score": None}, False),
        # what the web stored for "to a score" before: the cap the table agreed on holds
        ({"rounds": 30, "target_score": 500}, True),
        ({"rounds": 30}, True),
    ],
)
def test_only_a_number_of_rounds_caps_the_rounds(options, over_after_round_30):
    game = play_round(Game.new(4, Options.from_json(options), seed=1))
    assert replace(game, round_number=30).is_over == over_after_round_30


def test_an_open_ended_game_goes_on_until_it_is_ended_after_a_round():
    game = Game.new(5, Options(rounds=None), seed=6)
    assert game.options.open_ended
    for _ in range(34):
        game = play_round(game)
        assert not game.is_over
        game = game.next_round()
    assert game.round_number == 35
    game = game.end_after_this_round()
    assert game.ending and not game.is_over  # the round is still being played
    game = play_round(game)
    assert game.is_over and len(game.results) == 35
    assert game.winner == game.standings[0]["player"]
    with pytest.raises(IllegalMove) as exc:
        game.next_round()
    assert exc.value.code == "game_over"


def test_ending_between_rounds_makes_the_finished_round_the_last():
    game = play_round(Game.new(4, Options(rounds=None), seed=7))
    assert not game.is_over
    ended = game.end_after_this_round()
    assert ended.is_over and ended.view(0)["game"]["is_over"]
    with pytest.raises(IllegalMove) as exc:
        ended.end_after_this_round(False)
    assert exc.value.code == "game_over"


def test_the_end_can_be_taken_back_during_the_round_and_ends_any_game_early():
    game = Game.new(4, Options(rounds=10), seed=8)
    marked = game.end_after_this_round()
    assert marked.view(1)["game"]["ending"]
    assert not play_round(marked.end_after_this_round(False)).is_over
    finished = play_round(marked)
    assert finished.is_over and finished.round_number == 1


def test_the_end_mark_round_trips_and_old_games_load_without_it():
    game = Game.new(4, Options(rounds=None), seed=9).end_after_this_round()
    data = json.loads(json.dumps(game.to_json()))
    assert data["ending"] is True
    assert Game.from_json(data) == game
    del data["ending"]
    assert Game.from_json(data) == replace(game, ending=False)


# -- playing without points --------------------------------------------------------------


@pytest.mark.parametrize("master_rule", [False, True])
def test_without_scoring_nobody_scores_and_the_last_positions_rank_the_players(master_rule):
    game = play_game(Game.new(6, Options(rounds=4, scoring=False, master_rule=master_rule),
                              seed=12))
    assert game.scores == (0,) * 6
    assert all(p["points"] == 0 for r in game.results for p in r["players"])
    # the positions the last round gave (with the master rule not the finishing order)
    assert [s["player"] for s in game.standings] == game.results[-1]["next_order"]
    assert game.winner == game.lineup[0]
    great = {p: 0 for p in range(6)}
    for r in game.results:
        great[r["next_order"][0]] += 1
    assert {s["player"]: s["great_dalmuti"] for s in game.standings} == great


def test_a_master_rule_game_without_scoring_ranks_by_position_not_by_finish():
    # find a round in which the master rule held somebody back
    for seed in range(40):
        game = play_game(Game.new(5, Options(rounds=1, scoring=False, master_rule=True),
                                  seed=seed))
        last = game.results[-1]
        if last["finish_order"] != last["next_order"]:
            break
    else:
        pytest.fail("no master rule effect in 40 games")
    assert [s["player"] for s in game.standings] == last["next_order"]
    scored = replace(game, options=replace(game.options, scoring=True))
    assert [s["player"] for s in scored.standings] == last["finish_order"]


def test_with_scoring_the_standings_count_great_dalmuti_rounds_too():
    game = play_game(Game.new(4, Options(rounds=3), seed=4))
    assert sum(s["great_dalmuti"] for s in game.standings) == 3
    assert sum(game.scores) == 3 * 6


# -- merchant trade ----------------------------------------------------------------------


def through_taxes(r: Round) -> Round:
    """Every tax decision made: the first give-back offered, no revolution."""
    while r.phase == "taxes":
        seat = r.awaiting[0]
        action = next(a for a in r.legal_actions(seat) if a != Revolution(True))
        r = r.apply(seat, action)
    return r


@pytest.mark.parametrize(
    ("n", "trade_from", "trades"),
    [(5, 6, False), (6, 6, True), (6, 7, False), (7, 7, True), (10, 7, True)],
)
def test_merchant_trade_is_offered_from_the_agreed_number_of_players(n, trade_from, trades):
    options = Options(merchant_trade="chosen", merchant_trade_from=trade_from)
    seed = next(s for s in range(50) if not any(h.count(JESTER) == 2 for h in deal(n, options, s)))
    r = through_taxes(Round.start(deal(n, options, seed), options))
    assert (r.phase == "trade") == trades
    if trades:
        assert r.awaiting == (2,)


# -- the options themselves --------------------------------------------------------------


def test_empty_and_old_option_dicts_mean_the_standard_rules():
    standard = Options.from_json({})
    assert standard == Options()
    assert (standard.seating_ties, standard.great_revolution) == ("tied_redraw", "declared")
    assert (standard.scoring, standard.merchant_trade_from) == (True, 6)
    assert (standard.rounds, standard.target_score, standard.open_ended) == (10, None, False)
    old = {
        "reduced_deck": False, "first_round_taxes": True, "tribute_return": "choice",
        "merchant_trade": "random", "master_rule": True, "philanthropic": "flat",
        "rounds": 30, "target_score": 40,
    }
    assert Options.from_json(old) == Options(
        merchant_trade="random", master_rule=True, philanthropic="flat", rounds=30,
        target_score=40,
    )


@pytest.mark.parametrize(
    "options",
    [
        Options(seating_ties="until_unique", great_revolution="at_once"),
        Options(rounds=None, target_score=75),
        Options(rounds=None, scoring=False, merchant_trade="chosen", merchant_trade_from=7),
    ],
)
def test_new_options_round_trip_through_json(options):
    assert Options.from_json(json.loads(json.dumps(options.to_json()))) == options


@pytest.mark.parametrize(
    "bad",
    [
        {"seating_ties": "best_of_three"},
        {"great_revolution": True},
        {"scoring": "no"},
        {"merchant_trade_from": 8},
        {"merchant_trade_from": "7"},
        {"rounds": 0},
        {"rounds": "ten"},
        {"scoring": False, "target_score": 20},
        {"scoring": False, "philanthropic": "per_position"},
    ],
)
def test_invalid_new_options_are_refused(bad):
    with pytest.raises(ValueError):
        Options(**bad)
