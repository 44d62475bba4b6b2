"""A finished game's record lists its moves, each a link to the replay at that step: on a
phone, lines close together, each must be a finger's height to tap (WCAG 2.5.8 asks 24
CSS pixels)."""

import pytest

from tests.e2e import harness
from tests.helpers import make_user, play_until, session_for, start_table

pytestmark = pytest.mark.e2e


@pytest.fixture
def record(live_server):
    tess = make_user("tess", display_name="Tess")
    game = play_until(start_table(tess, bots=3, options={"rounds": 1}), lambda g: g.is_over)
    return game.pk, session_for(tess)


def test_each_line_of_the_record_is_tall_enough_to_tap(record, browser, live_server,
                                                       screenshots):
    game_id, session = record
    problems = []
    page = harness.signed_in_page(browser, live_server.url, session, "phone", problems,
                                  "phone")
    page.goto(f"{live_server.url}/history/{game_id}/")
    steps = page.locator(".full-log details[open] .log-step")
    assert steps.count() > 10
    heights = [box["height"] for box in (steps.nth(i).bounding_box()
                                         for i in range(steps.count()))]
    page.screenshot(path=str(screenshots / "record-lines-phone.png"))
    assert min(heights) >= 24, heights
    assert problems == []
    page.context.close()
