"""My games left open in a tab, in a real browser: its times run on as the table's page's
do (the time left on the reader's turn, how long a table has waited for others), in the
words the server draws them in, and its lists are drawn again when the tab comes back,
so that a turn that came meanwhile shows under "Your turn", counted in the header and the
tab's title (not while the tab is hidden, nor while a link of the lists has the keyboard's
focus), and when the page comes back from the browser's back-forward cache."""

import threading
from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.db import connection
from playwright.sync_api import expect

from games.models import Game
from games.templatetags.games import time_left, waited_for
from tests.e2e import harness
from tests.e2e.test_running_times import LATER, _said
from tests.helpers import play_until

pytestmark = pytest.mark.e2e


def _open(browser, live_server, session: str, size: str, language: str):
    # The site's service worker blocked: the page's routes never see the requests it makes.
    context = harness.new_context(browser, size, base_url=live_server.url, locale=language,
                                  service_workers="block")
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session,
                          "url": live_server.url}])
    page = context.new_page()
    problems = harness.collect_errors(page)
    return page, problems


@pytest.mark.parametrize(("day_table", "size", "selector", "write"), [
    (("fr", "awaited"), "phone", ".time-left time", time_left),
    (("en", "waits"), "laptop", "time[data-since]", waited_for),
], indirect=["day_table"])
def test_my_games_runs_its_times_on(day_table, browser, live_server, size, selector, write):
    page, problems = _open(browser, live_server, day_table.session, size, day_table.language)
    language = day_table.language
    # The lists drawn again would bring the server's clock, which stands still here while
    # the browser's runs: the script alone writes the times on.
    page.route("**/", lambda route: route.fulfill(status=204)
               if route.request.headers.get("hx-request") else route.continue_())
    page.clock.install()
    page.goto("/")
    drawn = datetime.fromtimestamp(int(page.locator("#my-games").get_attribute("data-now")),
                                   tz=UTC)
    time = page.locator(selector)
    moment = datetime.fromisoformat(time.get_attribute("datetime"))
    shown = time.text_content().strip()
    assert shown in _said(write, moment, drawn, language)
    ran = timedelta()
    for later in LATER:
        page.clock.fast_forward(int((later - ran).total_seconds() * 1000))
        ran = later
        now_shown = time.text_content().strip()
        assert now_shown in _said(write, moment, drawn + later, language), later
        assert now_shown != shown
    assert problems == []
    page.context.close()


def _play_until_awaited(game_id: int, reader_id: int) -> None:
    """The others move until the table waits for the reader (a thread of its own: the
    browser's may not use the database)."""
    try:
        game = Game.objects.get(pk=game_id)
        player = game.seats.get(user_id=reader_id).player
        play_until(game, lambda g: str(player) in g.awaiting)
    finally:
        connection.close()


@pytest.mark.parametrize("day_table", [("de", "waits")], indirect=True)
def test_my_games_shows_a_turn_that_came_meanwhile_when_the_tab_comes_back(
        day_table, browser, live_server):
    page, problems = _open(browser, live_server, day_table.session, "phone",
                           day_table.language)
    page.goto("/")
    sections = page.locator("#my-games section")
    yours, others = sections.nth(0), sections.nth(1)
    expect(others.locator(".game-name")).to_have_text("Test table")
    expect(yours.locator(".game-name")).to_have_count(0)
    expect(page.locator(".site-header .awaiting-count")).to_have_count(0)
    assert not page.title().startswith("(")
    worker = threading.Thread(target=_play_until_awaited,
                              args=(day_table.game_id, day_table.reader_id))
    worker.start()
    worker.join()
    # The tab comes back into view (the browser says so with this event).
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(yours.locator(".game-name")).to_have_text("Test table")
    expect(yours).to_contain_text("wartet auf dich")
    expect(others.locator(".game-name")).to_have_count(0)
    expect(page.locator(".site-header .awaiting-count [aria-hidden]")).to_have_text("1")
    expect(page.locator(".site-header .awaiting-count")).to_have_attribute(
        "title", "1 Tisch wartet auf dich")
    expect(page).to_have_title("(1) Meine Partien · Der Große Dalmuti")
    assert problems == []
    page.context.close()


def _drawn_again(page, action) -> None:
    """Do `action`, and wait for the lists it makes the page ask for to be in place and
    settled (htmx listens to the new lists' events only then)."""
    page.evaluate("window.settled = false; document.addEventListener('htmx:afterSettle', "
                  "() => { window.settled = true; }, {once: true})")
    with page.expect_request(lambda request: bool(request.headers.get("hx-request"))):
        action()
    page.wait_for_function("() => window.settled")


@pytest.mark.parametrize("day_table", [("nl", "waits")], indirect=True)
def test_my_games_asks_for_nothing_while_hidden_or_gone_through_with_the_keyboard(
        day_table, browser, live_server):
    page, problems = _open(browser, live_server, day_table.session, "laptop",
                           day_table.language)
    asked = []
    page.on("request", lambda request: asked.append(request.url)
            if request.headers.get("hx-request") else None)
    page.clock.install()
    page.goto("/")
    # Once a minute while in view.
    _drawn_again(page, lambda: page.clock.fast_forward(61_000))
    page.evaluate("window.due = 0; document.addEventListener('htmx:beforeRequest', "
                  "() => { window.due += 1; })")
    # Nor while a link of the lists has the keyboard's focus (it would lose it).
    page.locator("#my-games .game-name").first.focus()
    page.clock.fast_forward(61_000)
    assert page.evaluate("window.due") == 1  # the minute came, and nothing was asked
    page.locator("#my-games .game-name").first.blur()
    page.evaluate("Object.defineProperty(document, 'hidden', {value: true, configurable: true})")
    page.clock.fast_forward(61_000)
    page.clock.fast_forward(61_000)
    assert page.evaluate("window.due") == 3  # the minutes came, and nothing was asked
    _drawn_again(page, lambda: page.evaluate(
        "Object.defineProperty(document, 'hidden', {value: false, configurable: true});"
        "document.dispatchEvent(new Event('visibilitychange'))"))
    # Requests are told in the order they are made: one made while hidden came before.
    assert len(asked) == 2
    # Back from the browser's back-forward cache (Playwright's Chromium keeps none: the
    # browser's event, as it would come), the lists are drawn again too.
    _drawn_again(page, lambda: page.evaluate(
        "window.dispatchEvent(new PageTransitionEvent('pageshow', {persisted: true}))"))
    assert len(asked) == 3
    assert problems == []
    page.context.close()
