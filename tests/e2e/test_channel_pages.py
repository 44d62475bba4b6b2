"""The channel settings a host and a player use, on a phone and a laptop, in English and
Dutch: the table's group channel (with a refused address) and the profile's own channel.
The address is shown masked only; each page passes the accessibility check (in English:
the markup is the same in Dutch); screenshots go to var/screenshots/ for a person to look
at."""

import pytest

from games import commands
from tests.e2e import harness
from tests.helpers import make_user

pytestmark = pytest.mark.e2e

SECRET = "s3cret-webhook-token"


@pytest.fixture
def people(live_server, settings):
    settings.OUTBOUND_ALLOW_LOOPBACK = False
    tables = {}
    for name, language in (("tess", "en"), ("ada", "nl")):
        user = make_user(name, display_name=name.title(), language=language,
                         channel_url=f"tgram://123456789:{SECRET}/42")
        game = commands.create_table(user, f"{name.title()}'s table", 5, {"rounds": 3})
        commands.set_channel(game.pk, user, f"discord://4174296/{SECRET}")
        tables[name] = f"/t/{game.pk}/channel/"
    return tables


@pytest.mark.parametrize("size", harness.SIZES)
def test_the_channel_settings(people, browser, live_server, size, screenshots):
    for name, language in (("tess", "en"), ("ada", "nl")):
        context = harness.new_context(browser, size)
        page = context.new_page()
        problems = harness.collect_errors(page)
        harness.log_in(page, live_server.url, name)
        page.goto(live_server.url + people[name])
        assert "discord://••••••••" in page.content()
        page.locator("input[name=url]").fill("jsons://10.0.0.8/hook")
        page.locator("button[value=save]").click()
        page.wait_for_load_state()
        assert page.locator(".errorlist").is_visible()
        page.locator("details.channel-help summary").click()
        page.screenshot(path=str(screenshots / f"channel-table-{language}-{size}.png"),
                        full_page=True)
        if language == "en":  # the same markup in every language: checked once
            serious = harness.serious_violations(page)
            assert serious == [], f"table channel at {size}: " + harness.describe(serious)
        assert SECRET not in page.content()
        page.goto(f"{live_server.url}/accounts/profile/#channel")
        assert "tgram://••••••••" in page.content() and SECRET not in page.content()
        page.locator("#channel").scroll_into_view_if_needed()
        page.locator("#channel").screenshot(
            path=str(screenshots / f"channel-profile-{language}-{size}.png"))
        if language == "en":
            serious = harness.serious_violations(page)
            assert serious == [], f"profile at {size}: " + harness.describe(serious)
        assert problems == []
        context.close()
