"""A whole game against three bots, on a phone, by tapping: no script error and no
Content-Security-Policy violation from the first page to the final standings; the header
follows the rounds and the tab title says when it is your turn, all without a reload."""

import json
import random
import re

import pytest
from playwright.sync_api import expect

from tests.e2e import harness
from tests.helpers import make_user, start_table

pytestmark = pytest.mark.e2e

MAX_MOVES = 200
# Violations are reported as events, not always on the console: collect them on the page.
WATCH_CSP = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective}: ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


@pytest.fixture
def table(live_server, eager_tasks):
    tess = make_user("tess", display_name="Tess")
    return start_table(tess, bots=3, seed=20261122, name="Kitchen table").pk


def _move(page, rng: random.Random) -> str:
    """Tap what a player would: the cards and the button of a legal move."""
    dock = page.locator("#actions")
    form = page.locator("#move-form")
    move = form.get_attribute("data-move") if form.count() else None
    offer = dock.locator(".revolution-offer button")
    if offer.count() and move is None:
        offer.last.click()
        return "revolution"
    if move == "give_back":
        for card in form.locator("label.hcard:has(input:checked)").all():
            card.click()
        cards = form.locator("label.hcard:has(input:not([disabled]))")
        for index in rng.sample(range(cards.count()), int(form.get_attribute("data-due"))):
            cards.nth(index).click()
        dock.locator("button.give").click()
        return "give back"
    legal = json.loads(form.get_attribute("data-legal") or "{}")
    if legal and (rng.random() < 0.8 or not dock.locator("button.pass").count()):
        for rank in rng.choice(sorted(legal)).split(","):
            form.locator(f"label.hcard:has(input[value='{rank}']:not(:checked))").first.click()
        dock.locator("button.play").click()
        return "play"
    dock.locator("button.pass").click()
    return "pass"


def test_a_whole_game_with_bots_on_a_phone(table, browser, live_server):
    context = harness.new_context(browser, "phone", locale="en-GB")
    context.add_init_script(WATCH_CSP)
    page = context.new_page()
    problems = harness.collect_errors(page)
    harness.log_in(page, live_server.url, "tess")
    page.goto(f"{live_server.url}/t/{table}/")
    page.evaluate("window.__same_page = true")
    rng = random.Random(5)
    rounds_seen = set()
    over = page.locator("#status .turn.done")
    for _ in range(MAX_MOVES):
        mine = page.locator("#actions")
        expect(mine.or_(over)).to_be_visible(timeout=20_000)
        rounds_seen.add(re.search(r"Round (\d) of 2", page.locator("#game-head-info")
                                  .inner_text())[1])
        if over.count():
            break
        assert page.title().startswith("(Your turn) "), page.title()
        expect(page.locator("#actions")).to_be_in_viewport()
        seen = page.locator("#looked input[name=n]").get_attribute("value")
        kind = _move(page, rng)
        # The answer replaces what the page had seen; a move that ends my turn also
        # takes "(Your turn)" off the title.
        expect(page.locator(f"#looked input[name=n]:not([value='{seen}'])")
               .or_(over).first).to_be_attached()
        assert not page.locator(".action-error").count(), (kind, page.locator(
            ".action-error").inner_text())
        if not page.locator("#actions").count():
            # The script retitles the page just after the swap: wait for it.
            expect(page).not_to_have_title(re.compile(r"^\(Your turn\)"))
    else:
        raise AssertionError(f"no end after {MAX_MOVES} moves")
    expect(page.get_by_role("heading", name="Final standings")).to_be_visible()
    assert rounds_seen == {"1", "2"}, rounds_seen
    assert page.evaluate("window.__same_page") is True, "the page was reloaded"
    assert page.evaluate("window.__csp") == []
    assert problems == []
    context.close()
