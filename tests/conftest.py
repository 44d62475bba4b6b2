"""Shared test infrastructure.

Tests that need a real service carry a marker: ``postgres`` (the configured database is
PostgreSQL), ``redis`` (CELERY_BROKER_URL points at a reachable Redis) or
``celery_worker`` (a real worker consumes from that broker). When the service is absent
they skip with the reason, unless REQUIRE_SERVICES=1 (as in CI), where that is a failure.
"""

import os
import socket
from urllib.parse import urlparse

import pytest
from django.conf import settings
from django.db import connection

REQUIRE_SERVICES = os.getenv("REQUIRE_SERVICES", "") == "1"


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
    connections see the same test database.
    """
    from celery.contrib.testing.worker import start_worker

    from dalmuti_site.celery import app

    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30) as worker:
        yield worker


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
def live_only_with_real_commits(request, settings):
    """games.live writes to Redis after each commit; in a test whose transaction never
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


@pytest.fixture
def after_commit(django_capture_on_commit_callbacks, eager_tasks):
    """`with after_commit(): client.post(...)` runs what the request left for after its
    commit (emails), in-process as the worker would, in a test that never commits."""
    from functools import partial

    return partial(django_capture_on_commit_callbacks, execute=True)
