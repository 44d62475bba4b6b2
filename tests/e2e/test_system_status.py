"""The admin's System status page, as a host sees it on a phone and a laptop, in English
and German: nothing sideways off the screen, the test-email button reachable and big
enough to tap, no serious accessibility finding in its content. Screenshots go to
var/screenshots/hosting/ for a person to look at."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.e2e import harness
from tests.helpers import PASSWORD, make_user

pytestmark = pytest.mark.e2e

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 850}}
BUTTON = {"en": "Send me a test email", "de": "Schick mir eine Test-E-Mail"}


def shoot(page, path, full_page=False):
    """A screenshot once the page has settled; Chromium now and then refuses a capture
    on a busy machine ("Unable to capture screenshot"), and a second try succeeds."""
    from playwright.sync_api import Error

    page.wait_for_load_state("networkidle")
    try:
        page.screenshot(path=str(path), full_page=full_page)
    except Error:
        page.wait_for_timeout(500)
        page.screenshot(path=str(path), full_page=full_page)


@pytest.fixture
def root(live_server, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return make_user("root", is_staff=True, is_superuser=True)


@pytest.mark.parametrize("code", ["en", "de"])
@pytest.mark.parametrize("size", SIZES)
def test_the_system_status_page_reads_on_a_phone_and_a_laptop(root, browser, live_server,
                                                              size, code, screenshot_dir):
    folder = screenshot_dir / "screenshots" / "hosting"
    folder.mkdir(parents=True, exist_ok=True)
    phone = size == "phone"
    context = browser.new_context(viewport=SIZES[size], is_mobile=phone, has_touch=phone,
                                  extra_http_headers={"Accept-Language": code})
    page = context.new_page()
    problems = []
    page.on("console", lambda m: m.type == "error" and problems.append(m.text))
    page.goto(f"{live_server.url}/admin/login/?next=/admin/")
    page.locator("#id_username").fill("root")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("input[type=submit]").click()
    shoot(page, folder / f"admin-index-{size}-{code}.png")
    overflow = harness.wider_than_screen(page)
    assert overflow <= 0, f"the admin's index scrolls sideways by {overflow}px"
    page.locator("#hosting-module a").click()
    page.wait_for_url("**/admin/status/")
    assert page.locator("html").get_attribute("lang") == code
    assert page.locator(".hosting-check").count() == 10
    shoot(page, folder / f"status-{size}-{code}.png", full_page=True)

    overflow = harness.wider_than_screen(page)
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px"
    button = page.get_by_role("button", name=BUTTON[code])
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= SIZES[size]["width"]
    assert box["height"] >= 44, "the button is too small to tap"
    # This page's own content; Django's admin chrome (its breadcrumbs) is not this site's
    # design and is held only to its width, as in the site crawl.
    serious = [v for v in Axe().run(page, context="#content-main").response["violations"]
               if v["impact"] in ("serious", "critical")]
    assert serious == [], "; ".join(
        f"{v['id']}: {[n['target'] for n in v['nodes']][:5]}" for v in serious)
    assert problems == []
    context.close()
