"""The site's navigation on a phone: the header shows the brand and a menu button; the
menu opens by a tap (without JavaScript too) and every destination in it, the language
choice among them, is on the screen and takes the tap. At a desk the same links stand in
the header. Screenshots go to var/screenshots/."""

import pytest
from playwright.sync_api import expect

from tests.e2e import harness
from tests.helpers import make_user

pytestmark = pytest.mark.e2e

SIGNED_IN = ["/", "/rules/", "/history/", "/leagues/", "/players/tess/", "/accounts/profile/"]
VISITOR = ["/rules/", "/accounts/login/", "/accounts/signup/"]

# Every visible link, button and field of the header: is its centre on the screen, and
# does a tap there reach it (nothing drawn over it, no strip that hides it)?
UNREACHABLE = """() => [...document.querySelectorAll(
        '.site-header a, .site-header button, .site-header select, .site-header summary')]
    .filter((el) => el.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true}))
    .filter((el) => {
        const box = el.getBoundingClientRect();
        const x = box.left + box.width / 2, y = box.top + box.height / 2;
        const width = document.documentElement.clientWidth;  // not innerWidth: see harness
        if (x < 0 || x > width || y < 0 || y > innerHeight || !box.width) return true;
        const hit = document.elementFromPoint(x, y);
        return !(hit === el || el.contains(hit));
    })
    .map((el) => el.outerHTML.slice(0, 80))"""


@pytest.fixture
def tess(live_server):
    return make_user("tess", display_name="Tess")


def _context(browser, size, code):
    return harness.new_context(browser, size, extra_http_headers={"Accept-Language": code})


def _hrefs(page) -> list[str]:
    return page.eval_on_selector_all(".site-header nav a", "els => els.map(a => a.pathname)")


@pytest.mark.parametrize("code", ["en", "de", "fr"])
def test_on_a_phone_the_menu_opens_and_reaches_every_destination(
        tess, browser, live_server, code, screenshots):
    context = _context(browser, "phone", code)
    page = context.new_page()
    problems = harness.collect_errors(page)
    harness.log_in(page, live_server.url, "tess")
    expect(page.locator("html")).to_have_attribute("lang", code)

    for path in SIGNED_IN:
        page.goto(f"{live_server.url}{path}")
        menu = page.locator(".site-menu > summary")
        # Closed: the brand and the button, nothing cut off, nothing hidden in a strip.
        expect(menu).to_be_visible()
        expect(page.locator(".site-header nav")).to_be_hidden()
        assert page.evaluate(UNREACHABLE) == []
        assert not harness.wider_than_screen(page)

        menu.tap()
        assert sorted(_hrefs(page)) == sorted(SIGNED_IN)
        for link in page.locator(".site-header nav a").all():
            expect(link).to_be_visible()
        expect(page.locator(".site-header nav button[type=submit]")).to_be_visible()
        expect(page.locator("#language-select")).to_be_visible()
        assert page.evaluate(UNREACHABLE) == []
        # The page the reader is on, and only that one, is marked.
        current = page.locator(".site-header nav [aria-current=page]")
        expect(current).to_have_count(1)
        assert current.evaluate("a => a.pathname") == path
        if path == "/history/":
            page.screenshot(path=str(screenshots / f"site-menu-phone-{code}.png"))

    # Escape, or a tap outside the open menu, closes it.
    page.keyboard.press("Escape")
    expect(page.locator(".site-header nav")).to_be_hidden()
    page.locator(".site-menu > summary").tap()
    page.touchscreen.tap(195, 800)  # below the open menu
    expect(page.locator(".site-header nav")).to_be_hidden()

    # Following the menu reaches each page; the last entry signs out.
    page.goto(f"{live_server.url}/")
    for path in SIGNED_IN:
        page.locator(".site-menu > summary").tap()
        page.locator(f'.site-header nav a[href="{path}"]').tap()
        page.wait_for_url(f"**{path}")
    page.locator(".site-menu > summary").tap()
    page.locator(".site-header nav button[type=submit]").tap()
    page.wait_for_load_state()
    page.locator(".site-menu > summary").tap()
    assert sorted(_hrefs(page)) == sorted(VISITOR)
    assert page.evaluate(UNREACHABLE) == []
    assert problems == []
    context.close()


