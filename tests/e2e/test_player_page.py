"""The player page and the ratings list on a phone and on a laptop: nothing wider than the
screen, both pictures drawn, their tables one tap away, the automated accessibility check
clean, no script error or CSP violation. Screenshots go to var/screenshots/."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.helpers import PASSWORD, make_user, play_out, start_table

pytestmark = pytest.mark.e2e

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 850}}


@pytest.fixture
def player(live_server, settings):
    """Tess after a few finished games with a friend and bots (made before the browser
    starts: its thread may not use the database)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    tess = make_user("tess", display_name="Tess")
    bram = make_user("bram", display_name="Bram")
    for seed, rounds in ((11, 4), (12, 3), (13, 5), (14, 2)):
        play_out(start_table(tess, [bram], bots=3, seed=seed, name=f"Kitchen table {seed}",
                             options={"rounds": rounds}))
    start_table(tess, [bram], bots=2, seed=15, name="Still going")
    return tess


def _log_in(page, base_url: str) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.get_by_label("Username").fill("tess")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def _serious(axe, page) -> list[str]:
    return [f"{v['id']}: {[n['target'] for n in v['nodes']][:5]}"
            for v in axe.run(page).response["violations"]
            if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("size", SIZES)
def test_the_player_page_reads_well_and_passes_the_accessibility_check(
        player, browser, live_server, size, screenshot_dir):
    folder = screenshot_dir / "screenshots"
    folder.mkdir(exist_ok=True)
    context = browser.new_context(viewport=SIZES[size], has_touch=size == "phone",
                                  is_mobile=size == "phone")
    page = context.new_page()
    problems = []
    page.on("console", lambda m: m.type == "error" and problems.append(m.text))
    page.on("pageerror", lambda e: problems.append(str(e)))
    _log_in(page, live_server.url)
    axe = Axe()

    page.goto(f"{live_server.url}/players/tess/")
    expect(page.locator("h1")).to_contain_text("Tess")
    expect(page.locator(".rating-value")).to_contain_text("±")
    charts = page.locator("svg.chart")
    assert charts.count() == 5  # four games' places, and the rating
    for i in range(charts.count()):
        box = charts.nth(i).bounding_box()
        assert box["width"] > 200 and box["x"] >= 0
        assert box["x"] + box["width"] <= SIZES[size]["width"]
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    page.screenshot(path=str(folder / f"player-{size}.png"), full_page=True)
    page.screenshot(path=str(folder / f"player-top-{size}.png"))
    assert _serious(axe, page) == []

    # The pictures' numbers, as tables.
    for summary in page.locator(".chart-table summary").all():
        summary.click()
    expect(page.locator(".chart-table table").first).to_be_visible()
    expect(page.locator(".chart-table table").last).to_contain_text("Kitchen table 14")
    page.screenshot(path=str(folder / f"player-tables-{size}.png"), full_page=True)
    assert _serious(axe, page) == []

    page.goto(f"{live_server.url}/players/")
    expect(page.locator("h1")).to_contain_text("Ratings")
    expect(page.get_by_role("link", name="Bram")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    page.screenshot(path=str(folder / f"ratings-{size}.png"), full_page=True)
    assert _serious(axe, page) == []
    assert problems == []
    context.close()
