"""The line that tells what the taxes took from and brought to the hand stands above the
cards, on a laptop as on a phone, however few they are: a short hand's row once began
beside it."""

import pytest

from tests.e2e import harness
from tests.helpers import make_user, play_until, session_for, start_table

pytestmark = pytest.mark.e2e


@pytest.fixture
def after_taxes(live_server):
    tess = make_user("tess", display_name="Tess")

    def few_cards_left(g) -> bool:
        # A short hand: the cards' row would fit beside the line.
        state = g.engine_state()
        seat = state.seats.index(g.seats.get(user=tess).player)
        return (state.round_number == 2 and state.round.phase == "play"
                and 0 < len(state.round.hand(seat)) <= 4)

    for seed in range(11, 40):
        game = play_until(start_table(tess, bots=3, seed=seed, name="Kitchen table"),
                          few_cards_left)
        if few_cards_left(game):
            return game.pk, session_for(tess)
    raise AssertionError("no seed left Tess a short hand in round 2")


@pytest.mark.parametrize("size", harness.SIZES)
def test_the_taxes_line_stands_above_the_cards(after_taxes, browser, live_server, size,
                                               screenshots):
    game_id, session = after_taxes
    problems = []
    page = harness.signed_in_page(browser, live_server.url, session, size, problems, size)
    page.goto(f"{live_server.url}/t/{game_id}/")
    note = page.locator(".hand .taxes-note")
    assert "In the taxes you gave" in note.inner_text()
    page.screenshot(path=str(screenshots / f"hand-note-{size}.png"))
    note_box = note.bounding_box()
    card_box = page.locator(".hand .hand-cards > li").first.bounding_box()
    assert card_box["y"] >= note_box["y"] + note_box["height"], (note_box, card_box)
    assert problems == []
    page.context.close()
