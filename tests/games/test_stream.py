"""Server-sent events: an open page served over ASGI is told at once that its table
changed (through Redis, whichever web process made the change)."""

import asyncio

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient

from games import commands
from tests.helpers import act_as, legal, sse_events, start_table, waiting_humans

# A bound for the test never to hang; an event arrives in milliseconds.
NEVER = 20


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("a_humans_turn")
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
        event = sse_events(await asyncio.wait_for(events.__anext__(), NEVER))[0]
        await events.aclose()
        return version, event

    version, event = async_to_sync(watch)()
    assert event == f"event: table\ndata: v{version}\n\n"


@pytest.mark.django_db
@pytest.mark.usefixtures("a_humans_turn")
def test_without_an_asgi_server_the_stream_says_no_content(client, alice, game):
    client.force_login(alice)
    assert client.get(f"/t/{game.pk}/stream/").status_code == 204
    assert "sse-connect" not in client.get(f"/t/{game.pk}/").content.decode()


@pytest.mark.django_db
@pytest.mark.usefixtures("a_humans_turn")
def test_strangers_get_no_stream(client, mallory, game):
    client.force_login(mallory)
    assert client.get(f"/t/{game.pk}/stream/").status_code == 404


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_private_decision_sends_no_event(make_user):
    """A Merchant who holds both jesters and keeps quiet changes nothing anybody else may
    see: no event may go out at that moment (its timing would tell). The next event any
    stream gets is the next public change."""
    from games import engine
    from games.models import Game
    from tests.games.test_privacy import _deal_both_jesters_to

    users = [make_user(f"s{i}") for i in range(5)]
    game = start_table(users[0], users[1:], options={"rounds": 3})
    _deal_both_jesters_to(game, 2)
    game.refresh_from_db()
    state = game.engine_state()
    seats = {s.player: s for s in game.seats.select_related("user")}
    holder = seats[state.seats[2]]
    observer = seats[state.seats[4]].user
    dalmuti = seats[state.seats[0]]

    def private_then_public():
        commands.act(game.pk, holder.user, engine.Revolution(False),
                     game.awaiting[str(holder.player)][0])
        fresh = Game.objects.get(pk=game.pk)
        quiet = fresh.version
        give_back = next(a for a in legal(fresh, dalmuti) if a["type"] == "give_back")
        act_as(fresh, dalmuti, give_back)
        return quiet, Game.objects.get(pk=game.pk).version

    async def watch():
        client = AsyncClient()
        await client.aforce_login(observer)
        response = await client.get(f"/t/{game.pk}/stream/")
        events = response.streaming_content.__aiter__()
        assert "retry:" in (await asyncio.wait_for(events.__anext__(), NEVER)).decode()
        versions = await sync_to_async(private_then_public)()
        event = sse_events(await asyncio.wait_for(events.__anext__(), NEVER))[0]
        await events.aclose()
        return versions, event

    (quiet, public), event = async_to_sync(watch)()
    assert quiet == game.version and public == quiet + 1
    assert event == f"event: table\ndata: v{public}\n\n"


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("a_humans_turn")
def test_the_player_who_moved_hears_of_it_too(alice, bob, game, monkeypatch):
    """The answer to a move updates the page that made it; the player's other pages are
    told by their streams as well (a moment later: here at once)."""
    from games.core import live

    monkeypatch.setattr(live, "OWN_MOVE_SECONDS", 0)
    seat = waiting_humans(game)[0]

    def move():
        act_as(game, seat, legal(game, seat)[0])
        game.refresh_from_db()
        return game.version

    async def watch():
        client = AsyncClient()
        await client.aforce_login(seat.user)
        response = await client.get(f"/t/{game.pk}/stream/")
        events = response.streaming_content.__aiter__()
        assert "retry:" in (await asyncio.wait_for(events.__anext__(), NEVER)).decode()
        version = await sync_to_async(move)()
        event = sse_events(await asyncio.wait_for(events.__anext__(), NEVER))[0]
        await events.aclose()
        return version, event

    version, event = async_to_sync(watch)()
    assert event == f"event: table\ndata: v{version}\n\n"
