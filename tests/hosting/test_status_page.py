"""The admin's System status page: superusers only, every check in plain words, the
proxy judged from the request's own headers, and a test email that says what happened."""

import pytest
from django.utils import translation

from hosting import checks
from tests.helpers import make_user

pytestmark = pytest.mark.django_db
URL = "/admin/status/"


@pytest.fixture(autouse=True)
def quick_worker_check(monkeypatch):
    """The worker's own check waits two seconds for an answer; its tests are the doctor's."""
    monkeypatch.setattr(checks, "worker", lambda: checks.Result(
        "worker", "Celery worker", checks.SKIPPED, "stubbed"))


@pytest.fixture
def root(client):
    user = make_user("root", is_staff=True, is_superuser=True)
    client.force_login(user)
    return user


def test_a_superuser_sees_every_check_and_the_link_on_the_index(client, root, settings):
    settings.DEBUG = True
    index = client.get("/admin/").content.decode()
    assert 'href="/admin/status/"' in index
    html = client.get(URL).content.decode()
    for key in ("database", "redis", "worker", "beat", "email", "push", "site_url",
                "proxies", "debug", "time_zone"):
        assert f'id="check-{key}"' in html
    assert "DEBUG is on" in html and "Set DEBUG=0" in html
    assert "Send me a test email" in html and "root@example.com" in html
    assert "problems need fixing" in html


def test_an_organiser_who_is_not_a_superuser_may_not(client):
    client.force_login(make_user("olga", is_staff=True))
    assert 'href="/admin/status/"' not in client.get("/admin/").content.decode()
    assert client.get(URL).status_code == 403
    assert client.post(URL + "test-email/").status_code == 403


def test_a_visitor_is_sent_to_log_in(client):
    response = client.get(URL)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_a_proxy_that_is_not_trusted_is_named(client, root, settings):
    settings.TRUSTED_PROXIES = 0
    html = client.get(URL, HTTP_X_FORWARDED_FOR="203.0.113.9").content.decode()
    assert "TRUSTED_PROXIES is 0" in html and "Set TRUSTED_PROXIES=1" in html


def test_trusted_proxies_without_the_header_are_named(client, root, settings):
    settings.TRUSTED_PROXIES = 1
    result = checks.proxies(client.get(URL).wsgi_request)
    assert result.status == checks.ERROR
    assert "did not pass through the proxy" in result.message


def test_a_trusted_proxy_that_sets_the_headers_is_fine(client, root, settings):
    settings.TRUSTED_PROXIES = 1
    request = client.get(URL, HTTP_X_FORWARDED_FOR="203.0.113.9",
                         HTTP_X_FORWARDED_PROTO="https").wsgi_request
    result = checks.proxies(request)
    assert result.status == checks.OK and "203.0.113.9" in result.message


def test_the_test_email_says_when_it_failed_and_when_it_went(client, root, mail_server):
    """The mail server refuses the first message (451), then accepts."""
    failed = client.post(URL + "test-email/", follow=True).content.decode()
    assert "could not be sent" in failed and "451" in failed
    sent = client.post(URL + "test-email/", follow=True).content.decode()
    assert "A test email was sent to root@example.com" in sent
    [(to, message)] = mail_server.received
    assert to == ["root@example.com"] and "Email delivery works." in message


def test_the_test_email_needs_an_address(client):
    user = make_user("nomail", is_staff=True, is_superuser=True)
    user.email = ""
    user.save()
    client.force_login(user)
    html = client.post(URL + "test-email/", follow=True).content.decode()
    assert "Your account has no email address" in html


@pytest.mark.parametrize("code", ["nl", "de", "fr"])
def test_the_page_speaks_the_readers_language(client, root, code, settings):
    settings.DEBUG = True
    client.cookies["django_language"] = code
    html = client.get(URL).content.decode()
    with translation.override(code):
        for english in ("System status", "Send me a test email", "Debug mode"):
            translated = translation.gettext(english)
            assert translated != english
            assert translated in html


def test_what_needs_fixing_comes_first(client, root, settings):
    settings.DEBUG = True
    html = client.get(URL).content.decode()
    assert html.index('id="check-debug"') < html.index('id="check-database"')
    assert "Check again" in html
