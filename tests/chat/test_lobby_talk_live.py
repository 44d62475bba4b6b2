"""The talk at a table still filling up follows the friends gathered there: a message
said reaches the others' open lobby pages at their next poll (the talk's log alone, so a
message half-typed there survives), and a page left open past its reader's midnight
dates the times of the day before. Nothing new: nothing sent."""

import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from tests.chat.conftest import HTMX, say
from tools.bench_load import hooks

pytestmark = pytest.mark.django_db

# 11:58 p.m. on 1 December in Amsterdam, the players' zone (the site's).
EVENING = datetime(2026, 12, 1, 22, 58, tzinfo=UTC)


def _lobby_poll(page: bytes) -> str:
    """The poll the lobby page's poller sends, with the newest message it shows."""
    address = re.search(r'id="lobby-poller"[^>]*hx-get="([^"]+)"', page.decode())[1]
    return address.replace("&amp;", "&") + f"&c={hooks(page).chat_seen}"


def _talk(body: str) -> str:
    return body.split('id="chat-log"', 1)[1].split("</div>", 1)[0]


def test_a_message_reaches_the_others_open_lobby_pages(client, alice, bob, lobby):
    client.force_login(alice)
    path = _lobby_poll(client.get(f"/t/{lobby.pk}/").content)
    assert client.get(path, **HTMX).status_code == 204
    say(lobby, bob, "Start already!")
    answer = client.get(path, **HTMX)
    assert answer.status_code == 200
    body = answer.content.decode()
    assert "Start already!" in _talk(body) and 'id="chat-log" class="chat-log" hx-swap-oob' in body
    # The talk's log and its newest line alone: a message being written stays as it is.
    assert 'name="text"' not in body and 'id="chat-form' not in body
    assert client.get(_lobby_poll(answer.content), **HTMX).status_code == 204


def test_a_lobby_page_left_open_past_midnight_dates_its_talk(client, alice, bob, lobby):
    with time_machine.travel(EVENING, tick=False):
        say(lobby, bob, "See you tomorrow")
        client.force_login(alice)
        page = client.get(f"/t/{lobby.pk}/").content
        assert "11:58 p.m." in _talk(page.decode())
        path = _lobby_poll(page)
        assert client.get(path, **HTMX).status_code == 204
    with time_machine.travel(EVENING + timedelta(minutes=3), tick=False):
        answer = client.get(path, **HTMX)
        assert answer.status_code == 200
        assert "Dec. 1, 2026, 11:58 p.m." in _talk(answer.content.decode())
        # The poller that came with it asks about the new day.
        assert client.get(_lobby_poll(answer.content), **HTMX).status_code == 204
