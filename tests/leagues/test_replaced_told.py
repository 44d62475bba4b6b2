"""A player an organiser replaces by a bot is told, by the channels they chose, with the
organiser's reason; and the table's link, their open page and every request of theirs to
the table say what happened instead of "no seat here"."""

import json

import pytest
from django.core import mail

from games.models import Notification
from leagues.models import LeagueGame
from leagues.services import replace_by_bot
from push import sender as push_sender
from tests.helpers import deliver_due
from tests.leagues.helpers import make_league, make_user, play_until, start_game

pytestmark = pytest.mark.django_db

SAID = {
    "en": ("A bot now plays your seat at “Friday table”", "from round 2",
           "Bob is away for weeks.", "still count in the standings of the league “Friday Club”"),
    "fr": ("Un bot joue désormais à votre place à la table «\u00a0Friday table\u00a0»",
           "à partir de la manche 2",
           "Bob is away for weeks.",
           "comptent toujours au classement de la ligue «\u00a0Friday Club\u00a0»"),
    "nl": ("Een bot speelt nu op jouw plaats bij “Friday table”", "vanaf ronde 2",
           "Bob is away for weeks.", "tellen nog mee in de stand van de competitie “Friday Club”"),
    "de": ("Ein Bot spielt jetzt auf deinem Platz bei „Friday table“", "ab Runde 2",
           "Bob is away for weeks.", "zählen weiter in der Wertung der Liga „Friday Club“"),
}


def _replaced(language="en", **bob_extra):
    alice = make_user("alice")
    bob = make_user("bob", language=language, **bob_extra)
    game = start_game(alice, [bob], bots=2, options={"rounds": 3}, name="Friday table")
    LeagueGame.objects.create(game=game, league=make_league(members=[alice, bob]))
    game = play_until(game, lambda g: g.round_number == 2)
    mail.outbox.clear()
    seat = game.seats.get(user=bob)
    replace_by_bot(game.pk, seat.pk, "basic", "Bob is away for weeks.")
    return game, bob


@pytest.mark.parametrize("language", sorted(SAID))
def test_the_replaced_player_is_emailed_in_their_language_with_the_reason(language):
    game, bob = _replaced(language)
    told = Notification.objects.filter(game=game, kind=Notification.Kind.REPLACED)
    assert list(told.values_list("user__username", flat=True)) == ["bob"]
    deliver_due()
    [email] = [m for m in mail.outbox if m.to == ["bob@example.com"]]
    subject, since, reason, standings = SAID[language]
    assert email.subject == subject
    for said in (since, reason, standings):
        assert said in email.body
        assert said in email.alternatives[0][0]
    assert "/leagues/friday/" in email.body
    # Nobody else is told of it; and the news of the start, still on its way to Bob, is
    # not sent: that seat is no longer his.
    assert [m.to for m in mail.outbox if m.subject == subject] == [["bob@example.com"]]
    started = Notification.objects.get(user=bob, kind=Notification.Kind.STARTED,
                                       channel=Notification.Channel.EMAIL)
    assert (started.status, started.note) == (Notification.Status.SKIPPED, "no seat")


def test_a_player_who_wants_no_notices_is_not_told():
    game, _bob = _replaced(notify="never")
    assert not Notification.objects.filter(game=game, kind=Notification.Kind.REPLACED).exists()


def test_the_push_and_the_own_channel_say_it_too():
    game, bob = _replaced("en")
    notification = Notification.objects.get(game=game, kind=Notification.Kind.REPLACED)
    message = push_sender.message(notification)
    assert message["title"] == "A bot now plays your seat at “Friday table”"
    assert message["body"] == "Bob is away for weeks."
    assert message["url"] == f"/t/{game.pk}/"
    json.dumps(message)


def test_the_tables_link_tells_the_replaced_player_what_happened(client):
    game, bob = _replaced("en")
    client.force_login(bob)
    page = client.get(f"/t/{game.pk}/")
    assert page.status_code == 410
    text = page.content.decode()
    assert "An organiser gave your seat at this table to a bot" in text
    assert "from round 2 on. The game goes on without you." in text
    assert "Bob is away for weeks." in text
    assert "still count in the standings of the league “Friday Club”" in text
    assert "/leagues/friday/" in text
    # Anyone who never sat there still learns nothing of the table.
    client.force_login(make_user("carol"))
    assert client.get(f"/t/{game.pk}/").status_code == 404


def test_replaced_in_the_first_round_no_earlier_rounds_are_promised(client):
    alice, bob = make_user("alice"), make_user("bob")
    game = start_game(alice, [bob], bots=2, options={"rounds": 3}, name="Friday table")
    LeagueGame.objects.create(game=game, league=make_league(members=[alice, bob]))
    replace_by_bot(game.pk, game.seats.get(user=bob).pk, "basic", "")
    client.force_login(bob)
    text = client.get(f"/t/{game.pk}/").content.decode()
    assert "from round 1 on" in text and "/leagues/friday/" in text
    assert "rounds you played before" not in text and "reason" not in text
    deliver_due()
    [email] = [m for m in mail.outbox if m.to == ["bob@example.com"] and "bot" in m.subject]
    assert "from round 1 on" in email.body
    # Both parts of the email link the league's standings, as its page does.
    assert "/leagues/friday/" in email.body and "/leagues/friday/" in email.alternatives[0][0]
    assert "rounds you played before" not in email.body and "reason" not in email.body


def test_the_replaced_players_open_page_reloads_and_their_forms_change_nothing(client):
    game, bob = _replaced("en")
    client.force_login(bob)
    before = game.actions.count()
    poll = client.get(f"/t/{game.pk}/poll/?v=1&me=", headers={"HX-Request": "true"})
    assert poll.status_code == 204 and poll.headers["HX-Refresh"] == "true"
    move = client.post(f"/t/{game.pk}/act/", {"kind": "pass"}, headers={"HX-Request": "true"})
    assert move.status_code == 410 and move.headers["HX-Refresh"] == "true"
    talk = client.post(f"/t/{game.pk}/chat/post/", {"text": "hello"},
                       headers={"HX-Request": "true"})
    assert talk.status_code == 410 and talk.headers["HX-Refresh"] == "true"
    plain = client.post(f"/t/{game.pk}/act/", {"kind": "pass"})
    assert plain.status_code == 410 and b"gave your seat" in plain.content
    assert game.actions.count() == before


def test_the_game_stays_in_the_replaced_players_history(client):
    game, bob = _replaced("en")
    game = play_until(game, lambda g: g.is_over)
    client.force_login(bob)
    page = client.get("/history/").content.decode()
    assert "Friday table" in page
    assert "A bot took your seat from round 2" in page
    # The game is over: its record and replay are theirs to read, as for every player
    # who sat at it.
    assert f'href="/history/{game.pk}/"' in page
    assert f'href="/history/{game.pk}/replay/"' in page
    # The league it was played in is among the history's filters, and keeps it.
    assert 'value="friday"' in page
    assert "Friday table" in client.get("/history/?league=friday").content.decode()
