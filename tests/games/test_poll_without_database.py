"""With Redis, an open page's "has anything changed?" is answered without PostgreSQL,
and stays right when Redis is cold, flushed, or told of changes in any order."""

import pytest
from django.contrib.sessions.backends.cached_db import SessionStore
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.core import live
from games.models import Seat
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


def test_a_poll_from_redis_notes_the_player_seen_once_each_while(client, alice, game):
    """"Last seen" (the others' "away", the clocks' nudges) is written by the polls Redis
    answers too: once when the last sighting has lapsed, not at every poll."""
    client.force_login(alice)
    seat = game.seats.get(user=alice)
    _poll(client, game, game.version)  # the database answers, and Redis learns the table
    long_ago = Seat.objects.get(pk=seat.pk).last_seen.replace(year=2020)
    Seat.objects.filter(pk=seat.pk).update(last_seen=long_ago)
    assert _poll(client, game, game.version).status_code == 204
    # Within the while since the last sighting: nothing written.
    assert Seat.objects.get(pk=seat.pk).last_seen == long_ago
    # The sighting lapses (its mark in Redis expires): the next poll writes it.
    r = live.client()
    r.delete(*r.keys("live:seen:*"))
    with CaptureQueriesContext(connection) as written:
        assert _poll(client, game, game.version).status_code == 204
    assert Seat.objects.get(pk=seat.pk).last_seen > long_ago
    assert len(written) == 1  # the write alone: the rest from Redis
    assert _poll(client, game, game.version).status_code == 204
    assert Seat.objects.get(pk=seat.pk).last_seen > long_ago


def test_an_unchanged_poll_does_not_load_the_session(client, alice, game, monkeypatch):
    """The session's key is what Redis knows the seat by: the session itself (a pickled
    read from the cache) is loaded only when the poll goes on to the table."""
    client.force_login(alice)
    _poll(client, game, game.version)  # Redis learns the seat and the table
    loads = []
    load = SessionStore.load
    monkeypatch.setattr(SessionStore, "load", lambda self: loads.append(1) or load(self))
    assert _poll(client, game, game.version).status_code == 204
    assert loads == []
    assert _poll(client, game, game.version - 1).status_code == 200  # changed: the full checks
    assert loads == [1]


def test_a_session_signed_out_gets_no_answer_from_redis(client, alice, game, settings):
    """Signing out ends what Redis knows by that session's key at once: a poll with the
    old cookie is sent to sign in, as any request without a player is."""
    client.force_login(alice)
    _poll(client, game, game.version)
    assert _poll(client, game, game.version).status_code == 204
    old = client.cookies[settings.SESSION_COOKIE_NAME].value
    client.logout()
    client.cookies[settings.SESSION_COOKIE_NAME] = old
    answer = _poll(client, game, game.version)
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]
