"""A table's page left open across its reader's midnight. Its log and talk wrote the
times of the reader's day alone ("11:58 p.m."), which read as today's once the day has
turned: the page's next poll brings them again with their date, though nothing moved at
the table (with Redis, the poll that Redis alone answers too), and the poll after that
finds nothing new."""

import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games.models import Game
from tests.helpers import poll_path, start_table

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# 11:58 p.m. on 1 December in Amsterdam, the players' zone (the site's).
EVENING = datetime(2026, 12, 1, 22, 58, tzinfo=UTC)
DATED = "Dec. 1, 2026, 11:58 p.m."


def _times(html: str) -> list[str]:
    return re.findall(r"<time datetime=\"[^\"]+\">([^<]+)</time>", html)


def _table_page_across_midnight(client, page_path: str, game: Game) -> None:
    with time_machine.travel(EVENING, tick=False):
        page = client.get(page_path).content
        assert DATED not in page.decode() and "11:58 p.m." in page.decode()
        path = poll_path(page)
        # The first poll reads the database (and tells Redis the seat), the next Redis alone.
        assert [client.get(path, **HTMX).status_code for _ in range(2)] == [204, 204]
    with time_machine.travel(EVENING + timedelta(minutes=3), tick=False):
        answer = client.get(path, **HTMX)
        assert answer.status_code == 200
        body = answer.content.decode()
        log = body.split('id="log-lines"', 1)[1].split("</ol>", 1)[0]
        assert _times(log) and all(time.startswith(DATED) for time in _times(log))
        assert Game.objects.get(pk=game.pk).version == int(re.search(r"\?v=(\d+)", path)[1])
        again = poll_path(answer.content)
        assert client.get(again, **HTMX).status_code == 204
    return body


def test_a_players_page_dates_its_log_and_talk_once_their_day_turned(client, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    with time_machine.travel(EVENING, tick=False):
        game = start_table(alice, [bob], bots=2)
        client.force_login(alice)
        assert client.post(f"/t/{game.pk}/chat/post/", {"text": "good night"}).status_code == 302
    body = _table_page_across_midnight(client, f"/t/{game.pk}/", game)
    talk = body.split('id="chat-log"', 1)[1].split("</ol>", 1)[0]
    assert "good night" in talk and any(time.startswith(DATED) for time in _times(talk))


def test_a_watchers_page_dates_its_log_once_the_day_turned(client, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    with time_machine.travel(EVENING, tick=False):
        game = start_table(alice, [bob], bots=2)
        Game.objects.filter(pk=game.pk).update(watch_token="across-midnight")
    _table_page_across_midnight(client, "/watch/across-midnight/", game)
