"""Friends over days, between rounds: the host invites into a game in progress (the link
and the form on the game page, never for the other players), invitees' addresses are
the host's business only, an invitation goes once its person sits down; a nudge on a
short clock; each player's language reaches their emails and pushes; daily-summary
players are reminded when no summary would tell them in time; unsubscribing from email
leaves push alone; an unconfirmed address is said where the player looks."""

import zoneinfo
from datetime import datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from games import commands
from games.away import emails
from games.away.emails import unsubscribe_url
from games.commands import notifications
from games.models import Invitation, Notification, TurnLimit
from push import sender as push_sender
from push.models import PushSubscription
from tests.helpers import start_table, waiting_humans

pytestmark = pytest.mark.django_db

AMSTERDAM = zoneinfo.ZoneInfo("Europe/Amsterdam")


def _deliver_due():
    return [emails.deliver(pk) for pk in notifications.due_ids()]


def _invite(client, game, who):
    return client.post(f"/t/{game.pk}/invite/", {"who": who}, follow=True)


# -- inviting into a game in progress; the form is the host's --

def test_the_host_invites_by_link_name_and_address_between_rounds(
    client, game, alice, make_user, django_capture_on_commit_callbacks, eager_tasks,
):
    dora = make_user("dora", language="de")
    alice.language = "nl"
    alice.save()
    client.force_login(alice)
    panel = client.get(f"/t/{game.pk}/invite-panel/").content.decode()
    assert f"/join/{game.invite_token}/" in panel
    assert f'action="/t/{game.pk}/invite/"' in panel

    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        answer = _invite(client, game, "carol@example.org")
        _invite(client, game, "dora")
    assert "Uitnodiging verstuurd." in answer.content.decode()
    assert set(Invitation.objects.values_list("email", "user__username")) == {
        ("carol@example.org", None), ("", "dora")}
    by_address = {m.to[0]: m for m in mail.outbox}
    # The stranger's email in the inviter's language, the player's in her own.
    assert by_address["carol@example.org"].subject == (
        "Een uitnodiging om De Grote Dalmuti te spelen")
    assert by_address[dora.email].subject == (
        "„Alice“ lädt dich zu einer Partie „Der Große Dalmuti“ am Tisch „Test table“ ein")
    assert f"/join/{game.invite_token}/" in by_address[dora.email].body
    assert "Die Partie hat schon begonnen" in by_address[dora.email].body
    assert "Het spel is al begonnen" in by_address["carol@example.org"].body

    # Dora follows the link and takes a seat from the next round: her invitation goes.
    client.force_login(dora)
    client.post(f"/join/{game.invite_token}/")
    assert game.seats.filter(user=dora, joining=True).exists()
    assert not Invitation.objects.filter(user=dora).exists()


def test_nobody_is_invited_into_the_last_round(client, alice, bob):
    game = start_table(alice, [bob], bots=2, options={"rounds": 1})
    client.force_login(alice)
    for url in (f"/t/{game.pk}/?invite=1", f"/t/{game.pk}/invite-panel/"):
        assert f'action="/t/{game.pk}/invite/"' not in client.get(url).content.decode()
    answer = _invite(client, game, "carol@example.org")
    assert "last round" in answer.content.decode()
    assert not Invitation.objects.exists()


def test_nobody_is_invited_to_a_full_table(client, alice, bob, make_user):
    friends = [make_user(f"friend{i}") for i in range(8)]
    game = start_table(alice, [bob, *friends])
    client.force_login(alice)
    for url in (f"/t/{game.pk}/?invite=1", f"/t/{game.pk}/invite-panel/"):
        assert f'action="/t/{game.pk}/invite/"' not in client.get(url).content.decode()
    answer = _invite(client, game, "carol@example.org")
    assert "The table is full: 10 players." in answer.content.decode()
    assert not Invitation.objects.exists()


def test_other_players_see_no_invite_form_and_cannot_post_one(client, game, alice, bob):
    lobby = commands.create_table(alice, "Friday", 6, {"rounds": 1})
    commands.join(lobby.pk, bob)
    client.force_login(bob)
    for table in (game, lobby):
        for url in (f"/t/{table.pk}/?invite=1", f"/t/{table.pk}/invite-panel/"):
            assert f'action="/t/{table.pk}/invite/"' not in client.get(url).content.decode()
        answer = client.post(f"/t/{table.pk}/invite/", {"who": "someone@example.com"})
        assert answer.status_code == 403
    assert not Invitation.objects.exists() and mail.outbox == []


