"""Somebody watching by link, where the host lets watchers talk, reads the whole talk on a
page of its own, as the players do; where watchers may not talk, there is no such page."""

import pytest
from django.test import Client

from chat import services as chat_services
from chat.models import Message
from games import commands
from games.core.words import title_name
from games.models import Game
from tests.chat.conftest import seat_of
from tests.helpers import make_user

pytestmark = pytest.mark.django_db


def _watched(game, alice, talk: bool) -> Game:
    commands.set_watchable(game.pk, alice, True, talk=talk)
    return Game.objects.get(pk=game.pk)


def test_the_watchers_all_messages_link_opens_the_whole_talk(game, alice, bob):
    game = _watched(game, alice, talk=True)
    seat = seat_of(game, bob)
    # More than the panel shows (its newest 30).
    Message.objects.bulk_create(Message(game=game, seat=seat, name=seat.name,
                                        text=f"message {number}") for number in range(40))
    watcher = Client()
    page = watcher.get(f"/watch/{game.watch_token}/").content.decode()
    link = f'href="/watch/{game.watch_token}/talk/"'
    assert link in page and f'href="/t/{game.pk}/chat/"' not in page
    talk = watcher.get(f"/watch/{game.watch_token}/talk/")
    assert talk.status_code == 200
    text = talk.content.decode()
    assert "message 0<" in text and "message 39<" in text
    # The way back is the watch page, not the players' table.
    assert f'href="/watch/{game.watch_token}/"' in text


def test_without_talk_for_watchers_there_is_no_talk_page(game, alice, bob):
    game = _watched(game, alice, talk=False)
    assert Client().get(f"/watch/{game.watch_token}/talk/").status_code == 404


def test_the_watchers_talk_titles_each_speaker_as_the_players_see_them(game, alice, bob):
    game = _watched(game, alice, talk=True)
    seat = seat_of(game, bob)
    Message.objects.create(game=game, seat=seat, name=seat.name, text="hello")
    title = chat_services.titles(game, seat)[seat.player]
    shown = f'<span class="chat-title title-{title}">{title_name(title)}</span>'
    player = Client()
    player.force_login(bob)
    assert shown in player.get(f"/t/{game.pk}/chat/").content.decode()
    assert shown in Client().get(f"/watch/{game.watch_token}/talk/").content.decode()
    watcher = Client()
    watcher.force_login(make_user("wendy"))
    answer = watcher.post(f"/watch/{game.watch_token}/chat/", {"text": "hi all"},
                          headers={"HX-Request": "true"})
    assert answer.status_code == 200 and shown in answer.content.decode()


def test_a_player_at_the_table_does_not_talk_as_a_watcher(game, alice, bob):
    """A watch page opened before its reader took a seat still holds the watchers' form:
    a player speaks at the table, under their title, never as "(watching)"."""
    game = _watched(game, alice, talk=True)
    player = Client()
    player.force_login(bob)
    answer = player.post(f"/watch/{game.watch_token}/chat/", {"text": "hi all"},
                         headers={"HX-Request": "true"})
    assert answer.status_code == 409
    assert "You have a seat at this table" in answer.content.decode()
    assert not Message.objects.filter(game=game).exists()
