"""The messages said before each went with its author's account get theirs from their
seat, so that a player who deletes their account takes their earlier talk's name too."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.helpers import make_user, start_table

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("chat", "0001_initial")]
AFTER = [("chat", "0002_message_author")]


@pytest.fixture(autouse=True)
def _back_to_the_latest():
    """The tests that follow in this process read the tables as the latest migrations
    leave them."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_a_seated_message_gets_its_seats_player_as_author():
    alice = make_user("alice")
    game = start_table(alice, bots=3)
    seat = game.seats.get(user=alice)
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps.get_model("chat", "Message")
    said = old.objects.create(game_id=game.pk, seat_id=seat.pk, name="Alice", text="Hello")
    watched = old.objects.create(game_id=game.pk, seat_id=None, name="Bob (watching)",
                                 text="Hi")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps.get_model("chat", "Message")
    assert new.objects.get(pk=said.pk).author_id == alice.pk
    assert new.objects.get(pk=watched.pk).author_id is None
