"""One session holds at most STREAMS_PER_SESSION event streams, in every web process
together: opening one more closes the oldest (told so, it stops reconnecting and its
page polls). Other sessions, the same player's included, keep theirs."""

import asyncio
import contextlib

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient

from games import commands
from tests.helpers import act_as, legal, sse_events, start_table, waiting_humans

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]

# A bound for the test never to hang; an event arrives in milliseconds.
NEVER = 20


@pytest.fixture
def tables(alice, bob):
    games = []
    for name in ("First", "Second"):
        game = start_table(alice, [bob], bots=2, name=name)
        while not waiting_humans(game):
            commands.play_bot_move(game.pk)
        games.append(game)
    return games


def _move(game) -> int:
    seat = waiting_humans(game)[0]
    act_as(game, seat, legal(game, seat)[0])
    game.refresh_from_db()
    return game.version


async def _open(client, game):
    response = await client.get(f"/t/{game.pk}/stream/")
    assert response.status_code == 200
    events = response.streaming_content.__aiter__()
    first = (await asyncio.wait_for(events.__anext__(), NEVER)).decode()
    assert first.startswith("retry:")
    return events


async def _next(events) -> str:
    """The first event of what the stream sends next (a change's event goes out with
    what follows it)."""
    return sse_events(await asyncio.wait_for(events.__anext__(), NEVER))[0]


async def _disconnect(events) -> None:
    """The browser goes away while its stream waits for news: the server cancels the
    stream where it waits, as the ASGI handler does."""
    waiting = asyncio.ensure_future(events.__anext__())
    for _ in range(3):
        await asyncio.sleep(0)  # let it reach its wait
    waiting.cancel()
    with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration):
        await waiting


async def _ended(events) -> bool:
    try:
        await asyncio.wait_for(events.__anext__(), NEVER)
    except StopAsyncIteration:
        return True
    return False


def test_opening_one_stream_too_many_closes_the_oldest(settings, bob, tables):
    settings.STREAMS_PER_SESSION = 2
    first, second = tables

    async def run():
        client = AsyncClient()
        await client.aforce_login(bob)
        other_session = AsyncClient()
        await other_session.aforce_login(bob)
        elsewhere = await _open(other_session, first)
        oldest = await _open(client, first)
        kept = [await _open(client, second), await _open(client, first)]
        # The oldest is told why it ends, then ends.
        assert await _next(oldest) == "event: closed\ndata: \n\n"
        assert await _ended(oldest)
        # The others follow the table as before.
        version = await sync_to_async(_move)(first)
        assert await _next(kept[1]) == f"event: table\ndata: v{version}\n\n"
        assert await _next(elsewhere) == f"event: table\ndata: v{version}\n\n"
        version = await sync_to_async(_move)(second)
        assert await _next(kept[0]) == f"event: table\ndata: v{version}\n\n"
        for events in [*kept, elsewhere]:
            await _disconnect(events)

    async_to_sync(run)()


def test_a_stream_that_ends_makes_room(settings, bob, tables):
    settings.STREAMS_PER_SESSION = 2
    first, _second = tables

    async def run():
        client = AsyncClient()
        await client.aforce_login(bob)
        a = await _open(client, first)
        b = await _open(client, first)
        await _disconnect(b)  # the page was closed: its place is given back
        c = await _open(client, first)
        version = await sync_to_async(_move)(first)
        assert await _next(a) == f"event: table\ndata: v{version}\n\n"
        assert await _next(c) == f"event: table\ndata: v{version}\n\n"
        await _disconnect(a)
        await _disconnect(c)

    async_to_sync(run)()


def test_three_hundred_streams_of_one_session_leave_the_newest_open(settings, bob, tables):
    """The report's burst: 300 streams opened at once by one session."""
    settings.STREAMS_PER_SESSION = 4
    first, _second = tables

    async def run():
        client = AsyncClient()
        await client.aforce_login(bob)
        streams = [await _open(client, first) for _ in range(300)]
        for events in streams[:-4]:
            assert await _next(events) == "event: closed\ndata: \n\n"
            assert await _ended(events)
        version = await sync_to_async(_move)(first)
        for events in streams[-4:]:
            assert await _next(events) == f"event: table\ndata: v{version}\n\n"
            await _disconnect(events)

    async_to_sync(run)()
