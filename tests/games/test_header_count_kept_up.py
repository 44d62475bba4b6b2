"""The header's count of tables awaiting the player, on a page left open (a table's page
above all, where the count changes with the reader's own moves): the page asks for the
count anew (`data-awaiting-url`, static/js/dalmuti.js), and is answered with the header's
own element as every page draws it, with the number for the tab's title and the app's
badge. Someone logged out is answered with nothing (their pages show no count)."""

import re

import pytest

from tests.chat.conftest import HTMX
from tests.helpers import act_as, legal, play_until, start_table

pytestmark = pytest.mark.django_db


def _count_in(page: str) -> str:
    """The header's count element of a whole page."""
    return re.search(r'<span id="awaiting-count"[^>]*>(?:<a .*?</a>)?</span>', page, re.S)[0]


def _awaiting(client) -> str:
    answer = client.get("/awaiting/", **HTMX)
    assert answer.status_code == 200
    assert "no-store" in answer["Cache-Control"]
    return answer.content.decode().strip()


def test_the_count_comes_as_the_header_draws_it_and_follows_the_readers_moves(
        client, alice, bob):
    game = start_table(alice, [bob], bots=2, name="Mine")
    me = game.seats.get(user=alice)
    play_until(game, lambda g: str(me.player) in g.awaiting)
    client.force_login(alice)
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert 'data-awaiting-url="/awaiting/"' in page
    count = _awaiting(client)
    assert count == _count_in(page)
    assert "1 table awaits you" in count and 'data-awaiting="1"' in count
    # The reader moves: the table waits for them no more.
    game.refresh_from_db()
    act_as(game, me, legal(game, me)[0])
    count = _awaiting(client)
    assert 'data-awaiting="0"' in count and "awaits you" not in count
    assert count == _count_in(client.get("/rules/").content.decode())


def test_someone_logged_out_is_answered_with_nothing(client):
    answer = client.get("/awaiting/", **HTMX)
    assert answer.status_code == 204 and answer.content == b""
    assert "data-awaiting-url" not in client.get("/rules/").content.decode()
