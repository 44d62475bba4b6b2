"""The embedded set-up (SQLite): a database that stays locked by someone else past the
wait answers a move 503 "That did not go through — please try again." and changes
nothing, as a lost PostgreSQL connection does (tests/games/test_connections_heal.py)."""

import sqlite3

import pytest
from django.db import connection
from django.test import Client

from games import commands
from games.models import Action
from tests.helpers import form_for, legal, start_table, waiting_humans

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def short_wait():
    """Wait a tenth of a second for a lock (the default is five)."""
    if connection.vendor != "sqlite":
        pytest.skip("the embedded database's own lock (PostgreSQL: test_connections_heal)")
    options = connection.settings_dict["OPTIONS"]
    was = options.get("timeout")
    options["timeout"] = 0.1
    connection.close()
    yield
    if was is None:
        options.pop("timeout")
    else:
        options["timeout"] = was
    connection.close()


@pytest.mark.parametrize("htmx", [False, True])
def test_a_move_while_the_database_stays_locked_answers_503_and_changes_nothing(
    short_wait, alice, htmx
):
    game = start_table(alice, bots=3)
    while not waiting_humans(game):
        commands.play_bot_move(game.pk)
    seat = waiting_humans(game)[0]
    data = form_for(legal(game, seat)[0], game.awaiting[str(seat.player)][0])
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    before = (game.seq, game.version, Action.objects.filter(game=game).count())
    other = sqlite3.connect(connection.settings_dict["NAME"], isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another process writing, for longer than the wait
        headers = {"HX-Request": "true"} if htmx else {}
        answer = client.post(f"/t/{game.pk}/act/", data, headers=headers)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert answer.status_code == 503
    assert "That did not go through — please try again." in answer.content.decode()
    game.refresh_from_db()
    assert (game.seq, game.version, Action.objects.filter(game=game).count()) == before
    again = client.post(f"/t/{game.pk}/act/", data, headers=headers)
    assert again.status_code in (200, 302)
    assert Action.objects.filter(game=game, by_user=alice).count() == 1
