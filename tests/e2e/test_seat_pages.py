"""The pages around a game in progress, on a phone and a laptop: the table's link opened
during the game (join from the next round), the Great Dalmuti's choice of a newcomer's
place, the vote on a stand-in for a player who missed two turns, and a watcher's page.
Each passes the accessibility check; screenshots go to var/screenshots/."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from games import commands
from games.models import Game, TurnLimit
from tests.helpers import PASSWORD, make_user, start_table, waiting_humans

pytestmark = pytest.mark.e2e

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 850}}


@pytest.fixture
def pages(live_server, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
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


def _log_in(page, url, username):
    page.goto(f"{url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


@pytest.mark.parametrize("size", SIZES)
def test_the_pages_around_a_game_in_progress(pages, browser, live_server, size,
                                             screenshot_dir):
    folder = screenshot_dir / "screenshots"
    folder.mkdir(exist_ok=True)
    game = pages["game"]
    axe = Axe()
    problems = []
    shots = {
        "join": ("finn", f"/join/{game.invite_token}/"),
        "choice": (pages["great"], f"/t/{game.pk}/"),
        "vote": (pages["voter"], f"/t/{game.pk}/"),
        "watch": (None, f"/watch/{game.watch_token}/"),
    }
    for name, (username, path) in shots.items():
        context = browser.new_context(viewport=SIZES[size], is_mobile=size == "phone",
                                      has_touch=size == "phone")
        page = context.new_page()
        page.on("console", lambda m: m.type == "error" and problems.append(m.text))
        if username:
            _log_in(page, live_server.url, username)
        page.goto(live_server.url + path)
        if name == "vote":
            page.locator("form.vote").scroll_into_view_if_needed()
        page.screenshot(path=str(folder / f"seats-{name}-{size}.png"), full_page=True)
        serious = [v for v in axe.run(page).response["violations"]
                   if v["impact"] in ("serious", "critical")]
        assert serious == [], f"{name} at {size}: " + "; ".join(
            f"{v['id']}: {[n['target'] for n in v['nodes']][:5]}" for v in serious)
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
