"""The game page in each phase, on a phone and on a laptop: the control a player must use
is on screen without scrolling and not covered by anything, no seat round the felt is drawn
over what its centre shows, the page passes an automated accessibility check, and the tab
title says when it is your turn; the whole hand is in view as the turn comes, at tables of
four to ten; the talk's flourishes are drawn as emoji. Screenshots of every phase and size
are written to var/screenshots/ for a person to look at."""

import dataclasses

import pytest
from playwright.sync_api import expect

from games import engine
from games.commands.base import save_state
from games.models import Game
from tests.e2e import harness
from tests.engine.helpers import give_both_jesters
from tests.helpers import make_user, play_out, play_until, shed_worst, start_table

pytestmark = pytest.mark.e2e

# The control each phase is about.
PRIMARY = {
    "lead": "#actions button.play",
    "follow": "#actions button.play, #actions button.pass",
    "taxes": "#actions button.give",
    "revolution": "#actions .revolution-offer button",
    "trade": "#actions .trade-form button, #actions button.give",
    "result": "#actions button",
    "over": ".after-game button",
}


def _my_turn(game: Game, user, phase: str, trick: bool | None = None) -> bool:
    seat = game.seats.get(user=user)
    view = game.engine_state().view(seat.player)
    if not view["legal_actions"] or view["phase"] != phase:
        return False
    return trick is None or bool(view["trick"]["plays"]) == trick


@pytest.fixture
def tables(live_server):
    """One table per phase, all made before the browser starts (the browser's thread
    may not use the database)."""
    tess = make_user("tess", display_name="Tess")
    found = {}
    for seed in range(20260101, 20260140):
        game = start_table(tess, bots=3, seed=seed, name="Kitchen table")
        if "taxes" not in found and _my_turn(game, tess, "taxes"):
            found["taxes"] = game.pk
            continue
        game = play_until(game, lambda g: _my_turn(g, tess, "play", trick=False))
        if "lead" not in found and _my_turn(game, tess, "play", trick=False):
            found["lead"] = game.pk
            continue
        game = play_until(game, lambda g: _my_turn(g, tess, "play", trick=True))
        if "follow" not in found and _my_turn(game, tess, "play", trick=True):
            found["follow"] = game.pk
        if len(found) == 3:
            break
    assert set(found) == {"taxes", "lead", "follow"}
    # Tess is dealt both jesters in a round with taxes.
    game = start_table(tess, bots=3, seed=7, name="Kitchen table")
    state = game.engine_state()
    seat = state.seats.index(game.seats.get(user=tess).player)
    hands = give_both_jesters(engine.deal(4, state.options, 5), seat)
    rnd = engine.Round.start(hands, state.options, first_round=False, seed=1)
    game.awaiting = {}
    save_state(game, dataclasses.replace(state, round=rnd, round_number=2))
    found["revolution"] = game.pk
    found["over"] = play_out(start_table(tess, bots=3, seed=9, name="Kitchen table")).pk
    # The merchant trade at a table of six: Tess, the best placed Merchant, chooses.
    for seed in range(20260201, 20260260):
        game = start_table(tess, bots=5, seed=seed, name="Kitchen table",
                           options={"merchant_trade": "chosen"})
        game = play_until(game, lambda g: g.engine_state().round.phase != "taxes")
        if _my_turn(game, tess, "trade"):
            found["trade"] = game.pk
            break
    # A round's result, shown at the start of the next round while Tess must act (she
    # plays to finish first, so that she soon gives back in the taxes).
    for seed in range(20260301, 20260360):
        game = start_table(tess, bots=3, seed=seed, name="Kitchen table")
        game = play_until(game, lambda g: g.round_number > 1 and _my_turn(g, tess, "taxes"),
                          choose=shed_worst)
        if _my_turn(game, tess, "taxes"):
            found["result"] = game.pk
            break
    assert {"trade", "result"} <= set(found)
    return found


