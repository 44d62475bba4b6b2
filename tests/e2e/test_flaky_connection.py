"""A phone on a flaky connection: a move or a message whose answer was lost says that it
may have gone through, and no longer once the page shows where things stand; a message
sent again is said once; a move on its way holds the hand as it was sent; what went
wrong is told above everything, the header and the talk sheet included."""

import json

import pytest
from playwright.sync_api import expect

from tests.e2e import harness

pytestmark = pytest.mark.e2e

AWAITED = pytest.mark.parametrize("day_table", [("en", "awaited")], indirect=True)
MAYBE = "may or may not have gone through"
NOTHING_SENT = "nothing was sent"


def _open(browser, live_server, day_table, size="laptop"):
    problems = []
    page = harness.signed_in_page(browser, live_server.url, day_table.session, size,
                                  problems, size)
    page.goto(f"{live_server.url}/t/{day_table.game_id}/")
    return page, problems


def _unexpected(problems: list[str]) -> list[str]:
    """The problems but htmx's own report of a request that failed (which these tests
    make fail)."""
    return [p for p in problems if "htmx:afterRequest" not in p and "htmx:sendError" not in p]


def _answer_lost_once(page, pattern):
    """The first request to `pattern` reaches the server, and its answer never comes
    back; those after it go through."""
    lost = []

    def handle(route):
        if lost:
            route.continue_()
            return
        lost.append(route.fetch())
        route.abort("connectionreset")

    page.route(pattern, handle)
    return lost


def _choose_a_legal_play(page) -> str:
    """Chooses the cards of a legal play in the hand; its words ("2 Masons")."""
    legal = json.loads(page.locator("#move-form").get_attribute("data-legal"))
    key = min(legal, key=lambda k: (len(k.split(",")), k))
    for rank in key.split(","):
        page.locator(f"#move-form label.hcard:has(input[value='{rank}']:not(:checked))"
                     ).first.click()
    return legal[key]


def _another_choice(page):
    """A card whose tap would change the choice: one not chosen that could be, else a
    chosen one (taken back)."""
    free = page.locator("#move-form label.hcard:not(.unusable):has(input:not(:checked))")
    return free.first if free.count() else page.locator(
        "#move-form label.hcard:has(input:checked)").first


@AWAITED
def test_a_move_whose_answer_was_lost_says_so_until_the_table_shows_it(day_table, browser,
                                                                         live_server):
    page, problems = _open(browser, live_server, day_table)
    lost = _answer_lost_once(page, "**/act/")
    _choose_a_legal_play(page)
    page.locator("[data-play-button]").click()
    alert = page.locator("#alerts .error")
    expect(alert).to_contain_text(MAYBE)
    expect(alert).not_to_contain_text(NOTHING_SENT)
    assert lost and lost[0].status == 200, "the move did not reach the server"
    # Tapping Play again: the server says the move was recorded, and nothing contradicts it.
    page.locator("[data-play-button]").click()
    expect(page.locator("#actions")).to_have_count(0)
    expect(alert).to_have_count(0)
    assert _unexpected(problems) == []


@AWAITED
def test_a_message_whose_answer_was_lost_is_said_once_when_sent_again(day_table, browser,
                                                                       live_server):
    page, problems = _open(browser, live_server, day_table)
    lost = _answer_lost_once(page, "**/chat/post/")
    form = page.locator("#chat-form")
    form.locator("input[name=text]").fill("Who holds the Jester?")
    form.locator("button[type=submit]").click()
    alert = page.locator("#alerts .error")
    expect(alert).to_contain_text(MAYBE)
    assert lost and lost[0].status == 200, "the message did not reach the server"
    form.locator("button[type=submit]").click()
    expect(alert).to_have_count(0)
    expect(form.locator("input[name=text]")).to_have_value("")
    said = page.locator("#chat-log li", has_text="Who holds the Jester?")
    expect(said).to_have_count(1)
    # The next message is a new one, said too.
    form.locator("input[name=text]").fill("Who holds the Jester?")
    form.locator("button[type=submit]").click()
    expect(said).to_have_count(2)
    assert _unexpected(problems) == []


@AWAITED
def test_a_flourish_whose_answer_was_lost_is_said_once_and_another_is_said_too(
        day_table, browser, live_server):
    """A one-tap flourish goes with a token of its own as a message does: tapped again
    after its answer was lost, it is said once; another flourish is a new message."""
    page, problems = _open(browser, live_server, day_table)
    buttons = page.locator("#chat-flourishes button")
    expect(buttons.first).to_be_visible()
    lost = _answer_lost_once(page, "**/chat/post/")
    buttons.first.click()
    expect(page.locator("#alerts .error")).to_contain_text(MAYBE)
    assert lost and lost[0].status == 200, "the flourish did not reach the server"
    buttons.first.click()
    expect(page.locator("#alerts .error")).to_have_count(0)
    said = page.locator("#chat-log li")
    expect(said).to_have_count(1)
    buttons.last.click()
    expect(said).to_have_count(2)
    buttons.first.click()
    expect(said).to_have_count(3)
    assert _unexpected(problems) == []


