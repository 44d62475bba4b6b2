"""A whole game: seating draw, rounds, scores, the end, joining and leaving."""

import json
from dataclasses import replace

import pytest

from games.engine import (
    JESTER,
    Game,
    IllegalMove,
    Options,
    choose_action,
    seating_draw,
    seating_from_cards,
)


def play_round(game: Game, level: str = "basic") -> Game:
    step = 0
    while game.round.phase != "over":
        player = game.awaiting_players[0]
        game = game.apply(player, choose_action(level, game.view(player), step))
        step += 1
    return game


def play_game(game: Game) -> Game:
    game = play_round(game)
    while not game.is_over:
        game = play_round(game.next_round())
    return game


def test_the_seating_draw_redraws_only_among_tied_players_until_nobody_ties():
    redraws = 0
    for seed in range(60):
        draws, lineup = seating_draw(10, seed)
        assert sorted(lineup) == list(range(10))
        assert [d["player"] for d in draws[0]] == list(range(10))
        keys = {p: [] for p in range(10)}
        for round_ in draws:
            for d in round_:
                keys[d["player"]].append(d["card"])
        assert len({tuple(k) for k in keys.values()}) == 10
        assert lineup == sorted(range(10), key=lambda p: keys[p])
        for i, later in enumerate(draws[1:], start=1):
            tied = [d["player"] for d in later]
            for p in range(10):
                same = [q for q in range(10) if q != p and keys[q][:i] == keys[p][:i]]
                assert bool(same) == (p in tied)
        redraws += len(draws) > 1
    assert redraws > 30  # ten players tie often


def test_a_jester_counts_as_thirteen_in_the_seating_draw():
    draws, lineup = seating_from_cards(4, [JESTER, 12, 1, 5])
    assert lineup == [2, 3, 1, 0]
    assert len(draws) == 1


def test_a_three_way_tie_and_a_second_tie_draw_again():
    draws, lineup = seating_from_cards(5, [7, 7, 7, 2, 9, 4, 4, 6, 3, 8])
    assert [len(r) for r in draws] == [5, 3, 2]
    # 7s: players 0, 1, 2 redraw 4, 4, 6; players 0 and 1 redraw 3 and 8.
    assert lineup == [3, 0, 1, 2, 4]


def test_a_new_game_seats_the_players_by_the_draw_and_deals_round_one():
    game = Game.new(6, Options(), seed=11)
    assert game.round_number == 1 and game.round.first_round
    assert game.seats == game.lineup and sorted(game.seats) == list(range(6))
    first_draw = {p: c for p, c in game.seating_draws[0]}
    assert set(first_draw) == set(range(6))
    assert game.scores == (0,) * 6 and game.results == ()
    assert sum(game.round.count(s) for s in range(6)) == 80
    assert Game.new(6, Options(), seed=11) == game
    assert Game.new(6, Options(), seed=12) != game


def test_rounds_add_up_the_scores_and_record_their_results():
    game = play_round(Game.new(5, Options(rounds=3), seed=4))
    result = game.results[0]
    assert result["round"] == 1
    assert sorted(p["player"] for p in result["players"]) == list(range(5))
    assert [p["position"] for p in result["players"]] == [1, 2, 3, 4, 5]
    assert {p["player"]: p["points"] for p in result["players"]} == dict(enumerate(game.scores))
    assert sorted(game.scores) == [0, 1, 2, 3, 4]
    assert game.lineup == tuple(result["next_order"])
    assert not game.is_over and game.winner is None
    game = play_round(game.next_round())
    assert game.round_number == 2 and not game.round.first_round
    assert game.seats == tuple(result["next_order"])
    assert sum(game.scores) == 20


def test_the_game_ends_after_the_agreed_number_of_rounds():
    game = play_game(Game.new(4, Options(rounds=2), seed=1))
    assert game.is_over and game.round_number == 2 and len(game.results) == 2
    assert game.winner == game.standings[0]["player"]
    with pytest.raises(IllegalMove) as exc:
        game.next_round()
    assert exc.value.code == "game_over"


def test_the_game_ends_when_somebody_reaches_the_target_score():
    game = play_game(Game.new(4, Options(rounds=30, target_score=7), seed=2))
    assert game.is_over and max(game.scores) >= 7
    before = [sum(r["players"][i]["points"] for r in game.results[:-1]) for i in range(4)]
    assert game.round_number < 30 and max(before) < 7


def test_a_tie_is_broken_by_the_better_place_in_the_final_round():
    game = play_game(Game.new(4, Options(rounds=1), seed=3))
    last = game.results[-1]["finish_order"]
    tied = replace(game, scores=(5, 5, 5, 5))
    assert [s["player"] for s in tied.standings] == last
    assert tied.winner == last[0]
    assert [s["rank"] for s in tied.standings] == [1, 2, 3, 4]


