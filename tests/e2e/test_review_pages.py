"""The expert's review on the game record, in the replay and on the player page, on a
phone and on a laptop, in all four languages: nothing wider than the screen, the
accessibility check clean, no script error. Screenshots go to var/screenshots/."""

import threading

import pytest
from django.db import connection
from playwright.sync_api import expect

from games.commands import reviews
from tests.e2e import harness
from tests.helpers import make_user, play_out, start_table

pytestmark = pytest.mark.e2e

# Each size in two languages: the four languages in all.
LANGUAGES = {"phone": ("en", "de"), "laptop": ("nl", "fr")}


@pytest.fixture
def reviewed(live_server, settings):
    """Tess's finished game, reviewed, and another whose review is under way (made before
    the browser starts: its thread may not use the database)."""
    settings.DALMUTI_REVIEW_SAMPLES = 2
    settings.DALMUTI_EXPERT_SAMPLES = 2
    tess = make_user("tess", display_name="Tess")
    done = play_out(start_table(tess, bots=3, seed=11, name="Kitchen table",
                                options={"rounds": 1}))
    reviews.judge_some(done.pk)
    running = play_out(start_table(tess, bots=3, seed=12, name="Garden table",
                                   options={"rounds": 1}))
    reviews.begin_review(running.pk)
    marked = done.review.decisions.exclude(kind="").order_by("seq").first() or \
        done.review.decisions.order_by("seq").first()
    return done.pk, running.pk, marked.seq


@pytest.mark.parametrize("size", harness.SIZES)
def test_the_review_pages_read_well_in_every_language(reviewed, browser, live_server, size,
                                                      screenshots):
    done, running, step = reviewed
    for code in LANGUAGES[size]:
        context = harness.new_context(browser, size,
                                      extra_http_headers={"Accept-Language": code})
        page = context.new_page()
        problems = harness.collect_errors(page)
        harness.log_in(page, live_server.url, "tess")
        for name, path in (("record", f"/history/{done}/"),
                           ("progress", f"/history/{running}/"),
                           ("replay", f"/history/{done}/replay/?step={step}"),
                           ("player", "/players/tess/")):
            page.goto(live_server.url + path)
            expect(page.locator("html")).to_have_attribute("lang", code)
            if name == "record":
                expect(page.locator(".review-table")).to_be_visible()
                page.locator(".review-explained summary").click()
            elif name == "progress":
                expect(page.locator("progress#review-progress")).to_be_visible()
            elif name == "replay":
                expect(page.locator(".review-mark .verdict")).to_be_visible()
            else:
                expect(page.locator("svg.accuracy-chart")).to_be_visible()
            assert not harness.wider_than_screen(page), name
            part = {"record": "#review", "progress": "#review", "replay": ".replay-controls",
                    "player": "section[aria-labelledby=accuracy-heading]"}[name]
            if name == "replay":  # the controls, the verdict and the table below it
                page.screenshot(path=str(screenshots / f"review-{name}-{code}-{size}.png"))
            else:
                page.locator(part).screenshot(
                    path=str(screenshots / f"review-{name}-{code}-{size}.png"))
            violations = harness.serious_violations(page)
            assert violations == [], f"{name} {code}: {harness.describe(violations)}"
        if (size, code) == ("phone", LANGUAGES["phone"][-1]):
            # The progress bar gives way to the summary by itself once the review is done
            # (a worker's thread, not this one: Playwright's may not use the database).
            page.goto(f"{live_server.url}/history/{running}/")
            expect(page.locator("progress#review-progress")).to_be_visible()
            worker = threading.Thread(target=_review, args=(running,))
            worker.start()
            worker.join()
            expect(page.locator(".review-table")).to_be_visible(timeout=20_000)
            expect(page.locator("progress")).to_have_count(0)
        assert problems == []
        context.close()


def _review(game_id: int) -> None:
    try:
        reviews.judge_some(game_id)
    finally:
        connection.close()
