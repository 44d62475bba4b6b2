"""The host of a game in play invites a friend from the folded panel, on a phone and a
laptop: unfolding it brings the link and the forms (fetched then, not drawn with every
page); without scripts, the fold's link opens the page with the panel drawn; after
inviting, the page comes back with the panel open and the friend listed. Each state
passes the accessibility check, in English and Dutch; screenshots go to
var/screenshots/."""

import pytest
from playwright.sync_api import expect

from tests.e2e import harness
from tests.helpers import make_user, start_table

pytestmark = pytest.mark.e2e

WORDS = {
    "en-GB": {"fold": "Invite friends", "invite": "Invite", "sent": "Invitation sent.",
              "no_script": "Show the invitation link and forms"},
    "nl-NL": {"fold": "Nodig vrienden uit", "invite": "Uitnodigen",
              "sent": "Uitnodiging verstuurd.",
              "no_script": "Toon de uitnodigingslink en de formulieren"},
}


@pytest.fixture
def table(live_server):
    users = [make_user(n, display_name=n.title()) for n in ("tess", "ada", "bram")]
    game = start_table(users[0], users[1:], bots=1, name="Kitchen table",
                       options={"rounds": 5})
    for name in ("cato", "dirk"):
        make_user(name, display_name=name.title())
    return f"/t/{game.pk}/"


def _look(page, name, screenshots, problems):
    page.screenshot(path=str(screenshots / f"invite-panel-{name}.png"), full_page=True)
    serious = harness.serious_violations(page)
    assert serious == [], f"{name}: " + harness.describe(serious)
    assert problems == [], f"{name}: {problems}"


@pytest.mark.parametrize("size", harness.SIZES)
def test_the_host_invites_from_the_folded_panel(table, browser, live_server, size,
                                                screenshots):
    for locale, friend in (("en-GB", "cato"), ("nl-NL", "dirk")):
        words = WORDS[locale]
        context = harness.new_context(browser, size, locale=locale)
        page = context.new_page()
        problems = harness.collect_errors(page)
        harness.log_in(page, live_server.url, "tess")
        page.goto(live_server.url + table)
        panel = page.locator("details.invite-panel")
        # Folded, the page holds none of it; unfolded, the panel comes.
        expect(panel.locator(".invite-link")).to_have_count(0)
        panel.locator("summary", has_text=words["fold"]).click()
        link = panel.locator(".invite-link")
        expect(link).to_be_visible()
        assert "/join/" in link.input_value()
        # The share button of a link swapped in later is shown as on a page loaded whole.
        expect(panel.locator("[data-share-button]")).to_be_visible()
        panel.scroll_into_view_if_needed()
        _look(page, f"unfolded-{size}-{locale}", screenshots, problems)

        panel.locator("input[name=who]").fill(friend)
        panel.get_by_role("button", name=words["invite"], exact=True).click()
        page.wait_for_load_state()
        assert page.url.endswith("?invite=1")
        expect(page.get_by_text(words["sent"])).to_be_visible()
        expect(page.locator("details.invite-panel[open] .invited-list")).to_contain_text(
            friend.title())
        _look(page, f"sent-{size}-{locale}", screenshots, problems)
        context.close()

    # Without scripts: the fold's link opens the page with the panel drawn.
    context = harness.new_context(browser, size, java_script_enabled=False)
    page = context.new_page()
    harness.log_in(page, live_server.url, "tess")
    page.goto(live_server.url + table)
    page.locator("details.invite-panel summary").click()
    page.get_by_role("link", name=WORDS["en-GB"]["no_script"]).click()
    expect(page.locator("details.invite-panel[open] .invite-link")).to_be_visible()
    page.screenshot(path=str(screenshots / f"invite-panel-no-script-{size}.png"),
                    full_page=True)
    context.close()
