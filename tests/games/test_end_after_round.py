"""An open-ended game runs until the host ends it after a round; the record replays it."""

import pytest

from games.models import Action
from games.read import replay
from tests.helpers import play_until, start_table

pytestmark = pytest.mark.django_db


@pytest.fixture(name="game")
def open_ended_game(alice, bob):
    """Instead of the shared `game`: the same table with no end set (no number of rounds,
    no target score)."""
    return start_table(alice, [bob], bots=2, options={"rounds": None, "target_score": None})


def test_an_open_ended_game_says_so_and_only_the_host_can_end_it(client, game, alice, bob):
    client.force_login(bob)
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert "until the host ends it" in page and "End the game after this round" not in page
    answer = client.post(f"/t/{game.pk}/end/", {"end": "yes"}, follow=True)
    assert "Only the host can end the game." in answer.content.decode()
    game.refresh_from_db()
    assert not game.engine_state().ending
    client.force_login(alice)
    page = client.get(f"/t/{game.pk}/").content.decode()
    # In sight above the standing orders' panel, not folded away in it: it is how the
    # game ends.
    assert page.count("End the game after this round") == 1
    assert page.index("End the game after this round") < page.index('<details class="orders"')


def test_a_game_with_an_end_keeps_the_early_end_in_the_hosts_panel(client, alice, bob):
    game = start_table(alice, [bob], bots=2, options={"rounds": 3})
    client.force_login(alice)
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert page.count("End the game after this round") == 1
    assert page.index("End the game after this round") > page.index('<details class="orders"')
    assert "As the host you can end the game early." in page


def test_the_host_ends_it_after_the_round_in_play(client, game, alice):
    client.force_login(alice)
    client.post(f"/t/{game.pk}/end/", {"end": "yes"})
    game.refresh_from_db()
    round_number = game.round_number
    assert "the game ends after this round" in client.get(f"/t/{game.pk}/").content.decode()
    assert Action.objects.filter(game=game, kind="ending").count() == 1
    game = play_until(game, lambda g: False)
    assert game.is_over and game.round_number == round_number
    assert replay.rebuild_state(game).to_json() == game.state


def test_the_mark_can_be_taken_back(client, game, alice):
    client.force_login(alice)
    client.post(f"/t/{game.pk}/end/", {"end": "yes"})
    client.post(f"/t/{game.pk}/end/", {"end": "no"})
    game.refresh_from_db()
    assert not game.engine_state().ending
    game = play_until(game, lambda g: g.round_number > 1)
    assert game.is_playing and game.round_number == 2


def test_a_game_without_points_shows_no_points(client, alice, bob):
    game = start_table(alice, [bob], bots=2, options={"rounds": 2, "scoring": False})
    game = play_until(game, lambda g: False)
    client.force_login(alice)
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert "rounds finished first" in page or "round finished first" in page
    assert " points</span>" not in page and "0 points" not in page
