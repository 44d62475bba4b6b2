"""A newcomer waits for the next round; the game ends first (by agreement, at its target
score, for want of players). They are told, by the channels they chose and in their
language, and their link to the table says what happened (not "page not found"); the
site's copy of their data keeps it, and the table's players are told nothing new."""

from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.core import mail
from django.utils import timezone

from games import commands
from games.models import NeverDealtIn, Notification
from players.account_data import account_data
from push import sender as push_sender
from tests.helpers import deliver_due, make_user, play_out, start_table

pytestmark = pytest.mark.django_db

GRACE = timedelta(seconds=settings.NOTIFY_GRACE_SECONDS + 1)
SAID = {
    "en": "The game at this table ended before the round you were to join: you were never "
          "dealt in.",
    "fr": "La partie à cette table s’est terminée avant la manche où vous deviez entrer\u00a0: "
          "vous n’avez jamais reçu de cartes.",
}


def _ended_before_dana_was_dealt_in(alice, bob, language="en"):
    dana = make_user("dana", display_name="Dana", language=language)
    game = start_table(alice, [bob], bots=3, options={"rounds": None}, name="Friday")
    commands.join_in_progress(game.pk, dana)
    commands.end_after_this_round(game.pk, alice)
    game = play_out(game)
    assert game.is_over
    return game, dana


@pytest.mark.parametrize("language", sorted(SAID))
def test_the_tables_link_tells_the_newcomer_the_game_ended_first(client, alice, bob,
                                                                  language):
    game, dana = _ended_before_dana_was_dealt_in(alice, bob, language)
    client.force_login(dana)
    page = client.get(f"/t/{game.pk}/")
    assert page.status_code == 410
    text = page.content.decode()
    assert SAID[language] in text
    assert 'href="/"' in text  # their way out: My games
    # An open page's poll reloads it to show the same.
    polled = client.get(f"/t/{game.pk}/poll/?v=1", HTTP_HX_REQUEST="true")
    assert polled.headers.get("HX-Refresh") == "true"


def test_the_newcomer_is_told_by_email_and_push_once(alice, bob):
    game, dana = _ended_before_dana_was_dealt_in(alice, bob)
    assert NeverDealtIn.objects.filter(game=game, user=dana).count() == 1
    mail.outbox.clear()
    with time_machine.travel(timezone.now() + GRACE):
        deliver_due()
    [told] = [m for m in mail.outbox if m.to == [dana.verified_email]]
    assert told.subject == "“Friday” ended before your first round"
    assert "you were never dealt in" in told.body
    notice = Notification.objects.get(user=dana, kind=Notification.Kind.NEVER_DEALT_IN,
                                      channel="email")
    pushed = push_sender.message(notice)
    assert pushed["title"] == told.subject and pushed["url"] == "/"
    # Nothing about it reaches the players, whose game it was.
    assert not Notification.objects.filter(kind=Notification.Kind.NEVER_DEALT_IN,
                                           user__in=[alice, bob]).exists()


def test_a_newcomer_who_wants_no_emails_is_not_told_but_their_link_still_says_so(
        client, alice, bob):
    dana = make_user("dana", display_name="Dana")
    dana.notify = dana.Notify.NEVER
    dana.save()
    game = start_table(alice, [bob], bots=3, options={"rounds": None}, name="Friday")
    commands.join_in_progress(game.pk, dana)
    commands.end_after_this_round(game.pk, alice)
    game = play_out(game)
    assert not Notification.objects.filter(user=dana).exists()
    client.force_login(dana)
    assert client.get(f"/t/{game.pk}/").status_code == 410


def test_the_newcomers_data_keeps_the_table_they_never_sat_at(alice, bob):
    game, dana = _ended_before_dana_was_dealt_in(alice, bob)
    data = account_data(dana)
    assert [(t["table"], t["name"]) for t in data["tables_never_dealt_in"]] == [(game.pk, "Friday")]


def test_an_organiser_reads_who_waited_to_join_when_her_leagues_game_ended(client, alice,
                                                                           bob):
    """Her members ask "where did Dana go?": the table's page in the admin lists the
    newcomers the game ended before, with nothing there to change."""
    from django.urls import reverse

    from leagues.models import LeagueGame
    from tests.leagues.conftest import make_organiser
    from tests.leagues.helpers import make_league

    game, dana = _ended_before_dana_was_dealt_in(alice, bob)
    league = make_league("Fridays", "fridays", members=[alice, bob])
    olga = make_organiser("olga")
    league.organisers.add(olga)
    LeagueGame.objects.create(game=game, league=league)
    client.force_login(olga)
    page = client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    listed = page.split('id="never_dealt_in-group"')[1].split("</fieldset>")[0]
    assert "Newcomers the game ended before" in listed and ">Dana<" in listed
    assert 'name="never_dealt_in-0-user"' not in page
