import re
from urllib.parse import urlparse

import pytest
from django.conf import settings
from django.core import mail

from tests.helpers import PASSWORD

NEW_PASSWORD = "a-brand-new-passphrase"


def _reset_link(message) -> str:
    match = re.search(r"https?://\S+/password/reset/\S+/\S+/", message.body)
    assert match, message.body
    return match.group(0)


@pytest.fixture
def ask_for_a_link(after_commit):
    """Ask for a reset link; the email goes out after the commit, as the worker sends it."""
    def ask(client, email="alice@example.com"):
        with after_commit():
            return client.post("/accounts/password/reset/", {"email": email})
    return ask


def _set_new_password(client, link):
    page = client.get(urlparse(link).path, follow=True)
    assert page.context["validlink"]
    form_url = page.redirect_chain[-1][0]
    return client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})


def test_the_form_is_reachable_from_the_login_page(client):
    assert client.get("/accounts/password/reset/").status_code == 200


def test_it_emails_a_link_that_sets_a_new_password(client, alice, ask_for_a_link):
    response = ask_for_a_link(client, email="Alice@Example.com")
    assert response.status_code == 302
    assert response.url == "/accounts/password/reset/sent/"
    assert client.get(response.url).status_code == 200

    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["alice@example.com"]
    assert message.subject == "Reset your Dalmuti password"
    assert "Hello Alice," in message.body
    link = _reset_link(message)
    assert link.startswith(settings.SITE_URL + "/accounts/password/reset/")

    html, mimetype = message.alternatives[0]
    assert mimetype == "text/html"
    assert f'href="{link}"' in html

    response = _set_new_password(client, link)
    assert response.status_code == 302
    assert response.url == "/accounts/password/reset/complete/"
    assert client.get(response.url).status_code == 200

    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert not alice.check_password(PASSWORD)
    assert client.login(username="alice", password=NEW_PASSWORD)


def test_the_link_works_only_once(client, alice, ask_for_a_link):
    ask_for_a_link(client)
    link = _reset_link(mail.outbox[0])
    _set_new_password(client, link)

    page = client.get(urlparse(link).path, follow=True)
    assert not page.context["validlink"]
    assert "This link no longer works" in page.content.decode()


def test_an_unknown_address_gets_the_same_answer_and_no_email(client, alice, ask_for_a_link):
    response = ask_for_a_link(client, email="nobody@example.com")
    assert response.status_code == 302
    assert response.url == "/accounts/password/reset/sent/"
    assert mail.outbox == []


def test_a_new_password_lifts_the_login_lock(client, alice, ask_for_a_link):
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    assert (
        client.post("/accounts/login/", {"username": "alice", "password": PASSWORD}).status_code
        == 429
    )

    ask_for_a_link(client)
    _set_new_password(client, _reset_link(mail.outbox[0]))

    response = client.post("/accounts/login/", {"username": "alice", "password": NEW_PASSWORD})
    assert response.status_code == 302


def test_the_answer_says_a_link_goes_only_to_a_confirmed_address(client, settings):
    """Whoever never confirmed their address learns why no link came, and what to do,
    without the page telling whether an account uses the address."""
    from accounts import confirmation

    page = client.get("/accounts/password/reset/sent/").content.decode()
    days = confirmation.VALID_FOR.days
    assert "only to an address that was confirmed" in page
    assert f"follow it now (it works for {days} days)" in page
