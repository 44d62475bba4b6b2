"""With Redis, an open page's "has anything changed?" is answered without PostgreSQL,
and stays right when Redis is cold, flushed, or told of changes in any order."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.core import live
from tests.helpers import act_as, legal, waiting_humans

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("a_humans_turn")]


def _poll(client, game, v):
    return client.get(f"/t/{game.pk}/poll/?v={v}")


def test_an_unchanged_poll_asks_the_database_nothing(client, alice, game,
                                                      django_assert_num_queries):
    client.force_login(alice)
    assert _poll(client, game, game.version).status_code == 204  # learns the table
    with django_assert_num_queries(0):
        for _ in range(3):
            assert _poll(client, game, game.version).status_code == 204


def test_a_move_reaches_the_next_poll(client, alice, bob, game):
    client.force_login(alice)
    _poll(client, game, game.version)
    before = game.version
    seat = waiting_humans(game)[0]
    act_as(game, seat, legal(game, seat)[0])
    game.refresh_from_db()
    assert game.version > before
    assert _poll(client, game, before).status_code == 200
    assert _poll(client, game, game.version).status_code == 204


def test_a_flushed_redis_is_read_as_cold(client, alice, game, django_assert_num_queries):
    client.force_login(alice)
    _poll(client, game, game.version)
    cache.clear()  # the sessions go with it: the player is asked to log in again
    client.force_login(alice)
    assert _poll(client, game, game.version).status_code == 204
    assert _poll(client, game, game.version - 1).status_code == 200


def test_an_older_version_arriving_late_does_not_overwrite_a_newer_one(game):
    live._write_table(game.pk, game.version + 1, "playing", "")
    live._write_table(game.pk, game.version, "playing", "")
    found = live.client().hget(f"live:table:{game.pk}", "v")
    assert int(found) == game.version + 1


def test_a_poll_that_redis_knows_to_be_changed_goes_straight_to_the_table(client, alice, game):
    """A page asks when its stream says the table changed: Redis knows it did, so the
    answer reads the table at once, without first asking the database whether it did."""
    client.force_login(alice)
    _poll(client, game, game.version)  # Redis learns the seat and the table
    before = game.version
    seat = waiting_humans(game)[0]
    act_as(game, seat, legal(game, seat)[0])
    game.refresh_from_db()
    _poll(client, game, before)  # what is kept per version (an open end proposal) is kept
    with CaptureQueriesContext(connection) as known:
        answer = _poll(client, game, before)
    live.client().delete(f"live:table:{game.pk}")  # cold: the database says it changed
    with CaptureQueriesContext(connection) as cold:
        again = _poll(client, game, before)
    assert answer.status_code == again.status_code == 200
    assert f"?v={game.version}&" in answer.content.decode()
    assert len(known) == len(cold) - 1
