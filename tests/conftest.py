"""Shared test infrastructure.

Tests that need a real service carry a marker: ``postgres`` (the configured database is
PostgreSQL), ``redis`` (CELERY_BROKER_URL points at a reachable Redis) or
``celery_worker`` (a real worker consumes from that broker). When the service is absent
they skip with the reason, unless REQUIRE_SERVICES=1 (as in CI), where that is a failure.
"""

import errno
import ipaddress
import os
import socket
import threading
from urllib.parse import urlparse

import pytest
from django.conf import settings
from django.db import connection

REQUIRE_SERVICES = os.getenv("REQUIRE_SERVICES", "") == "1"

# What the tests may reach: this machine's loopback and unix sockets, nothing else.
LOOPBACK = {"127.0.0.1", "::1", "::ffff:127.0.0.1"}
_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex
_real_getaddrinfo = socket.getaddrinfo
_LOCAL_NAMES = {None, "localhost", socket.gethostname()}


def _next_databases(url: str, worker: int) -> str:
    """The Redis URL `url` moved 2 × `worker` databases up (a broker and its cache each)."""
    base, _, db = url.rstrip("/").rpartition("/")
    if not db.isdigit():
        base, db = url.rstrip("/"), "0"
    return f"{base}/{int(db) + 2 * worker}"


def pytest_configure(config):
    """Under pytest-xdist (`-n 2`), each worker process gets Redis databases of its own
    (gw0 keeps the configured ones, gw1 the next two, ...), so that one worker's Celery
    worker never takes the other's tasks and their caches never meet, and a folder of its
    own for the static files its production servers collect. pytest-django gives each its
    own test database. Done before anything connects; servers started by the tests inherit
    it through the environment.

    The Dalmutis' automatic choices of what to give back (bots', standing orders') are
    made as soon as they may, here and in the servers the tests start: the tests of their
    hold after the deal (a person dealt both jesters has the time to call a revolution)
    set REVOLUTION_WINDOW_SECONDS themselves."""
    settings.REVOLUTION_WINDOW_SECONDS = 0
    os.environ["REVOLUTION_WINDOW_SECONDS"] = "0"
    name = os.getenv("PYTEST_XDIST_WORKER", "")
    if not name.startswith("gw") or name == "gw0":
        return
    worker = int(name[2:])
    from dalmuti_site.celery import app

    for setting in ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "REDIS_URL"):
        url = getattr(settings, setting, "") or ""
        if url.startswith(("redis://", "rediss://")):
            moved = _next_databases(url, worker)
            setattr(settings, setting, moved)
            os.environ[setting] = moved
    app.conf.broker_url = settings.CELERY_BROKER_URL
    app.conf.result_backend = settings.CELERY_RESULT_BACKEND
    if settings.REDIS_URL:
        settings.CACHES["default"]["LOCATION"] = settings.REDIS_URL
    os.environ["STATIC_ROOT"] = str(settings.VAR_DIR / "xdist" / name / "staticfiles")


def _redis_problem() -> str | None:
    url = settings.CELERY_BROKER_URL
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "CELERY_BROKER_URL is not set"
    parsed = urlparse(url)
    if parsed.scheme not in ("redis", "rediss"):
        return f"CELERY_BROKER_URL is not a Redis URL ({parsed.scheme})"
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or 6379), 2):
            return None
    except OSError as exc:
        return f"Redis at {parsed.hostname}:{parsed.port or 6379} is unreachable ({exc})"


def _postgres_problem() -> str | None:
    if connection.vendor != "postgresql":
        return f"the database is {connection.vendor}, not PostgreSQL (set DATABASE_URL)"
    return None


def _missing_service(item) -> str | None:
    if item.get_closest_marker("postgres"):
        problem = _postgres_problem()
        if problem:
            return problem
    if item.get_closest_marker("redis") or item.get_closest_marker("celery_worker"):
        problem = _redis_problem()
        if problem:
            return problem
    return None


