"""Learning by playing, in a browser: the guided table's tip (in the page's flow, never
over the dock), the Hint button's answer, a tip dismissed for good, and the offer on My
games; on a phone and a laptop, in the four languages, each page passing the
accessibility check. Screenshots go to var/screenshots/."""

import re

import pytest

from games.commands import learning
from tests.e2e import harness
from tests.helpers import make_user, play_until, waiting_humans

pytestmark = pytest.mark.e2e

LANGUAGES = ("en", "nl", "de", "fr")
VISITS = [("en", "phone"), ("nl", "laptop"), ("de", "phone"), ("fr", "laptop")]
# The dismiss button and the Hint button in each language.
GOT_IT = {"en": "Got it", "nl": "Begrepen", "de": "Verstanden", "fr": "Compris"}
HINT = {"en": "Hint", "nl": "Hint", "de": "Hinweis", "fr": "Indice"}


@pytest.fixture
def learners(live_server, settings):
    settings.DALMUTI_EXPERT_SAMPLES = 4  # a quick hint
    tables = {}
    for language in LANGUAGES:
        user = make_user(f"learner{language}", language=language)
        game = learning.start_guided_game(user)
        play_until(game, lambda g: bool(waiting_humans(g)))
        tables[language] = (user.username, game.pk)
    make_user("fresh", language="nl")
    return tables


def _overlap(a: dict, b: dict) -> bool:
    return not (a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"]
                or a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"])


def test_a_guided_game_in_four_languages_at_both_sizes(learners, browser, live_server,
                                                        screenshots):
    problems = []
    # Each language once, the sizes taking turns: both sizes are seen, in every language.
    for language, size in VISITS:
        username, game_id = learners[language]
        label = f"{language}-{size}"
        context = harness.new_context(browser, size)
        page = context.new_page()
        harness.collect_errors(page, problems, label=label)
        harness.log_in(page, live_server.url, username)
        page.goto(f"{live_server.url}/t/{game_id}/")
        tip = page.locator(".tip")
        assert tip.is_visible(), label
        title = tip.locator("h2").inner_text()
        # In view when the turn comes, wholly above the dock, never under it.
        box, dock = tip.bounding_box(), page.locator("#actions").bounding_box()
        assert not _overlap(box, dock), label
        # (Less than a pixel above the top is the scroll's rounding, not a tip out of view.)
        assert -1 < box["y"] and box["y"] + box["height"] <= dock["y"], label
        page.screenshot(path=str(screenshots / f"learn-tip-{label}.png"))
        page.get_by_role("button", name=HINT[language], exact=True).click()
        advice = page.locator("#advice")
        advice.locator("strong").wait_for()
        assert len(advice.inner_text()) > 20, label
        page.screenshot(path=str(screenshots / f"learn-{label}.png"))
        serious = harness.serious_violations(page)
        assert serious == [], f"{label}: " + harness.describe(serious)
        # Dismissed, the tip is gone for good (another may take its place).
        tip.get_by_role("button", name=GOT_IT[language]).click()
        page.wait_for_function(
            "t => !document.querySelector('.tip h2') || "
            "document.querySelector('.tip h2').innerText !== t", arg=title)
        page.reload()
        assert page.locator(".tip h2", has_text=re.compile(re.escape(title))).count() == 0
        context.close()
    # Somebody new is offered a guided game on My games.
    context = harness.new_context(browser, "phone")
    page = context.new_page()
    harness.collect_errors(page, problems, label="offer")
    harness.log_in(page, live_server.url, "fresh")
    assert page.get_by_role("button", name="Leer door te spelen").is_visible()
    page.screenshot(path=str(screenshots / "learn-offer-phone.png"))
    serious = harness.serious_violations(page)
    assert serious == [], "offer: " + harness.describe(serious)
    context.close()
    assert problems == []
