"""The scoreboard lists the players as the standings rank them: most points first, a tie
broken by the better place in the last round played (RULES.md §7), whoever left last."""

from games.read.results import scoreboard


def _game(lineup, rounds, left=()):
    results = [{"round": n + 1, "players": [
        {"player": p, "place": place, "points": points} for p, (place, points) in r.items()]}
        for n, r in enumerate(rounds)]
    scores = {}
    for r in rounds:
        for p, (_place, points) in r.items():
            scores[p] = scores.get(p, 0) + points
    return {"results": results, "lineup": [p for p in lineup if p not in left],
            "scores": scores}


def _order(g):
    return [row["name"] for row in scoreboard(g, str, None)["rows"]]


def test_a_tie_is_broken_by_the_better_place_in_the_last_round():
    # Seated a, b, c, d; a and c tie on 5, b and d on 3: the last round placed c before a
    # and d before b.
    g = _game([1, 2, 3, 4], [
        {1: (1, 4), 2: (2, 3), 3: (3, 2), 4: (4, 0)},
        {3: (1, 3), 4: (2, 3), 1: (3, 1), 2: (4, 0)},
    ])
    assert [g["scores"][p] for p in (1, 2, 3, 4)] == [5, 3, 5, 3]
    assert _order(g) == ["3", "1", "4", "2"]


def test_whoever_left_comes_after_those_at_the_table_whatever_their_points():
    g = _game([1, 2, 3], [{1: (1, 2), 2: (2, 1), 3: (3, 0)}, {2: (1, 2), 3: (2, 0)}],
              left={1})
    assert _order(g) == ["2", "3", "1"]
