import random

import pytest

from games import replay
from games.models import Action, Round
from tests.helpers import play_out, start_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("seed", range(3))
def test_a_finished_game_is_rebuilt_from_its_record(alice, bob, seed):
    rng = random.Random(seed)
    options = {"rounds": 3, "merchant_trade": "chosen", "master_rule": seed == 1,
               "philanthropic": "per_position"}
    game = start_table(alice, [bob], bots=4, options=options)
    game = play_out(game, choose=rng.choice)
    assert game.is_over
    rebuilt = replay.rebuild_state(game)
    assert rebuilt.to_json() == game.state
    assert rebuilt.is_over and rebuilt.scores == tuple(game.state["scores"])


def test_the_record_is_ordered_without_gaps(alice, bob):
    game = play_out(start_table(alice, [bob], bots=2, options={"rounds": 2}))
    seqs = list(Action.objects.filter(game=game).values_list("seq", flat=True))
    assert seqs == list(range(1, game.seq + 1))
    kinds = [a.kind for a in Action.objects.filter(game=game)]
    assert kinds[0] == "start" and kinds.count("next_round") == 1


def test_each_round_keeps_its_deal_and_result(alice, bob):
    game = play_out(start_table(alice, [bob], bots=3, options={"rounds": 2}))
    rounds = list(Round.objects.filter(game=game))
    assert [r.number for r in rounds] == [1, 2]
    for rnd, result in zip(rounds, game.state["results"], strict=True):
        assert sorted(c for hand in rnd.hands for c in hand) == sorted(
            [r for r in range(1, 13) for _ in range(r)] + [13, 13])
        assert rnd.finish_order == result["finish_order"]
        assert sum(rnd.points.values()) == 5 * 4 // 2
        assert rnd.finished is not None
    assert game.finished is not None
