"""`manage.py doctor` names each fault when the fault is real, and reports a clean
installation as clean: real Redis, a real worker, a real SMTP server."""

import io
import socket
import time

import pytest
from django.core.management import CommandError, call_command

from hosting import checks, heartbeat


def doctor() -> tuple[bool, str]:
    out = io.StringIO()
    try:
        call_command("doctor", stdout=out)
    except CommandError as exc:
        return False, out.getvalue() + str(exc)
    return True, out.getvalue()


def by_key(results) -> dict:
    return {r.key: r for r in results}


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def production(settings, monkeypatch, mail_server):
    """The settings of a well-run installation (the services are the test's own)."""
    settings.DEBUG = False
    settings.SITE_URL = "https://localhost"
    settings.ALLOWED_HOSTS = ["localhost"]
    settings.DEFAULT_FROM_EMAIL = "Dalmuti <dalmuti@example.org>"
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = "private", "public"
    monkeypatch.setenv("TIME_ZONE", settings.TIME_ZONE)
    return settings


@pytest.mark.django_db
def test_debug_on_is_named_with_its_fix(settings):
    settings.DEBUG = True
    ok, out = doctor()
    assert not ok
    assert "[XX] Debug mode: DEBUG is on" in out
    assert "Set DEBUG=0" in out


@pytest.mark.django_db
def test_debug_off_is_fine(settings):
    settings.DEBUG = False
    assert by_key(checks.run())["debug"].status == checks.OK


@pytest.mark.redis
@pytest.mark.django_db
def test_a_wrong_redis_port_is_named(settings):
    port = closed_port()
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{port}/8"
    result = checks.redis()
    assert result.status == checks.ERROR
    assert f"127.0.0.1:{port}" in result.message
    assert "CELERY_BROKER_URL" in result.fix
    ok, out = doctor()
    assert not ok and "[XX] Redis: Redis does not answer" in out


@pytest.mark.redis
@pytest.mark.django_db
def test_no_worker_is_named():
    result = checks.worker()
    assert result.status == checks.ERROR
    assert "No worker answered" in result.message
    assert "systemctl start dalmuti-worker" in result.fix


@pytest.mark.django_db
def test_a_refusing_mail_server_is_named(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", closed_port()
    settings.EMAIL_USE_TLS = False
    ok, out = doctor()
    assert not ok
    assert f"[XX] Email: The mail server 127.0.0.1:{settings.EMAIL_PORT} refuses" in out
    assert "EMAIL_HOST" in out


@pytest.mark.django_db
def test_email_written_to_files_is_a_warning(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    assert checks.email().status == checks.WARNING


@pytest.mark.django_db
def test_a_sweep_that_stopped_is_named(settings):
    heartbeat.sweep_ran(time.time() - 10 * settings.SWEEP_SECONDS)
    result = checks.beat()
    assert result.status == checks.ERROR
    assert "dalmuti-beat" in result.fix
    heartbeat.sweep_ran()
    assert checks.beat().status == checks.OK


@pytest.mark.django_db
def test_a_plain_http_site_url_or_an_unknown_host_is_named(settings):
    settings.SITE_URL, settings.ALLOWED_HOSTS = "http://dalmuti.example.org", ["other.example"]
    result = checks.site_url()
    assert result.status == checks.ERROR
    assert "not an https:// address" in result.message
    assert "not in ALLOWED_HOSTS" in result.message
    settings.SITE_URL, settings.ALLOWED_HOSTS = "https://dalmuti.example.org", [".example.org"]
    assert checks.site_url().status == checks.OK


@pytest.mark.django_db
def test_an_unknown_time_zone_is_named(settings, monkeypatch):
    monkeypatch.setenv("TIME_ZONE", "Mars/Olympus")
    settings.TIME_ZONE = "Mars/Olympus"
    assert checks.time_zone().status == checks.ERROR


@pytest.mark.django_db
def test_unapplied_migrations_are_named(monkeypatch):
    from django.db.migrations.executor import MigrationExecutor

    monkeypatch.setattr(MigrationExecutor, "migration_plan", lambda self, targets: [1, 2])
    result = checks.database()
    assert result.status == checks.ERROR
    assert "2 database changes" in result.message and "migrate" in result.fix


@pytest.mark.celery_worker
def test_the_ci_installation_reports_clean(celery_worker, production):
    from games.tasks import sweep

    sweep.delay()
    for _ in range(100):
        if heartbeat.sweep_last_ran():
            break
        time.sleep(0.1)
    ok, out = doctor()
    assert ok, out
    assert "[XX]" not in out and "[!!]" not in out
    assert "[ok] Celery worker: 1 worker answered" in out
    assert "[ok] Periodic sweep (beat): The sweep last ran" in out
    assert "[ok] Email: The mail server 127.0.0.1:" in out
    assert "Everything that was checked works." in out


@pytest.mark.django_db
def test_without_a_broker_no_beat_is_needed(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    assert checks.beat().status == checks.SKIPPED
    heartbeat.sweep_ran(time.time() - 10 * settings.SWEEP_SECONDS)
    assert checks.beat().status == checks.ERROR


@pytest.mark.django_db
def test_a_push_key_pair_that_changed_is_named_for_a_day(settings, monkeypatch):
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = "private-a", "public-a"
    assert checks.push_keys().status == checks.OK
    assert checks.push_keys().status == checks.OK
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = "private-b", "public-b"
    changed = checks.push_keys()
    assert changed.status == checks.ERROR
    assert "changed 0 minutes ago" in changed.message
    assert checks.push_keys().status == checks.ERROR  # still, on the next look
    later = time.time() + heartbeat.PUSH_CHANGE_SHOWN_SECONDS + 1
    monkeypatch.setattr(heartbeat.time, "time", lambda: later)
    assert checks.push_keys().status == checks.OK


@pytest.mark.django_db
def test_generated_push_keys_are_a_warning(settings, tmp_path):
    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = ""
    settings.VAR_DIR = tmp_path
    (tmp_path / "vapid.json").write_text('{"private": "p", "public": "q"}')
    result = checks.push_keys()
    assert result.status == checks.WARNING and "VAPID_PRIVATE_KEY" in result.fix
