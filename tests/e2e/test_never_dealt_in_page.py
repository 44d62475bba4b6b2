"""A newcomer whose first round never came (the game ended first) follows the table's
link on a phone and a laptop, in English and German: the page says what happened, fits
the screen, has no serious accessibility problem and leads back to their games.
Screenshots go to var/screenshots/."""

import pytest
from playwright.sync_api import expect

from games import commands
from tests.e2e import harness
from tests.helpers import make_user, play_out, start_table

pytestmark = pytest.mark.e2e

SAID = {
    "en": "ended before the round you were to join: you were never dealt in.",
    "de": "endete vor der Runde, in der du einsteigen solltest: Du hast nie Karten bekommen.",
}


@pytest.fixture
def ended_first(live_server):
    host = make_user("hanna", display_name="Hanna")
    game = start_table(host, [make_user("ivo")], bots=3, options={"rounds": None},
                       name="Donnerstagsrunde mit Freunden")
    commands.join_in_progress(game.pk, make_user("jana", display_name="Jana"))
    commands.end_after_this_round(game.pk, host)
    return play_out(game).pk


@pytest.mark.parametrize("code", sorted(SAID))
def test_the_newcomer_reads_why_the_table_is_gone(ended_first, browser, live_server,
                                                  screenshots, code):
    for size in ("phone", "laptop"):
        context = harness.new_context(browser, size,
                                      extra_http_headers={"Accept-Language": code})
        page = context.new_page()
        problems = harness.collect_errors(
            page, ignore=lambda msg: msg.text.startswith("Failed to load resource"))
        harness.log_in(page, live_server.url, "jana")
        answer = page.goto(f"{live_server.url}/t/{ended_first}/")
        assert answer.status == 410
        expect(page.locator("main")).to_contain_text(SAID[code])
        assert not harness.wider_than_screen(page)
        page.screenshot(path=str(screenshots / f"never-dealt-in-{size}-{code}.png"))
        assert harness.serious_violations(page) == []
        page.locator("main .error-page-ways a").first.click()
        page.wait_for_load_state()
        assert page.url == f"{live_server.url}/"
        assert problems == []
        context.close()
