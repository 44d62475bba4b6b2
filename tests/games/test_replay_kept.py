"""A finished game's record is read from the database once for its replay and kept in the
shared cache: the players stepping through it after the first read no action, and every
step shows what a replay rebuilt from the actions themselves shows."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import engine
from games.models import Action
from games.read.replay import replay, replay_script
from tests.leagues.helpers import play_game, start_game

pytestmark = pytest.mark.django_db


def _reads_actions(queries) -> bool:
    table = Action._meta.db_table
    return any(f'FROM "{table}"' in q["sql"] for q in queries)


def _step(client, game, step: int, **headers):
    response = client.get(reverse("replay", args=[game.pk]), {"step": step}, headers=headers)
    assert response.status_code == 200
    return response


def _shown(response) -> tuple:
    """What a step shows: the seats with their hands, the trick and what happened."""
    c = response.context
    return (c["step"], c["total"], c["happened"], c["actor"], c["previous"], c["next"],
            c["players"], c["trick_plays"], c["round_starts"], c["mark"])


@pytest.fixture
def finished(alice, bob):
    return play_game(alice, [bob], bots=3, options={"rounds": 2})


def test_the_second_reader_of_a_replay_reads_no_action(client, alice, bob, finished):
    client.force_login(alice)
    _step(client, finished, 40)
    client.force_login(bob)
    with CaptureQueriesContext(connection) as queries:
        kept = _step(client, finished, 41, HX_Request="true")
    assert not _reads_actions(queries.captured_queries)
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        rebuilt = _step(client, finished, 41, HX_Request="true")
    assert _reads_actions(queries.captured_queries)
    assert _shown(kept) == _shown(rebuilt)
    assert kept.content == rebuilt.content


def test_every_step_of_the_kept_record_shows_what_the_actions_show(client, alice, finished):
    client.force_login(alice)
    total = Action.objects.filter(game=finished).count()
    steps = [1, 2, total // 3, total // 2, total - 1, total]
    rebuilt = []
    for step in steps:
        cache.clear()
        rebuilt.append(_shown(_step(client, finished, step)))
    _step(client, finished, 1)
    kept = [_shown(_step(client, finished, step)) for step in steps]
    assert kept == rebuilt
    assert [shown[0] for shown in kept] == steps


def test_the_kept_record_is_the_games_record(finished):
    script = replay_script(finished).actions
    recorded = list(Action.objects.filter(game=finished).order_by("seq"))
    assert [(a.seq, a.round_number, a.player, a.kind, a.payload, a.events) for a in script] \
        == [(a.seq, a.round_number, a.player, a.kind, a.payload, a.events) for a in recorded]
    assert replay_script(finished).actions == script


@pytest.mark.parametrize("options", [{"rounds": 2}, {"rounds": 3, "scoring": False}])
def test_each_step_rebuilt_from_its_rounds_start_is_the_records_state(alice, bob, options):
    """A step rebuilds the table from the start of its round, kept with the record: at
    every step of every round, before and after its action, the state is the one a replay
    of the whole record from the deal reaches."""
    game = play_game(alice, [bob], bots=3, options=options)
    script = replay_script(game)
    assert len(script.round_starts) == options["rounds"]
    engine_options = engine.Options.from_json(game.options)
    whole = [state.to_json() for _action, state in replay(game)]
    for step in range(1, len(whole) + 1):
        before, after = script.states_around(engine_options, step)
        assert after.to_json() == whole[step - 1], step
        assert (before.to_json() if before else None) == (
            whole[step - 2] if step > 1 else None), step


def test_a_game_in_play_has_no_replay_to_keep(alice, bob):
    game = start_game(alice, [bob])
    with pytest.raises(ValueError):
        replay_script(game)
