"""Naming a player in a real browser: "@" and the start of a name offer the seated names
(a combobox's listbox from the static script, under the site's Content-Security-Policy),
chosen with the keyboard at a desk and by a tap on a phone, in English and in Dutch; the
page has no script error and no serious accessibility violation with the list open."""

import os

import pytest

from tests.e2e import harness
from tests.helpers import session_for

from .conftest import start_table

pytestmark = pytest.mark.e2e
TIMEOUT = 15_000
SHOTS = os.environ.get("SHOTS_DIR", "")


@pytest.fixture
def table(live_server, alice, bob, carol):
    bob.language = "nl"
    bob.save()
    game = start_table(alice, [bob, carol], bots=1)
    cookies = {user.username: session_for(user) for user in (alice, bob)}
    return game.pk, cookies




def _shot(page, name):
    if SHOTS:
        # The caret left as it is: hiding it takes a style the page's policy refuses.
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), caret="initial")


def test_at_and_a_few_letters_offer_the_seated_names(table, browser, live_server):
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT)
    game_id, cookies = table
    problems: list[str] = []

    # Alice at a desk, in English: the keyboard.
    alice = harness.signed_in_page(browser, live_server.url, cookies["alice"], "laptop",
                                   problems, "alice", TIMEOUT)
    alice.goto(f"/t/{game_id}/")
    field = alice.get_by_role("combobox", name="Your message")
    field.press_sequentially("Over to you, @c")
    names = alice.get_by_role("listbox", name="Players at this table")
    expect(names).to_be_visible()
    expect(names.get_by_role("option")).to_have_text(["@Carol"])
    expect(field).to_have_attribute("aria-expanded", "true")
    _shot(alice, "chat-mention-laptop-en")
    field.press("Enter")  # chooses the name, does not send
    expect(field).to_have_value("Over to you, @Carol ")
    expect(names).to_be_hidden()
    field.press_sequentially("and @")
    expect(names.get_by_role("option")).to_have_text(["@Bob", "@Carol"])  # never herself
    field.press("ArrowDown")
    field.press("Tab")
    expect(field).to_have_value("Over to you, @Carol and @Carol ")
    field.press("Enter")  # now it sends
    expect(alice.locator("#chat-log")).to_contain_text("Over to you, @Carol and @Carol")

    # Bob on a phone, in Dutch: a tap.
    bob = harness.signed_in_page(browser, live_server.url, cookies["bob"], "phone", problems,
                                 "bob", TIMEOUT)
    bob.goto(f"/t/{game_id}/")
    bob.locator("[data-chat-toggle]").click()
    field = bob.get_by_role("combobox", name="Je bericht")
    field.press_sequentially("@AL")
    names = bob.get_by_role("listbox", name="Spelers aan deze tafel")
    expect(names.get_by_role("option")).to_have_text(["@Alice"])
    expect(names).to_be_in_viewport()
    _shot(bob, "chat-mention-phone-nl")
    # No script or policy error so far; axe (whose own styles the policy refuses) last.
    assert not problems, problems
    violations = harness.serious_violations(bob)
    assert not violations, harness.describe(violations)
    names.get_by_role("option", name="@Alice").tap()
    expect(field).to_have_value("@Alice ")
    expect(field).to_be_focused()
    # Escape closes the list of names, and only that: the talk stays open until a second.
    panel = bob.locator("[data-chat-panel]")
    field.press_sequentially("@c")
    expect(names).to_be_visible()
    field.press("Escape")
    expect(names).to_be_hidden()
    expect(panel).to_have_attribute("open", "")
    field.press("Escape")
    expect(panel).not_to_have_attribute("open", "")
