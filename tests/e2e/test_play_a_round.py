"""Four friends sign up, open a table and play a whole round in four browsers, by clicking.

Every page follows the game by polling; none is ever reloaded once the game has started.
The choices are random but seeded (E2E_SEED), the deal is whatever the table draws.
"""

import json
import os
import random
import re

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e import harness

pytestmark = pytest.mark.e2e

PASSWORD = "Dalmuti-e2e-passphrase-8271"
HOST, INVITED, LINK_3, LINK_4 = "ana", "bram", "cato", "dido"
TABLE = "Friday night"
SEED = int(os.getenv("E2E_SEED", "4"))
MAX_STEPS = 600  # one 4-player round takes about 100 actions
TIMEOUT = 15_000  # ms: generous against a slow machine
MARKER = "dalmutiE2eNoReload"


def test_four_friends_play_a_round_in_their_browsers(browser, live_server, settings,
                                                      screenshot_dir):
    # Each action waits for the three other pages' next poll: a quarter of a second keeps
    # the round's hundred actions from spending most of the test waiting.
    settings.GAME_POLL_SECONDS = 0.25
    expect.set_options(timeout=TIMEOUT)
    rng = random.Random(SEED)
    problems: list[str] = []
    pages = {
        name: _open_page(browser, live_server.url, name, problems,
                         "phone" if name == LINK_4 else "laptop")
        for name in (HOST, INVITED, LINK_3, LINK_4)
    }
    ana, bram, cato, dido = pages.values()

    # Ana and Bram sign up from the home page.
    for page, name in ((ana, HOST), (bram, INVITED)):
        page.goto("/")
        page.locator("header nav").get_by_role("link", name="Sign up").click()
        _sign_up(page, name)

    # Ana opens a table for four, one round, and invites Bram by username.
    ana.get_by_role("link", name="New table with options").click()
    ana.get_by_label("Table name").fill(TABLE)
    ana.get_by_role("spinbutton", name="Seats").fill("4")
    ana.get_by_label("after a number of rounds").check()
    ana.get_by_role("spinbutton", name="Number of rounds").fill("1")
    ana.get_by_role("button", name="Open the table").click()
    expect(ana.get_by_role("heading", name=TABLE)).to_be_visible()
    expect(ana.get_by_text("Seats taken: 1 of 4")).to_be_visible()
    expect(ana.locator(".options")).to_contain_text("1 round")
    ana.get_by_label("Username or email address").fill(INVITED)
    ana.get_by_role("button", name="Invite", exact=True).click()
    expect(ana.get_by_text("Invitation sent.")).to_be_visible()
    expect(ana.locator(".invited-list")).to_contain_text(INVITED)
    link = ana.get_by_label("Invitation link").input_value()
    assert "/join/" in link

    # Cato and Dido open the shared link, sign up from there and take a seat.
    for page, name in ((cato, LINK_3), (dido, LINK_4)):
        page.goto(link)
        expect(page.get_by_text(f"{HOST} invites you to play")).to_be_visible()
        page.get_by_role("link", name="Sign up to take a seat").click()
        _sign_up(page, name)
        page.get_by_role("button", name="Take a seat").click()
        expect(page.get_by_text(f"You took a seat at {TABLE}.")).to_be_visible()

    # Bram finds the invitation under "My games" and accepts it.
    bram.locator("a.brand").click()
    invitation = bram.locator("li", has_text=f"{HOST} invites you to “{TABLE}”")
    invitation.get_by_role("button", name="Take a seat").click()
    expect(bram.get_by_text("Seats taken: 4 of 4")).to_be_visible()

    # The lobbies follow the table by themselves: Ana's shows the seats filling up, and
    # when she starts, everybody's lobby turns into the table.
    expect(ana.get_by_text("Seats taken: 4 of 4")).to_be_visible()
    ana.get_by_role("button", name="Start the game").click()
    for page in pages.values():
        expect(page.get_by_text("Round 1 of 1")).to_be_visible()

    version = _version(ana)
    for name, page in pages.items():
        _wait_for_version(page, version)
        expect(page.get_by_text("The first seating draw")).to_be_visible()
        # Her own seat is the one marked "(you)" (every seat carries the mark; the felt's
        # stylesheet shows it on the reader's alone) and sits at the bottom of the felt.
        mine = page.locator("#table .seat", has=page.locator(".you:visible"))
        expect(mine).to_have_count(1)
        expect(mine).to_contain_text(name)
        felt, seat = page.locator("#table .felt").bounding_box(), mine.bounding_box()
        assert seat["y"] + seat["height"] > felt["y"] + felt["height"] * 0.7
        # Any navigation or reload from here on would wipe this.
        page.evaluate(f"window.{MARKER} = true")

    # Play: whoever's page says it is their turn (or decision) acts, until the game ends.
    steps = play_steps = 0
    shot_taken = False
    while not all(_is_over(page) for page in pages.values()):
        steps += 1
        assert steps <= MAX_STEPS, f"no end after {MAX_STEPS} actions (E2E_SEED={SEED})"
        actors = [n for n, p in pages.items() if p.locator("#status .turn.mine").count()]
        assert actors, f"at version {version} no page offers a move (E2E_SEED={SEED})"
        actor = actors[0]
        page = pages[actor]
        observers = {n: p for n, p in pages.items() if n != actor}
        log_before = {n: _log(p) for n, p in observers.items()}

        kind, button = _choose(page, rng)
        if kind in ("play", "pass"):
            play_steps += 1
            if not shot_taken and play_steps >= 12 and kind == "play":
                page.screenshot(path=screenshot_dir / "e2e-game.png", full_page=True)
                shot_taken = True
        with page.expect_response(lambda r: r.url.endswith("/act/")) as answer:
            button.click()
        assert answer.value.status == 200, (
            f"{actor}'s {kind} was refused ({answer.value.status}) at version {version}"
        )
        # The answer swaps in the actor's new state; the others must catch up with it.
        page.locator(
            f'#poller[hx-get]:not([hx-get*="?v={version}&"]), #status .turn.done'
        ).first.wait_for(state="attached")
        version = None if _is_over(page) else _version(page)

        # Every page shows the new state, by polling: nobody reloads.
        for p in pages.values():
            _wait_for_version(p, version)
        for name, p in pages.items():
            # The log's lines that the updates added: each once, none missing, newest first.
            numbers = p.locator("#log-lines > li").evaluate_all(
                "lines => lines.map((line) => Number(line.dataset.line))")
            assert numbers == list(range(len(numbers), 0, -1)), (name, numbers)
        sentence = {
            "play": f"{actor}, ", "pass": f"{actor} passed",
            "give back": f"{actor} has chosen the cards to give back",
        }.get(kind)
        for name, p in observers.items():
            lines = _log(p)
            new = lines[: len(lines) - len(log_before[name])]
            assert sentence is None or any(sentence in line for line in new), (
                f"{name}'s page does not show {actor}'s {kind}: {new}"
            )

    # Everybody sees the same final standings, on the page they have had open all along.
    winners = set()
    standings = set()
    for name, page in pages.items():
        status = page.locator("#status .turn.done")
        expect(status).to_contain_text("The game is over.")
        said = status.inner_text()
        # The winner reads "You win!" about herself, the others her name.
        winners.add(name if "You win!" in said else re.search(r"over\. (\w+) wins!",
                                                               said).group(1))
        expect(page.get_by_role("heading", name="Final standings")).to_be_visible()
        rows = page.locator("#final .standings li")
        expect(rows).to_have_count(4)
        standings.add(tuple(rows.all_inner_texts()))
        expect(page.locator("#panels .scoreboard")).to_have_attribute("open", "")
        expect(page.locator("#poller[hx-get]")).to_have_count(0)  # polling stopped
        assert page.evaluate(f"window.{MARKER}") is True, (
            f"{name}'s page was reloaded or navigated during the game"
        )
    assert len(winners) == 1 and len(standings) == 1, (winners, standings)
    assert next(iter(standings))[0].startswith(next(iter(winners)) + " — ")
    assert shot_taken, "the round ended before a mid-round screenshot could be taken"
    ana.screenshot(path=screenshot_dir / "e2e-final.png", full_page=True)
    assert not problems, problems


