"""A real browser for the end-to-end tests: Playwright driving Debian's Chromium.

Playwright never downloads a browser here; without /usr/bin/chromium (installed by
.ci/run) or the playwright package the tests skip, unless REQUIRE_SERVICES=1 (as in CI),
where that is a failure.

Playwright's sync API keeps an asyncio event loop in this thread while it runs, and Django
refuses ORM calls from such a thread (SynchronousOnlyOperation). Rather than switching
that safety off with DJANGO_ALLOW_ASYNC_UNSAFE, these tests make no ORM calls: everything
they check they read from the pages, as a player would. The browser is function-scoped and
depends on `live_server`, so Playwright has stopped before pytest-django flushes the
database after the test.

What the tests do in the browser alike (sizes, logging in, errors, the accessibility
check) is in harness.py.
"""

import os
import subprocess
from types import SimpleNamespace

import pytest

from tests.helpers import (
    bots_play_on,
    make_user,
    play_until,
    session_for,
    start_on_the_clock,
    waiting_humans,
)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
REQUIRE_SERVICES = os.getenv("REQUIRE_SERVICES", "") == "1"


def _skip_or_fail(problem: str) -> None:
    if REQUIRE_SERVICES:
        pytest.fail(f"REQUIRE_SERVICES=1 but {problem}", pytrace=False)
    pytest.skip(problem)


@pytest.fixture
def browser(live_server):
    if not (os.path.exists(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        _skip_or_fail(f"{CHROMIUM} is missing (Debian's chromium package; .ci/run installs it)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _skip_or_fail("the playwright package is not installed (pip install -e '.[dev]')")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def colour_emoji_font():
    """A colour-emoji font, as phones and desktops have (Debian's fonts-noto-color-emoji,
    installed by .ci/run): what a test of how emoji are drawn needs."""
    try:
        fonts = subprocess.run(["fc-list", ":", "family"], capture_output=True, text=True,
                               check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        fonts = ""
    if "Noto Color Emoji" not in fonts:
        _skip_or_fail("no colour-emoji font (Debian's fonts-noto-color-emoji; .ci/run "
                      "installs it)")


@pytest.fixture
def screenshot_dir(settings):
    """The project's git-ignored var/ folder, where the test keeps its screenshots."""
    path = settings.BASE_DIR / "var"
    path.mkdir(exist_ok=True)
    return path


@pytest.fixture
def screenshots(screenshot_dir):
    """var/screenshots/, where a person looks at what the tests saw."""
    path = screenshot_dir / "screenshots"
    path.mkdir(exist_ok=True)
    return path


# A turn's time, as at a table played over days.
A_DAY = 24 * 3600


@pytest.fixture
def day_table(live_server, request):
    """Ana, Bram and Cato with two bots on a day's clock, in the first round's play, read
    by one of them (`request.param`: the reader's language, and "awaited" for the one the
    table waits for, or "waits" for another): the table's id, the awaited player's name,
    and the reader's id, session and language."""
    language, whose = request.param
    people = [make_user(name, display_name=name.title()) for name in ("ana", "bram", "cato")]
    game = start_on_the_clock(people[0], people[1:], A_DAY, options={"rounds": 2})
    game = bots_play_on(play_until(game, lambda g: g.engine_state().round.phase == "play"))
    (awaited,) = waiting_humans(game)
    reader = awaited.user if whose == "awaited" else next(
        user for user in people if user.pk != awaited.user_id)
    reader.language = language
    reader.save(update_fields=["language"])
    return SimpleNamespace(game_id=game.pk, awaited=awaited.user.display_name,
                           reader_id=reader.pk, session=session_for(reader),
                           language=language)
