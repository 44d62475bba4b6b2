"""Answers that cross on the way. A request asked of the table as a page showed it may
be answered after the page has moved on: a poll answered after the player's own move was,
a move's answer (a refusal with its message) after a poll's. A poll's late answer must not
draw the hand again over what the player has done since (the cards chosen for the next
move), nor take the page back to an older table; a move's late answer is shown, and the
page then catches up with the table."""

import json
import re
import threading
from types import SimpleNamespace

import pytest
from django.db import OperationalError, connection
from playwright.sync_api import expect

from dalmuti_site.errors import database_unavailable
from games import engine
from tests.e2e import harness
from tests.helpers import act_as, make_user, play_until, session_for, start_table

pytestmark = pytest.mark.e2e


def _both_dalmutis_give_back(game) -> bool:
    state = game.engine_state()
    return state.round.phase == "taxes" and len(state.awaiting_players) == 2


@pytest.fixture
def taxes(live_server, settings):
    """Four people in the first round's taxes, both Dalmutis to give cards back: the
    game, the Great Dalmuti's seat (she leads the first trick) and the Lesser's. The
    pages poll only when a test asks them to."""
    settings.GAME_POLL_SECONDS = 3600
    people = [make_user(name, display_name=name.title())
              for name in ("ana", "bram", "cato", "dido")]
    game = start_table(people[0], people[1:], seed=11, options={"rounds": 2})
    game.seats.update(auto_pass=False)
    game = play_until(game, _both_dalmutis_give_back)
    state = game.engine_state()
    after = state
    for player in state.awaiting_players:
        after = after.apply(player, engine.action_from_json(_give_back(game, player)))
    (great,) = after.awaiting_players
    (lesser,) = set(state.awaiting_players) - {great}
    seats = {seat.player: seat for seat in game.seats.select_related("user")}
    return SimpleNamespace(game=game, great=seats[great], lesser=seats[lesser],
                           sessions={p: session_for(seats[p].user) for p in (great, lesser)})


def _give_back(game, player: int) -> dict:
    game.refresh_from_db()
    return game.engine_state().view(player)["legal_actions"][0]


def _gives_back(game, seat) -> None:
    """`seat`'s player gives back, from another thread: this one runs the browser, and
    Django makes no database call from it."""
    def work():
        try:
            act_as(game, seat, _give_back(game, seat.player))
        finally:
            connection.close()
    worker = threading.Thread(target=work)
    worker.start()
    worker.join()


def _open(browser, live_server, taxes, seat, problems):
    """`seat`'s page, where its player is to give cards back."""
    page = harness.signed_in_page(browser, live_server.url, taxes.sessions[seat.player],
                                  "laptop", problems, seat.user.username,
                                  service_workers="block")
    page.goto(f"{live_server.url}/t/{taxes.game.pk}/")
    expect(page.locator("#move-form")).to_have_attribute("data-move", "give_back")
    return page


def _hold_polls(page) -> list:
    """The page's polls from now on: the first is held on the way (the list's first,
    answered when the test says), those after it go through."""
    held = []

    def handle(route):
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route(lambda url: "/poll/" in url, handle)
    return held


def _poll_held(page) -> list:
    """A poll from the table as the page shows it, held on the way (the list's one)."""
    held = _hold_polls(page)
    _ask(page)
    page.locator("#poller.htmx-request").wait_for(state="attached")
    assert len(held) == 1, "the page did not ask"
    return held


def _give_back_held(page) -> list:
    """The cards given back on the page, the move held on the way (the list's one)."""
    held = []
    page.route("**/act/", lambda route: held.append(route))
    _give_back_on(page)
    page.locator("html[data-sending]").wait_for(state="attached")
    assert len(held) == 1, "the move was not sent"
    return held


def _ask(page) -> None:
    """The page asks what changed, as it does when its stream tells it to; the poller
    that asks says when its answer has been had (`window.answered`)."""
    page.evaluate("""() => {
        const poller = document.getElementById("poller");
        window.answered = false;
        poller.addEventListener("htmx:afterOnLoad", () => { window.answered = true; });
        htmx.trigger(poller, "ask");
    }""")


def _answer_now(page, route) -> None:
    """The held poll reaches the server now, and its answer the page."""
    route.fulfill(response=route.fetch())
    page.wait_for_function("() => window.answered === true")


def _give_back_on(page) -> None:
    """The first cards of the hand given back, on the page."""
    form = page.locator("#move-form")
    for card in form.locator("label.hcard:has(input:checked)").all():
        card.click()  # a forced choice comes ticked: start afresh
    cards = form.locator("label.hcard:has(input:not([disabled]))")
    for index in range(int(form.get_attribute("data-due"))):
        cards.nth(index).click()
    page.get_by_role("button", name="Give back").click()


def _version(page) -> int:
    return int(re.search(r"\?v=(\d+)&", page.locator("#poller").get_attribute("hx-get"))[1])


