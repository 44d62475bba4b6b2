"""A player's walk through every phase a round can have, on a phone (in French and
German) and on a laptop (in English and Dutch): the deal, the taxes as a Peon and as a
Dalmuti choosing what to give back, a revolution and a Great Revolution offered with both
jesters, the merchants' trade, leading, following, passing, a trick won, the round's
result in the felt, the next round's seating and the final standings. Screenshots of each
phase, size and language go to var/screenshots/phases-*."""

import dataclasses
from functools import partial

import pytest
from django.conf import settings as django_settings
from django.db import transaction
from playwright.sync_api import expect

from games import engine
from games.commands.base import save_state
from games.commands.moves import run_automatic
from games.models import Game
from tests.e2e import harness
from tests.engine.helpers import give_both_jesters
from tests.helpers import (
    bots_play_on,
    make_user,
    play_until,
    session_for,
    shed_worst,
    start_table,
)

pytestmark = pytest.mark.e2e

SESSION_COOKIE = django_settings.SESSION_COOKIE_NAME
# The phone in French and German, the laptop in English and Dutch.
WALKS = (("phone", "fr"), ("phone", "de"), ("laptop", "en"), ("laptop", "nl"))


def _deal_again(game: Game, order: list, holder: int | None = None,
                round_number: int = 2) -> Game:
    """Round `round_number` dealt anew with the players in `order` (a user, or None for
    the next bot) from the Great Dalmuti down, both jesters in the hand at position
    `holder` if given; what is automatic done, the bots moved on."""
    state = game.engine_state()
    by_user = {s.user_id: s.player for s in game.seats.all() if s.user_id}
    bots = [s.player for s in game.seats.all() if not s.user_id]
    seats = tuple(by_user[user.pk] if user else bots.pop(0) for user in order)
    hands = engine.deal(len(seats), state.options, 11)
    if holder is not None:
        hands = give_both_jesters(hands, holder)
    rnd = engine.Round.start([sorted(h) for h in hands], state.options,
                             first_round=round_number == 1, seed=3)
    game.awaiting = {}
    with transaction.atomic():
        dealt = dataclasses.replace(
            state, seats=seats, round=rnd, round_number=round_number,
            lineup=tuple(seats[s] for s in rnd.order),
            results=state.results or (), scores=state.scores)
        save_state(game, run_automatic(game, dealt))
    game.refresh_from_db()
    return bots_play_on(game)


def _view(game: Game, user) -> dict:
    return game.engine_state().view(game.seats.get(user=user).player)


def _trick_won(game: Game, user) -> bool:
    """`user` leads after a trick they won (everybody else passed after their play)."""
    view = _view(game, user)
    history = view["history"]
    return (view["phase"] == "play" and bool(view["legal_actions"])
            and not view["trick"]["plays"] and bool(history)
            and [m for m in history[-1] if m["type"] == "play"][-1]["seat"] == view["seat"])


def _leads(game, user) -> bool:
    view = _view(game, user)
    return view["phase"] == "play" and bool(view["legal_actions"]) and not view["trick"]["plays"]


def _follows(game, user) -> bool:
    view = _view(game, user)
    return view["phase"] == "play" and bool(view["legal_actions"]) and bool(view["trick"]["plays"])


@pytest.fixture
def scenes(live_server, eager_tasks):
    """Tess's tables of five (Lotte, Maximilian and two bots) at each phase, and one of six
    for the merchants' trade: per walk (a size and a language), the phase's name and the
    table's id; the tables where Tess acts are each walk's own."""
    tess = make_user("tess", display_name="Tess")
    lotte = make_user("lotte", display_name="Lotte")
    max_ = make_user("maximilian", display_name="Maximilian")
    jo = make_user("jo", display_name="Jo")

    def table(**options):
        game = start_table(tess, [lotte, max_], bots=2, options=options, seed=11,
                           name="Küchentisch")
        game.seats.update(auto_pass=False)
        return game

    shared = {
        "deal": table().pk,
        # As the Greater Peon: the Dalmuti (Lotte) still chooses what she gives back.
        "peon-taxes": _deal_again(table(), [lotte, None, max_, None, tess]).pk,
        # The round's result in the felt, over the next round's seats and taxes.
        "round-over": play_until(table(), lambda g: len(g.engine_state().results) >= 1,
                                 choose=shed_worst).pk,
        "trick-won": play_until(table(), lambda g: _trick_won(g, tess), choose=shed_worst).pk,
        "game-over": play_until(table(rounds=1), lambda g: False, choose=shed_worst).pk,
    }
    six = start_table(tess, [lotte, max_, jo], bots=2,
                      options={"merchant_trade": "chosen"}, seed=11, name="Küchentisch")
    six.seats.update(auto_pass=False)
    shared["trade"] = _deal_again(six, [None, None, tess, lotte, max_, jo]).pk
    walks = {}
    for walk in WALKS:
        walks[walk] = {
            **shared,
            # As the Great Dalmuti: Tess chooses two cards to give back.
            "give-back": _deal_again(table(), [tess, lotte, None, max_, None]).pk,
            # Both jesters as the Lesser Peon, then as the Greater Peon.
            "revolution": _deal_again(table(), [lotte, max_, None, tess, None], holder=3).pk,
            "great-revolution": _deal_again(table(), [lotte, max_, None, None, tess],
                                            holder=4).pk,
            "lead": play_until(table(), lambda g: _leads(g, tess)).pk,
            "follow": play_until(table(), lambda g: _follows(g, tess)).pk,
        }
    return {"walks": walks, "session": session_for(tess), "lotte": session_for(lotte)}


