"""The seats of a table before its start, as its host sees them: each "Remove …" beside a
friend or a bot is a finger's target on a phone (44 by 44 px at least: at 28 px a thumb
took the wrong seat off or missed), the list still light, and on a laptop as it was."""

import pytest
from playwright.sync_api import expect

from games import commands
from games.models import Game
from tests.e2e import harness
from tests.helpers import make_user, session_for

pytestmark = pytest.mark.e2e

# Each control that takes a seat off the table: its text, its box, and whether a tap at
# its box's centre reaches it (nothing else drawn over it).
REMOVES = """() => [...document.querySelectorAll('#lobby-seats .seat-list :is(a, button)')]
    .map((el) => {
        const box = el.getBoundingClientRect();
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return {text: el.textContent.trim(), width: Math.round(box.width),
                height: Math.round(box.height), reached: el.contains(hit)};
    })"""


@pytest.fixture
def lobby(live_server, code):
    """Ana's table of six before its start: Bartholomäus and Lotte at it, and two bots;
    Ana's pages in the language `code`."""
    ana = make_user("ana", display_name="Ana", language=code)
    game = commands.create_table(ana, "Freitagabend", 6, {"rounds": 1})
    for username, name in (("bartholomaeus", "Bartholomäus"), ("lotte", "Lotte")):
        commands.join(game.pk, make_user(username, display_name=name))
    for _ in range(2):
        commands.add_bot(game.pk, "basic")
    return game.pk, session_for(ana)


def _targets(browser, live_server, session, size, path, shown, script, screenshot) -> list:
    """The host's page at `path` on a phone or a laptop, once `shown` (a locator's text and
    count) is drawn: the controls `script` finds, each checked to be a finger's target (on
    a laptop, a pointer's), reached by a tap at its centre, on a page no wider than the
    screen."""
    problems = []
    page = harness.signed_in_page(browser, live_server.url, session, size, problems, "ana")
    page.goto(f"{live_server.url}{path}")
    expect(page.locator(shown[0])).to_have_count(shown[1])
    page.locator(shown[0]).first.locator("xpath=..").screenshot(path=str(screenshot))
    found = page.evaluate(script)
    where = f"{size}: {found}"
    assert all(control["reached"] for control in found), where
    smallest = 44 if size == "phone" else 24
    assert min(c["height"] for c in found) >= smallest, where
    assert min(c["width"] for c in found) >= smallest, where
    assert not harness.wider_than_screen(page), where
    assert problems == [], problems
    page.context.close()
    return found


@pytest.mark.parametrize("size", ["phone", "laptop"])
@pytest.mark.parametrize("code", ["en", "de", "fr"])
def test_a_hosts_remove_is_a_fingers_target_on_a_phone(lobby, browser, live_server, size,
                                                        code, screenshots):
    game_id, session = lobby
    removes = _targets(browser, live_server, session, size, f"/t/{game_id}/",
                       ("#lobby-seats .seat-list li", 5), REMOVES,
                       screenshots / f"lobby-remove-{size}-{code}.png")
    # Two friends (a page to confirm on) and two bots (taken off at once).
    assert len(removes) == 4, removes


# Each "Withdraw" of the host's list of invitations waiting for an answer, as REMOVES.
WITHDRAWS = REMOVES.replace("#lobby-seats .seat-list :is(a, button)", ".invited-list button")


@pytest.fixture
def invited(lobby):
    """Ana's table with two invitations waiting: a name and a long address."""
    game = Game.objects.get(pk=lobby[0])
    commands.invite(game, game.host, user=make_user("wim", display_name="Wim"))
    commands.invite(game, game.host, email="bartholomaeus.vandenbroucke@example.org")
    return lobby


@pytest.mark.parametrize("size", ["phone", "laptop"])
@pytest.mark.parametrize("code", ["en", "nl"])
def test_a_hosts_withdraw_is_a_fingers_target_on_a_phone(invited, browser, live_server, size,
                                                          code, screenshots):
    game_id, session = invited
    withdraws = _targets(browser, live_server, session, size, f"/t/{game_id}/?invite=1#invite",
                         (".invited-list li", 2), WITHDRAWS,
                         screenshots / f"lobby-withdraw-{size}-{code}.png")
    assert len(withdraws) == 2, withdraws
