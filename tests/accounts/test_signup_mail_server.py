"""Signing up while the mail server refuses: the request still succeeds, the new player
is logged in and told the link is on its way, and the link arrives once the server
accepts again. A real SMTP server (aiosmtpd) on 127.0.0.1, started by the test."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.models import OutgoingEmail
from games.tasks import sweep
from tests.helpers import wait_for

PASSWORD = "a-long-and-unusual-passphrase"
LINK = re.compile(r"/accounts/confirm/[^\s]+/")


def _sign_up(client):
    return client.post("/accounts/signup/", {
        "username": "carol", "email": "carol@example.com",
        "password1": PASSWORD, "password2": PASSWORD,
    })


def _signed_up_and_told(client, answer):
    carol = get_user_model().objects.get(username="carol")
    assert answer.status_code == 302
    assert client.session["_auth_user_id"] == str(carol.pk)
    page = client.get(answer.url).content.decode()
    assert "on its way" in page and "carol@example.com" in page
    assert "Send the link again" in page


def _arrived(mail_server):
    return [m for to, m in mail_server.received if to == ["carol@example.com"]]


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_through_the_worker_a_refused_link_is_sent_again(client, mail_server, celery_worker):
    with time_machine.travel(timezone.now(), tick=True) as traveller:
        answer = _sign_up(client)
        _signed_up_and_told(client, answer)
        # The worker tried once and the server refused: the email waits for its retry.
        assert wait_for(lambda: mail_server.refused == 1 and OutgoingEmail.objects.filter(
            status="pending", attempts=1).exists())
        assert not _arrived(mail_server)
        traveller.shift(timedelta(seconds=31))
        sweep()  # the periodic sweep hands the due email to the worker again
        assert wait_for(lambda: OutgoingEmail.objects.filter(status="sent").exists())
    (message,) = _arrived(mail_server)
    assert LINK.search(message)
    email = OutgoingEmail.objects.get()
    assert email.status == "sent" and email.attempts == 2 and email.text == ""


@pytest.mark.django_db
def test_without_a_broker_a_refused_link_is_sent_again(
    client, mail_server, after_commit, time_machine,
):
    time_machine.move_to(timezone.now(), tick=False)
    with after_commit():
        answer = _sign_up(client)
    _signed_up_and_told(client, answer)
    assert mail_server.refused == 1 and not _arrived(mail_server)
    time_machine.shift(timedelta(seconds=31))
    with after_commit():
        sweep()
    (message,) = _arrived(mail_server)
    assert LINK.search(message)
