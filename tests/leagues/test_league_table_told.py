"""A table an organiser opens for the league: its host is told it is theirs to start
(else it sits until it closes), and the friends invited read who invites them, for which
league and to whose table, not that a player they may not know saved them a seat."""

import pytest
from django.core import mail
from django.urls import reverse

from games import commands
from games.models import Notification
from leagues.services import create_league_table
from push.sender import message
from tests.helpers import deliver_due

from .helpers import make_league, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    olga = make_user("olga", display_name="Olga", is_staff=True)
    anna = make_user("anna", display_name="Anna")
    bert = make_user("bert", display_name="Bert", language="nl")
    cleo = make_user("cleo", display_name="Cleo")
    league = make_league(name="Friday Club", members=[anna, bert, cleo])
    return olga, anna, bert, cleo, league


def _mail_to(user):
    return [m for m in mail.outbox if m.to == [user.email]]


def test_the_host_of_a_table_an_organiser_opened_is_told_to_start_it(
        club, django_capture_on_commit_callbacks, eager_tasks):
    olga, anna, bert, cleo, league = club
    anna.language = "nl"
    anna.save()
    with django_capture_on_commit_callbacks(execute=True):
        game = create_league_table(league, anna, [bert, cleo], "Speelavond", bots=1,
                                   invited_by=olga)
    deliver_due()
    (told,) = _mail_to(anna)
    assert told.subject == "Olga heeft “Speelavond” voor je geopend"
    html = told.alternatives[0][0]
    for text in (told.body, html):
        assert "Friday Club" in text and "Speelavond" in text
        assert reverse("game", args=[game.pk]) in text
        assert "start" in text
    assert "omdat je de gastheer van deze tafel bent" in told.body
    pushed = message(Notification.objects.get(user=anna, kind="hosting", channel="email"))
    assert pushed["title"] == "Olga heeft “Speelavond” voor je geopend"
    assert pushed["url"] == reverse("game", args=[game.pk])


def test_the_friends_invited_read_the_organiser_the_league_and_the_host(
        club, django_capture_on_commit_callbacks, eager_tasks):
    olga, anna, bert, cleo, league = club
    with django_capture_on_commit_callbacks(execute=True):
        create_league_table(league, anna, [bert, cleo], "Friday night", invited_by=olga)
    deliver_due()
    (invitation,) = _mail_to(cleo)
    # Who invites: the organiser, not the table's host.
    assert invitation.subject == ("“Olga” invites you to “Friday night”, a game of "
                                  "The Great Dalmuti")
    for text in (invitation.body, invitation.alternatives[0][0]):
        text = text.replace("&ldquo;", "“").replace("&rdquo;", "”").replace("&#x27;", "'")
        assert ("Olga, who runs the league “Friday Club”, has saved you a seat at Anna's "
                "table “Friday night”") in text
        assert "The player “Olga”" not in text
        assert "because an organiser of the league “Friday Club” invited you" in text
    (dutch,) = _mail_to(bert)
    assert "Olga, die de competitie “Friday Club” organiseert" in dutch.body


def test_a_host_who_opens_their_own_league_table_is_told_nothing_and_invites_as_a_player(
        club, django_capture_on_commit_callbacks, eager_tasks):
    _olga, anna, bert, cleo, league = club
    with django_capture_on_commit_callbacks(execute=True):
        create_league_table(league, anna, [bert, cleo], "Friday night")
    deliver_due()
    assert _mail_to(anna) == []
    assert not Notification.objects.filter(kind="hosting").exists()
    assert "“Anna” has saved you a seat" in _mail_to(cleo)[0].body
    assert "The player" not in _mail_to(cleo)[0].body


def test_a_table_started_or_closed_before_the_news_went_out_is_not_told(club):
    olga, anna, bert, cleo, league = club
    game = create_league_table(league, anna, [bert, cleo], "Friday night", bots=1,
                               invited_by=olga)
    commands.cancel_table(game.pk, anna)
    deliver_due()
    notice = Notification.objects.get(user=anna, kind="hosting")
    assert notice.status == "skipped" and _mail_to(anna) == []


def test_an_invitation_about_to_lapse_and_a_summary_say_why_they_come(club):
    """Their footers give their own reason, not "because you play at this table"."""
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    from games.commands import notifications
    from tests.helpers import start_table, waiting_humans

    olga, anna, bert, cleo, league = club
    create_league_table(league, anna, [bert, cleo], "Friday night", invited_by=olga)
    with time_machine.travel(timezone.now() + timedelta(days=13, hours=1)):
        commands.expire_invitations()
        deliver_due()
    (lapsing,) = [m for m in _mail_to(cleo) if "lapses" in m.subject]
    for text in (lapsing.body, lapsing.alternatives[0][0]):
        assert "because you were invited to this table" in text
        assert "because you play at this table" not in text
    dirk = make_user("dirk")
    game = start_table(dirk, [anna, bert, cleo])
    reader = waiting_humans(game)[0].user
    reader.notify = "daily"
    reader.save()
    mail.outbox.clear()
    eight = timezone.localtime().replace(hour=8, minute=5) + timedelta(days=1)
    with time_machine.travel(eight):
        assert notifications.for_daily_summaries() == 1
        deliver_due()
    (summary,) = [m for m in _mail_to(reader) if "waiting for you" in m.subject]
    for text in (summary.body, summary.alternatives[0][0]):
        assert "because you chose a daily summary of your games" in text
        assert "because you play at this table" not in text