def _under_seats(page) -> list[str]:
    """What the centre of the felt shows (the trick, a round's result, the taxes) that a
    seat round it is drawn over."""
    return page.evaluate(
        """() => {
            const overlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
                && a.top < b.bottom - 1 && b.top < a.bottom - 1;
            const seats = [...document.querySelectorAll('#table .seat')]
                .map((el) => [el, el.getBoundingClientRect()]);
            const found = [];
            const shown = '#table .centre :is(th, td, p, .card)';
            for (const el of document.querySelectorAll(shown)) {
                // Not what a folded part (the last trick's details) holds.
                if (!el.checkVisibility({visibilityProperty: true})) continue;
                const box = el.getBoundingClientRect();
                if (!box.width || !box.height) continue;
                for (const [seat, under] of seats) {
                    if (overlap(box, under)) {
                        found.push(`"${el.textContent.trim().slice(0, 30)}" under ` +
                                   `${seat.querySelector('.seat-name bdi').textContent.trim()}`);
                    }
                }
            }
            return found;
        }""")


def _uncovered(page, selector: str) -> bool:
    """The control's centre is inside the viewport, and it is what a tap there hits."""
    return page.evaluate(
        """(selector) => {
            const el = document.querySelector(selector);
            if (!el) return false;
            const box = el.getBoundingClientRect();
            const x = box.left + box.width / 2, y = box.top + box.height / 2;
            const width = document.documentElement.clientWidth;  // not innerWidth: see harness
            if (x < 0 || y < 0 || x > width || y > innerHeight) return false;
            const hit = document.elementFromPoint(x, y);
            return hit === el || el.contains(hit);
        }""",
        selector,
    )


@pytest.mark.parametrize("size", harness.SIZES)
def test_every_phase_puts_its_control_on_screen(tables, browser, live_server, size,
                                                 screenshots):
    context = harness.new_context(browser, size)
    page = context.new_page()
    problems = harness.collect_errors(page)
    harness.log_in(page, live_server.url, "tess")
    for phase, game_id in tables.items():
        page.goto(f"{live_server.url}/t/{game_id}/")
        control = page.locator(PRIMARY[phase]).first
        expect(control).to_be_visible()
        page.screenshot(path=str(screenshots / f"{phase}-{size}.png"))
        assert _uncovered(page, PRIMARY[phase]), f"{phase} at {size}: control off screen"
        assert _under_seats(page) == [], f"{phase} at {size}"
        if phase == "result":
            expect(page.locator("#table .round-result")).to_contain_text("Result of round 1")
        if phase != "over":
            assert page.title().startswith("(Your turn)"), phase
        serious = harness.serious_violations(page)
        assert serious == [], f"{phase} at {size}: " + harness.describe(serious)
    assert problems == []
    context.close()


@pytest.fixture
def giving_back(live_server):
    """A table where Tess gives back cards in the taxes: the one phase the test below needs
    (the `tables` of every phase take some 20 s to make)."""
    tess = make_user("tess", display_name="Tess")
    for seed in range(20260101, 20260140):
        game = start_table(tess, bots=3, seed=seed, name="Kitchen table")
        if _my_turn(game, tess, "taxes"):
            return game.pk
    raise AssertionError("no deal has Tess give back cards")


def test_a_refused_move_shows_why(giving_back, browser, live_server):
    page = harness.new_context(browser, "phone").new_page()
    harness.log_in(page, live_server.url, "tess")
    page.goto(f"{live_server.url}/t/{giving_back}/")
    for card in page.locator("label.hcard:has(input:checked)").all():
        card.click()  # giving back nothing: refused
    # The page keeps Give back disabled until the count is right; the server must refuse
    # a client that sends it anyway (an old browser, a crafted request).
    button = page.locator(PRIMARY["taxes"])
    expect(button).to_be_disabled()
    button.evaluate("b => { b.disabled = false; }")
    with page.expect_response(lambda r: "/act/" in r.url) as answer:
        page.locator(PRIMARY["taxes"]).click()
    assert answer.value.status == 422, answer.value.status
    error = page.locator("#actions .action-error")
    expect(error).to_be_visible()
    assert _uncovered(page, "#actions .action-error")


@pytest.fixture
def one_table(live_server):
    return start_table(make_user("tess", display_name="Tess"), bots=3, seed=3).pk


@pytest.mark.parametrize("code", ["en", "nl", "de", "fr"])
def test_card_names_fit_their_tiles_in_every_language(one_table, browser, live_server, code):
    page = harness.new_context(browser, "phone").new_page()
    harness.log_in(page, live_server.url, "tess")
    page.goto(f"{live_server.url}/t/{one_table}/")
    page.locator(".site-menu > summary").click()  # the language choice is in the menu
    page.locator("#language-select").select_option(code)
    expect(page.locator("html")).to_have_attribute("lang", code)
    clipped = page.evaluate("""() => [...document.querySelectorAll('.hcard .cname')]
        .filter((n) => n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1)
        .map((n) => n.textContent)""")
    assert clipped == []
    names = set(page.locator(".hcard .cname").all_text_contents())
    assert len(names) >= 9, names  # most of the deck's names were measured


