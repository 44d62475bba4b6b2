"""A table still filling up follows the friends gathered there: a seat taken or freed
reaches the others' open lobby pages at their next poll as the seats alone, a message
said as the talk's log alone (so a message or an invitation half-typed there survives),
and a page left open past its reader's midnight dates the talk's times of the day
before. The page reloads when room for newcomers comes or goes (its invitation panel
with it) and when the table starts. Nothing new: nothing sent."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from games import commands
from tests.chat.conftest import HTMX, say
from tests.games.test_poll import _lobby_poll_url
from tests.helpers import make_user
from tools.bench_load import hooks

pytestmark = pytest.mark.django_db

# 11:58 p.m. on 1 December in Amsterdam, the players' zone (the site's).
EVENING = datetime(2026, 12, 1, 22, 58, tzinfo=UTC)


def _lobby_poll(page: bytes) -> str:
    """The poll the lobby page's poller sends, with the newest message it shows."""
    return _lobby_poll_url(page.decode()) + f"&c={hooks(page).chat_seen}"


def _talk(body: str) -> str:
    return body.split('id="chat-log"', 1)[1].split("</div>", 1)[0]


@pytest.fixture
def lobby(alice, bob):
    """Alice's table of five, Bob seated at it."""
    game = commands.create_table(alice, "Open table", 5, {"rounds": 1})
    commands.join(game.pk, bob)
    return game


def _seats(body: str) -> str:
    return body.split('id="lobby-seats"', 1)[1].split("</section>", 1)[0]


def test_a_message_reaches_the_others_open_lobby_pages(client, alice, bob, lobby):
    client.force_login(alice)
    path = _lobby_poll(client.get(f"/t/{lobby.pk}/").content)
    assert client.get(path, **HTMX).status_code == 204
    say(lobby, bob, "Start already!")
    answer = client.get(path, **HTMX)
    assert answer.status_code == 200
    body = answer.content.decode()
    assert "Start already!" in _talk(body) and 'id="chat-log" class="chat-log" hx-swap-oob' in body
    # The talk's log and its newest line alone: a message being written stays as it is.
    assert 'name="text"' not in body and 'id="chat-form' not in body
    assert 'id="lobby-seats"' not in body
    assert client.get(_lobby_poll(answer.content), **HTMX).status_code == 204


def test_a_seat_taken_or_freed_reaches_the_others_open_lobby_pages(client, alice, bob, lobby):
    client.force_login(bob)
    path = _lobby_poll(client.get(f"/t/{lobby.pk}/").content)
    carol = make_user("carol")
    commands.join(lobby.pk, carol)
    answer = client.get(path, **HTMX)
    assert answer.status_code == 200 and "HX-Refresh" not in answer.headers
    body = answer.content.decode()
    assert 'id="lobby-seats" hx-swap-oob="true"' in body
    assert "Seats taken: 3 of 5" in _seats(body) and "Carol" in _seats(body)
    # The seats alone: the talk, a message being written, an invitation being typed stay.
    assert 'id="chat-log"' not in body and 'name="text"' not in body
    assert 'name="who"' not in body
    # The way out stays as it is (a fold the host opened stays open).
    assert "Leave this table" not in body and "Cancel this table" not in body
    path = _lobby_poll(answer.content)
    assert client.get(path, **HTMX).status_code == 204
    commands.remove_seat(lobby.pk, lobby.seats.get(user=carol).pk)
    answer = client.get(path, **HTMX)
    assert "Carol" not in _seats(answer.content.decode())
    assert "Seats taken: 2 of 5" in _seats(answer.content.decode())


def _rules(body: str) -> str:
    return body.split('id="lobby-rules"', 1)[1].split("</section>", 1)[0]


def test_the_hosts_choice_of_who_may_take_a_seat_reaches_the_guests_open_lobby_pages(
        client, alice, bob, lobby):
    client.force_login(bob)
    guest = _lobby_poll(client.get(f"/t/{lobby.pk}/").content)
    client.force_login(alice)
    host = _lobby_poll(client.get(f"/t/{lobby.pk}/").content)
    commands.set_min_on_time(lobby.pk, alice, 80)
    client.force_login(bob)
    answer = client.get(guest, **HTMX)
    assert answer.status_code == 200 and "HX-Refresh" not in answer.headers
    body = answer.content.decode()
    assert 'id="lobby-rules" hx-swap-oob="true"' in body
    assert "keep at least 80% of their turns on time" in _rules(body)
    assert client.get(_lobby_poll(answer.content), **HTMX).status_code == 204
    # The host's own page reloaded when they saved; a seat taken meanwhile leaves the
    # choice they may be making in their form as it is.
    client.force_login(alice)
    commands.add_bot(lobby.pk, "basic")
    body = client.get(host, **HTMX).content.decode()
    assert 'id="lobby-seats"' in body and 'id="lobby-rules"' not in body
    # The host's tools that come with the seats (a bot removed with one tap) still carry
    # their form's token.
    assert "Remove " in _seats(body) and 'name="csrfmiddlewaretoken"' in _seats(body)


