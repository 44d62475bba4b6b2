import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection

from dalmuti_site.celery import ping


def test_the_home_page_renders(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b"The Great Dalmuti" in response.content


def test_every_page_forbids_inline_scripts(client):
    response = client.get("/")
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp
    assert "unsafe-inline" not in csp


@pytest.mark.django_db
def test_the_demo_login_is_created_once_and_can_log_in(client, capsys):
    call_command("demo_login")
    call_command("demo_login")
    out = capsys.readouterr().out
    assert "Created the demo login" in out
    assert client.login(username="demo", password="dalmuti-demo")
    assert client.get("/").status_code == 200


@pytest.mark.postgres
def test_the_database_really_is_postgresql(db):
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        (version,) = cursor.fetchone()
    assert version.startswith("PostgreSQL")


@pytest.mark.celery_worker
def test_a_task_round_trips_through_a_real_worker_and_redis(celery_worker):
    assert settings.CELERY_BROKER_URL.startswith("redis")
    assert not settings.CELERY_TASK_ALWAYS_EAGER
    result = ping.apply_async(ignore_result=False)
    assert result.get(timeout=30) == "pong"
