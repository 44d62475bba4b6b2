"""The debug page (DEBUG=1, `make run`'s default) never shows a hand, the deck or a seed,
whatever the local variable that holds them is called: the engine's state objects, any
dict or list with hands, seed or deck, and the state's JSON text are hidden by what they
are, not only by their names. Here reading a table's stored state fails inside the
engine's own from_json, whose locals hold all of it."""

import json
import re

import pytest
from django.test import Client

from dalmuti_site.debug import GameSecretsFilter
from games import commands, engine
from games.engine.cards import counts_of
from games.models import Game
from tests.helpers import form_for, legal, start_table, waiting_humans

pytestmark = pytest.mark.django_db

SEED = 987654321


@pytest.fixture
def broken_table(settings, alice, bob):
    """A table whose stored state no longer reads (a trick that is not a list): the
    engine's from_json fails half-way, with the whole state in its locals."""
    settings.DEBUG = True
    game = start_table(alice, [bob], bots=2, seed=SEED)
    while not waiting_humans(game):
        commands.play_bot_move(game.pk)
    seat = waiting_humans(game)[0]
    form = form_for(legal(game, seat)[0], game.awaiting[str(seat.player)][0])
    state = json.loads(json.dumps(game.state))
    secrets = _secrets(state)
    state["round"]["trick"] = 7
    Game.objects.filter(pk=game.pk).update(state=state)
    with pytest.raises(TypeError):
        engine.Game.from_json(state)
    client = Client(raise_request_exception=False)
    client.force_login(seat.user)
    return game, form, client, secrets


def _secrets(state: dict) -> list[str]:
    """Every hand (as cards and as counts per rank), the deck's order and the seeds, as
    digit sequences: a page shows them with any spacing or line breaks."""
    hands = state["round"]["hands"]
    sequences = [hand for hand in hands] + [list(counts_of(hand)) for hand in hands]
    sequences.append(state["round"]["deck"])
    joined = [",".join(str(card) for card in cards) for cards in sequences]
    return joined + [str(state["seed"]), str(state["round"]["seed"])]


def _shown(page: bytes) -> str:
    return re.sub(r"\s+", "", page.decode())


def _assert_hides(page: bytes, secrets: list[str]) -> None:
    text = _shown(page)
    assert "Traceback" in page.decode()  # the debug page, with its frames
    shown = [secret for secret in secrets if secret in text]
    assert not shown, f"the debug page shows {shown}"


def test_a_move_on_a_table_whose_state_fails_to_read(broken_table):
    game, form, client, secrets = broken_table
    answer = client.post(f"/t/{game.pk}/act/", form)
    assert answer.status_code == 500
    assert b"from_json" in answer.content  # the engine's frames are on the page
    _assert_hides(answer.content, secrets)


def test_a_poll_on_a_table_whose_state_fails_to_read(broken_table):
    game, _form, client, secrets = broken_table
    answer = client.get(f"/t/{game.pk}/poll/", {"v": -1})
    assert answer.status_code == 500
    assert b"from_json" in answer.content
    _assert_hides(answer.content, secrets)


def test_the_page_itself_on_a_table_whose_state_fails_to_read(broken_table):
    game, _form, client, secrets = broken_table
    answer = client.get(f"/t/{game.pk}/")
    assert answer.status_code == 500
    _assert_hides(answer.content, secrets)


def test_values_are_hidden_by_what_they_hold_not_by_their_names(alice, bob):
    """The filter's own rule, for values no frame above happened to hold."""
    game = start_table(alice, [bob], bots=2, seed=SEED)
    state = game.engine_state()
    hidden = GameSecretsFilter()._hides
    text = json.dumps(game.state)
    assert hidden(state) and hidden(state.round)
    assert hidden(game.state) and hidden(game.state["round"])
    assert hidden(text) and hidden(text.encode())
    assert hidden([{"x": {"hands": [[1, 2]]}}])
    assert hidden(("a", {"seed": 3}))
    assert hidden({"deck": [1, 2, 3]})
    assert hidden(state.view(0))  # a player's own view holds their hand
    # Nothing else is: the page stays useful.
    assert not hidden({"action": "play", "turn": 4})
    assert not hidden([1, 2, 3])
    assert not hidden("a seed of doubt")
    assert not hidden(game)  # a table's row shows its name, not its state