# Every control on the game page a finger may tap (not a link inside a sentence, which
# WCAG leaves to the sentence's line height): its words, its box, and whether a tap at its
# box's centre, once it is scrolled into view as the browser scrolls to it (above the
# dock), reaches it rather than something drawn over it.
CONTROLS = """() => [...document.querySelectorAll(
        'main :is(a[href], button, summary, input:not([type=hidden]), select, label.hcard)')]
    .filter((el) => el.checkVisibility({visibilityProperty: true}))
    .filter((el) => !el.closest('label.hcard') || el.matches('label.hcard'))
    .filter((el) => !(el.matches('a') && getComputedStyle(el).display === 'inline'
        && el.parentElement.textContent.trim().length > el.textContent.trim().length + 20))
    .map((el) => {
        el.scrollIntoView({block: 'nearest'});
        const box = el.getBoundingClientRect();
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return {text: (el.textContent || el.value || el.name || '').trim().replace(/\\s+/g, ' ')
                    .slice(0, 40),
                width: Math.round(box.width), height: Math.round(box.height),
                reached: el.contains(hit) || (hit !== null && hit.contains(el))};
    })"""

# Whatever is still moving (a play landing on the felt) has come to rest, or was called
# off by a newer drawing.
AT_REST = """Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)))
    .then(() => true)"""


def _settle(page) -> None:
    """The page drawn and still: its dock measured (the page has brought the hand into
    view above it), nothing moving."""
    expect(page.locator("#status")).to_be_visible()
    if page.locator("#actions").count():
        page.wait_for_function(
            "() => document.documentElement.style.getPropertyValue('--dock-h')")
    page.evaluate(AT_REST)


def _look(page, screenshots, phase: str, size: str, language: str) -> list[str]:
    """A screenshot of what the player sees (and of the whole page), and what a player
    would trip over there: the page wider than the screen, a control a tap cannot reach,
    on a phone a control smaller than a fingertip (44 by 44 px)."""
    name = f"phases-{phase}-{size}-{language}"
    page.screenshot(path=str(screenshots / f"{name}.png"))
    page.screenshot(path=str(screenshots / f"{name}-whole.png"), full_page=True)
    trips = []
    if harness.wider_than_screen(page):
        trips.append(f"{name}: wider than the screen by {harness.wider_than_screen(page)} px")
    for control in page.evaluate(CONTROLS):
        if not control["reached"]:
            trips.append(f"{name}: a tap misses {control}")
        if size == "phone" and min(control["width"], control["height"]) < 44:
            trips.append(f"{name}: smaller than a fingertip {control}")
    page.evaluate("window.scrollTo(0, 0)")
    return trips


def _told(page, phase: str) -> None:
    """What the page says at `phase`, in any language: what is happening and what to do."""
    dock, centre = page.locator("#actions"), page.locator("#table .centre")
    hand = page.locator("#me .hand")
    if phase == "deal":
        expect(centre.locator(".taxes")).to_be_visible()
        expect(page.locator("details.seating-draw")).to_have_count(1)
    elif phase == "peon-taxes":
        # Which of their cards go, and to whom, before the exchange takes them.
        expect(hand.locator(".taxes-note")).to_contain_text("Lotte")
        expect(dock).to_have_count(0)
    elif phase == "give-back":
        expect(dock.locator("[data-chosen]")).to_contain_text("0 / 2")
    elif phase in ("revolution", "great-revolution"):
        expect(dock.locator("button[name=declare]")).to_have_count(2)
    elif phase == "great-revolution-after":
        expect(page.locator("#status .revolution")).to_be_visible()
        expect(dock.locator("button.play")).to_be_visible()
        expect(dock.locator("button.pass")).to_have_count(0)
    elif phase == "trade":
        expect(dock.locator("button[name=partner]")).to_have_count(2)
    elif phase in ("lead", "trick-won"):
        expect(dock.locator("button.play")).to_be_visible()
        expect(dock.locator("button.pass")).to_have_count(0)
    elif phase == "follow":
        expect(dock.locator("button.pass")).to_be_visible()
    elif phase == "round-over":
        expect(centre.locator(".round-result tbody tr")).to_have_count(5)
    elif phase == "game-over":
        expect(page.locator("#final .standings li")).to_have_count(5)
        expect(dock).to_have_count(0)
    if phase == "trick-won":
        # The trick she won is hers, not "won by" her own name.
        expect(centre.locator(".won")).to_be_visible()
        expect(centre.locator(".won")).not_to_contain_text("Tess")


