"""Two simultaneous submissions for the same turn, in real concurrent transactions."""

import threading

import pytest
from django.db import connection

from games import commands, engine
from games.models import Action
from tests.helpers import legal, start_table, waiting_humans


def _submit_together(game, seat, action, turn, n=2):
    barrier = threading.Barrier(n)
    outcomes = []

    def submit():
        try:
            barrier.wait()
            commands.act(game.pk, seat.user, action, turn)
            outcomes.append("applied")
        except commands.Rejected as rejected:
            outcomes.append(rejected.status)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_of_two_simultaneous_submissions_exactly_one_wins(alice, bob):
    game = start_table(alice, [bob], bots=2)
    for _ in range(300):
        humans = waiting_humans(game)
        if humans:
            break
        commands.play_bot_move(game.pk)
    seat = humans[0]
    action = engine.action_from_json(legal(game, seat)[0])
    turn = game.awaiting[str(seat.player)][0]
    version = game.seq
    outcomes = _submit_together(game, seat, action, turn, n=4)
    assert outcomes.count("applied") == 1, outcomes
    assert sorted(o for o in outcomes if o != "applied") == [409, 409, 409]
    game.refresh_from_db()
    assert Action.objects.filter(game=game, seq__gt=version, by_user=seat.user).count() == 1
