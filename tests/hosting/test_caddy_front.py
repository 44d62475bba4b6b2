"""The production front end for real: Debian's Caddy with the project's Caddyfile
(deploy/Caddyfile.local: tls internal, local ports) in front of the ASGI server (gunicorn
with uvicorn workers, DEBUG=0, collected static files) and a real Celery worker, all on
this test's database and Redis.

Through https://localhost: plain HTTP is redirected, HSTS is set, pages are compressed,
static files carry far-future cache headers, /health/ answers, two clients behind the
proxy are told apart by the login throttle, and a move reaches another player's open
event stream within a second (nothing buffered)."""

import http.client
import json
import os
import secrets
import shutil
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.db import connection

from games.models import Game
from tests.helpers import PASSWORD, EventStream, form_for, make_user, session_for, start_table
from tools import server as harness

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.celery_worker,
              pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 60
FAILURE_LIMIT = 3


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, what: str) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        assert process.poll() is None, f"{what} exited at start"
        try:
            with socket.create_connection(("127.0.0.1", port), 0.2):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"{what} is not listening on port {port}")


class Front:
    def __init__(self, http_port: int, https_port: int, cafile: Path, static_root: Path):
        self.http_port, self.https_port = http_port, https_port
        self.tls = ssl.create_default_context(cafile=str(cafile))
        self.static_root = static_root
        self.origin = f"https://localhost:{https_port}"

    def connect(self, source: str = "127.0.0.1", timeout: float = 30):
        """A TLS connection to Caddy from `source` (another loopback address is another
        client), checked against Caddy's own local authority."""
        conn = http.client.HTTPSConnection("localhost", self.https_port, timeout=timeout,
                                           context=self.tls, source_address=(source, 0))
        conn.connect = _connect_to_loopback(conn)
        return conn

    def request(self, method, path, source="127.0.0.1", headers=None, body=None):
        conn = self.connect(source)
        try:
            conn.request(method, path, body=body, headers={"Host": f"localhost:{self.https_port}",
                                                         **(headers or {})})
            answer = conn.getresponse()
            return answer, answer.read()
        finally:
            conn.close()


def _connect_to_loopback(conn):
    """http.client resolves "localhost" itself; connect to 127.0.0.1 by number instead
    (the name still goes into TLS), so that the source address is the one chosen."""

    def connect():
        sock = socket.create_connection(("127.0.0.1", conn.port), conn.timeout,
                                        conn.source_address)
        conn.sock = conn._context.wrap_socket(sock, server_hostname="localhost")

    return connect


def _start(command, env, log: Path) -> subprocess.Popen:
    return subprocess.Popen(command, env=env, cwd=ROOT, start_new_session=True,
                            stdout=log.open("w"), stderr=subprocess.STDOUT)


