import random

import pytest

from games.models import Action, Round
from games.read import replay
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


def test_the_recorded_taxes_name_players_not_round_seats(alice, bob):
    """The record names players throughout (seats change from round to round), the
    exchanges announced with the taxes too."""
    game = play_out(start_table(alice, [bob], bots=3, options={"rounds": 3}),
                    choose=random.Random(4).choice)
    checked = 0
    for rnd in Round.objects.filter(game=game, number__gt=1):
        for action in Action.objects.filter(game=game, round_number=rnd.number):
            for event in action.events:
                if event["type"] != "taxes":
                    continue
                seat_player = rnd.positions  # round seat -> player
                assert [(e["from"], e["to"], e["count"]) for e in event["exchanges"]] == [
                    (seat_player[4], seat_player[0], 2), (seat_player[3], seat_player[1], 1)]
                checked += 1
    assert checked and any(rnd.positions != list(range(5))
                           for rnd in Round.objects.filter(game=game, number__gt=1))


def test_records_written_with_round_seats_in_the_taxes_are_rewritten(alice, bob):
    from importlib import import_module

    from django.apps import apps

    migration = import_module("games.migrations.0013_taxes_events_name_players")
    game = play_out(start_table(alice, [bob], bots=3, options={"rounds": 3}),
                    choose=random.Random(4).choice)
    written = {a.pk: a.events for a in Action.objects.filter(game=game)}
    old_form = 0
    for action in Action.objects.filter(game=game):
        seats = Round.objects.get(game=game, number=action.round_number).positions \
            if action.round_number else None
        for event in action.events:
            if event["type"] == "taxes":
                event["exchanges"] = [{**e, "from": seats.index(e["from"]),
                                       "to": seats.index(e["to"])} for e in event["exchanges"]]
                old_form += 1
        action.save()
    assert old_form and {a.pk: a.events for a in Action.objects.filter(game=game)} != written
    migration.name_players(apps, None)
    assert {a.pk: a.events for a in Action.objects.filter(game=game)} == written
