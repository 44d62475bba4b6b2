"""The player page and the ratings list on a phone and on a laptop: nothing wider than the
screen, both pictures drawn, their tables one tap away, the automated accessibility check
clean, no script error or CSP violation. Screenshots go to var/screenshots/."""

import pytest
from playwright.sync_api import expect

from tests.e2e import harness
from tests.helpers import make_user, play_out, start_table

pytestmark = pytest.mark.e2e

# The tables in a sideways-scrolling box that do not fit it, by their caption.
CUT_TABLES = """() => [...document.querySelectorAll('.player-page .scroll')]
    .filter((box) => box.checkVisibility() && box.scrollWidth > box.clientWidth + 1)
    .map((box) => box.querySelector('caption, th')?.textContent)"""


@pytest.fixture
def player(live_server):
    """Tess after a few finished games with a friend and bots (made before the browser
    starts: its thread may not use the database)."""
    tess = make_user("tess", display_name="Tess")
    bram = make_user("bram", display_name="Bram")
    for seed, rounds in ((11, 3), (12, 2), (13, 2), (14, 2)):
        play_out(start_table(tess, [bram], bots=3, seed=seed, name=f"Kitchen table {seed}",
                             options={"rounds": rounds}))
    start_table(tess, [bram], bots=2, seed=15, name="Still going")
    return tess


def test_the_player_page_reads_well_and_passes_the_accessibility_check(
        player, browser, live_server, screenshots, subtests):
    # Both sizes from one history (it takes most of the test's time to play), in English
    # and in the languages whose words run longest.
    for size, code in (("phone", "en"), ("laptop", "en"), ("phone", "fr"), ("laptop", "de"),
                       ("phone", "de")):
        with subtests.test(size=size, code=code):
            _reads_well(browser, live_server.url, size, code, screenshots)


def _reads_well(browser, base: str, size: str, code: str, screenshots) -> None:
    context = harness.new_context(browser, size, extra_http_headers={"Accept-Language": code})
    page = context.new_page()
    problems = harness.collect_errors(page)
    harness.log_in(page, base, "tess")

    page.goto(f"{base}/players/tess/")
    expect(page.locator("h1")).to_contain_text("Tess")
    expect(page.locator(".rating-value")).to_contain_text("±")
    charts = page.locator("svg.chart")
    assert charts.count() == 5  # four games' places, and the rating
    for i in range(charts.count()):
        box = charts.nth(i).bounding_box()
        assert box["width"] > 200 and box["x"] >= 0
        assert box["x"] + box["width"] <= harness.SIZES[size]["width"]
    assert not harness.wider_than_screen(page)
    page.screenshot(path=str(screenshots / f"player-{size}-{code}.png"), full_page=True)
    page.screenshot(path=str(screenshots / f"player-top-{size}-{code}.png"))
    # Every table shows whole: none needs a sideways swipe nobody would guess.
    assert page.evaluate(CUT_TABLES) == []
    assert harness.serious_violations(page) == []

    # The pictures' numbers, as tables.
    for summary in page.locator(".chart-table summary").all():
        summary.click()
    expect(page.locator(".chart-table table").first).to_be_visible()
    expect(page.locator(".chart-table table").last).to_contain_text("Kitchen table 14")
    assert page.evaluate(CUT_TABLES) == []
    page.screenshot(path=str(screenshots / f"player-tables-{size}-{code}.png"), full_page=True)
    assert harness.serious_violations(page) == []

    page.goto(f"{base}/players/")
    expect(page.locator("h1")).to_contain_text(
        {"en": "Ratings", "fr": "Cotes", "de": "Wertungen"}[code])
    expect(page.get_by_role("link", name="Bram")).to_be_visible()
    assert not harness.wider_than_screen(page)
    page.screenshot(path=str(screenshots / f"ratings-{size}-{code}.png"), full_page=True)
    assert harness.serious_violations(page) == []
    assert problems == []
    context.close()
