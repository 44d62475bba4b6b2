"""Connections that heal (real PostgreSQL, its backends terminated with
pg_terminate_backend as a restart or a failover would).

The pool hands out only connections that answer; a request whose connection dies before
its transaction commits answers 503 "That did not go through — please try again." and
changes nothing; the very next requests (logins, page loads, moves) succeed.
"""

from contextlib import contextmanager

import psycopg
import pytest
from django.conf import settings
from django.core.signals import request_finished
from django.db import connection
from django.test import Client

from games import commands
from games.models import Action, Game
from tests.helpers import PASSWORD, form_for, legal, start_table, waiting_humans

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

AGAIN = "That did not go through — please try again."


@contextmanager
def _admin():
    db = settings.DATABASES["default"]
    with psycopg.connect(host=db["HOST"] or "127.0.0.1", port=db["PORT"] or 5432,
                         user=db["USER"], password=db["PASSWORD"] or None,
                         dbname=connection.settings_dict["NAME"], autocommit=True) as admin:
        yield admin


def _terminate_everyone() -> int:
    """Every other backend of the test database goes, as in a restart; how many."""
    with _admin() as admin:
        return len(admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall())


def _fill_the_pool(size: int = 4) -> None:
    """Idle connections wait in the pool, as in a web process that served a burst."""
    connection.close()  # the test's own goes back too, as at the end of a request
    pool = connection.pool
    assert pool is not None, "the site reuses connections from psycopg's pool"
    held = [pool.getconn() for _ in range(size)]
    for conn in held:
        pool.putconn(conn)


@pytest.fixture(autouse=True)
def connections_back_to_the_pool():
    """As in production, every request hands its connection back to the pool when it
    ends (Django's test client keeps it open instead), so the next one gets the pool's.
    Whatever a test leaves broken, the flush after it and the next test start from a new
    pool."""

    def hand_back(**_kwargs):
        connection.close()

    request_finished.connect(hand_back)
    yield
    request_finished.disconnect(hand_back)
    connection.close()
    connection.close_pool()


@pytest.fixture
def table(alice):
    game = start_table(alice, bots=3, options={"rounds": 2})
    while not waiting_humans(game):
        commands.play_bot_move(game.pk)
    return game


def _move(game: Game) -> dict:
    while not waiting_humans(game):
        commands.play_bot_move(game.pk)
    seat = waiting_humans(game)[0]
    return form_for(legal(game, seat)[0], game.awaiting[str(seat.player)][0])


def _requests(client: Client, game: Game):
    """A login, a page load and a move, each as a function answering its response."""
    return {
        "login": lambda: client.post("/accounts/login/",
                                     {"username": "alice", "password": PASSWORD}),
        "page": lambda: client.get(f"/t/{game.pk}/"),
        "move": lambda: client.post(f"/t/{game.pk}/act/", _move(game)),
    }


@pytest.mark.parametrize("first", ["login", "page", "move"])
def test_after_every_connection_was_terminated_the_next_requests_succeed(table, alice, first):
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    requests = _requests(client, table)
    expected = {"login": 302, "page": 200, "move": 302}
    _fill_the_pool()
    assert _terminate_everyone() >= 2, "the pool's connections were terminated"
    order = [first] + [name for name in ("login", "page", "move") if name != first] * 3
    answers = [(name, requests[name]().status_code) for name in order]
    assert answers == [(name, expected[name]) for name in order]


def _dies_before(statement: str):
    """Kill every backend of the database (this request's too) right before the first
    statement that starts with `statement`: the server restarts in the middle of it."""
    fired = []

    def wrapper(execute, sql, params, many, context):
        if not fired and sql.lstrip().startswith(statement):
            fired.append(_terminate_everyone())
        return execute(sql, params, many, context)

    return wrapper, fired


@pytest.mark.parametrize("htmx", [False, True])
def test_a_move_whose_connection_dies_before_the_commit_answers_503_and_changes_nothing(
    table, alice, htmx
):
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    data = _move(table)
    table.refresh_from_db()
    before = (table.seq, table.version, table.state, Action.objects.filter(game=table).count())
    _fill_the_pool()
    wrapper, fired = _dies_before('INSERT INTO "games_action"')
    headers = {"HX-Request": "true"} if htmx else {}
    with connection.execute_wrapper(wrapper):
        answer = client.post(f"/t/{table.pk}/act/", data, headers=headers)
    assert fired, "the connection died in the middle of the move"
    assert answer.status_code == 503
    assert AGAIN in answer.content.decode()
    table.refresh_from_db()
    assert (table.seq, table.version, table.state,
            Action.objects.filter(game=table).count()) == before
    # Trying again works.
    again = client.post(f"/t/{table.pk}/act/", data, headers=headers)
    assert again.status_code in (200, 302)
    assert Action.objects.filter(game=table, by_user=alice).count() == 1


@pytest.mark.parametrize("htmx", [False, True])
def test_a_page_whose_connection_dies_answers_503_then_loads(table, alice, htmx):
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    _fill_the_pool()
    wrapper, fired = _dies_before('SELECT "games_seat"')
    headers = {"HX-Request": "true"} if htmx else {}
    with connection.execute_wrapper(wrapper):
        answer = client.post(f"/t/{table.pk}/orders/", {"auto_pass": "on"}, headers=headers)
    assert fired
    assert answer.status_code == 503
    assert AGAIN in answer.content.decode()
    if htmx:
        # A fragment for the page's alert area, whatever the form targeted.
        assert answer.headers["HX-Retarget"] == "#alerts"
    else:
        assert "<html" in answer.content.decode()
    assert client.get(f"/t/{table.pk}/").status_code == 200


def test_in_another_language_the_503_says_it_in_that_language(table, alice):
    alice.language = "nl"
    alice.save(update_fields=["language"])
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    data = _move(table)
    _fill_the_pool()
    wrapper, fired = _dies_before('INSERT INTO "games_action"')
    with connection.execute_wrapper(wrapper):
        answer = client.post(f"/t/{table.pk}/act/", data)
    assert answer.status_code == 503
    assert AGAIN not in answer.content.decode()
    assert "Dat is niet gelukt" in answer.content.decode()