def _fonts_drawing(page, context, selector: str) -> list[set[str]]:
    """The fonts Chromium drew each element's text with (DevTools' platform fonts)."""
    cdp = context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    found = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": selector})["nodeIds"]
    return [{font["familyName"] for font in
             cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]}
            for node in found]


@pytest.fixture
def over(live_server):
    """A finished table, where Tess is a Greater Peon."""
    tess = make_user("tess", display_name="Tess")
    return play_out(start_table(tess, bots=3, seed=9, name="Kitchen table")).pk


@pytest.mark.parametrize("size", harness.SIZES)
def test_the_talks_flourishes_are_drawn_as_emoji(over, browser, live_server, size,
                                                 colour_emoji_font, screenshots):
    """A flourish's picture (the coffee, the cards...) is drawn by the emoji font, never by a
    text font's black-and-white sign for the same character: on its button, in the talk,
    and at a desk in the talk's newest line over the folded panel."""
    context = harness.new_context(browser, size)
    page = context.new_page()
    harness.log_in(page, live_server.url, "tess")
    page.goto(f"{live_server.url}/t/{over}/")
    if size == "phone":
        page.locator("[data-chat-toggle]").click()
    buttons = page.locator(".flourish-button")
    expect(buttons.first).to_be_visible()
    page.get_by_role("button", name="Serve the coffee").click()
    expect(page.locator("#chat-log .chat-msg.flourish")).to_have_count(1)
    drawn = _fonts_drawing(page, context, ".flourish-button > .emoji, "
                                          "#chat-log .chat-msg.flourish .emoji")
    assert len(drawn) == buttons.count() + 1
    page.screenshot(path=str(screenshots / f"flourish-{size}.png"))
    if size == "laptop":
        page.locator("#chat-heading").click()  # the talk folded: its newest line shows
        expect(page.locator("#chat-latest")).to_contain_text("Coffee is served")
        drawn += _fonts_drawing(page, context, "#chat-latest .emoji")
        assert len(drawn) == buttons.count() + 2
    assert drawn == [{"Noto Color Emoji"}] * len(drawn), drawn
    context.close()


@pytest.fixture
def lead(live_server):
    """A table where it is Tess's turn to lead a trick: the one phase the tests below need
    (the `tables` of every phase take some 20 s to make)."""
    tess = make_user("tess", display_name="Tess")
    for seed in range(20260101, 20260140):
        game = play_until(start_table(tess, bots=3, seed=seed, name="Kitchen table"),
                          lambda g: _my_turn(g, tess, "play", trick=False))
        if _my_turn(game, tess, "play", trick=False):
            return game.pk
    raise AssertionError("no deal gives Tess a lead")


FOCUSED_CARD_OUTLINE = """() => {
    const input = document.activeElement;
    if (!input || !input.matches('.hcard input')) return null;
    return getComputedStyle(input.nextElementSibling).outlineStyle;
}"""


def test_the_card_focused_as_a_turn_starts_looks_chosen_only_to_the_keyboard(
        lead, browser, live_server):
    """When a turn starts the focus goes to the first card a player may choose; outlined,
    to a player who taps it looked chosen already (the counter said 0). Its outline is the
    keyboard's: shown once the player uses it."""
    context = harness.new_context(browser, "phone")
    page = context.new_page()
    harness.log_in(page, live_server.url, "tess")
    page.goto(f"{live_server.url}/t/{lead}/")
    expect(page.locator(PRIMARY["lead"]).first).to_be_visible()
    page.wait_for_function("document.activeElement.matches('.hcard input')")
    assert page.evaluate(FOCUSED_CARD_OUTLINE) == "none"
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(FOCUSED_CARD_OUTLINE) == "solid"
    context.close()


