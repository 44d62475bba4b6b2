"""Passing a table's link on and inviting the usual group, on a phone and a laptop: the
Share button opens the share sheet where the browser has one (the Web Share API, stood in
for by an init script) and else copies the link and says so; the people one played with
are ticked on the new-table form and invited in one go; whoever blocks the host leaves
her list. Each page passes the accessibility check, in English and Dutch; screenshots go
to var/screenshots/."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games import commands
from games.models import Game
from tests.e2e import harness
from tests.helpers import make_user

pytestmark = pytest.mark.e2e

# A phone's share sheet, which keeps what it was given to be read back; or, once the page
# sets noShare, a browser without one (most desktop browsers on Linux): the button copies.
SHARE_SHEET = """
if (sessionStorage.getItem("noShare")) {
  delete Navigator.prototype.share;
  delete navigator.share;
} else {
  navigator.share = (data) => { window.sharedWith = data; return Promise.resolve(); };
}
"""


@pytest.fixture
def tables(live_server):
    tess = make_user("tess", display_name="Tess")
    friends = [make_user(n, display_name=n.title()) for n in ("ada", "bram", "cato")]
    game = commands.create_table(tess, "Kitchen table", 4, {})
    for friend in friends[:2]:
        commands.join(game.pk, friend)
    commands.add_bot(game.pk, "basic")
    for index, seat in enumerate(game.seats.order_by("pk")):
        seat.player = index
        seat.save(update_fields=["player"])
    when = timezone.now() - timedelta(days=2)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, started=when,
                                           finished=when)
    lobby = commands.create_table(tess, "Friday friends", 5, {})
    return {"lobby": f"/t/{lobby.pk}/", "record": f"/history/{game.pk}/"}


def _logged_in(browser, live_server, user) -> dict:
    """The cookies of a session logged in through the form, for the contexts below."""
    context = harness.new_context(browser, "laptop")
    page = context.new_page()
    harness.log_in(page, live_server.url, user)
    state = context.storage_state()
    context.close()
    return state


def _page(browser, live_server, size, session, script="", locale="en-GB"):
    context = harness.new_context(browser, size, locale=locale, storage_state=session)
    if script:
        context.add_init_script(script)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    return context, context.new_page()


def _check(page, name, size, screenshots, problems, axe=True):
    page.screenshot(path=str(screenshots / f"usual-{name}-{size}.png"), full_page=True)
    if not axe:  # the same page in another language: looked at, not checked again
        return
    serious = harness.serious_violations(page)
    assert serious == [], f"{name} at {size}: " + harness.describe(serious)
    assert problems == [], f"{name} at {size}: {problems}"


def test_share_the_link_and_invite_the_usual_group(tables, browser, live_server, screenshots):
    url = live_server.url
    tess = _logged_in(browser, live_server, "tess")
    for size in harness.SIZES:
        # The share sheet: the link and a line about the table go to it, nothing is copied.
        context, page = _page(browser, live_server, size, tess, SHARE_SHEET)
        problems = harness.collect_errors(page)
        page.goto(url + tables["lobby"])
        box = page.locator("[data-share]")
        link = box.locator("input").input_value()
        assert link.startswith(f"{url}/join/")
        box.get_by_role("button", name="Share").click()
        shared = page.wait_for_function("window.sharedWith").json_value()
        assert shared["url"] == link and "Friday friends" in shared["text"]
        expect(box.locator("[role=status]")).to_be_empty()

        # No share sheet: the link is copied, and the page says so.
        page.evaluate("sessionStorage.setItem('noShare', '1')")
        page.reload()
        box.get_by_role("button", name="Copy link").click()
        expect(box.locator("[role=status]")).to_have_text("Link copied")
        assert page.evaluate("navigator.clipboard.readText()") == link
        _check(page, "lobby", size, screenshots, problems)

        # The usual group from a finished game's record: its players ticked, invited at once.
        page.goto(url + tables["record"])
        page.get_by_role("link", name="New table with the same players").click()
        expect(page.get_by_role("checkbox", name="Ada")).to_be_checked()
        expect(page.get_by_role("checkbox", name="Bram")).to_be_checked()
        expect(page.get_by_role("checkbox", name="Cato")).to_have_count(0)  # never played
        _check(page, "new-table", size, screenshots, problems)
        page.get_by_role("checkbox", name="Bram").uncheck()
        page.get_by_role("button", name="Open the table").click()
        expect(page.get_by_text("1 invitation sent.")).to_be_visible()
        expect(page.locator(".invited-list")).to_contain_text("Ada")
        expect(page.locator(".invited-list")).not_to_contain_text("Bram")
        assert page.locator(".seat-list li").count() == 2  # Tess and the bot, again
        page.goto(url + "/accounts/profile/")
        _check(page, "profile", size, screenshots, problems)
        context.close()

        # In Dutch: what the pages say, and whether they still pass.
        context, page = _page(browser, live_server, size, tess, locale="nl-NL")
        problems = harness.collect_errors(page)
        for name in ("lobby", "record"):
            page.goto(url + tables[name])
            _check(page, f"{name}-nl", size, screenshots, problems, axe=False)
        page.goto(url + "/accounts/profile/")
        _check(page, "profile-nl", size, screenshots, problems)
        context.close()

    # Ada blocks Tess from her profile: Tess's list no longer offers her.
    context, page = _page(browser, live_server, "phone", _logged_in(browser, live_server, "ada"))
    page.goto(url + "/accounts/profile/")
    # The notifications box above is drawn once the service worker is ready: the list
    # below it must not move under the tap.
    expect(page.locator("[data-push]")).to_have_attribute("data-shown", "1")
    page.get_by_role("button", name="Block invitations from Tess").click()
    expect(page.get_by_text("Tess can no longer invite you.")).to_be_visible()
    expect(page.get_by_role("button", name="Let Tess invite you again")).to_be_visible()
    context.close()
    context, page = _page(browser, live_server, "laptop", tess)
    page.goto(url + "/tables/new/")
    expect(page.get_by_role("checkbox", name="Bram")).to_have_count(1)
    expect(page.get_by_role("checkbox", name="Ada")).to_have_count(0)
    context.close()