def test_a_move_is_made_by_player_and_mapped_to_the_round_seat():
    game = Game.new(5, Options(), seed=5)
    gd = game.seats[0]
    assert set(game.awaiting_players) >= {gd, game.seats[1]}
    with pytest.raises(IllegalMove) as exc:
        game.apply(99, choose_action("basic", game.view(gd), 0))
    assert exc.value.code == "not_seated"


def test_a_game_view_adds_the_game_to_the_round_view():
    game = Game.new(5, Options(), seed=5)
    view = game.view(game.seats[2])
    assert view["seat"] == 2 and view["player"] == game.seats[2]
    assert view["seats"] == list(game.seats)
    assert set(view["game"]) == {
        "round_number",
        "rounds",
        "target_score",
        "scoring",
        "ending",
        "scores",
        "results",
        "lineup",
        "titles",
        "seating_draws",
        "left",
        "is_over",
        "winner",
        "standings",
        "join_places",
    }
    assert view["game"]["titles"][0] == {
        "player": game.seats[0],
        "position": 1,
        "title": "great_dalmuti",
    }
    assert json.loads(json.dumps(view)) == view


def test_joining_and_leaving_happen_only_between_rounds():
    game = Game.new(5, Options(), seed=6)
    with pytest.raises(IllegalMove) as exc:
        game.join(3)
    assert exc.value.code == "not_between_rounds"
    with pytest.raises(IllegalMove) as exc:
        game.leave(game.seats[0])
    assert exc.value.code == "not_between_rounds"
    with pytest.raises(IllegalMove) as exc:
        game.next_round()
    assert exc.value.code == "round_not_over"


def test_a_newcomer_sits_in_the_middle_and_the_great_dalmuti_picks_between_two_places():
    game = play_round(Game.new(5, Options(), seed=7))
    assert game.join_places() == [3, 4]
    with pytest.raises(IllegalMove) as exc:
        game.join()
    assert exc.value.code == "place_required"
    with pytest.raises(IllegalMove) as exc:
        game.join(2)
    assert exc.value.code == "bad_place"
    joined, newcomer = game.join(4)
    assert newcomer == 5 and joined.lineup.index(5) == 3 and joined.scores[5] == 0
    assert joined.view(5)["hand"] == [] and joined.view(5)["seat"] is None
    joined = joined.next_round()
    assert joined.seats.index(5) == 3 and joined.round.title(3) == "merchant"
    assert joined.round.n_players == 6
    joined = play_round(joined)
    assert len(joined.scores) == 6


def test_with_one_middle_place_the_newcomer_takes_it():
    game = play_round(Game.new(4, Options(), seed=8))
    assert game.join_places() == [3]
    joined, newcomer = game.join()
    assert joined.lineup.index(newcomer) == 2


def test_a_leaver_is_taken_off_and_below_four_players_the_game_is_over():
    game = play_round(Game.new(5, Options(), seed=9))
    leaver = game.lineup[1]
    left = game.leave(leaver)
    assert leaver not in left.lineup and left.left == (leaver,)
    assert not left.is_over
    left = left.next_round()
    assert left.round.n_players == 4 and leaver not in left.seats
    left = play_round(left).leave(left.seats[0])
    assert left.is_over and left.winner is not None
    assert all(s["player"] in left.lineup for s in left.standings)
    with pytest.raises(IllegalMove) as exc:
        left.join()
    assert exc.value.code == "game_over"


def test_a_table_seats_at_most_ten():
    game = play_round(Game.new(10, Options(), seed=10))
    with pytest.raises(IllegalMove) as exc:
        game.join(5)
    assert exc.value.code == "table_full"


def test_a_game_round_trips_through_json_at_every_stage():
    game = Game.new(6, Options(merchant_trade="chosen", rounds=2), seed=12)
    step = 0
    while True:
        data = json.loads(json.dumps(game.to_json()))
        assert Game.from_json(data) == game
        if game.is_over:
            break
        if game.round.phase == "over":
            game = game.next_round()
            continue
        player = game.awaiting_players[0]
        game = game.apply(player, choose_action("random", game.view(player), step))
        step += 1


def test_round_seeds_are_derived_from_the_game_seed_and_round_number():
    a = play_round(Game.new(5, Options(), seed=13)).next_round()
    b = play_round(Game.new(5, Options(), seed=13)).next_round()
    assert a.round == b.round
    assert a.round.seed != Game.new(5, Options(), seed=13).round.seed


def test_a_game_with_a_given_lineup_skips_the_seating_draw():
    from games.engine import Game, Options

    game = Game.new(5, Options(), seed=3, lineup=[4, 2, 0, 1, 3])
    assert game.seating_draws == ()
    assert game.lineup == (4, 2, 0, 1, 3)
    assert game.seats == (4, 2, 0, 1, 3)
    assert Game.from_json(game.to_json()) == game


def test_a_lineup_must_name_every_player_once():
    import pytest

    from games.engine import Game, Options

    with pytest.raises(ValueError):
        Game.new(4, Options(), seed=3, lineup=[0, 1, 1, 2])