@pytest.fixture(scope="module")
def front(django_db_setup, django_db_blocker, tmp_path_factory):
    caddy = shutil.which("caddy")
    if not caddy:
        if os.getenv("REQUIRE_SERVICES") == "1":
            pytest.fail("REQUIRE_SERVICES=1 but caddy is not installed (apt-get install caddy)",
                        pytrace=False)
        pytest.skip("caddy is not installed (apt-get install caddy)")
    tmp = tmp_path_factory.mktemp("front")
    db = connection.settings_dict
    web_port, http_port, https_port = free_port(), free_port(), free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "REDIS_URL": settings.REDIS_URL,
        "DEBUG": "0",
        # The test's own key: the sessions it makes for its players must be readable there.
        "SECRET_KEY": settings.SECRET_KEY,
        "ALLOWED_HOSTS": "localhost",
        "SITE_URL": f"https://localhost:{https_port}",
        "TRUSTED_PROXIES": "1",
        "LOGIN_FAILURE_LIMIT": str(FAILURE_LIMIT),
        "STATIC_ROOT": str(tmp / "static"),
        "PYTHONUNBUFFERED": "1",
    }
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
                   cwd=ROOT, env=env, check=True, timeout=120)
    caddy_env = {**os.environ, "HTTP_PORT": str(http_port), "HTTPS_PORT": str(https_port),
                 "DALMUTI_UPSTREAM": f"127.0.0.1:{web_port}", "HOME": str(tmp),
                 "XDG_DATA_HOME": str(tmp / "data"), "XDG_CONFIG_HOME": str(tmp / "config")}
    processes = []
    try:
        web = _start([sys.executable, "-m", "gunicorn", "dalmuti_site.asgi", "--worker-class",
                      "uvicorn_worker.UvicornWorker", "--workers", "1", "--bind",
                      f"127.0.0.1:{web_port}", "--graceful-timeout", "2"],
                     env, tmp / "web.log")
        processes.append(web)
        processes.append(_start([sys.executable, "-m", "celery", "--app", "dalmuti_site",
                                 "worker", "--pool", "solo", "--without-gossip",
                                 "--without-mingle", "--loglevel", "WARNING"],
                                env, tmp / "worker.log"))
        proxy = _start([caddy, "run", "--config", str(ROOT / "deploy" / "Caddyfile.local"),
                        "--adapter", "caddyfile"], caddy_env, tmp / "caddy.log")
        processes.append(proxy)
        wait_for_port(web_port, web, "the web server")
        wait_for_port(https_port, proxy, "Caddy")
        cafile = tmp / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        deadline = time.monotonic() + START_SECONDS
        while not cafile.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        served = Front(http_port, https_port, cafile, tmp / "static")
        while time.monotonic() < deadline:  # the site's certificate is issued at start
            try:
                if served.request("GET", "/health/")[0].status == 200:
                    break
            except (OSError, ssl.SSLError):
                time.sleep(0.2)
        else:
            raise AssertionError((tmp / "caddy.log").read_text()[-3000:])
        yield served
    finally:
        harness.stop(*processes)


def test_plain_http_is_redirected_to_https(front):
    conn = http.client.HTTPConnection("127.0.0.1", front.http_port, timeout=10)
    conn.request("GET", "/accounts/login/?next=/", headers={"Host": f"localhost:{front.http_port}"})
    answer = conn.getresponse()
    assert answer.status in (301, 308)
    # Caddy names no port when the site's HTTPS port is the one it was given to serve
    # (behind 443, or a port forwarded to it): same host, same path, https.
    location = answer.getheader("Location")
    assert location.startswith("https://localhost")
    assert location.endswith("/accounts/login/?next=/")


def test_health_answers_and_pages_are_compressed_with_hsts(front):
    answer, body = front.request("GET", "/health/")
    assert answer.status == 200
    answer, _body = front.request("GET", "/accounts/login/",
                                  headers={"Accept-Encoding": "gzip"})
    assert answer.status == 200
    assert answer.getheader("Content-Encoding") == "gzip"
    assert answer.getheader("Strict-Transport-Security") == (
        "max-age=31536000; includeSubDomains; preload")


def test_static_files_carry_far_future_cache_headers(front):
    manifest = json.loads((front.static_root / "staticfiles.json").read_text())
    hashed = manifest["paths"]["css/dalmuti.css"]
    assert hashed != "css/dalmuti.css"
    answer, body = front.request("GET", f"/static/{hashed}")
    assert answer.status == 200 and body
    cache_control = answer.getheader("Cache-Control")
    assert "max-age=315360000" in cache_control and "immutable" in cache_control


def _login_page(front, source):
    answer, _body = front.request("GET", "/accounts/login/", source=source)
    cookie = answer.getheader("Set-Cookie")
    token = cookie.split(f"{settings.CSRF_COOKIE_NAME}=", 1)[1].split(";", 1)[0]
    return token


