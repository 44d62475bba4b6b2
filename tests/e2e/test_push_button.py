"""Switching notifications on where it cannot work, in a real browser: a browser that
refuses push here (a private window) says it is not available, not "try again"; a push
service that never answers is reported after a bounded wait, not left hanging."""

import pytest
from playwright.sync_api import expect

from tests.e2e import harness
from tests.helpers import make_user

pytestmark = pytest.mark.e2e

# What a private window's browser answers when asked to subscribe.
PRIVATE_WINDOW = """
PushManager.prototype.subscribe = function () {
  return Promise.reject(new DOMException("Registration failed - permission denied",
                                         "NotAllowedError"));
};
"""
# A push service that never answers; the page is marked once the browser is asked (the
# page's wait starts before that, once the permission is answered).
NO_ANSWER = """
PushManager.prototype.subscribe = function () {
  document.documentElement.dataset.pushAsked = "yes";
  return new Promise(() => {});
};
"""


@pytest.fixture
def player(live_server):
    return make_user("ines", display_name="Ines")


def _profile(browser, live_server, script, clock=False):
    context = harness.new_context(browser, "phone")
    context.grant_permissions(["notifications"], origin=live_server.url)
    context.add_init_script(script)
    page = context.new_page()
    if clock:
        page.clock.install()
    harness.log_in(page, live_server.url, "ines")
    page.goto(f"{live_server.url}/accounts/profile/")
    expect(page.get_by_role("heading", name="Profile")).to_be_visible()
    page.wait_for_function("async () => Boolean(await navigator.serviceWorker.ready)",
                           timeout=15_000)
    return context, page


def test_a_browser_without_push_here_says_it_is_not_available(player, browser, live_server):
    context, page = _profile(browser, live_server, PRIVATE_WINDOW)
    box = page.locator(".devices [data-push]")
    box.get_by_role("button", name="Notify me on this device").click()
    expect(box.locator("[data-push-state]")).to_contain_text("not available in this browser")
    expect(box.locator("[data-push-state]")).not_to_contain_text("try again")
    expect(box.get_by_role("button", name="Notify me on this device")).to_be_hidden()
    context.close()


def test_a_push_service_that_never_answers_is_reported_after_ten_seconds(
    player, browser, live_server,
):
    context, page = _profile(browser, live_server, NO_ANSWER, clock=True)
    box = page.locator(".devices [data-push]")
    state = box.locator("[data-push-state]")
    box.get_by_role("button", name="Notify me on this device").click()
    expect(state).to_contain_text("Switching notifications on")
    # The ten seconds start once the permission is answered, which takes its own time:
    # moving the clock on before then would move it on before the wait began.
    expect(page.locator("html[data-push-asked]")).to_be_attached()
    page.clock.run_for(9_000)
    expect(state).not_to_contain_text("could not reach")
    page.clock.run_for(1_500)
    expect(state).to_contain_text("could not reach its notification service")
    expect(box.get_by_role("button", name="Notify me on this device")).to_be_enabled()
    context.close()
