"""Playing with the keyboard: nothing takes the focus from a player writing in the table
talk when their turn comes, Enter on a card chooses it (it never sends the form's first
button, Pass), the focus is never dropped to the page's start by a move's answer,
nothing the keyboard reaches ends under the dock, the phone's menu closes once the
keyboard leaves it, and the language is changed by a choice, not by each arrow."""

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.e2e import harness
from tests.helpers import make_user, play_until, session_for, start_table, waiting_humans

pytestmark = pytest.mark.e2e

TIMEOUT = 15_000
FOCUS = "document.activeElement"
# Every form sent, counted as it goes (a submit event, fired as a form is sent).
COUNT_SENT = ("window.__sent = 0;"
              "document.addEventListener('submit', () => { window.__sent += 1; }, true);")


@pytest.fixture
def table(live_server, eager_tasks):
    """Ana and Bram with two bots, in the first round's play, the table waiting for Bram;
    hints allowed (the Hint button is a request of Ana's own that keeps her turn)."""
    ana, bram = make_user("ana", display_name="Ana"), make_user("bram", display_name="Bram")
    game = start_table(ana, [bram], bots=2, seed=11, name="Keys",
                       options={"rounds": 2, "first_round_taxes": False})
    game.seats.update(auto_pass=False)
    Game.objects.filter(pk=game.pk).update(hints_allowed=True)

    def bram_alone(g):
        return (g.engine_state().round.phase == "play"
                and [s.user.username for s in waiting_humans(g)] == ["bram"])
    game = play_until(game, bram_alone)
    return game.pk, session_for(ana), session_for(bram)


def _page(browser, base_url, session, size, problems, name):
    page = harness.signed_in_page(browser, base_url, session, size, problems, name, TIMEOUT)
    page.add_init_script(COUNT_SENT)
    return page


def _any_move(page) -> None:
    """A pass where the player may, else the first card that may be played."""
    expect(page.locator("#actions")).to_be_visible()
    if page.locator("#actions button.pass").count():
        page.locator("#actions button.pass").click()
    else:
        page.locator(".move-form label.hcard:has(input:not(:disabled))").first.click()
        page.locator("#actions button.play").click()


@pytest.fixture
def ana(live_server):
    return make_user("ana", display_name="Ana")


def test_the_turn_never_takes_the_keyboard_from_the_talk_and_enter_on_a_card_chooses_it(
        table, browser, live_server):
    game_id, ana_session, bram_session = table
    problems = []
    ana = _page(browser, live_server.url, ana_session, "laptop", problems, "ana")
    ana.goto(f"{live_server.url}/t/{game_id}/")
    talk = ana.locator("#chat input[name=text]")
    talk.click()
    ana.keyboard.type("good luck every")
    bram = _page(browser, live_server.url, bram_session, "laptop", problems, "bram")
    bram.goto(f"{live_server.url}/t/{game_id}/")
    _any_move(bram)
    # Ana's turn comes with her page's next poll: she is still writing.
    expect(ana.locator("#actions")).to_be_visible(timeout=TIMEOUT)
    assert ana.evaluate(f"{FOCUS}.name") == "text"
    ana.keyboard.type("one")
    ana.keyboard.press("Enter")
    expect(ana.locator("#chat-log")).to_contain_text("good luck everyone")
    expect(ana.locator("#actions")).to_be_visible()  # her turn is still hers: no pass sent
    card = ana.locator(".move-form input[name=card]:not(:disabled)").first
    card.focus()
    sent = ana.evaluate("window.__sent")
    ana.keyboard.press("Enter")
    expect(card).to_be_checked()
    assert ana.evaluate("window.__sent") == sent
    expect(ana.locator("#actions button.pass")).to_be_visible()
    # A request of her own that keeps the turn hers (the Hint) disables its button while
    # it runs: the focus comes back to the hand, not to the page's start.
    ana.locator("#actions .hint-form button").focus()
    ana.keyboard.press("Enter")
    expect(ana.locator("#advice")).not_to_be_empty()
    expect(ana.locator("#me :focus")).to_have_count(1)
    assert problems == []