def test_only_the_host_sees_the_invitees_addresses(
    client, alice, bob, make_user, django_capture_on_commit_callbacks, eager_tasks,
):
    carol = make_user("carol")
    User.objects.filter(pk=carol.pk).update(email="carol@example.org")
    lobby = commands.create_table(alice, "Friday", 6, {"rounds": 1})
    commands.join(lobby.pk, bob)
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        _invite(client, lobby, "carol@example.org")
        _invite(client, lobby, "frank@example.org")
    host_page = client.get(f"/t/{lobby.pk}/").content.decode()
    assert "carol@example.org" in host_page and "frank@example.org" in host_page

    client.force_login(bob)
    page = client.get(f"/t/{lobby.pk}/").content.decode()
    assert "@example.org" not in page
    assert "2 invitations pending" in page
    dutch = client.get(f"/t/{lobby.pk}/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "2 uitnodigingen staan open" in dutch

    # Carol signs up with the invited address and takes her seat: she is no longer listed.
    client.force_login(carol)
    client.post(f"/join/{lobby.invite_token}/")
    client.force_login(alice)
    host_page = client.get(f"/t/{lobby.pk}/").content.decode()
    assert "carol@example.org" not in host_page and "frank@example.org" in host_page
    client.force_login(bob)
    page = client.get(f"/t/{lobby.pk}/").content.decode()
    assert "1 invitation pending" in page
    dutch = client.get(f"/t/{lobby.pk}/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "1 uitnodiging staat open" in dutch


def test_joining_a_game_in_progress_answers_the_invitation_by_address(
    client, game, alice, make_user, django_capture_on_commit_callbacks, eager_tasks,
):
    # She signed up from the invitation email and has not confirmed her address yet.
    erin = make_user("erin", email_verified=False)
    User.objects.filter(pk=erin.pk).update(email="erin@example.org")
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        _invite(client, game, "erin@example.org")
    client.force_login(erin)
    client.post(f"/join/{game.invite_token}/")
    assert not Invitation.objects.exists()


# -- the nudge on a short clock --

def test_on_a_one_hour_table_the_nudge_opens_at_half_an_hour(client, alice, bob, carol):
    game = start_table(alice, [bob, carol], bots=1, turn_limit=TurnLimit.HOUR)
    waiting = waiting_humans(game)[0]
    other = game.seats.exclude(pk=waiting.pk).exclude(user=None).first()
    client.force_login(other.user)
    started = timezone.now()
    with time_machine.travel(started + timedelta(minutes=29)):
        answer = client.post(f"/t/{game.pk}/nudge/", {"player": waiting.player},
                             follow=True).content.decode()
        assert "once their turn has lasted 30 minutes" in answer
        assert not Notification.objects.filter(kind="nudge").exists()
    with time_machine.travel(started + timedelta(minutes=31)):
        page = client.get(f"/t/{game.pk}/").content.decode()
        assert f"Nudge {waiting.name}" in page
        client.post(f"/t/{game.pk}/nudge/", {"player": waiting.player})
        assert Notification.objects.filter(kind="nudge", user=waiting.user).exists()


# -- the language of the last page reaches emails and pushes --

def test_the_browsers_language_is_kept_and_used_for_emails_and_pushes(client, alice, bob):
    assert bob.language == ""
    client.force_login(bob)
    client.get("/", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
    bob.refresh_from_db()
    assert bob.page_language == "de"
    # Only a change is written.
    with CaptureQueriesContext(connection) as queries:
        client.get("/", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
    assert not [q for q in queries.captured_queries
                if q["sql"].startswith("UPDATE") and "accounts_user" in q["sql"]]

    game = start_table(alice, [bob], bots=2, name="Freitag")
    bob_seat = game.seats.get(user=bob)
    key = f"turn:{game.pk}:x:{bob_seat.player}"
    note = Notification(user=User.objects.get(pk=bob.pk), game=game, kind="turn", key=key)
    with time_machine.travel(timezone.now()):
        mail.outbox.clear()
        emails.send_notification(note)
    message = mail.outbox[0]
    assert message.subject in ("Du bist dran: „Freitag“",
                               "Eine Entscheidung wartet auf dich: „Freitag“")
    assert "Hallo Bob" in message.body
    assert push_sender.message(note)["title"] == message.subject

    # French pages now: the next email is French.
    client.get("/", HTTP_ACCEPT_LANGUAGE="fr")
    note.user = User.objects.get(pk=bob.pk)
    mail.outbox.clear()
    emails.send_notification(note)
    assert "Freitag" in mail.outbox[0].subject
    assert mail.outbox[0].subject.startswith(("À vous de jouer", "Une décision"))


def test_logging_in_keeps_the_language_of_the_login_page(client, bob):
    from tests.helpers import PASSWORD

    client.post("/accounts/login/", {"username": "bob", "password": PASSWORD},
                HTTP_ACCEPT_LANGUAGE="nl")
    bob.refresh_from_db()
    assert bob.page_language == "nl"


def test_a_language_chosen_in_the_profile_wins_over_the_browser(client, bob):
    bob.language = "nl"
    bob.save()
    client.force_login(bob)
    client.get("/", HTTP_ACCEPT_LANGUAGE="de")
    bob.refresh_from_db()
    assert bob.reading_language == "nl"


# -- daily summaries and reminders --

def _daily_table(alice, bob, carol, at):
    for user in (alice, bob, carol):
        user.notify = user.Notify.DAILY
        user.save()
    with time_machine.travel(at, tick=False):
        game = start_table(alice, [bob, carol], bots=1, turn_limit=TurnLimit.DAY)
        _deliver_due()  # the game's start, which daily players hear of too
    return game, waiting_humans(game)[0]


def test_a_daily_player_is_reminded_when_no_summary_comes_in_time(alice, bob, carol):
    # The turn starts just after the summary hour: the next summary would come five
    # minutes before the time runs out.
    start = datetime(2026, 11, 24, 8, 5, tzinfo=AMSTERDAM)
    game, waiting = _daily_table(alice, bob, carol, start)
    reminder = Notification.objects.get(user=waiting.user, kind="reminder")
    assert reminder.due == start + timedelta(hours=18)
    with time_machine.travel(reminder.due + timedelta(seconds=1), tick=False):
        mail.outbox.clear()
        assert "sent" in _deliver_due()
        assert [m.subject for m in mail.outbox if m.to == [waiting.user.email]] == [
            "Reminder: “Test table” is waiting for you"]


def test_a_daily_player_whose_summary_comes_in_time_gets_no_reminder(alice, bob, carol):
    start = datetime(2026, 11, 24, 20, 0, tzinfo=AMSTERDAM)
    game, waiting = _daily_table(alice, bob, carol, start)
    assert not Notification.objects.filter(user=waiting.user, kind="reminder").exists()


def test_the_profile_says_when_the_summary_comes(client, bob, settings):
    settings.DAILY_SUMMARY_HOUR = 8
    bob.time_zone = "America/New_York"
    bob.save()
    client.force_login(bob)
    page = client.get("/accounts/profile/").content.decode()
    # The zone by its city, as a person names it ("America/New_York" is the list's).
    assert "The daily summary comes at 8 a.m. (New York time)" in page
    dutch = client.get("/accounts/profile/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "De dagelijkse samenvatting komt om 08:00 (tijd New York)" in dutch


# -- unsubscribing from email leaves push alone --

def test_unsubscribing_from_email_leaves_push_as_it_was(client, alice, bob):
    PushSubscription.objects.create(user=bob, endpoint="https://push.example/bob",
                                    p256dh="k", auth="a")
    token = unsubscribe_url(bob).rsplit("/", 2)[-2]
    page = client.get(f"/unsubscribe/{token}/").content.decode()
    assert "Notifications on your devices stay as they are" in page
    page = client.post(f"/unsubscribe/{token}/").content.decode()
    assert "Notifications on your devices stay as they are" in page
    bob.refresh_from_db()
    assert bob.notify == bob.Notify.EVERY_TURN
    assert notifications.channels_for(bob) == [Notification.Channel.PUSH]

    # The next turn reaches his devices, not his mailbox; nor does an invitation.
    game = start_table(alice, [bob], bots=2)
    made = Notification.objects.filter(user=bob)
    assert made.exists() and set(made.values_list("channel", flat=True)) == {"push"}
    table = commands.create_table(alice, "Next", 5, {"rounds": 1})
    invitation, _new = commands.invite(table, alice, user=bob)
    mail.outbox.clear()
    emails.send_invitation(invitation.pk)
    assert mail.outbox == []
    assert game


def test_unsubscribing_with_email_only_stops_everything_it_sent(client, bob):
    bob.notify_by = bob.Channel.EMAIL
    bob.save()
    token = unsubscribe_url(bob).rsplit("/", 2)[-2]
    client.post(f"/unsubscribe/{token}/", HTTP_ACCEPT_LANGUAGE="de")
    bob.refresh_from_db()
    # Push was off already: nothing else changes.
    assert bob.notify == bob.Notify.NEVER and bob.notify_by == bob.Channel.EMAIL
    assert notifications.channels_for(bob) == [Notification.Channel.EMAIL]


@pytest.mark.parametrize("chosen, page_language", [("de", ""), ("", "fr")])
def test_the_unsubscribe_page_speaks_the_language_of_the_email(client, bob, chosen,
                                                                page_language):
    """The link comes from an email in the player's language (their profile's, else their
    pages'): the page it opens speaks it too, whatever the browser that opens it says."""
    bob.language, bob.page_language = chosen, page_language
    bob.save()
    # A device switched on: the page says it stays so (without one: that nothing would).
    PushSubscription.objects.create(user=bob, endpoint="https://push.example.com/bob",
                                    p256dh="k", auth="a")
    token = unsubscribe_url(bob).rsplit("/", 2)[-2]
    words = {"de": "Benachrichtigungen auf deinen Geräten", "fr": "Les notifications sur vos"}
    expected = words[chosen or page_language]
    for accept in ("", "nl"):
        page = client.get(f"/unsubscribe/{token}/", HTTP_ACCEPT_LANGUAGE=accept)
        assert expected in page.content.decode(), accept
        assert page["Content-Language"] == (chosen or page_language)
    answer = client.post(f"/unsubscribe/{token}/", HTTP_ACCEPT_LANGUAGE="nl")
    assert expected in answer.content.decode()


# -- an unconfirmed address, said where the player looks --

def test_an_unconfirmed_address_is_said_on_the_table_and_my_games_with_a_resend(
    client, alice, make_user, settings, after_commit,
):
    settings.RESEND_CONFIRMATION_LIMIT = 3
    fred = make_user("fred", email_verified=False, language="nl")
    game = start_table(alice, [fred], bots=2)
    client.force_login(fred)
    for url in (f"/t/{game.pk}/", "/"):
        page = client.get(url).content.decode()
        assert "fred@example.com is nog niet bevestigd" in page, url
        assert 'action="/accounts/resend-confirmation/"' in page
    mail.outbox.clear()
    with after_commit():
        answer = client.post("/accounts/resend-confirmation/", {"next": f"/t/{game.pk}/"})
    assert answer.status_code == 302 and answer.url == f"/t/{game.pk}/"
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["fred@example.com"]
    assert mail.outbox[0].subject == "Bevestig je e-mailadres voor De Grote Dalmuti"
    for _ in range(2):
        with after_commit():
            client.post("/accounts/resend-confirmation/", {"next": "/"})
    with after_commit():
        refused = client.post("/accounts/resend-confirmation/", {"next": "/"})
    assert refused.status_code == 429
    assert len(mail.outbox) == 3

    # A confirmed player sees nothing of it.
    client.force_login(alice)
    assert "nicht bestätigt" not in client.get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'action="/accounts/resend-confirmation/"' not in client.get("/").content.decode()


def test_the_confirmation_is_resent_in_english_too(client, make_user, after_commit):
    gus = make_user("gus", email_verified=False)
    client.force_login(gus)
    assert "gus@example.com is not confirmed yet" in client.get("/").content.decode()
    with after_commit():
        client.post("/accounts/resend-confirmation/")
    assert mail.outbox[-1].subject == "Confirm your email address for The Great Dalmuti"
