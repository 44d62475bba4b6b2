"""A bot decides its move without holding its table: the expert searches for half a
second a move, and meanwhile the people at the table (with SQLite, everybody on the site)
could not act. In real concurrent transactions, on PostgreSQL as on SQLite: while a bot
decides, another connection takes the table's lock at once; what changed the table
meanwhile is never overwritten by the move decided before it (a second copy of the task
that moved first, a player back in the seat their stand-in was deciding for)."""


import pytest
from django.db import transaction

from games import commands, engine
from games.models import Action, Game
from tests.helpers import meanwhile, play_until, start_table, waiting_humans

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def bots_move_when_asked():
    """The bots' work goes to a broker no worker reads, as with Redis here: without one,
    Celery would run it at once and the bots would never be found awaited."""
    from dalmuti_site.celery import app

    was = app.conf.task_always_eager
    app.conf.task_always_eager = False
    yield
    app.conf.task_always_eager = was


def _bots_table(alice):
    """Alice with three bots, a bot to move."""
    game = start_table(alice, bots=3, seed=4)
    return play_until(game, lambda g: commands.bots_awaited(g))


def test_while_a_bot_decides_the_table_can_be_taken_at_once(monkeypatch, alice):
    game = _bots_table(alice)

    def take_the_table():
        with transaction.atomic():
            return Game.objects.select_for_update().get(pk=game.pk).seq

    outcomes, _calls = meanwhile(monkeypatch, engine, "decide", take_the_table)
    before = game.seq
    assert commands.play_bot_move(game.pk)
    assert outcomes == [before]
    game.refresh_from_db()
    assert game.seq == before + 1


def test_a_second_copy_of_the_bots_work_moves_once(monkeypatch, alice):
    game = _bots_table(alice)
    before = game.seq
    outcomes, _calls = meanwhile(
        monkeypatch, engine, "decide", lambda: commands.play_bot_move(game.pk, before)
    )
    # The copy that decided first finds the table moved on: it does nothing.
    assert commands.play_bot_move(game.pk, before) is False
    assert outcomes == [True]
    game.refresh_from_db()
    assert game.seq == before + 1
    assert Action.objects.filter(game=game, seq__gt=before).count() == 1


def test_a_player_back_in_their_seat_is_not_played_for_by_their_stand_in(
        monkeypatch, alice, bob):
    game = start_table(alice, [bob], bots=2, seed=4)
    # In the play, where the table waits for Alice alone.
    game = play_until(game, lambda g: g.engine_state().round.phase == "play"
                      and [s.user for s in waiting_humans(g)] == [alice])
    game.seats.filter(user=alice).update(stand_in=True)
    before = game.seq

    def back():
        commands.take_seat_back(game.pk, alice)
        return "back"

    outcomes, _calls = meanwhile(monkeypatch, engine, "decide", back)
    assert commands.play_bot_move(game.pk) is False
    assert outcomes == ["back"]
    game.refresh_from_db()
    assert game.seq == before
    assert [s.user for s in waiting_humans(game)] == [alice]
    assert not game.seats.get(user=alice).stand_in