def test_nothing_the_keyboard_reaches_is_under_the_dock(table, browser, live_server):
    game_id, _ana, bram_session = table
    problems = []
    page = _page(browser, live_server.url, bram_session, "phone", problems, "bram")
    page.goto(f"{live_server.url}/t/{game_id}/")
    expect(page.locator("#actions")).to_be_visible()
    page.locator(".move-form input[name=card]").first.focus()
    hidden = []
    for _ in range(40):
        page.keyboard.press("Tab")
        where = page.evaluate("""() => {
            const el = document.activeElement, dock = document.getElementById("actions");
            if (!el || el === document.body || dock.contains(el)) return null;
            const box = el.getBoundingClientRect();
            return {what: el.outerHTML.slice(0, 80), bottom: box.bottom,
                    dock: dock.getBoundingClientRect().top, height: box.height};
        }""")
        if where and where["height"] and where["bottom"] > where["dock"] + 1:
            hidden.append(where["what"])
    assert hidden == []
    assert problems == []


def test_the_phones_menu_closes_when_the_keyboard_leaves_it(ana, browser, live_server):
    context = harness.new_context(browser, "phone", locale="en-GB")
    page = context.new_page()
    harness.log_in(page, live_server.url, "ana")
    page.goto(f"{live_server.url}/rules/")
    menu = page.locator(".site-menu")
    menu.locator("summary").focus()
    page.keyboard.press("Enter")
    expect(menu).to_have_attribute("open", "")
    page.locator("#language-select").focus()
    page.keyboard.press("Tab")
    expect(menu).not_to_have_attribute("open", "")


def test_the_language_changes_by_a_choice_not_by_each_arrow(ana, browser, live_server):
    context = harness.new_context(browser, "laptop", locale="en-GB")
    page = context.new_page()
    page.add_init_script(COUNT_SENT)
    harness.log_in(page, live_server.url, "ana")
    page.goto(f"{live_server.url}/rules/")
    select = page.locator("#language-select")
    select.focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("window.__sent") == 0  # stepping past a language sends nothing
    assert page.locator("html").get_attribute("lang") == "en"
    chosen = select.input_value()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.locator("html").get_attribute("lang") == chosen


def test_saving_standing_orders_keeps_the_focus_on_save(table, browser, live_server):
    """The panel's form is answered by a redraw of the player's part: the focus comes back
    to its Save button (not to the dock's Pass, a button like it)."""
    game_id, _ana, bram_session = table
    problems = []
    page = _page(browser, live_server.url, bram_session, "phone", problems, "bram")
    page.goto(f"{live_server.url}/t/{game_id}/")
    orders = page.locator("details.orders")
    orders.locator("summary").first.focus()
    page.keyboard.press("Enter")
    orders.locator("input[name=auto_pass]").focus()
    page.keyboard.press("Space")
    save = orders.locator("form.stack button[type=submit]").first
    save.focus()
    page.keyboard.press("Enter")
    expect(page.locator(".orders .saved")).to_be_visible()
    expect(page.locator("details.orders form.stack button[type=submit]").first).to_be_focused()
    expect(page.locator("#actions")).to_be_visible()  # nothing was played
    assert problems == []


def test_the_status_speaks_only_when_it_says_something_new(table, browser, live_server):
    """The status line is a live region: a screen reader reads it as it changes. An
    update that leaves it as it was (a message in the talk) leaves it untouched, and one
    that changes it (a move) changes it in place, the region itself kept."""
    game_id, ana_session, bram_session = table
    problems = []
    ana = _page(browser, live_server.url, ana_session, "laptop", problems, "ana")
    ana.goto(f"{live_server.url}/t/{game_id}/")
    # The region, and each time its own lines are put in again (its clocks' ticks aside).
    ana.evaluate("""() => {
        window.__status = document.getElementById("status");
        window.__redrawn = 0;
        new MutationObserver(() => { window.__redrawn += 1; })
          .observe(window.__status, {childList: true});
    }""")
    bram = _page(browser, live_server.url, bram_session, "laptop", problems, "bram")
    bram.goto(f"{live_server.url}/t/{game_id}/")
    bram.locator("#chat input[name=text]").fill("Hello Ana")
    bram.keyboard.press("Enter")
    expect(ana.locator("#chat-log")).to_contain_text("Hello Ana", timeout=TIMEOUT)
    assert ana.evaluate("document.getElementById('status') === window.__status")
    assert ana.evaluate("window.__redrawn") == 0
    before = ana.locator("#status").inner_text()
    _any_move(bram)
    expect(ana.locator("#status")).not_to_have_text(before, timeout=TIMEOUT)
    assert ana.evaluate("document.getElementById('status') === window.__status")
    assert ana.evaluate("window.__redrawn") > 0
    assert problems == []
