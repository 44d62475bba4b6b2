"""The installable app in a real browser: the manifest is valid (name, icons that load,
the start page), the service worker registers and controls the page, and with the
network gone a page shows the offline page instead of the browser's error."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e import harness
from tests.helpers import make_user

pytestmark = pytest.mark.e2e


@pytest.fixture
def player(live_server):
    return make_user("ines", display_name="Ines")


def test_manifest_service_worker_and_offline_page(player, browser, live_server, screenshots):
    context = harness.new_context(browser, "phone")
    page = context.new_page()
    problems = harness.collect_errors(page)
    harness.log_in(page, live_server.url, "ines")

    href = page.locator("link[rel=manifest]").get_attribute("href")
    manifest = page.evaluate("async (url) => (await fetch(url)).json()", href)
    assert manifest["name"] == "The Great Dalmuti" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])
    for icon in manifest["icons"]:
        kind = page.evaluate(
            "async (url) => (await fetch(url)).headers.get('content-type')", icon["src"])
        assert kind == "image/png", icon["src"]

    # The service worker registers and, on the next load, controls the page.
    page.wait_for_function("async () => Boolean(await navigator.serviceWorker.getRegistration())"
                           " && (await navigator.serviceWorker.ready).active !== null",
                           timeout=15_000)
    page.reload()
    assert page.evaluate("() => navigator.serviceWorker.controller !== null")
    scope = page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).scope")
    assert scope == f"{live_server.url}/"

    # The profile offers notifications on this device, with no prompt on load.
    page.goto(f"{live_server.url}/accounts/profile/")
    expect(page.get_by_role("button", name="Notify me on this device")).to_be_visible()
    assert page.evaluate("() => Notification.permission") == "default"
    page.screenshot(path=str(screenshots / "push-profile-phone.png"), full_page=True)

    # The network goes: a page shows the offline page, in the address that failed.
    context.set_offline(True)
    page.goto(f"{live_server.url}/history/")
    expect(page.get_by_role("heading", name="You are offline")).to_be_visible()
    page.screenshot(path=str(screenshots / "offline-phone.png"))
    # "Try again" asks for that address again, not the home page.
    assert page.evaluate("() => document.querySelector('a.button').href") == (
        f"{live_server.url}/history/")
    # The network comes back: the page asks again by itself.
    context.set_offline(False)
    expect(page.get_by_role("heading", name="Game history")).to_be_visible()
    assert problems == []

    # A player who changes language reads the offline page in the new one (it was kept
    # in the language of the day the worker was installed).
    page.context.add_cookies([{"name": "django_language", "value": "de",
                               "url": live_server.url}])
    page.goto(f"{live_server.url}/history/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    # The page's own language, not the language menu's German choice (lang="de" too).
    page.wait_for_function(
        "async () => (await (await caches.match('/offline/')).text())"
        ".includes('<html lang=\"de\"')",
        timeout=15_000)
    context.set_offline(True)
    page.goto(f"{live_server.url}/")
    expect(page.get_by_role("heading", name="Du bist offline")).to_be_visible()
    context.set_offline(False)
    context.close()


def test_a_slow_fetch_of_the_offline_page_never_undoes_a_change_of_language(
        player, browser, live_server):
    # The worker fetches the offline page again whenever a page comes in another language
    # than the one it keeps. A fetch asked for in English that answers after the player
    # has gone on to French must not leave the English page kept.
    context = harness.new_context(browser, "phone")
    page = context.new_page()
    harness.log_in(page, live_server.url, "ines")
    page.wait_for_function("async () => (await navigator.serviceWorker.ready).active !== null",
                           timeout=15_000)
    page.reload()
    assert page.evaluate("() => navigator.serviceWorker.controller !== null")

    held = []

    def hold_the_english_fetch(route):
        if "django_language=en" in (route.request.headers.get("cookie") or ""):
            held.append(route)
        else:
            route.continue_()

    context.route("**/offline/", hold_the_english_fetch)

    def until(condition) -> bool:
        # Playwright answers the held requests only while it is called: wait through it.
        for _ in range(300):
            if condition():
                return True
            page.wait_for_timeout(50)
        return condition()

    def kept_in(language: str) -> None:
        page.wait_for_function(
            "async (language) => (await (await caches.match('/offline/')).text())"
            ".includes(`<html lang=\"${language}\"`)", arg=language, timeout=15_000)

    def read_in(language: str) -> None:
        context.add_cookies([{"name": "django_language", "value": language,
                              "url": live_server.url}])
        page.goto(f"{live_server.url}/history/")
        expect(page.locator("html")).to_have_attribute("lang", language)

    read_in("de")
    kept_in("de")
    read_in("en")  # the worker asks for the English page: held
    assert until(lambda: held), "the worker never asked for the page in English"
    read_in("fr")
    kept_in("fr")
    # The English page answers at last, its assets marked: once the worker has them, it
    # has read the page and gone on to keep it, or not.
    answer = held[0].fetch()
    held[0].fulfill(response=answer, body=re.sub(
        r'((?:href|src)="/static/[^"]+)"', r'\1?held"', answer.text()))
    page.wait_for_function(
        "async () => (await (await caches.open('dalmuti-offline-v1')).keys())"
        ".some((request) => request.url.endsWith('?held'))", timeout=15_000)

    context.set_offline(True)
    page.goto(f"{live_server.url}/")
    expect(page.get_by_role("heading", name="Vous êtes hors ligne")).to_be_visible()
    context.set_offline(False)
    context.close()
