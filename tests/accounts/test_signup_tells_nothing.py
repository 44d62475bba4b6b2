"""Sign-up says nothing about which addresses have an account: an address already in
use gets the same answer, and its owner is told by email. Its rate limit falls on the
browser that probes, and on a shared address only far beyond what friends need."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from accounts import outbox
from accounts.models import OutgoingEmail

User = get_user_model()
PASSWORD = "a-long-and-unusual-passphrase"
LINK = re.compile(r"https?://[^/\s]+(/accounts/confirm/[^\s]+/)")


def _form(username="carol", email="carol@example.com"):
    return {"username": username, "email": email, "password1": PASSWORD,
            "password2": PASSWORD}


@pytest.fixture
def sent(django_capture_on_commit_callbacks, eager_tasks):
    """Sign up with the emails sent as the worker would, after the commit."""
    def sign_up(client, **form):
        with django_capture_on_commit_callbacks(execute=True):
            return client.post("/accounts/signup/", _form(**form))
    return sign_up


def _page(answer, client):
    return client.get(answer.url).content.decode()


def test_a_taken_address_and_a_free_one_get_the_same_pages(client, alice, sent):
    taken = sent(client, username="carol", email="alice@example.com")
    taken_page = _page(taken, client)
    client.logout()
    free = sent(client, username="dave", email="dave@example.com")
    free_page = _page(free, client)
    assert taken.status_code == free.status_code == 302
    assert taken.url == free.url

    def same(page, name, email):
        assert "on its way" in page and email in page
        page = re.sub(r"[A-Za-z0-9]{64}", "TOKEN", page)  # the CSRF tokens
        return page.replace(email, "EMAIL").replace(name, "NAME")

    assert same(taken_page, "carol", "alice@example.com") \
        == same(free_page, "dave", "dave@example.com")


def test_the_owner_is_told_and_no_link_goes_anywhere(client, alice, sent):
    sent(client, username="carol", email="Alice@Example.com")
    (notice,) = mail.outbox
    assert notice.to == ["alice@example.com"]
    assert "tried to create a new Dalmuti account" in notice.body
    assert "“alice”" in notice.body and "/accounts/password/reset/" in notice.body
    assert not LINK.search(notice.body)
    carol = User.objects.get(username="carol")
    assert not carol.email_verified
    assert OutgoingEmail.objects.get().user == alice


def test_the_owner_is_told_once_a_day_however_many_try(client, alice, sent):
    for n in range(3):
        sent(client, username=f"probe{n}", email="alice@example.com")
        client.logout()
    assert len(mail.outbox) == 1


def test_a_new_address_gets_its_link_through_the_outbox(client, sent):
    sent(client)
    (message,) = mail.outbox
    assert message.to == ["carol@example.com"]
    email = OutgoingEmail.objects.get()
    assert email.status == email.Status.SENT and email.text == ""
    client.get(LINK.search(message.body).group(1))
    assert User.objects.get(username="carol").email_verified


def test_an_address_squatted_by_an_unconfirmed_account_can_still_be_claimed(client, sent):
    sent(client, username="squatter", email="carol@example.com")
    client.logout()
    sent(client, username="carol", email="carol@example.com")
    links = [LINK.search(m.body).group(1) for m in mail.outbox]
    assert len(links) == 2
    client.get(links[1])
    assert User.objects.get(username="carol").email_verified
    # The first to confirm owns the address; the other link confirms nothing now.
    answer = client.get(links[0])
    assert answer.status_code == 400
    assert not User.objects.get(username="squatter").email_verified


def test_a_profile_change_to_a_taken_address_tells_nothing_either(client, alice, bob, sent):
    client.force_login(bob)
    answer = client.post("/accounts/profile/", {
        "display_name": "Bob", "email": "alice@example.com", "notify": "every_turn",
        "notify_by": "both", "language": ""}, follow=True)
    assert "already exists" not in answer.content.decode()
    assert "alice@example.com" in answer.content.decode()


def test_only_the_usernames_answer_counts_and_a_password_typo_does_not(client, alice, settings):
    settings.SIGNUP_ATTEMPT_LIMIT = 2
    for _ in range(5):
        typo = _form()
        typo["password2"] = "something else entirely"
        assert client.post("/accounts/signup/", typo).status_code == 400
    assert client.post("/accounts/signup/", _form()).status_code == 302


def test_one_browser_probing_does_not_block_the_others_behind_its_address(
    client, alice, settings,
):
    settings.SIGNUP_ATTEMPT_LIMIT = 2
    client.cookies["csrftoken"] = "p" * 32
    for _ in range(2):
        client.post("/accounts/signup/", _form(username="alice"))
    assert client.post("/accounts/signup/", _form(username="alice")).status_code == 429
    # A colleague behind the same address, in another browser.
    client.cookies["csrftoken"] = "c" * 32
    assert client.post("/accounts/signup/", _form()).status_code == 302


def test_a_client_throwing_its_cookies_away_meets_the_addresss_own_limit(
    client, alice, settings,
):
    settings.SIGNUP_ADDRESS_LIMIT = 4
    for n in range(4):
        client.cookies["csrftoken"] = f"{n}" * 32
        client.post("/accounts/signup/", _form(username="alice"))
    client.cookies["csrftoken"] = "f" * 32
    assert client.post("/accounts/signup/", _form(username="alice")).status_code == 429
    other = {"REMOTE_ADDR": "203.0.113.77"}
    assert client.post("/accounts/signup/", _form(), **other).status_code == 302


def test_resending_the_link_is_limited(client, sent):
    sent(client)
    for _ in range(3):
        assert client.post("/accounts/resend-confirmation/").status_code == 302
    answer = client.post("/accounts/resend-confirmation/")
    assert answer.status_code == 429 and "Retry-After" in answer.headers
    assert "several times already" in answer.content.decode()
    assert OutgoingEmail.objects.filter(kind="confirm").count() == 4


def test_the_outbox_retries_a_failed_send_later(alice, settings, time_machine):
    from django.utils import timezone

    settings.EMAIL_BACKEND = "tests.accounts.test_signup_tells_nothing.RefusingBackend"
    time_machine.move_to(timezone.now(), tick=False)
    email = OutgoingEmail.objects.create(user=alice, kind="confirm", to="a@example.com",
                                         subject="s", text="t")
    assert outbox.deliver(email.pk) == "failed"
    email.refresh_from_db()
    assert email.status == email.Status.PENDING and email.attempts == 1
    assert outbox.due_ids() == []
    time_machine.shift(31)
    assert outbox.due_ids() == [email.pk]
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert outbox.deliver(email.pk) == "sent"
    assert outbox.deliver(email.pk) == "not pending"
    assert len(mail.outbox) == 1


class RefusingBackend:
    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        import smtplib

        raise smtplib.SMTPRecipientsRefused({"a@example.com": (451, b"try later")})


def test_the_admin_lists_the_outbox_without_the_bodies(admin_client, alice):
    email = OutgoingEmail.objects.create(user=alice, kind="password_reset", to="a@example.com",
                                         subject="Reset", text="SECRET-LINK")
    listing = admin_client.get("/admin/accounts/outgoingemail/")
    assert listing.status_code == 200 and "a@example.com" in listing.content.decode()
    page = admin_client.get(f"/admin/accounts/outgoingemail/{email.pk}/change/")
    assert page.status_code == 200 and "SECRET-LINK" not in page.content.decode()
