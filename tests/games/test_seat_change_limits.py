"""Joining and leaving a game in progress can not be repeated without limit: each step
redraws every open page of the table. After a join or a leave, the same player's next
join at that table waits SEAT_CHANGE_SECONDS: 429 with a clear message, nothing changed,
no page woken. Giving a place back never waits (a join by mistake is undone at once)."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games.models import Game
from tests.helpers import make_user, start_table

pytestmark = pytest.mark.django_db


@pytest.fixture(name="game")
def game_with_a_cooldown(settings, alice, bob, carol):
    """Instead of the shared `game`: three friends and a bot over four rounds, and a
    30-second wait between one seat change and the next join."""
    settings.SEAT_CHANGE_SECONDS = 30
    return start_table(alice, [bob, carol], bots=1, options={"rounds": 4})


def _join(client, game):
    return client.post(f"/join/{game.invite_token}/")


def _leave(client, game):
    return client.post(f"/t/{game.pk}/leave-game/")


def _version(game) -> int:
    return Game.objects.get(pk=game.pk).version


def test_joining_again_right_after_leaving_is_refused_until_the_cooldown_ends(client, game):
    dana = make_user("dana")
    client.force_login(dana)
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        assert _join(client, game).status_code == 302
        assert game.seats.filter(user=dana, joining=True).exists()
        clock.shift(timedelta(seconds=30))
        assert _leave(client, game).status_code == 302
        assert not game.seats.filter(user=dana).exists()
        version = _version(game)
        clock.shift(timedelta(seconds=5))
        again = _join(client, game)
        assert again.status_code == 429
        page = again.content.decode()
        assert "You joined or left this table a moment ago" in page
        assert "25 seconds" in page
        assert not game.seats.filter(user=dana).exists()
        assert _version(game) == version  # no open page was woken
        clock.shift(timedelta(seconds=25))
        assert _join(client, game).status_code == 302
        assert game.seats.filter(user=dana, joining=True).exists()


def test_a_place_taken_by_mistake_is_given_back_at_once_and_joining_again_waits(
        client, game):
    dana = make_user("dana")
    client.force_login(dana)
    with time_machine.travel(timezone.now(), tick=False) as clock:
        assert _join(client, game).status_code == 302
        clock.shift(timedelta(seconds=1))
        assert _leave(client, game).status_code == 302
        assert not game.seats.filter(user=dana).exists()
        version = _version(game)
        again = _join(client, game)
        assert again.status_code == 429
        assert "You can do it again in 30 seconds." in again.content.decode()
        assert not game.seats.filter(user=dana).exists()
        assert _version(game) == version
        clock.shift(timedelta(seconds=30))
        assert _join(client, game).status_code == 302


def test_ten_cycles_make_at_most_one_change_per_cooldown(client, game):
    """The attack of the report: join and leave as fast as the site answers."""
    dana = make_user("dana")
    client.force_login(dana)
    version = _version(game)
    answers = []
    with time_machine.travel(timezone.now(), tick=False):
        for _ in range(10):
            answers += [_join(client, game).status_code, _leave(client, game).status_code]
    # The first join takes the seat and the first leave gives it back; every later
    # join waits (and a leave with no seat changes nothing): two redraws in all.
    assert answers[:2] == [302, 302]
    assert answers[2::2] == [429] * 9
    assert not game.seats.filter(user=dana).exists()
    assert _version(game) == version + 2


def test_the_cooldown_is_per_player_and_table(client, game, alice):
    dana, eve = make_user("dana"), make_user("eve")
    other = start_table(alice, [make_user("frank")], bots=2, options={"rounds": 4},
                        name="Other table")
    with time_machine.travel(timezone.now(), tick=False):
        client.force_login(dana)
        assert _join(client, game).status_code == 302
        assert _join(client, other).status_code == 302  # another table
        client.force_login(eve)
        assert _join(client, game).status_code == 302  # another player


def test_the_message_is_translated(client, game):
    dana = make_user("dana", language="de")
    client.force_login(dana)
    with time_machine.travel(timezone.now(), tick=False):
        _join(client, game)
        _leave(client, game)
        answer = _join(client, game)
    assert answer.status_code == 429
    assert "You joined or left" not in answer.content.decode()
    assert "Sekunden" in answer.content.decode()