def _answered(page, seen) -> None:
    """The move's answer has replaced what the page had seen (not only a poll's news:
    the move's request is over)."""
    expect(page.locator(f"#looked input[name=n]:not([value='{seen}'])")).to_be_attached()
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    _settle(page)


def _give_back_worst(page, count: int) -> None:
    """The Dalmuti's `count` worst cards given back, by tapping them then Give back."""
    cards = page.locator("#move-form label.hcard:has(input:not([disabled]))")
    for i in range(count):
        cards.nth(cards.count() - 1 - i).click()
    page.locator("#actions button.give").click()


def _act(page, phase: str, meanwhile=None):
    """What the player does at `phase`, by tapping: the cards chosen, and the button that
    sends the move (None where they only look). `meanwhile()` happens at the table while
    they choose their cards."""
    dock = page.locator("#actions")
    cards = page.locator("#move-form label.hcard:has(input:not([disabled]))")
    if phase == "give-back":
        # One of their two worst cards; then the other Dalmuti gives back hers, and the
        # table's update comes while the first is chosen: it stays chosen.
        cards.nth(cards.count() - 1).click()
        expect(dock.locator("[data-chosen]")).to_contain_text("1 / 2")
        meanwhile()
        expect(page.locator("#table .seat.is-turn")).to_have_count(1)
        expect(dock.locator("[data-chosen]")).to_contain_text("1 / 2")
        expect(page.locator("#move-form label.hcard:has(input:checked)")).to_have_count(1)
        cards.nth(cards.count() - 2).click()
        expect(dock.locator("[data-chosen]")).to_contain_text("2 / 2")
        return dock.locator("button.give")
    if phase == "revolution":
        return dock.locator("button[value=no]")
    if phase == "great-revolution":
        return dock.locator("button[value=yes]")
    if phase == "lead":
        cards.last.click()
        return dock.locator("button.play")
    if phase == "follow":
        return dock.locator("button.pass")
    return None


def _meanwhile(browser, live_server, session: str, game_id: int, size: str) -> None:
    """Lotte, the Lesser Dalmuti, gives back her worst card from her own page."""
    page = harness.signed_in_page(browser, live_server.url, session, size, [], "lotte")
    page.goto(f"{live_server.url}/t/{game_id}/")
    seen = page.locator("#looked input[name=n]").get_attribute("value")
    _give_back_worst(page, 1)
    expect(page.locator(f"#looked input[name=n]:not([value='{seen}'])")).to_be_attached()
    page.context.close()


def test_a_player_walks_every_phase_of_a_round(scenes, browser, live_server, screenshots,
                                               settings):
    """At each phase, on a phone (French, German) and a laptop (English, Dutch): the page
    is no wider than the screen, every control is reached by a tap (nothing, the dock
    included, drawn over it) and on the phone is a fingertip's size; the moves are made
    by tapping, without a script error, and a card chosen stays chosen while the table's
    news comes in."""
    # The news of the other Dalmuti's choice, soon (a whole number of seconds: the poll's
    # trigger is written in the page's language, "0,25s" in French, which htmx ignores).
    settings.GAME_POLL_SECONDS = 1
    trips = []
    for (size, language), tables in scenes["walks"].items():
        context = harness.new_context(browser, size, base_url=live_server.url,
                                      extra_http_headers={"Accept-Language": language})
        context.add_cookies([{"name": SESSION_COOKIE, "value": scenes["session"],
                              "url": live_server.url}])
        page = context.new_page()
        problems = harness.collect_errors(page)
        for phase, game_id in tables.items():
            page.goto(f"/t/{game_id}/")
            _settle(page)
            _told(page, phase)
            trips += _look(page, screenshots, phase, size, language)
            send = _act(page, phase, partial(_meanwhile, browser, live_server,
                                             scenes["lotte"], game_id, size))
            if send is not None:
                seen = page.locator("#looked input[name=n]").get_attribute("value")
                send.click()
                _answered(page, seen)
                _told(page, f"{phase}-after")
                trips += _look(page, screenshots, f"{phase}-after", size, language)
        assert problems == [], problems
        context.close()
    assert trips == [], "\n".join(trips)
