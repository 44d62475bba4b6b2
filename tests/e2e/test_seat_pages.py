"""The pages around a game in progress, on a phone and a laptop: the table's link opened
during the game (join from the next round), the Great Dalmuti's choice of a newcomer's
place, the vote on a stand-in for a player who missed two turns, and a watcher's page.
Each passes the accessibility check; screenshots go to var/screenshots/."""

import pytest

from games import commands
from games.models import Game, TurnLimit
from tests.e2e import harness
from tests.helpers import make_user, start_table, waiting_humans

pytestmark = pytest.mark.e2e


@pytest.fixture
def pages(live_server):
    names = ("tess", "ada", "bram", "cato", "eve")
    users = [make_user(n, display_name=n.title()) for n in names]
    game = start_table(users[0], users[1:], turn_limit=TurnLimit.DAY, name="Kitchen table",
                       options={"rounds": 5})
    state = game.engine_state()
    great = game.seats.select_related("user").get(player=state.seats[state.round.order[0]])
    # Somebody missed two turns in a row: the others may vote a bot in.
    absent = next(s for s in waiting_humans(game) if s.pk != great.pk)
    absent.timeouts_in_row = 2
    absent.save(update_fields=["timeouts_in_row"])
    commands.join_in_progress(game.pk, make_user("dana", display_name="Dana"))
    make_user("finn", display_name="Finn")  # opens the link during the game
    commands.set_watchable(game.pk, users[0], True)
    game = Game.objects.get(pk=game.pk)
    voter = next(u for u in users if u not in (great.user, absent.user))
    return {"game": game, "great": great.user.username, "voter": voter.username,
            "absent": absent.name}


@pytest.mark.parametrize("size", harness.SIZES)
def test_the_pages_around_a_game_in_progress(pages, browser, live_server, size,
                                             screenshots):
    game = pages["game"]
    problems = []
    shots = {
        "join": ("finn", f"/join/{game.invite_token}/"),
        "choice": (pages["great"], f"/t/{game.pk}/"),
        "vote": (pages["voter"], f"/t/{game.pk}/"),
        "watch": (None, f"/watch/{game.watch_token}/"),
    }
    for name, (username, path) in shots.items():
        context = harness.new_context(browser, size)
        page = context.new_page()
        harness.collect_errors(page, problems)
        if username:
            harness.log_in(page, live_server.url, username)
        page.goto(live_server.url + path)
        if name == "vote":
            page.locator("form.vote").scroll_into_view_if_needed()
        page.screenshot(path=str(screenshots / f"seats-{name}-{size}.png"), full_page=True)
        serious = harness.serious_violations(page)
        assert serious == [], f"{name} at {size}: " + harness.describe(serious)
        if name == "join":
            assert page.get_by_role("button", name="Join from the next round").is_visible()
        elif name == "choice":
            assert page.get_by_text("you choose where Dana sits").is_visible()
        elif name == "vote":
            assert page.get_by_role("button", name="Vote yes").is_visible()
            assert page.get_by_text(f"{pages['absent']} missed their last turns").is_visible()
        else:
            assert page.locator(".hcard").count() == 0
            assert page.get_by_text("Dana joins at round 2.").is_visible()
        context.close()
    assert problems == []