def _open_page(browser, base_url: str, name: str, problems: list[str], size: str) -> Page:
    context = harness.new_context(browser, size, base_url=base_url, locale="en-GB")
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    harness.collect_errors(page, problems, ignore=_favicon, label=name)
    return page


def _favicon(msg) -> bool:
    # The site has no favicon: the browser's own request for one is not the page's fault.
    return msg.location.get("url", "").endswith("/favicon.ico")


def _sign_up(page: Page, username: str) -> None:
    page.get_by_label(re.compile(r"^Username\b")).fill(username)
    page.get_by_label("Email address").fill(f"{username}@example.com")
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.locator("main").get_by_role("button", name="Sign up").click()
    # Signed in at once; the confirmation link is on its way.
    expect(page.get_by_role("heading", name=f"Welcome, {username}!")).to_be_visible()
    expect(page.get_by_text("A confirmation link is on its way")).to_be_visible()
    page.locator("main").get_by_role("link", name="Continue").click()


def _wait_for_version(page: Page, version: int | None) -> None:
    """Wait, without touching the page, until it shows the table at this version (its
    poller asks for changes since then), or the finished game (it polls no more)."""
    at_version = f'#poller[hx-get*="?v={version}&"], ' if version is not None else ""
    shown = page.locator(f"{at_version}#status .turn.done")
    shown.first.wait_for(state="attached")


