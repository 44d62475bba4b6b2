"""A game an organiser ended early ("End a stalled game") is over for the people at it:
their page takes them to its record, where the reason is; an open page learns it at its
next poll; a move sent from a page still showing the table is refused as too late; and
whoever watches by link is told it ended."""

import pytest
from django.test import Client
from django.urls import reverse

from games import commands, engine
from games.models import Game
from leagues.services import end_game
from tests.leagues.helpers import make_user, play_until, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def ended(db):
    alice = make_user("alice")
    game = start_game(alice, options={"rounds": 3})
    game = play_until(game, lambda g: g.round_number == 2)
    shown = game.version
    commands.set_watchable(game.pk, alice, True)
    end_game(game.pk, "Alice moved abroad.")
    return Game.objects.get(pk=game.pk), shown


def _at_the_table(game):
    """A person seated at the game, signed in."""
    seat = game.seats.exclude(user=None).first()
    client = Client()
    client.force_login(seat.user)
    return client, seat


def test_the_page_of_a_game_ended_early_takes_its_players_to_the_record(ended):
    game, _shown = ended
    client, _seat = _at_the_table(game)
    answer = client.get(f"/t/{game.pk}/")
    assert answer.status_code == 302
    assert answer["Location"] == reverse("game_record", args=[game.pk])
    record = client.get(answer["Location"]).content.decode()
    assert "Alice moved abroad." in record


def test_an_open_page_learns_at_its_next_poll_that_the_game_ended(ended):
    game, shown = ended
    assert game.version > shown
    client, _seat = _at_the_table(game)
    answer = client.get(f"/t/{game.pk}/poll/?v={shown}&me=")
    assert answer.status_code == 204
    assert answer["HX-Refresh"] == "true"


def test_a_move_from_a_page_still_showing_the_table_is_refused(ended):
    game, _shown = ended
    client, seat = _at_the_table(game)
    before = (game.seq, game.state)
    answer = client.post(f"/t/{game.pk}/act/", {"action": "pass", "turn": "0"},
                         HTTP_HX_REQUEST="true")
    assert answer.status_code == 409
    assert "This game is not in play." in answer.content.decode()
    game.refresh_from_db()
    assert (game.seq, game.state) == before
    with pytest.raises(commands.Rejected):
        commands.act(game.pk, seat.user, engine.PASS, 0)


def test_a_watcher_is_told_the_game_ended_early_and_why(ended):
    game, shown = ended
    page = Client().get(f"/watch/{game.watch_token}/")
    assert page.status_code == 410
    text = page.content.decode()
    assert "This game was ended early." in text and "Alice moved abroad." in text
    assert 'class="hand' not in text
    poll = Client().get(f"/watch/{game.watch_token}/poll/?v={shown}")
    assert poll["HX-Refresh"] == "true"


def test_the_replays_last_step_says_the_game_was_ended_early_and_waits_on_nobody(ended, client):
    game, _shown = ended
    client.force_login(game.host)
    last = client.get(f"/history/{game.pk}/replay/?step=100000").content.decode()
    assert "Ended early: Alice moved abroad." in last
    assert "is-turn" not in last and "deciding" not in last
    first = client.get(f"/history/{game.pk}/replay/?step=1").content.decode()
    assert "Ended early" not in first
