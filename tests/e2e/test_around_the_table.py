"""The pages around the table in a real browser: the welcome page and How to play at phone
and desktop sizes (screenshots in var/screenshots/, and axe-core finds no serious or
critical accessibility violation), and the replay stepping without a full page load."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e import harness

pytestmark = pytest.mark.e2e

MARKER = "dalmutiReplayNoReload"


@pytest.mark.parametrize("size", harness.SIZES)
@pytest.mark.parametrize("path, name", [("/", "welcome"), ("/rules/", "rules")])
def test_the_welcome_and_rules_pages_look_right_and_pass_axe(
    browser, live_server, screenshots, size, path, name
):
    context = harness.new_context(browser, size, base_url=live_server.url, locale="en-GB")
    page = context.new_page()
    errors = harness.collect_errors(page)
    page.goto(path)
    expect(page.locator("main h1")).to_be_visible()
    page.screenshot(path=screenshots / f"{name}-{size}.png", full_page=True)
    # Nothing sticks out sideways on a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= harness.SIZES[size]["width"]
    assert harness.serious_violations(page) == []
    assert errors == []
    context.close()


@pytest.fixture
def finished_game(transactional_db):
    from tests.leagues.helpers import make_user, play_game

    ana = make_user("ana")
    return play_game(ana, [], bots=3, options={"rounds": 1}).pk


def test_the_replay_steps_without_a_full_page_load(finished_game, browser, live_server,
                                                   screenshots):
    context = harness.new_context(browser, "laptop", base_url=live_server.url, locale="en-GB")
    page = context.new_page()
    harness.log_in(page, live_server.url, "ana")
    page.goto(f"/history/{finished_game}/replay/")
    page.evaluate(f"window.{MARKER} = true")
    step = page.locator(".replay-controls .step")
    expect(step).to_contain_text("Step 1 of")
    forward = page.locator("[data-replay-next]")
    box = forward.bounding_box()
    forward.click()
    expect(step).to_contain_text("Step 2 of")
    # The controls keep their place once Back and First become links.
    assert page.locator("[data-replay-next]").bounding_box() == box
    assert page.evaluate(f"window.{MARKER}") is True, 'page.keyboard.press("ArrowRigh'
    page.keyboard.press("ArrowRight")
    expect(step).to_contain_text("Step 3 of")
    assert page.evaluate(f"window.{MARKER}") is True, "after right"
    page.keyboard.press("ArrowLeft")
    expect(step).to_contain_text("Step 2 of")
    assert page.evaluate(f"window.{MARKER}") is True, 'page.get_by_role("link", name='
    # htmx drops a click on the controls while their request is out: each click waits for
    # the answer to the one before (on a busy machine it can come late).
    page.wait_for_load_state("networkidle")
    page.get_by_role("link", name="by trick").click()
    expect(page).to_have_url(re.compile(r"by=trick"))
    page.wait_for_load_state("networkidle")
    at = step.inner_text()
    page.locator("[data-replay-next]").click()
    expect(step).not_to_have_text(at)
    expect(page).to_have_url(re.compile(r"by=trick"))
    assert page.evaluate(f"window.{MARKER}") is True, '# Autoplay moves'
    # Autoplay moves on by itself, then stops when paused. (The step asked for above must
    # have arrived first: htmx drops a click on the controls while their request is out.)
    page.wait_for_load_state("networkidle")
    page.get_by_role("link", name="Play", exact=True).click()
    expect(page.get_by_role("link", name="Pause")).to_be_visible()
    before = step.inner_text()
    # Each step is rebuilt from the record on the server: on a busy machine one can take
    # seconds, so the bound is generous (it ends as soon as the step moves).
    expect(step).not_to_have_text(before, timeout=20000)
    assert page.evaluate(f"window.{MARKER}") is True, 'page.get_by_role("link", name='
    page.get_by_role("link", name="Pause").click()
    expect(page.get_by_role("link", name="Play", exact=True)).to_be_visible()
    assert page.evaluate(f"window.{MARKER}") is True, 'shots = screenshot_dir / "scre'
    page.screenshot(path=screenshots / "replay-desktop.png", full_page=False)
    assert page.evaluate(f"window.{MARKER}") is True
    context.close()


@pytest.fixture
def league_with_games(transactional_db):
    from tests.leagues.helpers import make_league, make_user, record_game

    people = [make_user(n) for n in ("ana", "bram", "cato", "dido")]
    league = make_league(members=people)
    record_game(people, [([0, 1, 2, 3], [1, 0, 3, 2]), ([1, 0, 3, 2], [0, 1, 2, 3])],
                league=league)
    return league.slug


def test_league_standings_fit_a_phone(league_with_games, browser, live_server, screenshots):
    context = harness.new_context(browser, "phone", base_url=live_server.url, locale="en-GB")
    page = context.new_page()
    harness.log_in(page, live_server.url, "ana")
    page.goto(f"/leagues/{league_with_games}/")
    table = page.locator(".league-standings")
    expect(table).to_be_visible()
    # Every column is readable without scrolling sideways, the table's own box included.
    assert page.evaluate("document.documentElement.scrollWidth") <= harness.SIZES["phone"]["width"]
    assert table.evaluate("t => t.parentElement.scrollWidth <= t.parentElement.clientWidth")
    labels = table.locator("tbody tr").first.locator("td").evaluate_all(
        "tds => tds.map(td => getComputedStyle(td, '::before').content)"
    )
    assert '"Times Greater Peon"' in labels
    table.screenshot(path=screenshots / "standings-phone.png")
    context.close()


def test_the_replay_steps_on_with_enter_again_and_again(finished_game, browser, live_server):
    """Each step draws the controls again: the focus stays on Forward, so that Enter steps
    on as often as pressed (and never finds Back in Forward's place)."""
    context = harness.new_context(browser, "laptop", base_url=live_server.url, locale="en-GB")
    page = context.new_page()
    harness.log_in(page, live_server.url, "ana")
    page.goto(f"/history/{finished_game}/replay/")
    step = page.locator(".replay-controls .step")
    page.locator("[data-replay-next]").focus()
    for number in (2, 3, 4):
        page.keyboard.press("Enter")
        expect(step).to_contain_text(f"Step {number} of")
        expect(page.locator("[data-replay-next]")).to_be_focused()
