"""My games: the tables awaiting me first, the one whose time runs out first on top,
with the time left (urgent under an hour), and their count in the header, the tab title
and the page's word to the app's badge, counted in one query."""

import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games.core.turns import games_waiting_for, tables_awaiting
from games.models import TimeBank, TurnLimit
from tests.helpers import play_until, start_table

pytestmark = pytest.mark.django_db

START = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def _awaiting_alice(alice, bob, name, turn_limit, bank=0):
    game = start_table(alice, [bob], bots=2, turn_limit=turn_limit, bank=bank, name=name)
    me = game.seats.get(user=alice)
    return play_until(game, lambda g: str(me.player) in g.awaiting)


def test_the_tables_awaiting_me_come_first_by_time_left(client, alice, bob,
                                                        django_assert_num_queries):
    with time_machine.travel(START, tick=False) as traveller:
        _awaiting_alice(alice, bob, "A day", TurnLimit.DAY)
        traveller.move_to(START + timedelta(minutes=5))
        _awaiting_alice(alice, bob, "No clock", TurnLimit.NONE)
        _awaiting_alice(alice, bob, "An hour", TurnLimit.HOUR)
        _awaiting_alice(alice, bob, "A bank", TurnLimit.HOUR, TimeBank.DAY)
        traveller.move_to(START + timedelta(minutes=20))
        with django_assert_num_queries(1):
            assert tables_awaiting(alice) == 4
        client.force_login(alice)
        page = client.get("/").content.decode()
    mine = page[page.index("Your turn"):page.index("Waiting for others")]
    names = re.findall(r'class="game-name">([^<]+)<', mine)
    # The bank's reserve counts: an hour per turn and a day in the bank outlast a day.
    assert names == ["An hour", "A day", "A bank", "No clock"]
    assert re.search(r'class="time-left urgent"><time[^>]*>45\u00a0min</time> left<', mine)
    assert re.search(r'class="time-left"><time[^>]*>1\u00a0d</time> left<', mine)
    assert re.search(r'class="time-left"><time[^>]*>23\u00a0h 40\u00a0min</time> left<', mine)
    assert "<title>(4) " in page
    assert 'data-awaiting="4"' in page
    assert "4 tables await you" in page



def test_a_table_whose_turn_a_bot_plays_for_me_is_not_my_turn_anywhere(client, alice, bob):
    """Between a stand-in taking my seat and its move (hours, if the workers are failing
    and back off), the table waits for the bot, not for me: My games, the header's count
    and the daily summary say the same."""
    game = _awaiting_alice(alice, bob, "Stood in for", TurnLimit.DAY)
    game.seats.filter(user=alice).update(stand_in=True)
    client.force_login(alice)
    page = client.get("/").content.decode()
    mine = page[page.index("Your turn"):page.index("Waiting for others")]
    others = page[page.index("Waiting for others"):]
    assert "Stood in for" not in mine
    entry = others[others.index("Stood in for"):others.index("</li>")]
    assert "a bot stands in for you" in entry
    assert "waiting for you" not in entry
    assert tables_awaiting(alice) == 0
    assert games_waiting_for(alice) == []
    assert 'data-awaiting="0"' in page
