"""Words on the card table break where a reader expects: a card's name and a seat's tags
only between syllables (with a hyphen) or between words, in every language, on a phone
and at a desk; a seat's tags (bot, on vacation, away, …), title and state are never cut
to an ellipsis nor run out of the seat."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e import harness
from tests.helpers import make_user, start_table

pytestmark = pytest.mark.e2e

# For every card name: the places where its text goes on to a new line, each given as
# the characters either side. A break is fine after a space, a hyphen or a soft hyphen.
BAD_BREAKS = r"""() => {
    const bad = [];
    for (const el of document.querySelectorAll('.card .cname, .seat .tag')) {
        const text = el.firstChild;
        if (!text || !el.checkVisibility()) continue;
        const range = document.createRange();
        let top = null;
        for (let i = 0; i < text.length; i++) {
            range.setStart(text, i); range.setEnd(text, i + 1);
            // A character just after a break may also report the end of the line before.
            const rects = [...range.getClientRects()].filter((r) => r.width);
            if (!rects.length) continue;  // a soft hyphen that was not used
            const box = rects[rects.length - 1];
            if (top !== null && box.top > top + 2) {
                const before = text.data[i - 1];
                if (!' -\u00ad'.includes(before)) {
                    bad.push(text.data.replaceAll('\u00ad', '') + ' @' + i);
                }
            }
            top = box.top;
        }
    }
    return bad;
}"""

CUT_TAGS = """() => [...document.querySelectorAll('.seat .tag, .seat-title, .seat-state')]
    .filter((tag) => tag.checkVisibility())
    .filter((tag) => {
        const seat = tag.closest('.seat').getBoundingClientRect();
        const box = tag.getBoundingClientRect();
        return tag.scrollWidth > tag.clientWidth + 1 || box.right > seat.right + 1
            || box.left < seat.left - 1;
    })
    .map((tag) => tag.textContent)"""


@pytest.fixture
def big_table(live_server):
    tess = make_user("tess", display_name="Tess")
    friend = make_user("maximiliane", display_name="Maximiliane-Charlotte")
    game = start_table(tess, [friend], bots=6, seed=7)
    # Away from every table: her seat carries that tag too.
    friend.away_until = timezone.now() + timedelta(days=3)
    friend.save()
    return game.pk


@pytest.mark.parametrize("size", harness.SIZES)
@pytest.mark.parametrize("code", ["en", "nl", "de", "fr"])
def test_card_names_break_between_syllables_and_seat_tags_stay_whole(
        big_table, browser, live_server, size, code, screenshots):
    context = harness.new_context(browser, size, extra_http_headers={"Accept-Language": code})
    page = context.new_page()
    harness.log_in(page, live_server.url, "tess")
    page.goto(f"{live_server.url}/t/{big_table}/")
    expect(page.locator("html")).to_have_attribute("lang", code)
    assert page.locator(".hcard .cname").count() >= 8
    assert page.locator(".seat .tag").count() >= 7  # the bots, and one away
    assert page.evaluate(BAD_BREAKS) == []
    assert page.evaluate(CUT_TAGS) == []
    page.screenshot(path=str(screenshots / f"words-{size}-{code}.png"), full_page=True)
    context.close()
