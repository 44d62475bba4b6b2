"""A broker that accepts connections and never answers must not hang a player's move.

The fault is real: a tarpit socket on this machine that accepts every connection and
never says a word, with Celery pointed at it as its Redis broker. The move is committed
and answered; the work it leaves (the bots' moves) is sent by the sweep once the real
broker is back, through a real worker.
"""

import socket
import threading
from datetime import timedelta

import pytest
import time_machine
from django.db import connections
from django.utils import timezone

from dalmuti_site.celery import app
from games import commands, engine
from games.models import Action
from games.tasks import sweep
from tests.games.test_worker import wait_for
from tests.helpers import legal, start_table, waiting_humans

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

# Far above the few seconds the broker timeouts allow, far below a hung request.
HUNG = 15


class Tarpit:
    """Accepts connections and holds them open without ever answering."""

    def __init__(self):
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.held: list[socket.socket] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self):
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            self.held.append(conn)

    def close(self):
        self.server.close()
        for conn in self.held:
            conn.close()


def _point_broker_at(url: str) -> None:
    app.conf.broker_url = app.conf.broker_write_url = url
    app._pool = None
    app.amqp._producer_pool = None


def _in_thread(work) -> threading.Thread:
    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    return thread


def test_a_move_is_answered_while_the_broker_hangs_and_the_sweep_delivers_later(
    celery_worker, alice
):
    game = start_table(alice, bots=3, options={"rounds": 1})
    seat = game.seats.get(user=alice)
    assert wait_for(lambda: bool(waiting_humans(game)) and not commands.bots_awaited(game))
    bot_moves = Action.objects.filter(game=game, by="bot").count()
    url = app.conf.broker_write_url
    tarpit = Tarpit()
    _point_broker_at(f"redis://127.0.0.1:{tarpit.port}/0")
    errors = []

    def move():
        try:
            game.refresh_from_db()
            commands.act(game.pk, alice, engine.action_from_json(legal(game, seat)[0]),
                         game.awaiting[str(seat.player)][0])
        except Exception as exc:  # reported below
            errors.append(exc)
        finally:
            # This thread's own connection: left open, it would hold the test database
            # when the run ends and drops it.
            connections.close_all()

    try:
        for _turn in range(20):
            game.refresh_from_db()
            if not waiting_humans(game) or commands.bots_awaited(game):
                break
            before = game.seq
            thread = _in_thread(move)
            thread.join(HUNG)
            assert not thread.is_alive(), "the move hung on the broker"
            assert errors == []
            assert Action.objects.filter(game=game, seq__gt=before, by_user=alice).exists()
        game.refresh_from_db()
        assert commands.bots_awaited(game)
        assert Action.objects.filter(game=game, by="bot").count() == bot_moves
    finally:
        _point_broker_at(url)
        tarpit.close()
    with time_machine.travel(timezone.now() + timedelta(minutes=1)):
        sweep()
    assert wait_for(lambda: Action.objects.filter(game=game, by="bot").count() > bot_moves)