def test_the_menu_opens_without_javascript(tess, browser, live_server):
    context = harness.new_context(browser, "phone", java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}/rules/")
    page.locator(".site-menu > summary").tap()
    assert sorted(_hrefs(page)) == sorted(VISITOR)
    for link in page.locator(".site-header nav a").all():
        expect(link).to_be_visible()
    expect(page.locator(".language-switch button")).to_be_visible()  # <noscript>'s Change
    assert page.evaluate(UNREACHABLE) == []
    context.close()


@pytest.mark.parametrize("code", ["en", "nl"])
def test_at_a_desk_the_links_stand_in_the_header(tess, browser, live_server, code,
                                                 screenshots):
    context = _context(browser, "laptop", code)
    page = context.new_page()
    harness.log_in(page, live_server.url, "tess")
    page.goto(f"{live_server.url}/leagues/")
    expect(page.locator(".site-menu > summary")).to_be_hidden()
    assert sorted(_hrefs(page)) == sorted(SIGNED_IN)
    for link in page.locator(".site-header nav a").all():
        expect(link).to_be_visible()
    expect(page.locator("#language-select")).to_be_visible()
    assert page.evaluate(UNREACHABLE) == []
    header = page.locator(".site-header").bounding_box()
    assert header["height"] < 60  # one line
    current = page.locator(".site-header nav [aria-current=page]")
    assert current.evaluate("a => a.pathname") == "/leagues/"
    page.screenshot(path=str(screenshots / f"site-header-laptop-{code}.png"))
    context.close()


@pytest.fixture
def olga(live_server):
    return make_user("olga", display_name="Olga", is_staff=True)


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_an_organiser_reaches_the_admin_from_the_header(olga, live_server, browser, size,
                                                        screenshots):
    context = _context(browser, size, "de")
    page = context.new_page()
    harness.log_in(page, live_server.url, "olga")
    page.goto(f"{live_server.url}/leagues/")
    if size == "phone":
        page.locator(".site-menu > summary").tap()
    assert "/admin/" in _hrefs(page)
    expect(page.locator(".site-header nav a[href='/admin/']")).to_be_visible()
    assert page.evaluate(UNREACHABLE) == []
    if size == "laptop":
        assert page.locator(".site-header").bounding_box()["height"] < 60  # one line
    page.screenshot(path=str(screenshots / f"site-header-organiser-{size}-de.png"))
    context.close()


@pytest.mark.parametrize("width", [820, 1024])
def test_where_the_links_would_not_fit_on_one_line_they_fold_into_the_menu(
        tess, browser, live_server, width, screenshots):
    """A tablet, or a narrow laptop window, in French (the longest words): the header stays
    one line, the links wait in the menu, which opens beside its button."""
    context = browser.new_context(viewport={"width": width, "height": 700},
                                  extra_http_headers={"Accept-Language": "fr"})
    page = context.new_page()
    harness.log_in(page, live_server.url, "tess")
    page.goto(f"{live_server.url}/history/")
    assert page.locator(".site-header").bounding_box()["height"] < 70  # one line: 60 px
    page.locator(".site-menu > summary").click()
    assert sorted(_hrefs(page)) == sorted(SIGNED_IN)
    for link in page.locator(".site-header nav a").all():
        expect(link).to_be_visible()
    assert page.evaluate(UNREACHABLE) == []
    assert not harness.wider_than_screen(page)
    page.screenshot(path=str(screenshots / f"site-menu-{width}-fr.png"))
    context.close()
