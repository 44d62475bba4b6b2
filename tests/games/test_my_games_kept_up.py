"""My games, left open in a tab: its lists are drawn again (every minute, and when the tab
comes back: static/js/dalmuti.js) from the template the page draws them with, bringing
the header's count of tables awaiting the player with them, and their times are elements
the page's script writes on in between ("23 h 40 min left", "waiting for Bob · for 3 h 20
min"), in the words the table's page uses."""

import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games.models import TurnLimit
from tests.games.test_privacy import CSRF
from tests.helpers import play_until, start_table

pytestmark = pytest.mark.django_db

LISTS = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "my-games"}
START = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def _lists_of(page: str) -> str:
    """The #my-games element of a whole page: its last section, then its end."""
    start = page.index('<div id="my-games"')
    end = page.index("</section>\n</div>", start) + len("</section>\n</div>")
    return page[start:end]


def _two_tables(alice, bob):
    """One table awaiting Alice on a day's clock, one awaiting Bob alone."""
    mine = start_table(alice, [bob], bots=2, turn_limit=TurnLimit.DAY, name="Mine")
    me = mine.seats.get(user=alice)
    play_until(mine, lambda g: str(me.player) in g.awaiting)
    theirs = start_table(alice, [bob], bots=2, name="Theirs")
    me, him = theirs.seats.get(user=alice), theirs.seats.get(user=bob)
    play_until(theirs, lambda g: str(him.player) in g.awaiting
               and str(me.player) not in g.awaiting)


def test_the_lists_alone_come_to_the_page_that_draws_them_again(client, alice, bob):
    with time_machine.travel(START, tick=False) as traveller:
        _two_tables(alice, bob)
        traveller.move_to(START + timedelta(hours=3, minutes=20))
        client.force_login(alice)
        page = client.get("/").content.decode()
        answer = client.get("/", **LISTS)
    assert answer.status_code == 200
    lists, count = answer.content.decode().split('\n<span id="awaiting-count"', 1)
    assert lists.lstrip().startswith('<div id="my-games"') and "<html" not in lists
    assert CSRF.sub(r"\1*", lists).strip() == CSRF.sub(r"\1*", _lists_of(page))
    # The header's count comes with them, to be put in place of the page's (out of band),
    # which the page draws once.
    assert count.startswith(' class="awaiting-slot" data-awaiting="1" hx-swap-oob="true">')
    assert "1 table awaits you" in count and 'data-awaiting="1"' in lists
    assert page.count('id="awaiting-count"') == 1 and 'hx-swap-oob="true"' not in page
    assert re.search(r'class="game-name">Mine<.*?<time datetime="[^"]+" data-left>'
                     r'20\u00a0h 40\u00a0min</time> left<', lists, re.S)
    assert re.search(r'class="game-name">Theirs<.*?waiting for Bob\s+· '
                     r'<time datetime="[^"]+" data-since>for 3\u00a0h 20\u00a0min</time>',
                     lists, re.S)
    # The lists alone are not taken for the page, nor the page for them.
    assert "HX-Request" in answer["Vary"]


def test_the_lists_use_the_words_of_the_table_in_the_readers_language(client, alice, bob):
    alice.language = "de"
    alice.save(update_fields=["language"])
    with time_machine.travel(START, tick=False) as traveller:
        _two_tables(alice, bob)
        traveller.move_to(START + timedelta(days=1, hours=2))
        client.force_login(alice)
        lists = client.get("/", **LISTS).content.decode()
    assert re.search(r"data-since>seit 1\u00a0Tg\. 2\u00a0Std\.</time>", lists), lists


def test_a_tab_signed_out_since_reloads_as_the_sites_door(client):
    answer = client.get("/", **LISTS)
    assert answer.status_code == 204 and answer["HX-Refresh"] == "true"
