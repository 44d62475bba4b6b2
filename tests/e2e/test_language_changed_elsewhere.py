"""A player who changes the site's language on another device: the table's page open in
the old one draws the next change of the table in the new language, and reads it whole
in that language then, rather than the server's words in one and its own in the other."""

import re
import threading

import pytest
from django.db import connection
from playwright.sync_api import expect

from accounts.models import User
from games.models import Game
from tests.e2e import harness
from tests.helpers import (
    act_as,
    legal,
    make_user,
    play_until,
    session_for,
    start_table,
    waiting_humans,
)

pytestmark = pytest.mark.e2e


@pytest.fixture
def others_turn(live_server):
    """Tess's table, where the table waits for Uma."""
    tess = make_user("tess", display_name="Tess", language="en")
    uma = make_user("uma", display_name="Uma")
    game = start_table(tess, [uma], bots=2, seed=5, name="Kitchen table")
    game = play_until(game, lambda g: any(s.user_id == uma.pk for s in waiting_humans(g)))
    return game.pk, tess.pk, session_for(tess)


def _elsewhere(game_id: int, reader_id: int) -> None:
    """On another device the reader chooses German; then Uma moves."""
    try:
        User.objects.filter(pk=reader_id).update(language="de")
        game = Game.objects.get(pk=game_id)
        uma = next(s for s in waiting_humans(game) if s.user_id != reader_id)
        act_as(game, uma, legal(game, uma)[0])
    finally:
        connection.close()


def test_the_page_reads_whole_in_the_language_chosen_elsewhere(others_turn, browser,
                                                               live_server):
    game_id, reader_id, session = others_turn
    problems = []
    page = harness.signed_in_page(browser, live_server.url, session, "laptop", problems,
                                  "tess", service_workers="block")
    page.goto(f"{live_server.url}/t/{game_id}/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    worker = threading.Thread(target=_elsewhere, args=(game_id, reader_id))
    worker.start()
    worker.join()
    expect(page.locator("html")).to_have_attribute("lang", "de", timeout=20_000)
    expect(page.locator("#status .turn")).to_contain_text(re.compile("Warten auf|Du bist dran"))
    assert problems == []
    page.context.close()
