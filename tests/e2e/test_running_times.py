"""A table's page left open runs its times on, in a real browser: the clock of the seat
whose turn it is counts down and "Waiting for Cato · just now" grows, though an
unchanged table sends the page nothing; in the reader's language, in the words the server
draws them in (an hour later the page reads as a page loaded then)."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.conf import settings
from django.utils import translation

from games.templatetags.games import ago, time_left
from tests.e2e import harness
from tests.helpers import (
    bots_play_on,
    make_user,
    play_until,
    session_for,
    start_on_the_clock,
    waiting_humans,
)

pytestmark = pytest.mark.e2e

A_DAY = 24 * 3600  # a turn's time, as at a table played over days
LATER = timedelta(hours=2, minutes=10)
# The page counts from the server's clock read in whole seconds as it was drawn, and its
# script starts a moment after: what it writes is what the server would at one of these.
SLACK = [timedelta(seconds=s) for s in range(-3, 4)]


@pytest.fixture
def table(live_server, request):
    """Ana, Bram and Cato with two bots on a day's clock, in the first round's play: the
    table, the name of the one it waits for, and the session and language of one who
    waits (who reads the site in `request.param`)."""
    people = [make_user(name, display_name=name.title()) for name in ("ana", "bram", "cato")]
    game = start_on_the_clock(people[0], people[1:], A_DAY, options={"rounds": 2})
    game = bots_play_on(play_until(game, lambda g: g.engine_state().round.phase == "play"))
    (awaited,) = waiting_humans(game)
    reader = next(user for user in people if user.pk != awaited.user_id)
    reader.language = request.param
    reader.save(update_fields=["language"])
    return game.pk, awaited.user.display_name, session_for(reader), request.param


def _said(write, moment, at: datetime, language: str) -> set[str]:
    """What `write` (a template filter) says of `moment` around `at`, in `language`."""
    said = set()
    for slack in SLACK:
        with time_machine.travel(at + slack, tick=False), translation.override(language):
            said.add(write(moment))
    return said


@pytest.mark.parametrize(("table", "size"), [("en", "phone"), ("de", "laptop")],
                         indirect=["table"])
def test_an_open_page_runs_its_clock_and_waiting_time_on(table, browser, live_server, size):
    game_id, awaited, session, language = table
    context = harness.new_context(browser, size, base_url=live_server.url, locale=language)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session,
                          "url": live_server.url}])
    page = context.new_page()
    problems = harness.collect_errors(page)
    page.clock.install()
    page.goto(f"/t/{game_id}/")
    drawn = datetime.fromtimestamp(int(page.locator("#game").get_attribute("data-now")),
                                   tz=UTC)
    clock = page.locator(f'ol.seats li:has-text("{awaited}") time.clock')
    waited = page.locator(".turn time")
    deadline = datetime.fromisoformat(clock.get_attribute("datetime"))
    since = datetime.fromisoformat(waited.get_attribute("datetime"))
    shown = clock.text_content().strip(), waited.text_content().strip()
    assert shown[0] in _said(time_left, deadline, drawn, language)
    assert shown[1] in _said(ago, since, drawn, language)

    # Two hours and ten minutes on, nobody has moved (the table has sent the page nothing
    # new): its times are those of now.
    page.clock.fast_forward(int(LATER.total_seconds() * 1000))
    later = clock.text_content().strip(), waited.text_content().strip()
    assert later[0] in _said(time_left, deadline, drawn + LATER, language)
    assert later[1] in _said(ago, since, drawn + LATER, language)
    assert later[0] != shown[0] and later[1] != shown[1]
    assert problems == []
    context.close()