def pytest_runtest_setup(item):
    problem = _missing_service(item)
    if problem:
        if REQUIRE_SERVICES:
            pytest.fail(f"REQUIRE_SERVICES=1 but {problem}", pytrace=False)
        pytest.skip(problem)


@pytest.fixture
def celery_worker(transactional_db):
    """A real Celery worker (in a thread of this process) consuming from the real broker.

    It needs committed data, hence transactional_db; the worker's own database
    connections see the same test database. It starts on empty queues: what earlier
    tests sent without a worker to take it (a server's emails, bot moves of tables long
    gone) is not this test's work, and would stand before it in the queues.
    """
    from celery.contrib.testing.worker import start_worker

    from dalmuti_site.celery import app

    app.control.purge()
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30) as worker:
        yield worker


@pytest.fixture(autouse=True)
def reviews_only_where_asked(request, settings):
    """Every finished game with people at it is reviewed in the background, which takes a
    worker minutes: only the tests marked ``reviews`` have it done."""
    if not request.node.get_closest_marker("reviews"):
        settings.DALMUTI_REVIEWS = False


@pytest.fixture(autouse=True)
def in_english():
    """Each test starts in English, whatever language an earlier test left active."""
    from django.utils import translation

    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def fresh_redis_cache():
    """With Redis as the cache, each test starts with it empty (the database's cache table
    is emptied by each test's rollback)."""
    if settings.REDIS_URL:
        from django.core.cache import cache

        cache.clear()
    yield


@pytest.fixture(autouse=True)
def updates_read_back():
    """Each test reads the updates it finds kept from where they are kept, never one this
    process drew for an earlier test's table of the same number."""
    from games.views import updates

    updates.forget()
    yield


@pytest.fixture(autouse=True)
def live_only_with_real_commits(request, settings):
    """games.core.live writes to Redis after each commit; in a test whose transaction never
    commits (pytest-django's default) it would keep the versions of before the test's
    changes, so there the database answers every poll."""
    marker = request.node.get_closest_marker("django_db")
    transactional = bool(marker and marker.kwargs.get("transaction")) or any(
        name in request.fixturenames for name in ("transactional_db", "live_server")
    )
    if not transactional:
        settings.REDIS_URL = ""


@pytest.fixture
def without_redis(settings):
    """The database answers every poll, as in the embedded set-up."""
    settings.REDIS_URL = ""
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.db"


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def make_user(db):
    from tests.helpers import make_user

    return make_user


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def dave(make_user):
    return make_user("dave")


@pytest.fixture
def mallory(make_user):
    return make_user("mallory")


@pytest.fixture
def eager_tasks():
    """Run Celery tasks in-process, as without a broker, even where one is configured."""
    from dalmuti_site.celery import app

    was = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = was


def _numeric(host) -> bool:
    try:
        ipaddress.ip_address(str(host).split("%")[0])
    except ValueError:
        return False
    return True


def _may_connect(sock, address) -> bool:
    if sock.family == socket.AF_UNIX:
        return True
    if sock.family in (socket.AF_INET, socket.AF_INET6):
        return str(address[0]).split("%")[0] in LOOPBACK
    return False


@pytest.fixture(autouse=True)
def only_loopback(monkeypatch):
    """No test sends a packet beyond this machine: a connection to anything but
    127.0.0.1 or ::1 (or a unix socket) is refused before it is made, and so is the
    resolution of a name other than localhost (tests that need a name stub the resolver,
    see `fake_dns`). Either fails the test, even when the code under test swallowed the
    error. Yields the list of what was attempted (a test of the guard itself empties it)."""
    outside: list[str] = []

    def connect(sock, address):
        if not _may_connect(sock, address):
            outside.append(f"connect to {address!r}")
            raise ConnectionRefusedError(
                errno.ECONNREFUSED, f"tests may only connect to loopback, not {address!r}")
        return _real_connect(sock, address)

    def connect_ex(sock, address):
        if not _may_connect(sock, address):
            outside.append(f"connect to {address!r}")
            return errno.ECONNREFUSED
        return _real_connect_ex(sock, address)

    def getaddrinfo(host, *args, **kwargs):
        name = host.decode() if isinstance(host, bytes) else host
        if name in _LOCAL_NAMES or _numeric(name):
            return _real_getaddrinfo(host, *args, **kwargs)
        outside.append(f"resolve {name!r}")
        raise socket.gaierror(socket.EAI_NONAME, f"tests do not resolve {name!r}: stub it")

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    yield outside
    if outside:
        pytest.fail("the test reached beyond loopback: " + "; ".join(outside), pytrace=False)