def test_a_dock_that_grows_never_covers_a_chosen_card(lead, browser, live_server):
    """On a phone the dock under the hand grows as it names the cards chosen (a label on
    two lines, a Jester joined by itself): the page moves so that the cards chosen stay
    above it."""
    context = harness.new_context(browser, "phone")
    page = context.new_page()
    harness.log_in(page, live_server.url, "tess")
    page.goto(f"{live_server.url}/t/{lead}/")
    card = page.locator("label.hcard:has(input:not([disabled]))").last
    expect(card).to_be_visible()
    # The last card just above the dock, and chosen.
    page.evaluate("""() => {
        const cards = [...document.querySelectorAll('label.hcard')]
            .filter((label) => !label.querySelector('input').disabled);
        const dock = document.getElementById('actions');
        window.scrollBy(0, cards.at(-1).getBoundingClientRect().bottom
            - dock.getBoundingClientRect().top + 4);
    }""")
    card.tap()
    expect(card.locator("input")).to_be_checked()
    # The dock grows by a line or two.
    page.evaluate("""() => {
        const more = document.createElement('p');
        more.style.height = '5rem';
        document.getElementById('actions').append(more);
    }""")
    page.wait_for_function("""() => parseFloat(getComputedStyle(document.documentElement)
        .getPropertyValue('--dock-h')) >= document.getElementById('actions').offsetHeight""")
    below = page.evaluate("""() => {
        const chosen = [...document.querySelectorAll('.move-form input[name=card]:checked')]
            .pop().closest('.hcard');
        return chosen.getBoundingClientRect().bottom
            - document.getElementById('actions').getBoundingClientRect().top;
    }""")
    assert below <= 0
    context.close()


@pytest.fixture
def full_hands(live_server):
    """Tess's first turn at tables of four, eight and ten: hands of 20, 10 and 8 cards (the
    most cards a hand holds, and the felt that leaves the hand the least room)."""
    tess = make_user("tess", display_name="Tess")
    return {seats: play_until(start_table(tess, bots=seats - 1, seed=11, name="Kitchen table"),
                              lambda g: _my_turn(g, tess, "play")).pk
            for seats in (4, 8, 10)}


# The number of cards in each row of the hand, the cards not wholly on the screen above the
# dock, and the card names cut short.
HAND_IN_VIEW = """() => {
    const width = document.documentElement.clientWidth;  // not innerWidth: see harness
    const dock = document.getElementById('actions').getBoundingClientRect().top;
    const rows = {};
    const hidden = [];
    for (const card of document.querySelectorAll('.hand-cards .hcard')) {
        const box = card.getBoundingClientRect();
        const top = Math.round(box.top);
        rows[top] = (rows[top] || 0) + 1;
        if (box.left < 0 || box.right > width || box.top < 0 || box.bottom > dock) {
            hidden.push(card.textContent.trim().replace(/\\s+/g, ' '));
        }
    }
    const cut = [...document.querySelectorAll('.hcard .cname')]
        .filter((n) => n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1)
        .map((n) => n.textContent);
    return {rows: Object.keys(rows).sort((a, b) => a - b).map((top) => rows[top]), hidden, cut};
}"""


def test_the_whole_hand_is_in_view_as_the_turn_comes(full_hands, browser, live_server,
                                                     screenshots):
    """As the turn comes, every card of the hand is on the screen at once, above the dock,
    with its name whole (in German, whose names run long). No row ends in a card or two
    alone, and a hand of up to ten cards takes one row: on a phone, the eighth card of a
    table of ten went alone to a second row at the dock's edge, where it was missed."""
    for size in harness.SIZES:
        context = harness.new_context(browser, size,
                                      extra_http_headers={"Accept-Language": "de"})
        page = context.new_page()
        harness.log_in(page, live_server.url, "tess")
        for seats, game_id in full_hands.items():
            page.goto(f"{live_server.url}/t/{game_id}/")
            expect(page.locator(PRIMARY["follow"]).first).to_be_visible()
            # The dock measured, the page has brought the hand into view above it.
            page.wait_for_function("document.documentElement.style.getPropertyValue('--dock-h')")
            page.screenshot(path=str(screenshots / f"hand-{seats}-seats-{size}.png"))
            shown = page.evaluate(HAND_IN_VIEW)
            where = f"{seats} seats at {size}: {shown}"
            assert sum(shown["rows"]) == 80 // seats, where
            assert shown["hidden"] == [], where
            assert min(shown["rows"]) >= 3, where
            if sum(shown["rows"]) <= 10:
                assert len(shown["rows"]) == 1, where
            assert shown["cut"] == [], where
            assert not harness.wider_than_screen(page), where
        context.close()
