"""Two players talk at a table in real browsers: Alice at a desk, Bob on a phone.

Setup happens before the browser starts; once Playwright runs, the test makes no ORM calls
and reads everything from the pages (see tests/e2e/conftest.py).
"""

import pytest

from tests.e2e import harness
from tests.helpers import session_for

from .conftest import start_table

pytestmark = pytest.mark.e2e
TIMEOUT = 15_000


@pytest.fixture
def table(live_server, settings, alice, bob):
    settings.GAME_POLL_SECONDS = 1
    settings.CHAT_RATE_LIMIT = 4
    game = start_table(alice, [bob], bots=2)
    cookies = {user.username: session_for(user) for user in (alice, bob)}
    return game.pk, cookies




def test_two_players_talk_in_character(table, browser, live_server):
    from playwright.sync_api import expect

    game_id, cookies = table
    problems: list[str] = []
    expect.set_options(timeout=TIMEOUT)
    alice = harness.signed_in_page(browser, live_server.url, cookies["alice"], "laptop",
                                   problems, "alice", TIMEOUT)
    bob = harness.signed_in_page(browser, live_server.url, cookies["bob"], "phone", problems,
                                 "bob", TIMEOUT)
    alice.goto(f"/t/{game_id}/")
    bob.goto(f"/t/{game_id}/")

    # At a desk the panel is open beside the table; on a phone it is closed, and a button
    # at the head of the table opens it.
    expect(alice.locator("details.chat-panel")).to_have_attribute("open", "")
    expect(bob.locator("details.chat-panel")).not_to_have_attribute("open", "")
    expect(bob.locator("[data-chat-toggle]")).to_be_in_viewport()
    expect(bob.locator("[data-chat-badge]")).to_be_hidden()

    # Alice says something; her input empties, her log shows it at once.
    alice.get_by_label("Your message").fill("Hello <b>Bob</b>, fetch the coffee")
    alice.get_by_label("Your message").press("Enter")
    expect(alice.locator("#chat-log")).to_contain_text("Hello <b>Bob</b>, fetch the coffee")
    expect(alice.get_by_label("Your message")).to_have_value("")

    # Bob's page brings it with its next poll, as plain text, counted as unread.
    expect(bob.locator("#chat-latest")).to_contain_text("Hello <b>Bob</b>")
    assert bob.locator("#chat b").count() == 0
    expect(bob.locator("[data-chat-badge]")).to_have_text("1")

    # Bob opens the sheet (read now) and plays his part with a flourish of his own title.
    bob.locator("[data-chat-toggle]").click()
    expect(bob.locator("[data-chat-badge]")).to_be_hidden()
    expect(bob.get_by_label("Your message")).to_be_in_viewport()
    # The sheet's own head (its ✕) is what a tap there reaches, not the site header over
    # it; the message field sits at the bottom of the sheet, by the thumb.
    hit = bob.evaluate("""() => {
        const head = document.querySelector('.chat-panel > summary').getBoundingClientRect();
        const at = document.elementFromPoint(head.right - 12, head.top + head.height / 2);
        return at && at.closest('.chat-panel > summary') !== null;
    }""")
    assert hit, "the site header covers the chat sheet's close button"
    field = bob.get_by_label("Your message").bounding_box()
    assert field["y"] > harness.SIZES["phone"]["height"] / 2, (
        f"the message field floats at the top ({field['y']:.0f} px)")
    flourish = bob.locator("#chat-flourishes button").first
    expect(flourish).to_be_visible()
    words = flourish.get_attribute("title")
    flourish.click()
    expect(bob.locator("#chat-log li").first).to_contain_text(words)
    expect(alice.locator("#chat-log li").first).to_contain_text(words)
    expect(alice.locator("#chat-log li.flourish")).to_have_count(1)

    # Talking too fast: the error shows and the typed text stays.
    for n in range(3):
        alice.get_by_label("Your message").fill(f"quick {n}")
        alice.get_by_label("Your message").press("Enter")
        expect(alice.locator("#chat-log")).to_contain_text(f"quick {n}")
    alice.get_by_label("Your message").fill("one too many")
    alice.get_by_label("Your message").press("Enter")
    expect(alice.locator("#chat-error")).to_contain_text("talking too fast")
    expect(alice.get_by_label("Your message")).to_have_value("one too many")
    expect(bob.locator("#chat-log")).to_contain_text("quick 2")

    assert problems == []
