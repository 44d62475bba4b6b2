"""What the browser tests do alike: the two screen sizes, logging in through the form,
and collecting what a person would trip over (console and script errors, axe-core's
serious and critical violations).

The tests make every table and player before the browser starts (see conftest.py); these
helpers touch only the browser."""

from functools import cache

from django.conf import settings

from tests.helpers import PASSWORD

# A phone held upright (a touch screen) and a laptop.
SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 850}}


def wider_than_screen(page) -> int:
    """How many pixels the page is wider than the screen (0: none). The screen is the
    layout viewport (clientWidth), not innerWidth: a phone's browser shrinks a page wider
    than the screen to fit it, and innerWidth grows with the page."""
    return page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth")


def new_context(browser, size: str, **options):
    """A fresh browser profile (no cookies) at one of SIZES; the phone is a touch screen.
    `options` go to Playwright's new_context (locale, base_url, timezone_id, …)."""
    phone = size == "phone"
    return browser.new_context(viewport=SIZES[size], is_mobile=phone, has_touch=phone,
                               **options)


def signed_in_page(browser, base_url: str, session_key: str, size: str, problems: list[str],
                   label: str, timeout: float = 15_000, **options):
    """A page of a fresh browser at `size`, signed in by the session cookie `session_key`
    (tests.helpers.session_for), its console and script errors collected into `problems`
    (a failed load is not one: the tests provoke 4xx answers on purpose). `options` go
    to new_context (service_workers="block": every request of the page's is one
    page.route sees)."""
    context = new_context(browser, size, base_url=base_url, locale="en-GB", **options)
    context.set_default_timeout(timeout)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session_key,
                          "url": base_url}])
    page = context.new_page()
    collect_errors(page, problems, label=label,
                   ignore=lambda msg: msg.text.startswith("Failed to load resource"))
    return page


def log_in(page, base_url: str, username: str, password: str = PASSWORD) -> None:
    """Log in through the site's form, whatever language the page is in."""
    page.goto(f"{base_url}/accounts/login/")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill(password)
    page.locator("main button[type=submit]").click()
    page.wait_for_load_state()


def collect_errors(page, problems: list[str] | None = None, *, ignore=None,
                   label: str = "") -> list[str]:
    """Append each console error and each uncaught script error of `page` (a
    Content-Security-Policy violation shows as one) to `problems`, a new list unless
    given, and return it. `ignore(message)` passes over console errors the test
    expects; `label` goes before each line (whose page, when several share the list)."""
    problems = [] if problems is None else problems
    prefix = f"{label}: " if label else ""

    def on_console(message):
        if message.type == "error" and not (ignore and ignore(message)):
            problems.append(prefix + message.text)

    page.on("console", on_console)
    page.on("pageerror", lambda error: problems.append(f"{prefix}{error}"))
    return problems


@cache
def _axe():
    from axe_playwright_python.sync_playwright import Axe

    return Axe()


def serious_violations(page) -> list[dict]:
    """axe-core's violations on the page as it is now, those rated serious or critical."""
    return [v for v in _axe().run(page).response["violations"]
            if v["impact"] in ("serious", "critical")]


def describe(violations: list[dict]) -> str:
    """One line for a failed check: each violation's rule and its first few elements."""
    return "; ".join(f"{v['id']}: {[n['target'] for n in v['nodes']][:5]}" for v in violations)
