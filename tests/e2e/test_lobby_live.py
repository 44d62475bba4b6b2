"""Friends gather at a table still filling up, in a real browser, on a phone as at a
desk: what one says, and a seat someone takes, reach the other's open lobby page by its
poll, while the message the other is writing stays in its field."""

import threading

import pytest
from django.db import connection
from playwright.sync_api import expect

from chat import services as chat
from games import commands
from games.models import Game
from tests.e2e import harness
from tests.helpers import make_user, session_for

pytestmark = pytest.mark.e2e


@pytest.fixture
def lobby(live_server):
    """Ana's table, Bram seated at it, not started; Ana's session (her pages in Dutch)."""
    ana = make_user("ana", display_name="Ana", language="nl")
    bram = make_user("bram", display_name="Bram")
    game = commands.create_table(ana, "Vrijdagavond", 5, {"rounds": 1})
    commands.join(game.pk, bram)
    return game.pk, bram.pk, session_for(ana)


def _join(game_id: int) -> None:
    """Cas takes a seat (a thread of its own: the browser's may not use the database)."""
    try:
        commands.join(game_id, make_user("cas", display_name="Cas"))
    finally:
        connection.close()


def _say(game_id: int, user_id: int, text: str) -> None:
    """Bram speaks (a thread of its own: the browser's may not use the database)."""
    try:
        game = Game.objects.get(pk=game_id)
        chat.post(game, game.seats.select_related("user").get(user_id=user_id), text)
    finally:
        connection.close()


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_a_message_and_a_seat_reach_the_open_lobby_and_leave_the_message_being_written(
        lobby, browser, live_server, size):
    game_id, bram_id, session = lobby
    problems = []
    page = harness.signed_in_page(browser, live_server.url, session, size, problems, "ana")
    page.goto(f"{live_server.url}/t/{game_id}/")
    # Folded at the foot of the page, with the newest line: the game's sheet, which only
    # the game's "Table talk" button opens, would leave it out of reach on a phone.
    summary = page.locator("details.chat-panel summary")
    expect(summary).to_be_visible()
    summary.click()
    page.locator("#chat-text").fill("Ik ben er bijna")
    worker = threading.Thread(target=_say, args=(game_id, bram_id, "Beginnen we?"))
    worker.start()
    worker.join()
    expect(page.locator("#chat-log")).to_contain_text("Beginnen we?")
    expect(page.locator("#chat-latest")).to_contain_text("Bram: Beginnen we?")
    expect(page.locator("#chat-text")).to_have_value("Ik ben er bijna")
    worker = threading.Thread(target=_join, args=(game_id,))
    worker.start()
    worker.join()
    expect(page.locator("#lobby-seats h2")).to_have_text("Bezette plaatsen: 3 van 5")
    expect(page.locator("#lobby-seats .seat-list")).to_contain_text("Cas")
    expect(page.locator("#chat-text")).to_have_value("Ik ben er bijna")
    expect(page.locator("#chat-log")).to_contain_text("Beginnen we?")
    assert not harness.wider_than_screen(page)
    assert problems == []
    page.context.close()


def test_a_seat_taken_leaves_the_hosts_open_fold_to_cancel_the_table_open(
        lobby, browser, live_server):
    game_id, _bram_id, session = lobby
    problems = []
    page = harness.signed_in_page(browser, live_server.url, session, "phone", problems, "ana")
    page.goto(f"{live_server.url}/t/{game_id}/")
    page.locator("details.cancel-table summary").click()
    expect(page.locator("details.cancel-table")).to_have_attribute("open", "")
    worker = threading.Thread(target=_join, args=(game_id,))
    worker.start()
    worker.join()
    expect(page.locator("#lobby-seats .seat-list")).to_contain_text("Cas")
    expect(page.locator("details.cancel-table")).to_have_attribute("open", "")
    expect(page.get_by_role("button", name="Ja, annuleer de tafel")).to_be_visible()
    assert problems == []
    page.context.close()


def _invite(game_id: int, name: str) -> None:
    """Ana invites someone from another page of hers (a thread of its own)."""
    try:
        game = Game.objects.get(pk=game_id)
        commands.invite(game, game.host, user=make_user(name, display_name=name.title()))
    finally:
        connection.close()


def _decline(game_id: int, name: str) -> None:
    """The invitee declines (what the decline button does; a thread of its own)."""
    try:
        Game.objects.get(pk=game_id).invitations.filter(user__username=name).delete()
    finally:
        connection.close()


def _greta_joins(game_id: int, sessions: list) -> None:
    """Greta, who reads German, takes a seat; her session into `sessions`."""
    try:
        greta = make_user("greta", display_name="Greta", language="de")
        commands.join(game_id, greta)
        sessions.append(session_for(greta))
    finally:
        connection.close()


def _in_thread(work, *args) -> None:
    worker = threading.Thread(target=work, args=args)
    worker.start()
    worker.join()


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_invitations_sent_or_declined_reach_the_open_lobby_pages(
        lobby, browser, live_server, size):
    """The host's open lobby names the invitations waiting, a guest's counts them: one
    sent or declined elsewhere reaches both, and the address the host is typing stays."""
    game_id, _bram_id, session = lobby
    sessions = []
    _in_thread(_greta_joins, game_id, sessions)
    problems = []
    host = harness.signed_in_page(browser, live_server.url, session, size, problems, "ana")
    guest = harness.signed_in_page(browser, live_server.url, sessions[0], size, problems,
                                   "greta")
    for page in (host, guest):
        page.goto(f"{live_server.url}/t/{game_id}/")
    address = host.locator(".invite input[name=who]")
    address.fill("dirk@example.com")
    _in_thread(_invite, game_id, "eva")
    expect(host.locator("#invited")).to_contain_text("Eva")
    expect(guest.locator("#invited")).to_have_text("1 Einladung ist offen")
    _in_thread(_decline, game_id, "eva")
    expect(host.locator("#invited")).not_to_contain_text("Eva")
    expect(guest.locator("#invited")).to_have_text("")
    expect(address).to_have_value("dirk@example.com")
    for page in (host, guest):
        assert not harness.wider_than_screen(page)
        page.context.close()
    assert problems == []
