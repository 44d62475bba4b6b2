"""The pages friends use over days, on a phone and a laptop: the profile (time zone and
away), a lobby (when it closes, cancelling it), a table someone joins and a nudge, and
the page of a watcher. Each passes the accessibility check; screenshots go to
var/screenshots/ for a person to look at."""

import pytest
from django.utils import timezone

from games import commands
from games.models import Game, TurnLimit
from tests.e2e import harness
from tests.helpers import make_user, start_table, waiting_humans

pytestmark = pytest.mark.e2e


@pytest.fixture
def pages(live_server):
    tess = make_user("tess", display_name="Tess")
    friends = [make_user(n, display_name=n.title()) for n in ("ada", "bram", "cato")]
    lobby = commands.create_table(tess, "Friday friends", 5, {"rounds": 3})
    game = start_table(tess, friends, turn_limit=TurnLimit.DAY, name="Kitchen table")
    commands.join_in_progress(game.pk, make_user("dana", display_name="Dana"))
    # Somebody has had the turn for two hours: Tess may nudge them.
    waiting = next(s for s in waiting_humans(game) if s.user != tess)
    two_hours = timezone.timedelta(hours=2)
    for wait in game.awaiting.values():
        wait[1] = (timezone.now() - two_hours).isoformat()
        if wait[2]:
            wait[2] = (timezone.datetime.fromisoformat(wait[2]) - two_hours).isoformat()
    Game.objects.filter(pk=game.pk).update(awaiting=game.awaiting)
    commands.set_watchable(game.pk, tess, True)
    game.refresh_from_db()
    return {"lobby": f"/t/{lobby.pk}/", "table": f"/t/{game.pk}/",
            "profile": "/accounts/profile/", "watch": f"/watch/{game.watch_token}/",
            "waiting": waiting.name}


@pytest.mark.parametrize("size", harness.SIZES)
def test_the_pages_friends_use_over_days(pages, browser, live_server, size, screenshots):
    context = harness.new_context(browser, size)
    page = context.new_page()
    problems = harness.collect_errors(page)
    watcher = harness.new_context(browser, size).new_page()
    harness.log_in(page, live_server.url, "tess")
    for name in ("profile", "lobby", "table", "watch"):
        target = watcher if name == "watch" else page
        target.goto(live_server.url + pages[name])
        target.screenshot(path=str(screenshots / f"days-{name}-{size}.png"), full_page=True)
        serious = harness.serious_violations(target)
        assert serious == [], f"{name} at {size}: " + harness.describe(serious)
    page.goto(live_server.url + pages["table"])
    assert page.get_by_text("Dana joins at round 2.").is_visible()
    assert page.get_by_role("button", name=f"Nudge {pages['waiting']}").is_visible()
    assert watcher.locator(".hcard").count() == 0
    assert problems == []
    context.close()
