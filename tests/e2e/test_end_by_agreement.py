"""A proposal to end the game, as the table shows it on a phone and on a laptop, in
English and in Dutch: readable, its buttons tappable, the dock never covered; and the
record of keeping turns on the player page. Screenshots go to var/screenshots/."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games import commands
from games.models import Action, Game, Seat
from tests.e2e import harness
from tests.helpers import bots_play_on, make_user, start_table

pytestmark = pytest.mark.e2e


def _past_game(user, moves: int, timeouts: int) -> None:
    """A finished game in the player's last weeks, with their moves and timeouts."""
    game = Game.objects.create(name="Last month", host=user, status=Game.Status.FINISHED,
                               finished=timezone.now() - timedelta(days=20))
    Seat.objects.create(game=game, user=user, player=0)
    kinds = ["player"] * moves + ["timeout"] * timeouts
    Action.objects.bulk_create(Action(game=game, seq=i + 1, player=0, kind="pass", by=by)
                               for i, by in enumerate(kinds))


@pytest.fixture
def table(live_server):
    """Tess hosts Bram, Cora and a bot; Bram proposes to end the game. Tess has a past."""
    tess = make_user("tess", display_name="Tess")
    bram = make_user("bram", display_name="Bram")
    cora = make_user("cora", display_name="Cora")
    _past_game(tess, 170, 30)  # 85% of 200 turns on time
    game = start_table(tess, [bram, cora], bots=1, seed=7, options={"rounds": 10})
    bots_play_on(game)
    commands.propose_end(game.pk, bram)
    # Cora's next table asks for 90% of turns on time: not for Tess.
    punctual = commands.create_table(cora, "Punctual", 4, {"rounds": 2}, min_on_time=90)
    return game.pk, punctual.invite_token


@pytest.mark.parametrize("size", harness.SIZES)
def test_the_proposal_and_the_record_read_well(table, browser, live_server, size,
                                                screenshots):
    table, punctual = table
    context = harness.new_context(browser, size, locale="en-GB")
    page = context.new_page()
    problems = harness.collect_errors(page)
    harness.log_in(page, live_server.url, "tess")
    for code, words in (("en", "proposes to end the game"), ("nl", "stelt voor")):
        if code != "en":
            menu = page.locator(".site-menu > summary")
            if menu.is_visible():  # folded on a phone
                menu.click()
            page.locator("#language-select").select_option(code)
            expect(page.locator("html")).to_have_attribute("lang", code)
        page.goto(f"{live_server.url}/t/{table}/")
        proposal = page.locator("form.end-proposal")
        expect(proposal).to_contain_text(words)
        proposal.locator("button[value=yes]").scroll_into_view_if_needed()
        # In the page's flow, never over the dock: its buttons and the dock's own are
        # each what a tap on them hits.
        for selector in ("form.end-proposal button[value=yes]", "#actions button"):
            assert page.evaluate("""(selector) => {
                const b = document.querySelector(selector);
                const box = b.getBoundingClientRect();
                const hit = document.elementFromPoint(box.left + box.width / 2,
                                                      box.top + box.height / 2);
                return b === hit || b.contains(hit);
            }""", selector), selector
        assert not harness.wider_than_screen(page)
        page.screenshot(path=str(screenshots / f"end-proposal-{code}-{size}.png"))
        # The accessibility check once per page: the words change, not the markup.
        checked = code == "en"
        assert not checked or harness.serious_violations(page) == []

        page.goto(f"{live_server.url}/players/tess/")
        record = page.locator("section.reliability")
        expect(record).to_contain_text("85%")
        record.scroll_into_view_if_needed()
        assert not harness.wider_than_screen(page)
        page.screenshot(path=str(screenshots / f"reliability-{code}-{size}.png"))
        assert not checked or harness.serious_violations(page) == []

        # A table asking for more than she keeps says why she cannot sit down.
        page.goto(f"{live_server.url}/join/{punctual}/")
        expect(page.locator(".error")).to_contain_text("90")
        expect(page.locator("main form button")).to_have_count(0)
        page.screenshot(path=str(screenshots / f"join-refused-{code}-{size}.png"))
        assert not checked or harness.serious_violations(page) == []

    # Tess agrees: with Bram's proposal, two of the three people: the game ends after
    # this round, and the page says so.
    page.goto(f"{live_server.url}/t/{table}/")
    page.locator("form.end-proposal button[value=yes]").click()
    page.wait_for_load_state()
    expect(page.locator("body")).to_contain_text("het spel eindigt na deze ronde")
    page.screenshot(path=str(screenshots / f"end-agreed-nl-{size}.png"))
    assert problems == []
    context.close()
