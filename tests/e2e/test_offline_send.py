"""A form sent while the connection is gone says so: the tap is not silently lost (the
page's own reads try again by themselves and say nothing)."""

import pytest
from playwright.sync_api import expect

from tests.e2e import harness
from tests.helpers import make_user, session_for, start_table

pytestmark = pytest.mark.e2e


@pytest.fixture
def table(live_server, eager_tasks):
    ana = make_user("ana", display_name="Ana")
    game = start_table(ana, bots=3, seed=11, name="Offline table")
    return game.pk, session_for(ana)


def test_a_message_sent_offline_says_it_did_not_go(table, browser, live_server):
    game_id, session = table
    problems = []
    page = harness.signed_in_page(browser, live_server.url, session, "laptop", problems,
                                  "offline")
    page.goto(f"{live_server.url}/t/{game_id}/")
    form = page.locator("#chat-form")
    expect(form).to_be_visible()
    form.locator("input[name=text]").fill("Hello from the train")
    page.context.set_offline(True)
    form.locator("button[type=submit]").click()
    alert = page.locator("#alerts .error")
    expect(alert).to_contain_text("could not be reached: nothing was sent")
    said = page.locator(".chat-panel").get_by_text("Hello from the train", exact=True)
    expect(said).to_have_count(0)
    page.context.set_offline(False)
    form.locator("button[type=submit]").click()
    expect(alert).to_have_count(0)
    expect(form.locator("input[name=text]")).to_have_value("")
    expect(said).not_to_have_count(0)
