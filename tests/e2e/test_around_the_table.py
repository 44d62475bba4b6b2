"""The pages around the table in a real browser: the welcome page and How to play at phone
and desktop sizes (screenshots in var/screenshots/, and axe-core finds no serious or
critical accessibility violation), and the replay stepping without a full page load."""

import re

import pytest
from playwright.sync_api import expect

from tests.helpers import PASSWORD

pytestmark = pytest.mark.e2e

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 850}}
MARKER = "dalmutiReplayNoReload"


def _serious_violations(page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(n["target"][0] for n in v["nodes"][:3])
        for v in results.response["violations"] if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("path, name", [("/", "welcome"), ("/rules/", "rules")])
def test_the_welcome_and_rules_pages_look_right_and_pass_axe(
    browser, live_server, screenshot_dir, size, path, name
):
    context = browser.new_context(
        base_url=live_server.url, locale="en-GB", viewport=SIZES[size],
        is_mobile=size == "phone", has_touch=size == "phone",
    )
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.goto(path)
    expect(page.locator("main h1")).to_be_visible()
    shots = screenshot_dir / "screenshots"
    shots.mkdir(exist_ok=True)
    page.screenshot(path=shots / f"{name}-{size}.png", full_page=True)
    # Nothing sticks out sideways on a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    assert _serious_violations(page) == []
    assert errors == []
    context.close()


@pytest.fixture
def finished_game(transactional_db, settings):
    from tests.leagues.helpers import make_user, play_game

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    ana = make_user("ana")
    return play_game(ana, [], bots=3, options={"rounds": 1}).pk


def test_the_replay_steps_without_a_full_page_load(finished_game, browser, live_server,
                                                   screenshot_dir):
    context = browser.new_context(base_url=live_server.url, locale="en-GB",
                                  viewport=SIZES["desktop"])
    page = context.new_page()
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("ana")
    page.get_by_label("Password").fill(PASSWORD)
    page.locator("main").get_by_role("button", name="Log in").click()
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
    page.get_by_role("link", name="by trick").click()
    page.locator("[data-replay-next]").click()
    expect(page).to_have_url(re.compile(r"by=trick"))
    assert page.evaluate(f"window.{MARKER}") is True, '# Autoplay moves'
    # Autoplay moves on by itself, then stops when paused.
    page.get_by_role("link", name="Play", exact=True).click()
    before = step.inner_text()
    # Each step is rebuilt from the record on the server: on a busy machine one can take
    # seconds, so the bound is generous (it ends as soon as the step moves).
    expect(step).not_to_have_text(before, timeout=20000)
    assert page.evaluate(f"window.{MARKER}") is True, 'page.get_by_role("link", name='
    page.get_by_role("link", name="Pause").click()
    expect(page.get_by_role("link", name="Play", exact=True)).to_be_visible()
    assert page.evaluate(f"window.{MARKER}") is True, 'shots = screenshot_dir / "scre'
    shots = screenshot_dir / "screenshots"
    shots.mkdir(exist_ok=True)
    page.screenshot(path=shots / "replay-desktop.png", full_page=False)
    assert page.evaluate(f"window.{MARKER}") is True
    context.close()


@pytest.fixture
def league_with_games(transactional_db, settings):
    from tests.leagues.helpers import make_league, make_user, record_game

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    people = [make_user(n) for n in ("ana", "bram", "cato", "dido")]
    league = make_league(members=people)
    record_game(people, [([0, 1, 2, 3], [1, 0, 3, 2]), ([1, 0, 3, 2], [0, 1, 2, 3])],
                league=league)
    return league.slug


def test_league_standings_fit_a_phone(league_with_games, browser, live_server, screenshot_dir):
    context = browser.new_context(base_url=live_server.url, locale="en-GB",
                                  viewport=SIZES["phone"], is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("ana")
    page.get_by_label("Password").fill(PASSWORD)
    page.locator("main").get_by_role("button", name="Log in").click()
    page.goto(f"/leagues/{league_with_games}/")
    table = page.locator(".league-standings")
    expect(table).to_be_visible()
    # Every column is readable without scrolling sideways, the table's own box included.
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES["phone"]["width"]
    assert table.evaluate("t => t.parentElement.scrollWidth <= t.parentElement.clientWidth")
    labels = table.locator("tbody tr").first.locator("td").evaluate_all(
        "tds => tds.map(td => getComputedStyle(td, '::before').content)"
    )
    assert '"Times Greater Peon"' in labels
    shots = screenshot_dir / "screenshots"
    shots.mkdir(exist_ok=True)
    table.screenshot(path=shots / "standings-phone.png")
    context.close()
