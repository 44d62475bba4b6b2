"""Beyond one process: two web servers (ASGI, separate OS processes) and two Celery
workers (separate OS processes) share one PostgreSQL database and one Redis. Several
games are played at once: the humans through HTTP, sent to either server in turn, the
bots by whichever worker takes the task. Afterwards every game is finished, its record
has no gap and no duplicate, its state is exactly what the record rebuilds, and every
open page's event stream, on either server, was told of every new version of its table.
"""

import http.client
import random
import secrets
import sys
import time
from urllib.parse import urlencode

import pytest
from django.conf import settings

from games import engine
from games.models import Game
from games.read.replay import rebuild_state
from tests.helpers import EventStream, form_for, make_user, session_for, start_table
from tools import server as harness

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.celery_worker,
              pytest.mark.django_db(transaction=True)]

GAMES = 3
# Bounds for the test never to hang; the games take a few seconds each.
START_SECONDS = 60
PLAY_SECONDS = 240


@pytest.fixture
def cluster():
    """Two web servers and two workers; stopped (and waited for) at the end."""
    from dalmuti_site.celery import app

    app.control.purge()  # nothing left over from earlier tests
    # The subprocesses use this test's database and the same broker and Redis.
    env = harness.environment(DEBUG="1")
    servers, workers = [], []
    try:
        for _ in range(2):
            servers.append(harness.start_server(env, workers=1, asgi=True))
        for name in ("one", "two"):
            workers.append(harness.start([
                sys.executable, "-m", "celery", "-A", "dalmuti_site", "worker", "--pool",
                "solo", "--hostname", f"{name}@%h", "--without-gossip", "--without-mingle",
                "--loglevel", "WARNING"], env))
        for web in servers:
            web.wait_until_up(START_SECONDS)
        yield [web.port for web in servers]
    finally:
        harness.stop(*[web.process for web in servers], *workers)


class Player:
    """One human with a browser's cookies, talking to a server of its choice."""

    def __init__(self, user, seat):
        self.user, self.seat = user, seat
        self.csrf = secrets.token_hex(16)
        self.cookie = (f"{settings.SESSION_COOKIE_NAME}={session_for(user)}; "
                       f"{settings.CSRF_COOKIE_NAME}={self.csrf}")

    def post(self, port: int, path: str, data: dict) -> int:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            conn.request("POST", path, body=urlencode(data, doseq=True), headers={
                "Cookie": self.cookie, "X-CSRFToken": self.csrf, "HX-Request": "true",
                "Origin": f"http://127.0.0.1:{port}", "Host": f"127.0.0.1:{port}",
                "Content-Type": "application/x-www-form-urlencoded",
            })
            answer = conn.getresponse()
            answer.read()
            return answer.status
        finally:
            conn.close()


def _stream(player: Player, port: int, game_id: int) -> EventStream:
    """An open page of `player`'s on the server at `port`: its event stream."""
    stream = EventStream(
        http.client.HTTPConnection("127.0.0.1", port, timeout=PLAY_SECONDS),
        f"/t/{game_id}/stream/",
        {"Cookie": player.cookie, "Host": f"127.0.0.1:{port}", "Accept": "text/event-stream"})
    stream.port, stream.game_id = port, game_id
    return stream


def test_two_web_processes_and_two_workers_play_several_games_at_once(cluster):
    rng = random.Random(7)
    games, players = [], []
    for g in range(GAMES):
        humans = [make_user(f"many{g}x{i}") for i in range(2)]
        game = start_table(humans[0], humans[1:], bots=2, options={"rounds": 1},
                           seed=1000 + g, name=f"Many {g}")
        games.append(game)
        players += [Player(u, game.seats.get(user=u)) for u in humans]
    first_version = {game.pk: Game.objects.get(pk=game.pk).version for game in games}

    # Every human has the page open on one server or the other, told of changes at once.
    streams = []
    for i, player in enumerate(players):
        stream = _stream(player, cluster[i % 2], player.seat.game_id)
        stream.start()
        streams.append(stream)
    for stream in streams:
        assert stream.ready.wait(START_SECONDS), "a stream did not open"
        assert stream.status == 200, stream.status
    # The bots' first moves may have been made before the streams opened.
    start = {game.pk: Game.objects.get(pk=game.pk).version for game in games}

    moves, refused, server = 0, 0, 0
    deadline = time.monotonic() + PLAY_SECONDS
    while time.monotonic() < deadline:
        live = list(Game.objects.filter(pk__in=[g.pk for g in games],
                                        status=Game.Status.PLAYING))
        if not live:
            break
        acted = False
        for game in live:
            state = game.engine_state()
            for player in players:
                token = game.awaiting.get(str(player.seat.player), [None])[0]
                if player.seat.game_id != game.pk or token is None:
                    continue
                legal = state.view(player.seat.player)["legal_actions"]
                if not legal:
                    continue
                status = player.post(cluster[server % 2], f"/t/{game.pk}/act/",
                                     form_for(rng.choice(legal), token))
                server += 1
                assert status in (200, 409), f"a move was answered {status}"
                moves += status == 200
                refused += status == 409  # a bot moved first: the page was stale
                acted = True
                break
        if not acted:
            time.sleep(0.05)  # the bots are thinking, in the workers
    else:
        raise AssertionError("the games did not finish in time")
    assert moves > 0

    for game in games:
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        seqs = list(game.actions.order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(1, len(seqs) + 1)), "a gap or a duplicate in the record"
        assert rebuild_state(game).to_json() == game.state
        bots = game.actions.filter(by="bot").count()
        assert bots > 0, "the workers played no bot move"
        assert engine.Game.from_json(game.state).is_over

    # Every stream, on either server, heard every version its table reached after it
    # opened (the versions it missed before opening are the ones the page loaded with).
    time_left = time.monotonic() + 10
    for stream in streams:
        game = Game.objects.get(pk=stream.game_id)
        wanted = set(range(start[game.pk] + 1, game.version + 1))
        while not wanted <= stream.versions and time.monotonic() < time_left:
            time.sleep(0.05)
        assert wanted <= stream.versions, (
            f"stream on port {stream.port} missed {sorted(wanted - stream.versions)}")
        assert first_version[game.pk] <= start[game.pk]
        stream.close()
