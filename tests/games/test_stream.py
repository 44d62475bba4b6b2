"""Server-sent events: an open page served over ASGI is told at once that its table
changed (through Redis, whichever web process made the change)."""

import asyncio

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient

from games import commands
from tests.helpers import act_as, legal, start_table, waiting_humans

# A bound for the test never to hang; an event arrives in milliseconds.
NEVER = 20


@pytest.fixture
def game(alice, bob):
    game = start_table(alice, [bob], bots=2)
    while not waiting_humans(game):
        commands.play_bot_move(game.pk)
    game.refresh_from_db()
    return game


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_move_is_announced_to_the_open_pages_of_the_table(alice, bob, game):
    def move():
        seat = waiting_humans(game)[0]
        act_as(game, seat, legal(game, seat)[0])
        game.refresh_from_db()
        return game.version

    async def watch():
        client = AsyncClient()
        await client.aforce_login(bob)
        response = await client.get(f"/t/{game.pk}/stream/")
        assert response.status_code == 200
        assert response["Content-Type"] == "text/event-stream"
        events = response.streaming_content.__aiter__()
        assert "retry:" in (await asyncio.wait_for(events.__anext__(), NEVER)).decode()
        version = await sync_to_async(move)()
        event = (await asyncio.wait_for(events.__anext__(), NEVER)).decode()
        await events.aclose()
        return version, event

    version, event = async_to_sync(watch)()
    assert event == f"event: table\ndata: v{version}\n\n"


@pytest.mark.django_db
def test_without_an_asgi_server_the_stream_says_no_content(client, alice, game):
    client.force_login(alice)
    assert client.get(f"/t/{game.pk}/stream/").status_code == 204
    assert "sse-connect" not in client.get(f"/t/{game.pk}/").content.decode()


@pytest.mark.django_db
def test_strangers_get_no_stream(client, mallory, game):
    client.force_login(mallory)
    assert client.get(f"/t/{game.pk}/stream/").status_code == 404