class FakeDNS:
    """A resolver the test controls: names map to the addresses it says, in that order,
    and every lookup is counted. Numeric hosts go to the real resolver (no lookup is
    made for them); any other name is unknown."""

    def __init__(self):
        self.names: dict[str, list[str]] = {}
        self.lookups: list[str] = []

    def getaddrinfo(self, host, port, family=0, type=0, proto=0, flags=0):  # noqa: A002
        name = host.decode() if isinstance(host, bytes) else host
        if name not in self.names:
            if _numeric(name):
                return _real_getaddrinfo(host, port, family, type, proto, flags)
            raise socket.gaierror(socket.EAI_NONAME, f"{name!r} is not in the fake DNS")
        self.lookups.append(name)
        answers = []
        for address in self.names[name]:
            ip = ipaddress.ip_address(address.split("%")[0])
            af = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
            if family not in (0, socket.AF_UNSPEC, af):
                continue
            sockaddr = (address, int(port or 0), 0, 0) if af == socket.AF_INET6 else (
                address, int(port or 0))
            answers.append((af, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", sockaddr))
        if not answers:
            raise socket.gaierror(socket.EAI_NONAME, f"{name!r} has no such address")
        return answers


@pytest.fixture
def fake_dns(monkeypatch, only_loopback):
    dns = FakeDNS()
    monkeypatch.setattr(socket, "getaddrinfo", dns.getaddrinfo)
    return dns


class QuietListener:
    """A real listening socket on this machine that must see no connection: the kernel
    completes a connection's handshake into the backlog before anyone accepts, so after
    the code under test ran, a non-blocking accept tells whether anything connected."""

    def __init__(self, host: str = "127.0.0.1"):
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.bind((host, 0))
        self.sock.listen(16)
        self.sock.setblocking(False)
        self.host, self.port = host, self.sock.getsockname()[1]

    def connections(self) -> int:
        count = 0
        while True:
            try:
                conn, _address = self.sock.accept()
            except BlockingIOError:
                return count
            conn.close()
            count += 1

    def close(self):
        self.sock.close()


@pytest.fixture
def quiet_listener():
    listener = QuietListener("127.0.0.1")
    yield listener
    listener.close()


@pytest.fixture
def quiet_listener6():
    listener = QuietListener("::1")
    yield listener
    listener.close()


@pytest.fixture
def after_commit(django_capture_on_commit_callbacks, eager_tasks):
    """`with after_commit(): client.post(...)` runs what the request left for after its
    commit (emails), in-process as the worker would, in a test that never commits."""
    from functools import partial

    return partial(django_capture_on_commit_callbacks, execute=True)


class MailServer:
    """Refuses the first `refusals` messages with a temporary failure, then accepts."""

    def __init__(self, refusals: int):
        self.refusals = refusals
        self.refused = 0
        self.received: list[tuple[list[str], str]] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            if self.refused < self.refusals:
                self.refused += 1
                return "451 4.3.0 Try again later"
            self.received.append((list(envelope.rcpt_tos),
                                  envelope.content.decode("utf-8", "replace")))
        return "250 OK"


@pytest.fixture
def mail_server(settings):
    """A real SMTP server (aiosmtpd) on the loopback that refuses the first message with
    a temporary failure, then accepts; the site sends through it."""
    handler = MailServer(refusals=1)
    with socket.socket() as probe:  # a free port on the loopback
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    from aiosmtpd.controller import Controller

    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", controller.port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_TIMEOUT = 5
    yield handler
    controller.stop()
