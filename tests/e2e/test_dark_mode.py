"""Dark mode (the phone's or the desktop's setting) reads as well as light: axe-core finds
no serious contrast problem on the game page at a player's turn on the clock, with their
standing orders unfolded, at a revolution's question, nor on an error line."""

import pytest
from playwright.sync_api import expect

from games.models import TurnLimit
from tests.e2e import harness
from tests.helpers import (
    deal_a_merchant_both_jesters,
    make_user,
    play_until,
    session_for,
    start_table,
    waiting_humans,
)

pytestmark = pytest.mark.e2e


@pytest.fixture
def my_turn(live_server, eager_tasks):
    ana = make_user("ana", display_name="Ana")
    game = start_table(ana, bots=3, seed=11, name="Night table",
                       options={"rounds": 2, "first_round_taxes": False},
                       turn_limit=TurnLimit.DAY)
    game = play_until(game, lambda g: g.engine_state().round.phase == "play"
                      and bool(waiting_humans(g)))
    return game.pk, session_for(ana)


@pytest.mark.parametrize("size", harness.SIZES)
def test_the_game_page_at_my_turn_reads_in_dark_mode(my_turn, browser, live_server, size):
    game_id, session = my_turn
    problems = []
    page = harness.signed_in_page(browser, live_server.url, session, size, problems, size)
    page.emulate_media(color_scheme="dark")
    page.goto(f"{live_server.url}/t/{game_id}/")
    expect(page.locator("#status .turn.mine")).to_be_visible()
    expect(page.locator(".deadline").first).to_be_visible()  # the turn's clock
    page.locator("details.orders summary").first.click()
    serious = harness.serious_violations(page)
    assert serious == [], harness.describe(serious)
    assert problems == []


@pytest.fixture
def revolution_question(live_server, eager_tasks):
    """Ana, a Merchant of a second round, dealt both jesters: asked whether to rise."""
    ana = make_user("ana", display_name="Ana")
    game = start_table(ana, bots=4, seed=11, name="Night table", turn_limit=TurnLimit.DAY)
    deal_a_merchant_both_jesters(game, ana)
    return game.pk, session_for(ana)


@pytest.mark.parametrize("size", harness.SIZES)
def test_the_revolution_question_reads_in_dark_mode(revolution_question, browser,
                                                     live_server, size):
    game_id, session = revolution_question
    problems = []
    page = harness.signed_in_page(browser, live_server.url, session, size, problems, size)
    page.emulate_media(color_scheme="dark")
    page.goto(f"{live_server.url}/t/{game_id}/")
    expect(page.locator(".revolution-offer").first).to_be_visible()
    serious = harness.serious_violations(page)
    assert serious == [], harness.describe(serious)
    assert problems == []


def test_an_error_reads_in_dark_mode(browser, live_server):
    """An error line (here, a confirmation link that is no longer valid) is dark words on
    the dark mode's lighter accent."""
    context = harness.new_context(browser, "phone", locale="en-GB", color_scheme="dark")
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/confirm/not-a-token/")
    expect(page.locator("main p.error")).to_be_visible()
    serious = harness.serious_violations(page)
    assert serious == [], harness.describe(serious)
