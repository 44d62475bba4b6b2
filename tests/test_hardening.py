"""Requests and pages that must not go wrong: unusual charsets, the debug page, chat text."""

import sys

import pytest
from django.test import RequestFactory
from django.views.debug import technical_500_response

from tests.helpers import start_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("charset", ["utf-16", "utf-32", "no-such-charset"])
def test_a_form_in_an_unusual_charset_gets_a_clear_400(client, charset):
    answer = client.generic(
        "POST", "/accounts/login/", b"username=alice&password=x",
        content_type=f"application/x-www-form-urlencoded; charset={charset}",
    )
    assert answer.status_code == 400
    assert b"UTF-8" in answer.content


def test_a_move_in_an_unusual_charset_changes_nothing(client, alice, bob):
    game = start_table(alice, [bob], bots=2)
    client.force_login(alice)
    before = (game.seq, game.state)
    answer = client.generic("POST", f"/t/{game.pk}/act/", "action=pass&turn=0".encode("utf-16"),
                            content_type="application/x-www-form-urlencoded; charset=utf-16")
    assert answer.status_code == 400
    game.refresh_from_db()
    assert (game.seq, game.state) == before


def test_the_debug_page_never_shows_a_games_seed_or_hands(settings, alice, bob):
    settings.DEBUG = True
    game = start_table(alice, [bob], bots=2)
    state = game.state  # what a view holds while it applies a move
    seed = game.seed
    hands = state["round"]["hands"]
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        page = technical_500_response(RequestFactory().get("/"), *sys.exc_info()).content
    page = page.decode()
    assert "boom" in page
    assert str(seed) not in page
    assert str(hands[0]) not in page and str(state["round"]["hands"][1]) not in page


def test_chat_drops_bidirectional_controls():
    from chat.services import clean

    assert clean("Bra\u202emoc.live\u202c gift") == "Bramoc.live gift"
    assert clean("\u2066a\u2069\u200e\u200fb\u061c") == "ab"
