"""Connections that heal (real PostgreSQL, its backends terminated with
pg_terminate_backend as a restart or a failover would).

The pool hands out only connections that answer; a request whose connection dies before
its transaction commits answers 503 "That did not go through — please try again." and
changes nothing; the very next requests (logins, page loads, moves) succeed. A move whose
connection dies during its COMMIT (cut by a proxy, before or after the server committed)
is looked up in the record on a new connection: played, or 503.
"""

import socket
import threading
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
    Each test starts from a new pool (an earlier test's threads may have kept connections
    checked out), and whatever it leaves broken, the flush after it and the next test
    start from a new pool too."""
    connection.close()
    connection.close_pool()

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
def test_a_form_whose_connection_dies_answers_503_then_the_page_loads(table, alice, htmx):
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


class CommitCutter:
    """A TCP proxy between the site and PostgreSQL. Armed, it cuts the connection at the
    next COMMIT: "before" drops the COMMIT (the server rolls the transaction back), "after"
    lets the server commit and drops its answer. Either way the site sees its connection
    die during COMMIT and cannot know the outcome."""

    def __init__(self, host: str, port: int):
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.mode: str | None = None
        self.fired = threading.Event()
        self.lock = threading.Lock()
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def arm(self, mode: str) -> None:
        self.mode = mode

    def close(self) -> None:
        self.listener.close()
        for sock in self.sockets:
            _shut(sock)

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            self.sockets += [client, server]
            cut_after = threading.Event()
            threading.Thread(target=self._up, args=(client, server, cut_after),
                             daemon=True).start()
            threading.Thread(target=self._down, args=(client, server, cut_after),
                             daemon=True).start()

    def _up(self, client, server, cut_after) -> None:
        while data := _recv(client):
            if b"COMMIT\x00" in data:
                with self.lock:
                    mode, self.mode = self.mode, None
                if mode == "before":
                    self.fired.set()
                    return _shut(client, server)
                if mode == "after":
                    cut_after.set()
            try:
                server.sendall(data)
            except OSError:
                return _shut(client, server)
        _shut(client, server)

    def _down(self, client, server, cut_after) -> None:
        while data := _recv(server):
            if cut_after.is_set():
                # The server's answer to the COMMIT: it committed; the site never hears.
                self.fired.set()
                return _shut(client, server)
            try:
                client.sendall(data)
            except OSError:
                return _shut(client, server)
        _shut(client, server)


def _recv(sock: socket.socket) -> bytes:
    try:
        return sock.recv(65536)
    except OSError:
        return b""


def _shut(*socks: socket.socket) -> None:
    for sock in socks:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        sock.close()


@pytest.fixture
def cutter(table):
    """Every connection of the site goes through a CommitCutter (a new pool)."""
    db = connection.settings_dict
    saved = (db["HOST"], db["PORT"], dict(db["OPTIONS"]))
    proxy = CommitCutter(db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432))
    connection.close()
    connection.close_pool()
    db["HOST"], db["PORT"] = "127.0.0.1", str(proxy.port)
    db["OPTIONS"]["sslmode"] = "disable"  # the proxy reads the protocol
    yield proxy
    connection.close()
    connection.close_pool()
    db["HOST"], db["PORT"] = saved[:2]
    db["OPTIONS"].clear()
    db["OPTIONS"].update(saved[2])
    proxy.close()


@pytest.mark.parametrize("htmx", [False, True])
def test_a_move_committed_while_its_connection_died_during_commit_is_reported_played(
    table, alice, cutter, htmx
):
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    data = _move(table)
    before = Action.objects.filter(game=table).count()
    cutter.arm("after")
    headers = {"HX-Request": "true"} if htmx else {}
    answer = client.post(f"/t/{table.pk}/act/", data, headers=headers, follow=not htmx)
    assert cutter.fired.is_set(), "the connection died during the COMMIT, after the server's"
    assert answer.status_code == 200
    assert "Your move was recorded." in answer.content.decode()
    if htmx:
        assert answer.headers["HX-Refresh"] == "true"
    assert Action.objects.filter(game=table).count() == before + 1
    assert Action.objects.filter(game=table, by_user=alice).count() == 1


@pytest.mark.parametrize("htmx", [False, True])
def test_a_move_whose_commit_never_reached_the_server_answers_503_and_changes_nothing(
    table, alice, cutter, htmx
):
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    data = _move(table)
    table.refresh_from_db()
    before = (table.seq, table.version, Action.objects.filter(game=table).count())
    cutter.arm("before")
    headers = {"HX-Request": "true"} if htmx else {}
    answer = client.post(f"/t/{table.pk}/act/", data, headers=headers)
    assert cutter.fired.is_set(), "the connection died during the COMMIT, before the server's"
    assert answer.status_code == 503
    assert AGAIN in answer.content.decode()
    table.refresh_from_db()
    assert (table.seq, table.version, Action.objects.filter(game=table).count()) == before