def test_a_poll_answered_after_the_move_leaves_the_next_choice_alone(taxes, browser,
                                                                   live_server):
    _gives_back(taxes.game, taxes.lesser)
    problems: list[str] = []
    page = _open(browser, live_server, taxes, taxes.great, problems)
    form = page.locator("#move-form")

    # A poll goes out from the table as it is, and is held on the way.
    held = _poll_held(page)

    # The cards given back; the answer shows the first trick, which the player leads.
    _give_back_on(page)
    expect(form).to_have_attribute("data-move", "play")
    version = _version(page)

    # A card chosen for the lead.
    play = page.locator("[data-play-button]")
    legal = json.loads(form.get_attribute("data-legal"))
    lead = min(legal, key=lambda key: (len(key.split(",")), key))
    form.locator(f"label.hcard:has(input[value='{lead}'])").first.click()
    expect(play).to_have_text(f"Play {legal[lead]}")

    # The poll is answered now, by the table as the move left it: the choice stands.
    _answer_now(page, held[0])
    expect(play).to_be_enabled()
    expect(play).to_have_text(f"Play {legal[lead]}")
    expect(form.locator("input[name=card]:checked")).to_have_count(1)
    assert _version(page) == version

    # And the lead goes through.
    play.click()
    expect(page.locator("#status .turn.mine")).to_have_count(0)
    expect(page.locator("#log li").first).to_contain_text(legal[lead])
    assert not problems, problems


def test_a_poll_answered_late_does_not_take_the_page_back(taxes, browser, live_server):
    problems: list[str] = []
    page = _open(browser, live_server, taxes, taxes.lesser, problems)

    # A poll is held on the way; the Great Dalmuti gives back meanwhile, and the poll is
    # answered with that (the answer is held too).
    held = _poll_held(page)
    _gives_back(taxes.game, taxes.great)
    late = held[0].fetch()

    # The Lesser Dalmuti gives back in turn: the first trick begins, the Great Dalmuti's
    # to lead.
    _give_back_on(page)
    expect(page.locator("#status .turn.mine")).to_have_count(0)
    version = _version(page)
    status = page.locator("#status").inner_text()

    # The older answer arrives last: the page stays where it is.
    held[0].fulfill(response=late)
    page.wait_for_function("() => window.answered === true")
    assert _version(page) == version
    expect(page.locator("#status .turn.mine")).to_have_count(0)
    assert page.locator("#status").inner_text() == status
    assert not problems, problems


def test_a_refusal_answered_after_the_page_moved_on_is_shown_and_caught_up(
        taxes, browser, live_server):
    problems: list[str] = []
    page = _open(browser, live_server, taxes, taxes.lesser, problems)

    # The Lesser Dalmuti gives back, and the answer is held on the way …
    held = _give_back_held(page)
    # … while the same player gives back from another tab, which reaches the table first:
    # the held move is refused. Then the Great Dalmuti gives back and the trick begins.
    _gives_back(taxes.game, taxes.lesser)
    refusal = held[0].fetch()
    assert refusal.status == 409
    _gives_back(taxes.game, taxes.great)

    # The page asks and shows the first trick.
    _ask(page)
    page.wait_for_function("() => window.answered === true")
    newest = _version(page)
    expect(page.locator("#status")).to_contain_text(taxes.great.user.display_name)

    # The refusal arrives last, drawn from the table as it was before the Great Dalmuti
    # gave back: its message is shown, and the page catches up with the table at once.
    held[0].fulfill(response=refusal)
    expect(page.get_by_text(re.compile("already recorded|not your turn"))).to_be_visible()
    page.locator(f'#poller[hx-get*="?v={newest}&"]').wait_for(state="attached")
    fresh = page.context.new_page()
    fresh.goto(page.url)
    for part in ("#status .turn", "#me"):
        assert page.locator(part).inner_text() == fresh.locator(part).inner_text(), part
    assert not problems, problems


@pytest.fixture
def lost_database(rf):
    """The server's answer to a move sent by htmx when the database could not be reached
    (dalmuti_site.errors.database_unavailable): the alert, sent to the page's alerts."""
    request = rf.post("/t/1/act/", headers={"HX-Request": "true"})
    answer = database_unavailable(request, OperationalError("connection lost"))
    return {"status": answer.status_code, "headers": dict(answer.headers),
            "body": answer.content.decode()}


def test_a_failure_answered_after_the_page_moved_on_is_said_where_alerts_go(
        taxes, lost_database, browser, live_server):
    problems: list[str] = []
    page = _open(browser, live_server, taxes, taxes.lesser, problems)
    held = _give_back_held(page)
    # The Great Dalmuti gives back; the page asks and shows it.
    _gives_back(taxes.game, taxes.great)
    _ask(page)
    page.wait_for_function("() => window.answered === true")
    shown = _version(page)

    # The move's answer comes last: the database could not be reached.
    held[0].fulfill(**lost_database)
    expect(page.locator("#alerts .error")).to_contain_text("That did not go through")
    # The table stays as it was shown, and the page still asks for what changes.
    assert _version(page) == shown
    _ask(page)
    page.wait_for_function("() => window.answered === true")
    assert [p for p in problems if "503" not in p] == []