def _version(page: Page) -> int:
    return int(re.search(r"\?v=(\d+)&", page.locator("#poller").get_attribute("hx-get"))[1])


def _is_over(page: Page) -> bool:
    return page.locator("#status .turn.done").count() > 0


def _log(page: Page) -> list[str]:
    """This round's log, newest line first."""
    return page.locator("#log li").all_text_contents()


def _choose(page: Page, rng: random.Random) -> tuple[str, Locator]:
    """Get a move ready on a page whose player must act, as a real player would: tap the
    cards to give back or to play; return the move's kind and the button that makes it."""
    dock = page.locator("#actions")
    form = page.locator("#move-form")
    move = form.get_attribute("data-move") if form.count() else None
    revolution = dock.locator("form.revolution-offer")
    if revolution.count() and (move is None or rng.random() < 0.5):
        # "Declare a revolution", or "a Great Revolution" for the Greater Peon.
        answer = rng.choice(["yes", "no"])
        return "revolution", revolution.locator(f'button[name="declare"][value="{answer}"]')
    if move == "give_back":
        due = int(form.get_attribute("data-due"))
        for card in form.locator("label.hcard:has(input:checked)").all():
            card.click()  # a forced choice comes ticked: start afresh
        cards = form.locator("label.hcard:has(input:not([disabled]))")
        for index in rng.sample(range(cards.count()), due):
            cards.nth(index).click()
        return "give back", dock.get_by_role("button", name="Give back")
    if move == "trade_card":
        cards = form.locator("label.hcard:has(input:not([disabled]))")
        cards.nth(rng.randrange(cards.count())).click()
        return "trade card", dock.get_by_role("button", name="Give this card")
    trade = dock.locator("form.trade-form")
    if trade.count():
        buttons = trade.get_by_role("button")
        return "trade", buttons.nth(rng.randrange(buttons.count()))
    assert move == "play", f"a player who must act is offered nothing to do ({move})"
    legal = json.loads(form.get_attribute("data-legal") or "{}")
    pass_button = dock.locator("button.pass")
    if legal and (not pass_button.count() or rng.random() < 0.75):
        cards = rng.choice(sorted(legal)).split(",")
        for rank in cards:
            # A tap on a card of that rank not chosen yet.
            form.locator(f"label.hcard:has(input[value='{rank}']:not(:checked))").first.click()
        play = dock.locator("button.play")
        expect(play).to_be_enabled()
        expect(play).to_have_text(f"Play {legal[','.join(cards)]}")
        return "play", play
    assert pass_button.count(), "a player who must act is offered neither a play nor a pass"
    return "pass", pass_button