def _log_in(front, source, username, password) -> int:
    token = _login_page(front, source)
    answer, _body = front.request(
        "POST", "/accounts/login/", source=source,
        body=urlencode({"csrfmiddlewaretoken": token, "username": username,
                        "password": password}),
        headers={"Cookie": f"{settings.CSRF_COOKIE_NAME}={token}",
                 "Content-Type": "application/x-www-form-urlencoded",
                 "Origin": front.origin, "Referer": f"{front.origin}/accounts/login/"})
    return answer.status


def test_the_login_throttle_tells_two_clients_behind_the_proxy_apart(front, settings):
    # The web server checks the password with the site's own hasher, not the tests' fast one.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    make_user("throttled")
    for _ in range(FAILURE_LIMIT):
        assert _log_in(front, "127.0.0.1", "throttled", "wrong password") == 200
    # The first client is locked out, even with the right password...
    assert _log_in(front, "127.0.0.1", "throttled", PASSWORD) == 429
    # ...the second, from another address, is not.
    assert _log_in(front, "127.0.0.2", "throttled", PASSWORD) == 302


def _session_cookie(user) -> str:
    return f"{settings.SESSION_COOKIE_NAME}={session_for(user)}"


def test_a_move_reaches_another_players_open_stream_within_a_second(front):
    mover_user, watcher_user = make_user("mover"), make_user("watcher")
    game = start_table(mover_user, [watcher_user], bots=2, seed=31)
    cookies = {u.pk: _session_cookie(u) for u in (mover_user, watcher_user)}
    seats = {s.user_id: s for s in game.seats.exclude(user=None)}
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:  # the worker plays the bots up to a person's turn
        game.refresh_from_db()
        waiting = [s for s in seats.values()
                   if game.awaiting.get(str(s.player)) and
                   game.engine_state().view(s.player)["legal_actions"]]
        if waiting:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("no person's turn came")
    mover = waiting[0]
    watcher = next(s for s in seats.values() if s.pk != mover.pk)
    stream = EventStream(front.connect(timeout=60), f"/t/{game.pk}/stream/", {
        "Cookie": cookies[watcher.user_id], "Host": f"localhost:{front.https_port}",
        "Accept": "text/event-stream", "Accept-Encoding": "gzip"})
    stream.start()
    assert stream.ready.wait(20), f"the stream did not open: {stream.status} {stream.headers}"
    assert stream.headers.get("Content-Type", "").startswith("text/event-stream")
    assert "Content-Encoding" not in stream.headers

    csrf = secrets.token_hex(16)
    action = game.engine_state().view(mover.player)["legal_actions"][0]
    before = game.version
    answer, _body = front.request(
        "POST", f"/t/{game.pk}/act/",
        body=urlencode(form_for(action, game.awaiting[str(mover.player)][0]), doseq=True),
        headers={"Cookie": f"{cookies[mover.user_id]}; {settings.CSRF_COOKIE_NAME}={csrf}",
                 "X-CSRFToken": csrf, "HX-Request": "true", "Origin": front.origin,
                 "Content-Type": "application/x-www-form-urlencoded"})
    answered = time.monotonic()
    assert answer.status == 200
    moved = Game.objects.get(pk=game.pk).version
    assert moved > before
    while time.monotonic() < answered + 1 and not any(v > before for v in stream.heard):
        time.sleep(0.01)
    stream.close()
    heard = [at for version, at in stream.heard.items() if version > before]
    assert heard, "the move did not reach the other player's stream within a second"
    assert min(heard) - answered < 1
    # The worker goes on playing the bots after the move: wait until the table waits for
    # a person again, so that nothing reads the tables while the test's database is
    # emptied (a flush that met the worker's reads deadlocked, and left this game behind
    # for the next tests of the process).
    _until_a_person_is_awaited(game, seats)


def _until_a_person_is_awaited(game, seats) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if not game.is_playing or any(game.awaiting.get(str(s.player))
                                      for s in seats.values()):
            return
        time.sleep(0.1)
    raise AssertionError("the bots did not come back to a person's turn")
