"""The end of a game everybody left, and the player page of one of them, on a phone and a
laptop, in English and French: the table names no winner and says why, every leaver at
the game's last place; the player page counts the game at that place and only the round
she played herself. Screenshots go to var/screenshots/."""

import pytest
from playwright.sync_api import expect

from games import commands
from games.models import Game
from tests.e2e import harness
from tests.helpers import make_user, play_out, play_until, start_table

pytestmark = pytest.mark.e2e


@pytest.fixture
def left_table(live_server):
    """Four at a table where a bot takes the seat of whoever leaves: Lena leaves in round
    2, the others in round 3, and the bots play the game out; before it, Lena played a
    game out with bots (made before the browser starts: its thread may not use the
    database)."""
    users = [make_user(n, display_name=n.capitalize()) for n in ("lena", "marc", "nour",
                                                                  "oskar")]
    play_out(start_table(users[0], bots=3, seed=21, name="Played out", options={"rounds": 2}))
    game = start_table(users[0], users[1:], seed=22, name="Everybody left",
                       options={"rounds": 4})
    Game.objects.filter(pk=game.pk).update(leaver_bot=True)
    game = play_until(game, lambda g: g.round_number == 2)
    commands.leave_game(game.pk, users[0])
    game = play_until(game, lambda g: g.round_number == 3)
    for user in users[1:]:
        commands.leave_game(game.pk, user)
    game = play_until(game, lambda g: g.is_over)
    assert game.status == Game.Status.FINISHED
    return game.pk


WORDS = {
    "en": {"over": "Everybody left: nobody wins.", "final": "Everybody left the game: nobody "
           "won it.", "player": "Lena",
           "level": "A game both players left counts in neither column",
           "in": "left in round 2"},
    "fr": {"over": "Tout le monde est parti\u00a0: personne ne gagne.",
           "final": "Tout le monde a quitté la partie\u00a0: personne ne l’a gagnée.",
           "player": "Lena", "level": "ne compte dans aucune des deux colonnes",
           "in": "partie quittée à la manche 2"},
}


@pytest.mark.parametrize("code", ["en", "fr"])
def test_a_game_everybody_left_reads_well_at_its_end_and_on_the_player_page(
        left_table, browser, live_server, screenshots, code):
    words = WORDS[code]
    for size in ("phone", "laptop"):
        context = harness.new_context(browser, size,
                                      extra_http_headers={"Accept-Language": code})
        page = context.new_page()
        problems = harness.collect_errors(page)
        harness.log_in(page, live_server.url, "lena")
        page.goto(f"{live_server.url}/t/{left_table}/")
        expect(page.locator(".turn.done")).to_contain_text(words["over"])
        final = page.locator("#final")
        expect(final).to_contain_text(words["final"])
        assert [int(v) for v in final.locator("ol.standings > li").evaluate_all(
            "items => items.map((li) => li.value)")] == [4, 4, 4, 4]
        assert not harness.wider_than_screen(page)
        page.screenshot(path=str(screenshots / f"everybody-left-{size}-{code}.png"))
        final.scroll_into_view_if_needed()
        page.screenshot(path=str(screenshots / f"everybody-left-final-{size}-{code}.png"),
                        full_page=True)
        assert harness.serious_violations(page) == []

        page.goto(f"{live_server.url}/players/lena/")
        expect(page.locator("h1")).to_contain_text(words["player"])
        expect(page.locator(".place-charts figcaption").first).to_contain_text(words["in"])
        # Marc, Nour and Oskar left the game too: Lena finished neither above nor below.
        assert page.locator("#h2h-heading + .scroll tbody tr").first.locator(
            "td").all_inner_texts() == ["1", "0", "0"]
        expect(page.locator("section[aria-labelledby=h2h-heading] p.muted")).to_contain_text(
            words["level"])
        assert not harness.wider_than_screen(page)
        page.screenshot(path=str(screenshots / f"everybody-left-player-{size}-{code}.png"),
                        full_page=True)
        assert harness.serious_violations(page) == []
        assert problems == []
        context.close()
