"""Through a real Celery worker and the real Redis broker (CI runs these)."""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from dalmuti_site.celery import app
from games import commands, engine
from games.models import Action, Game, Seat
from games.read import replay
from games.tasks import send_notification, sweep
from tests.helpers import legal, start_table, wait_for, waiting_humans

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]


def test_four_bots_play_a_whole_game_through_the_worker(celery_worker, alice):
    game = Game.objects.create(name="Bots only", host=alice, seats_wanted=4,
                               options={**engine.Options(rounds=2).to_json()})
    for name in ("Ada", "Bram", "Cato", "Dido"):
        Seat.objects.create(game=game, bot_level="basic", bot_name=name)
    commands.start(game.pk)
    assert wait_for(lambda: Game.objects.get(pk=game.pk).is_over)
    game.refresh_from_db()
    assert replay.rebuild_state(game).to_json() == game.state
    assert Action.objects.filter(game=game, by="bot").count() > 100


def test_a_humans_move_is_followed_by_the_bots_moves(celery_worker, alice):
    game = start_table(alice, bots=3, options={"rounds": 1})
    seat = game.seats.get(user=alice)
    for _attempt in range(50):
        assert wait_for(lambda: bool(waiting_humans(game)) or game.is_over)
        game.refresh_from_db()
        version = game.seq
        commands.act(game.pk, alice, engine.action_from_json(legal(game, seat)[0]),
                     game.awaiting[str(seat.player)][0])
        game.refresh_from_db()
        if commands.bots_awaited(game):
            break
    # The move was committed with bots to play: the worker makes their moves.
    assert wait_for(
        lambda: Action.objects.filter(game=game, seq__gt=version, by="bot").exists()
    )


def test_a_notification_task_run_twice_sends_one_email(celery_worker, alice, bob):
    game = start_table(alice, [bob], bots=2)
    notification = game.notifications.filter(kind="started", user=bob).get()
    first = send_notification.apply_async((notification.pk,), ignore_result=False)
    second = send_notification.apply_async((notification.pk,), ignore_result=False)
    outcomes = sorted([first.get(timeout=30), second.get(timeout=30)])
    assert outcomes == ["not pending", "sent"]
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]


def _point_broker_at(url: str) -> None:
    app.conf.broker_url = app.conf.broker_write_url = url
    app._pool = None
    app.amqp._producer_pool = None


def test_with_the_broker_down_nothing_is_lost_and_the_sweep_catches_up(celery_worker, alice):
    url = app.conf.broker_write_url
    _point_broker_at("redis://127.0.0.1:1/0")  # a closed port: Redis is unreachable
    try:
        game = start_table(alice, bots=3, options={"rounds": 1})
        seat = game.seats.get(user=alice)
        while waiting_humans(game):  # the human's actions are still accepted and recorded
            commands.act(game.pk, alice, engine.action_from_json(legal(game, seat)[0]),
                         game.awaiting[str(seat.player)][0])
        game.refresh_from_db()
        assert game.is_playing and commands.bots_awaited(game)
        assert Action.objects.filter(game=game).count() == game.seq
        assert not Action.objects.filter(game=game, by="bot").exists()
    finally:
        _point_broker_at(url)
    mail.outbox.clear()
    # The broker is back: the next sweep finds the stalled bots and the unsent email.
    with time_machine.travel(timezone.now() + timedelta(minutes=1)):
        sweep()
        assert wait_for(lambda: Action.objects.filter(game=game, by="bot").exists())
        assert wait_for(lambda: any(m.to == [alice.email] for m in mail.outbox))
    assert "has started" in mail.outbox[0].subject
