"""A table's page left open runs its times on, in a real browser: the clock of the seat
whose turn it is counts down, "Waiting for Cato · just now" grows, and the awaited
player's "your time to decide runs out … (in 23 h 59 min)" shrinks, though an unchanged
table sends the page nothing; in the reader's language, in the words the server draws
them in (hours later the page reads as a page loaded then)."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.conf import settings
from django.utils import translation

from games.templatetags.games import ago, time_left
from tests.e2e import harness

pytestmark = pytest.mark.e2e

# Nobody moves for 10 minutes, 2 h 10 min, then a day more (the turn's time runs out).
LATER = (timedelta(minutes=10), timedelta(hours=2, minutes=10),
         timedelta(hours=26, minutes=10))
# The page counts from the server's clock read in whole seconds as it was drawn, and its
# script starts a moment after: what it writes is what the server would at one of these.
SLACK = [timedelta(seconds=s) for s in range(-3, 4)]


def _said(write, moment, at: datetime, language: str) -> set[str]:
    """What `write` (a template filter) says of `moment` around `at`, in `language`."""
    said = set()
    for slack in SLACK:
        with time_machine.travel(at + slack, tick=False), translation.override(language):
            said.add(write(moment))
    return said


def _open(browser, live_server, session: str, size: str, language: str, game_id: int):
    """The table's page in a fresh browser whose clock the test runs; the moment the
    server drew it (whole seconds), and the errors it logs."""
    context = harness.new_context(browser, size, base_url=live_server.url, locale=language)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session,
                          "url": live_server.url}])
    page = context.new_page()
    problems = harness.collect_errors(page)
    page.clock.install()
    page.goto(f"/t/{game_id}/")
    drawn = datetime.fromtimestamp(int(page.locator("#game").get_attribute("data-now")),
                                   tz=UTC)
    return page, drawn, problems


def _runs_on(page, drawn: datetime, language: str, times: dict) -> None:
    """Each of `times` (a locator: the filter that writes it) reads as the server would
    write it as the page was drawn and, nobody having moved (the table has sent the page
    nothing new), at each of LATER."""
    moments = {time: datetime.fromisoformat(time.get_attribute("datetime")) for time in times}
    shown = {time: time.text_content().strip() for time in times}
    for time, write in times.items():
        assert shown[time] in _said(write, moments[time], drawn, language)
    ran = timedelta()
    for later in LATER:
        page.clock.fast_forward(int((later - ran).total_seconds() * 1000))
        ran = later
        for time, write in times.items():
            now_shown = time.text_content().strip()
            assert now_shown in _said(write, moments[time], drawn + later, language), later
            assert now_shown != shown[time]


@pytest.mark.parametrize(("day_table", "size"), [(("en", "waits"), "phone"),
                                                 (("de", "waits"), "laptop")],
                         indirect=["day_table"])
def test_a_waiting_players_page_runs_the_clock_and_the_wait_on(day_table, browser,
                                                                live_server, size):
    table = day_table
    awaited, language = table.awaited, table.language
    page, drawn, problems = _open(browser, live_server, table.session, size, language,
                                  table.game_id)
    _runs_on(page, drawn, language, {
        page.locator(f'ol.seats li:has-text("{awaited}") time.clock'): time_left,
        page.locator(".turn time"): ago,
    })
    assert problems == []
    page.context.close()


@pytest.mark.parametrize("day_table", [("fr", "awaited")], indirect=True)
def test_the_awaited_players_page_runs_their_time_to_decide_on(day_table, browser,
                                                               live_server):
    table = day_table
    awaited, language = table.awaited, table.language
    page, drawn, problems = _open(browser, live_server, table.session, "phone", language,
                                  table.game_id)
    _runs_on(page, drawn, language, {
        page.locator(".deadline time"): time_left,
        page.locator(f'ol.seats li:has-text("{awaited}") time.clock'): time_left,
    })
    assert problems == []
    page.context.close()
