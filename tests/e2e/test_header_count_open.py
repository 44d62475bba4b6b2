"""A table's page left open, in a real browser: the header's count of tables awaiting the
reader, the tab's title with it, follow the reader's turn there (it goes with their move
and comes back with the others', brought by what the table's page is sent anyway, without
asking for it), and the tables elsewhere (the count is asked for anew
every minute while the tab is in view, not while it is hidden; My games' lists bring it
with them and the page asks nothing more)."""

import random
import re
import threading

import pytest
from playwright.sync_api import expect

from tests.e2e.test_my_games_open import _open, _play_until_awaited
from tests.e2e.test_play_a_round import _choose

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("day_table", [("en", "awaited")], indirect=True)
def test_the_count_follows_the_readers_turn_at_the_table(day_table, browser, live_server):
    page, problems = _open(browser, live_server, day_table.session, "phone", "en")
    asked = []
    page.on("request", lambda request: asked.append(request.url)
            if request.url.endswith("/awaiting/") else None)
    page.goto(f"/t/{day_table.game_id}/")
    count = page.locator(".site-header .awaiting-count")
    expect(count.locator("[aria-hidden]")).to_have_text("1")
    expect(count).to_have_attribute("title", "1 table awaits you")
    expect(page).to_have_title(re.compile(r"^\(Your turn\) \(1\) Test table · "))
    _kind, button = _choose(page, random.Random(3))
    button.click()
    expect(count).to_have_count(0)
    expect(page).to_have_title(re.compile(r"^Test table · "))
    # The others play until the table waits for the reader again: the page's poll brings
    # their turn, and the count with it.
    worker = threading.Thread(target=_play_until_awaited,
                              args=(day_table.game_id, day_table.reader_id))
    worker.start()
    worker.join()
    expect(count.locator("[aria-hidden]")).to_have_text("1")
    expect(page).to_have_title(re.compile(r"^\(Your turn\) \(1\) Test table · "))
    assert asked == []
    assert problems == []
    page.context.close()


@pytest.mark.parametrize("day_table", [("nl", "waits")], indirect=True)
def test_the_count_is_asked_for_every_minute_in_view_and_not_on_my_games(
        day_table, browser, live_server):
    page, problems = _open(browser, live_server, day_table.session, "laptop", "nl")
    asked = []
    page.on("request", lambda request: asked.append(request.url)
            if request.url.endswith("/awaiting/") else None)
    page.clock.install()
    page.goto(f"/t/{day_table.game_id}/")
    with page.expect_response(lambda response: response.url.endswith("/awaiting/")):
        page.clock.fast_forward(61_000)
    assert len(asked) == 1
    page.evaluate("Object.defineProperty(document, 'hidden', {value: true, configurable: true})")
    page.clock.fast_forward(61_000)
    page.clock.fast_forward(61_000)
    assert len(asked) == 1  # the minutes came, and nothing was asked while hidden
    with page.expect_response(lambda response: response.url.endswith("/awaiting/")):
        page.evaluate("Object.defineProperty(document, 'hidden', {value: false, "
                      "configurable: true}); document.dispatchEvent(new Event('visibilitychange'))")
    assert len(asked) == 2
    # My games' lists bring the count with them: the page asks for nothing more.
    page.goto("/")
    page.clock.fast_forward(61_000)
    page.clock.fast_forward(61_000)
    assert len(asked) == 2
    assert problems == []
    page.context.close()
