"""A friend the host takes off a table before its start is told, by the channels they
chose and in their language; their link to the table says what happened (not "page not
found"), the table's own link seats them again only once the host invites them again,
and nothing of theirs reaches the table."""

from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.core import mail
from django.utils import timezone

from games import commands
from games.models import Notification, Removal
from push import sender as push_sender
from tests.helpers import deliver_due, make_user

pytestmark = pytest.mark.django_db

SAID = {
    "en": "Alice took you off this table.",
    "nl": "Alice heeft je van deze tafel gehaald.",
    "de": "Alice hat dich von diesem Tisch genommen.",
    "fr": "Alice vous a retiré votre place à cette table.",
}


TOLD = {
    "en": ("Alice took you off “Friday”", "ask them to invite you again",
           "because you had a seat at this table"),
    "nl": ("Alice heeft je van “Friday” gehaald", "vraag dan om een nieuwe uitnodiging",
           "omdat je een plaats aan deze tafel had"),
    "de": ("Alice hat dich vom Tisch „Friday“ genommen", "bitte um eine neue Einladung",
           "weil du einen Platz an diesem Tisch hattest"),
    "fr": ("Alice vous a retiré votre place à la table «\u00a0Friday\u00a0»",
           "demandez une nouvelle invitation",
           "parce que vous aviez une place à cette table"),
}


def _taken_off(client, alice, language="en", **carol_extra):
    carol = make_user("carol-t", language=language, **carol_extra)
    game = commands.create_table(alice, "Friday", 5, {"rounds": 3})
    commands.join(game.pk, make_user("bob-t"))
    seat = commands.join(game.pk, carol)
    client.force_login(alice)
    assert client.post(f"/t/{game.pk}/seats/{seat.pk}/remove/").status_code == 302
    client.force_login(carol)
    return game, carol


@pytest.mark.parametrize("language", sorted(SAID))
def test_the_tables_link_tells_them_the_host_took_them_off(client, alice, language):
    game, _carol = _taken_off(client, alice, language)
    page = client.get(f"/t/{game.pk}/")
    assert page.status_code == 410
    text = page.content.decode()
    assert SAID[language] in text
    assert 'href="/"' in text  # their way out: My games
    # Nothing of the table beyond its name and host: no seats, no talk.
    assert "bob-t" not in text


def test_the_tables_own_link_seats_them_again_only_once_invited(client, alice):
    game, carol = _taken_off(client, alice)
    join = f"/join/{game.invite_token}/"
    page = client.get(join).content.decode()
    assert "ask them to invite you again" in page and "Take a seat" not in page
    refused = client.post(join)
    assert refused.status_code == 403
    assert "ask them to invite you again" in refused.content.decode()
    assert not game.seats.filter(user=carol).exists()
    commands.invite(game, alice, user=carol)
    assert "Take a seat" in client.get(join).content.decode()
    assert client.post(join).status_code == 302
    assert game.seats.filter(user=carol).exists()
    assert not Removal.objects.filter(game=game, user=carol).exists()
    assert client.get(f"/t/{game.pk}/").status_code == 200


def test_after_the_start_they_learn_it_started_without_them_and_cannot_join(client, alice):
    game, carol = _taken_off(client, alice)
    for _ in range(2):
        commands.add_bot(game.pk, "basic")
    commands.start(game.pk)
    page = client.get(f"/t/{game.pk}/")
    assert page.status_code == 410
    assert "The game started without you." in page.content.decode()
    # A next round is still to come, but the link does not seat her for it.
    refused = client.post(f"/join/{game.invite_token}/")
    assert refused.status_code == 403
    assert "ask them to invite you again" in refused.content.decode()
    assert not game.seats.filter(user=carol).exists()


def test_their_open_page_reloads_and_a_form_sent_from_it_changes_nothing(client, alice):
    game, carol = _taken_off(client, alice)
    htmx = {"HX-Request": "true"}
    poll = client.get(f"/t/{game.pk}/poll/?lobby=1&u=1", headers=htmx)
    assert poll.status_code == 204 and poll.headers["HX-Refresh"] == "true"
    talk = client.post(f"/t/{game.pk}/chat/post/", {"text": "still here?"}, headers=htmx)
    assert talk.status_code == 410 and talk.headers["HX-Refresh"] == "true"
    assert "The host took you off this table." in talk.content.decode()
    assert not game.chat_messages.exists()
    assert game.seats.count() == 2


def test_who_leaves_by_their_own_choice_or_never_sat_there_hears_nothing(client, alice, bob):
    game = commands.create_table(alice, "Friday", 5, {"rounds": 1})
    commands.join(game.pk, bob)
    seat = commands.add_bot(game.pk, "basic")
    client.force_login(alice)
    client.post(f"/t/{game.pk}/seats/{seat.pk}/remove/")
    client.force_login(bob)
    assert client.post(f"/t/{game.pk}/leave-lobby/").status_code == 302
    assert not Removal.objects.exists()
    assert not Notification.objects.filter(kind=Notification.Kind.REMOVED).exists()
    assert client.get(f"/t/{game.pk}/").status_code == 404
    # Leaving was theirs to undo: the link seats them again.
    assert client.post(f"/join/{game.invite_token}/").status_code == 302
    assert game.seats.filter(user=bob).exists()
    client.force_login(make_user("mallory-t"))
    assert client.get(f"/t/{game.pk}/").status_code == 404


def _after_the_grace():
    return time_machine.travel(
        timezone.now() + timedelta(seconds=settings.NOTIFY_GRACE_SECONDS + 1), tick=False)


@pytest.mark.parametrize("language", sorted(TOLD))
def test_they_are_emailed_in_their_language_once_the_grace_has_passed(client, alice,
                                                                     language):
    mail.outbox.clear()
    _taken_off(client, alice, language)
    deliver_due()
    assert not mail.outbox  # the host may still change their mind
    with _after_the_grace():
        deliver_due()
    [email] = mail.outbox
    subject, advice, why = TOLD[language]
    assert email.to == ["carol-t@example.com"]
    assert email.subject == subject
    for said in (advice, why):  # no longer "because you play at this table"
        assert said in email.body and said in email.alternatives[0][0]


def test_the_push_and_the_own_channel_say_it_too(client, alice):
    game, carol = _taken_off(client, alice)
    notification = Notification.objects.get(user=carol, kind=Notification.Kind.REMOVED,
                                            channel=Notification.Channel.EMAIL)
    message = push_sender.message(notification)
    assert message["title"] == "Alice took you off “Friday”"
    assert message["body"] == "To sit at it again, ask them to invite you again."
    assert message["url"] == f"/t/{game.pk}/"


def test_a_host_who_invites_them_again_at_once_tells_them_nothing(client, alice):
    game, carol = _taken_off(client, alice)
    commands.invite(game, alice, user=carol)
    with _after_the_grace():
        deliver_due()
    assert not [m for m in mail.outbox if "took you off" in m.subject]
    notice = Notification.objects.get(user=carol, kind=Notification.Kind.REMOVED)
    assert (notice.status, notice.note) == (Notification.Status.SKIPPED, "withdrawn")


def test_a_player_who_wants_no_notices_is_not_told(client, alice):
    _game, carol = _taken_off(client, alice, notify="never")
    assert not Notification.objects.filter(user=carol).exists()
