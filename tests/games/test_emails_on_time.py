"""Emails on time without a broker, and only to who needs them: the in-process sweep
rides on the open pages' polls; invitations speak the recipient's language (else the
inviter's) with the usual HTML part and unsubscribe footer; nobody who saw a game start
is emailed that it started."""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from games import commands, tasks
from games.models import Game, Notification
from tests.helpers import make_user, start_table, waiting_humans

pytestmark = pytest.mark.django_db

# The subject of Hugo's invitation to a table, named in the braces.
FRENCH = "«\u00a0Hugo\u00a0» vous invite à une partie du Grand Dalmuti à la table «\u00a0{}\u00a0»"
GERMAN = "„Hugo“ lädt dich zu einer Partie „Der Große Dalmuti“ am Tisch „{}“ ein"


@pytest.fixture
def friends(db):
    return [make_user(name) for name in ("ana", "ben", "cas", "dia")]


@pytest.fixture
def without_broker(settings, eager_tasks):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.SWEEP_SECONDS = 60
    settings.NOTIFY_GRACE_SECONDS = 120
    settings.GAME_POLL_SECONDS = 3


def test_without_a_broker_polls_alone_write_the_turn_email_within_the_grace_period(
    client, friends, without_broker, settings, django_capture_on_commit_callbacks,
):
    """The waiting player has no page open; the others' pages only poll (every few
    seconds, as htmx does); nobody loads a page. The email is written once the grace
    period is over, and no later than one sweep interval after it."""
    began = timezone.now()
    with time_machine.travel(began, tick=False) as clock:
        game = start_table(friends[0], friends[1:])
        mail.outbox.clear()
        waiting = {s.user.email for s in waiting_humans(game)}
        others = [s.user for s in game.seats.select_related("user")
                  if s.user.email not in waiting]
        assert waiting and others
        # Whatever an earlier request in this process did, the next poll may sweep.
        tasks._last_sweep_in_process = float("-inf")
        written = {}
        step = settings.GAME_POLL_SECONDS
        for _ in range((settings.NOTIFY_GRACE_SECONDS + 2 * settings.SWEEP_SECONDS) // step):
            clock.shift(step)
            for user in others:
                client.force_login(user)
                with django_capture_on_commit_callbacks(execute=True):
                    answer = client.get(f"/t/{game.pk}/poll/?v={game.version}&me=x")
                assert answer.status_code == 204  # nothing changed at the table
            for message in mail.outbox:
                if "has started" not in message.subject:  # that one leaves at once
                    written.setdefault(message.to[0], timezone.now() - began)
    assert set(written) == waiting
    grace = timedelta(seconds=settings.NOTIFY_GRACE_SECONDS)
    for after in written.values():
        assert grace <= after <= grace + timedelta(seconds=settings.SWEEP_SECONDS + step)


def test_the_in_process_sweep_runs_at_most_once_a_sweep_interval(
    friends, without_broker, monkeypatch, django_capture_on_commit_callbacks,
):
    swept = []
    real_sweep = tasks.sweep.run
    monkeypatch.setattr(tasks.sweep, "run", lambda: swept.append(timezone.now()) or real_sweep())
    with time_machine.travel(timezone.now(), tick=False) as clock:
        tasks._last_sweep_in_process = float("-inf")
        for _ in range(40):  # two minutes of polls every 3 s
            with django_capture_on_commit_callbacks(execute=True):
                tasks.sweep_in_process()
            clock.shift(3)
        # A clock set back does not hold the sweep off for the time it went back.
        clock.shift(-3600)
        with django_capture_on_commit_callbacks(execute=True):
            tasks.sweep_in_process()
    assert len(swept) == 3
    assert swept[1] - swept[0] == timedelta(seconds=60)
    assert swept[2] < swept[1]


def test_with_a_broker_requests_leave_the_sweep_to_beat(settings, friends):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    tasks._last_sweep_in_process = float("-inf")
    tasks.sweep_in_process()
    assert tasks._last_sweep_in_process == float("-inf")


# -- the start --

def test_nobody_who_was_looking_at_the_table_is_emailed_that_it_started(client, friends):
    ana, ben, cas, dia = friends
    game = commands.create_table(ana, "Tonight", 4, {"rounds": 2})
    for friend in (ben, cas, dia):
        commands.join(game.pk, friend)
    opened = timezone.now()
    # Ben has the table's page open: its poll asks every few seconds.
    client.force_login(ben)
    game.refresh_from_db()
    answer = client.get(f"/t/{game.pk}/poll/?lobby=1&u={game.updated.timestamp()}")
    assert answer.status_code == 204
    # Cas looked at it an hour ago and left.
    with time_machine.travel(opened - timedelta(hours=1), tick=False):
        client.force_login(cas)
        client.get(f"/t/{game.pk}/")
    # Ana presses Start.
    client.force_login(ana)
    client.post(f"/t/{game.pk}/start/")
    assert Game.objects.get(pk=game.pk).is_playing
    told = set(Notification.objects.filter(game=game, kind="started")
               .values_list("user__username", flat=True))
    assert told == {"cas", "dia"}


def test_the_table_page_itself_counts_as_looking(client, friends):
    ana, ben, cas, dia = friends
    game = commands.create_table(ana, "Tonight", 4, {"rounds": 2})
    for friend in (ben, cas, dia):
        commands.join(game.pk, friend)
    client.force_login(dia)
    assert client.get(f"/t/{game.pk}/").status_code == 200
    commands.start(game.pk, started_by=ana)
    told = set(Notification.objects.filter(game=game, kind="started")
               .values_list("user__username", flat=True))
    assert told == {"ben", "cas"}


# -- invitations --

def _invite_from_the_web(client, host, game, **data):
    client.force_login(host)
    return client.post(f"/t/{game.pk}/invite/", data, follow=True)


def test_an_invitation_to_a_player_without_a_language_speaks_the_inviters(
    client, friends, without_broker, django_capture_on_commit_callbacks,
):
    host = make_user("hugo", language="fr")
    guest = make_user("gwen")  # no language chosen: the host's it is
    german = make_user("greta", language="de")
    game = commands.create_table(host, "La table", 5, {"rounds": 3})
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _invite_from_the_web(client, host, game, who="gwen")
        _invite_from_the_web(client, host, game, who="greta")
    by_address = {m.to[0]: m for m in mail.outbox}
    french, in_german = by_address[guest.email], by_address[german.email]
    assert french.subject == FRENCH.format("La table")
    assert in_german.subject == GERMAN.format("La table")
    for message in (french, in_german):
        html, kind = message.alternatives[0]
        assert kind == "text/html" and "hugo" in html.lower()
        # The same footer as the game emails: an unsubscribe link in both parts and the
        # one-click header.
        assert "/unsubscribe/" in message.body and "/unsubscribe/" in html
        assert message.extra_headers["List-Unsubscribe"].startswith("<http")


def test_a_rematch_invites_in_the_hosts_language_those_without_one(friends):
    from games.away.emails import send_invitation

    host = make_user("hugo", language="de")
    guest = make_user("gwen")
    game = commands.create_table(host, "Tisch", 5, {"rounds": 3})
    invitation = commands.invite_users(game, [guest], host)[0]
    assert invitation.language == "de"
    mail.outbox.clear()
    send_invitation(invitation.pk)
    assert mail.outbox[0].subject == GERMAN.format("Tisch")
