"""The new-table form switches off what the seat count does not allow, and never loses
what the host chose while the count is being typed: an empty or half-typed field on the
way from 6 to 7 seats leaves merchant trade as chosen."""

import pytest
from playwright.sync_api import expect

from tests.e2e import harness
from tests.helpers import make_user, session_for

pytestmark = pytest.mark.e2e


@pytest.fixture
def host(live_server):
    return session_for(make_user("ana", display_name="Ana"))


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_retyping_the_seats_keeps_the_merchant_trade_chosen(host, browser, live_server,
                                                            size):
    problems = []
    page = harness.signed_in_page(browser, live_server.url, host, size, problems, size)
    page.goto(f"{live_server.url}/tables/new/")
    seats = page.locator("input[name=seats]")
    trade = page.locator("select[name=merchant_trade]")
    deck = page.locator("input[name=reduced_deck]")
    seats.fill("6")
    trade.select_option("chosen")
    # Backspace on 6, then 7: the field is empty for a moment.
    seats.press("End")
    seats.press("Backspace")
    expect(seats).to_have_value("")
    seats.press("7")
    expect(trade).to_have_value("chosen")
    # Too few seats switches it off, with the reason; enough seats bring the choice back.
    seats.fill("5")
    expect(trade).to_have_value("off")
    expect(page.locator("[data-reason=merchant_trade]")).to_be_visible()
    options = page.locator("fieldset", has=trade)
    options.screenshot(path=f"var/screens/new-table-5-seats-{size}.png")
    seats.fill("8")
    expect(trade).to_have_value("chosen")
    expect(page.locator("[data-reason=merchant_trade]")).to_be_hidden()
    options.screenshot(path=f"var/screens/new-table-8-seats-{size}.png")
    # The reduced deck, chosen at 5 seats, comes back the same way.
    seats.fill("5")
    deck.check()
    seats.fill("6")
    expect(deck).not_to_be_checked()
    seats.fill("5")
    expect(deck).to_be_checked()
    assert problems == []
