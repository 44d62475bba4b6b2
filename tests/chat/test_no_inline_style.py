"""The site's Content-Security-Policy allows no inline style; htmx, settling a swapped
element, copies the old element's `style` attribute onto the new one (setAttribute, which
the policy refuses) whenever the old one carries one: set by a script through the CSSOM
(allowed), by the browser or by an extension. The site's htmx settles no style."""

import pytest

from tests.e2e import harness
from tests.helpers import session_for

from .conftest import start_table

pytestmark = pytest.mark.e2e


@pytest.fixture
def table(live_server, alice, bob):
    game = start_table(alice, [bob], bots=2)
    return game.pk, session_for(bob)


def test_a_swap_never_writes_an_inline_style(table, browser, live_server):
    from playwright.sync_api import expect

    game_id, cookie = table
    problems: list[str] = []
    bob = harness.signed_in_page(browser, live_server.url, cookie, "laptop", problems, "bob",
                                 15_000)
    bob.goto(f"/t/{game_id}/")
    # An element the talk's answer replaces, styled through the CSSOM (no violation).
    bob.evaluate("document.getElementById('chat-seen').style.color = 'inherit'")
    assert problems == []
    bob.get_by_label("Your message").fill("Who leads?")
    bob.get_by_label("Your message").press("Enter")
    expect(bob.locator("#chat-log")).to_contain_text("Who leads?")
    # Settled (a locator waits without evaluating a string, which the policy refuses).
    expect(bob.locator(".htmx-settling")).to_have_count(0)
    assert problems == []
