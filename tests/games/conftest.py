"""The games most tests of a table start from."""

import pytest

from games import commands
from tests.helpers import start_table, waiting_humans


@pytest.fixture
def game(alice, bob):
    """A game in play: Alice (the host), Bob and two basic bots, two rounds, dealt from
    the same seed every run."""
    return start_table(alice, [bob], bots=2)


@pytest.fixture
def a_humans_turn(game):
    """The bots play `game` on until a human is to act (a test asks for it with
    `@pytest.mark.usefixtures("a_humans_turn")` and goes on using `game`)."""
    while not waiting_humans(game):
        commands.play_bot_move(game.pk)
    game.refresh_from_db()