def _covered(page, selector: str) -> str | None:
    """What a tap at the middle of `selector` reaches, when it is not that element."""
    return page.evaluate("""(selector) => {
        const el = document.querySelector(selector);
        const box = el.getBoundingClientRect();
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return hit && el.contains(hit) ? null : (hit ? hit.outerHTML.slice(0, 120) : "nothing");
    }""", selector)


@AWAITED
@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_an_alert_shows_over_the_header_and_leaves_its_links_alone(day_table, browser,
                                                                   live_server, size):
    page, problems = _open(browser, live_server, day_table, size)
    _choose_a_legal_play(page)
    # At the top of the page, where the header is (the turn brought the hand into view).
    page.evaluate("window.scrollTo(0, 0)")
    page.context.set_offline(True)
    page.locator("[data-play-button]").click()
    alert = page.locator("#alerts .error")
    expect(alert).to_contain_text(NOTHING_SENT)
    # Back at the top, should the tap have brought the button into view (on a phone the
    # page's controls are a fingertip high and the button may sit below the fold).
    page.evaluate("window.scrollTo(0, 0)")
    expect(alert).to_be_in_viewport()
    assert _covered(page, "#alerts .error") is None
    # The header's links are still there to tap.
    assert _covered(page, ".site-header .brand") is None
    page.screenshot(path=f"var/screens/alert-{size}.png")
    assert _unexpected(problems) == []


@AWAITED
def test_on_a_phone_a_message_that_failed_says_so_over_the_talk_sheet(day_table, browser,
                                                                      live_server):
    page, problems = _open(browser, live_server, day_table, "phone")
    page.locator("[data-chat-toggle]").click()
    form = page.locator("#chat-form")
    form.locator("input[name=text]").fill("Hello from the tunnel")
    page.context.set_offline(True)
    form.locator("button[type=submit]").click()
    expect(page.locator("#alerts .error")).to_contain_text(NOTHING_SENT)
    assert _covered(page, "#alerts .error") is None
    # The sheet's way out stays within reach.
    assert page.evaluate("""() => {
        const head = document.querySelector('.chat-panel > summary').getBoundingClientRect();
        const at = document.elementFromPoint(head.right - 12, head.top + head.height / 2);
        return at && at.closest('.chat-panel > summary') !== null;
    }""")
    page.screenshot(path="var/screens/alert-talk-sheet.png")
    assert _unexpected(problems) == []


@AWAITED
@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_a_move_on_its_way_holds_the_hand_as_it_was_sent(day_table, browser, live_server,
                                                         size):
    page, problems = _open(browser, live_server, day_table, size)
    held = []
    page.route("**/act/", lambda route: held.append(route))
    words = _choose_a_legal_play(page)
    play = page.locator("[data-play-button]")
    play.click()
    assert held, "the move was not sent"
    # On its way: it says so, and neither the cards nor the buttons can be changed.
    expect(play).to_be_disabled()
    expect(play).to_contain_text("Sending")
    assert play.evaluate("(b) => getComputedStyle(b).opacity") == "1"
    chosen = page.locator("#move-form input[name=card]:checked").count()
    _another_choice(page).click(force=True)
    expect(page.locator("#move-form input[name=card]:checked")).to_have_count(chosen)
    expect(play).to_be_disabled()
    expect(play).to_contain_text("Sending")
    page.screenshot(path=f"var/screens/sending-{size}.png")
    held[0].continue_()
    expect(page.locator("#actions")).to_have_count(0)
    expect(page.locator(".log").first).to_contain_text(words)
    assert _unexpected(problems) == []


@AWAITED
def test_an_alert_is_closed_from_the_keyboard(day_table, browser, live_server):
    """Its close button is on the keyboard's way from the top of the page, named for a
    screen reader; closed, the focus goes on into the page, not back to its top."""
    page, problems = _open(browser, live_server, day_table)
    _choose_a_legal_play(page)
    page.context.set_offline(True)
    page.locator("[data-play-button]").click()
    alert = page.locator("#alerts .error")
    expect(alert).to_contain_text(NOTHING_SENT)
    page.context.set_offline(False)
    close = page.get_by_role("button", name="Close this message")
    expect(close).to_be_visible()
    page.locator(".skip-link").focus()
    for _ in range(30):
        if close.evaluate("button => button === document.activeElement"):
            break
        page.keyboard.press("Tab")
    else:
        raise AssertionError("Tab never reaches the alert's close button")
    page.keyboard.press("Enter")
    expect(alert).to_have_count(0)
    assert page.evaluate("document.activeElement.id") == "main"
    assert _unexpected(problems) == []