def test_the_lobby_reloads_when_room_for_newcomers_comes_or_goes_or_the_game_starts(
        client, alice, bob, lobby):
    client.force_login(bob)
    path = _lobby_poll(client.get(f"/t/{lobby.pk}/").content)
    for name in ("carol", "dave", "erin"):
        commands.join(lobby.pk, make_user(name))
    full = client.get(path, **HTMX)  # the invitation panel goes
    assert full.status_code == 204 and full["HX-Refresh"] == "true"
    path = _lobby_poll(client.get(f"/t/{lobby.pk}/").content)
    commands.start(lobby.pk, alice)
    started = client.get(path, **HTMX)
    assert started.status_code == 204 and started["HX-Refresh"] == "true"


def test_a_lobby_page_left_open_past_midnight_dates_its_talk(client, alice, bob, lobby):
    with time_machine.travel(EVENING, tick=False):
        say(lobby, bob, "See you tomorrow")
        client.force_login(alice)
        page = client.get(f"/t/{lobby.pk}/").content
        assert "11:58 p.m." in _talk(page.decode())
        path = _lobby_poll(page)
        assert client.get(path, **HTMX).status_code == 204
    with time_machine.travel(EVENING + timedelta(minutes=3), tick=False):
        answer = client.get(path, **HTMX)
        assert answer.status_code == 200
        assert "Dec. 1, 2026, 11:58 p.m." in _talk(answer.content.decode())
        # The poller that came with it asks about the new day.
        assert client.get(_lobby_poll(answer.content), **HTMX).status_code == 204


def _invited(body: str) -> str:
    """The invitations a lobby page shows: who (to the host), or how many (to a guest)."""
    return body.split('<div id="invited"', 1)[1].split("</div>", 1)[0]


def test_invitations_sent_declined_or_taken_up_reach_the_open_lobby_pages(
        client, alice, bob, lobby):
    """A guest's lobby counts the invitations waiting for an answer, the host's names them:
    one sent, declined or taken up reaches both at their next poll, as that line alone."""
    carol, dave = make_user("carol"), make_user("dave")
    commands.invite(lobby, alice, user=carol)
    host, guest = Client(), client
    host.force_login(alice)
    guest.force_login(bob)
    pages = {who: who.get(f"/t/{lobby.pk}/").content for who in (host, guest)}
    assert "Carol" in _invited(pages[host].decode())
    assert "1 invitation pending" in _invited(pages[guest].decode())
    polls = {who: _lobby_poll(page) for who, page in pages.items()}
    assert all(who.get(polls[who], **HTMX).status_code == 204 for who in (host, guest))

    def news(who) -> str:
        answer = who.get(polls[who], **HTMX)
        assert answer.status_code == 200 and "HX-Refresh" not in answer.headers
        polls[who] = _lobby_poll(answer.content)
        assert who.get(polls[who], **HTMX).status_code == 204  # told once
        body = answer.content.decode()
        assert '<div id="invited" hx-swap-oob="true">' in body
        return body

    sent, _new = commands.invite(lobby, alice, user=dave)
    body = news(guest)
    assert "2 invitations pending" in _invited(body)
    # That line alone: the seats, the talk, the host's forms stay as they are.
    assert 'id="lobby-seats"' not in body and 'id="chat-log"' not in body
    body = news(host)
    assert "Carol" in _invited(body) and "Dave" in _invited(body)
    assert 'name="who"' not in body and 'id="lobby-seats"' not in body

    invitee = Client()
    invitee.force_login(dave)
    declined = invitee.post(reverse("decline_invitation", args=[sent.pk]))
    assert declined.status_code == 302
    assert "1 invitation pending" in _invited(news(guest))
    assert "Dave" not in _invited(news(host))

    commands.join(lobby.pk, carol)
    body = news(guest)
    assert "Carol" in _seats(body) and "pending" not in _invited(body)
    assert "Carol" not in _invited(news(host))
