"""A database connection that drops while a move is answered (real PostgreSQL, the
request's own backend terminated with pg_terminate_backend).

The move was committed before the connection went: the player is told it was recorded,
never shown a 500, and nothing is applied twice.
"""

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from games.core import background
from games.models import Action
from tests.helpers import form_for, legal, start_table, waiting_humans

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _terminate(pid: int) -> None:
    db = settings.DATABASES["default"]
    with psycopg.connect(host=db["HOST"] or "127.0.0.1", port=db["PORT"] or 5432,
                         user=db["USER"], password=db["PASSWORD"] or None,
                         dbname=connection.settings_dict["NAME"], autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])


@pytest.fixture
def drop_after_commit():
    """Right after the move commits (when its background work is handed over), the
    request's database connection is killed by the server."""
    original = dict(background._senders)
    armed, fired = [], []

    def kill(*_args):
        if armed:
            armed.clear()
            _terminate(connection.connection.info.backend_pid)
            fired.append(True)

    background.register("play_bots", kill)
    background.register("bot_reply", kill)  # a person is at this table
    yield armed.append, fired
    background._senders.clear()
    background._senders.update(original)


@pytest.mark.parametrize(("htmx", "shared"), [(False, False), (True, False), (True, True)])
def test_a_move_committed_before_the_connection_dropped_is_reported_recorded(
    client, alice, drop_after_commit, htmx, shared, monkeypatch
):
    """`shared`: the answer drawn from the update the table's other pages share, as under
    an ASGI server with Redis (games.views.updates)."""
    from games.views import updates

    monkeypatch.setattr(updates, "sharing", lambda request: shared)
    game = start_table(alice, bots=3, options={"rounds": 1})
    from games import commands

    while not waiting_humans(game):
        commands.play_bot_move(game.pk)
    seat = waiting_humans(game)[0]
    # A move after which the table waits for a bot: the hand-over happens.
    data = form_for(legal(game, seat)[0], game.awaiting[str(seat.player)][0])
    client.force_login(alice)
    before = game.seq
    arm, fired = drop_after_commit
    arm(True)
    headers = {"HX-Request": "true"} if htmx else {}
    answer = client.post(f"/t/{game.pk}/act/", data, headers=headers, follow=not htmx)
    assert fired, "the connection was dropped after the commit"
    assert answer.status_code == 200
    assert "Your move was recorded" in answer.content.decode() or (
        htmx and answer.headers.get("HX-Refresh") == "true"
    )
    connection.close()
    assert Action.objects.filter(game=game, seq=before + 1, by_user=alice).count() == 1
    # Sending it again applies nothing more, and says why.
    again = client.post(f"/t/{game.pk}/act/", data, headers={"HX-Request": "true"})
    assert again.status_code == 409
    assert b"Your move was already recorded" in again.content
    assert Action.objects.filter(game=game, by_user=alice).count() == 1
