"""An open page's stream brings the change itself right after the change's event: the
update drawn once for the table's pages (games.views.updates), its slots filled in for
that page's reader, with the key of the reader's own part and nobody else's."""

import asyncio
import json
import re

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient, Client
from django.utils import timezone

from games import commands, engine
from games.core import live
from games.models import Game
from games.views import updates
from tests.games.test_shared_updates import (
    Page,
    _pushed,
    _same_page,
    _without_looked,
    drawn_alone,
)
from tests.helpers import (
    act_as,
    form_for,
    legal,
    make_user,
    one_instant,
    play_until,
    sse_events,
    start_table,
    waiting_humans,
)
from tools.bench_load import fits

# A bound for the test never to hang; an event arrives in milliseconds.
NEVER = 20

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table():
    """Four people at a table in its first round's play, none passing by standing order."""
    people = [make_user(name) for name in ("ava", "ben", "cleo", "dan")]
    game = start_table(people[0], people[1:], options={"rounds": 3, "first_round_taxes": False})
    game.seats.update(auto_pass=False)
    game.refresh_from_db()
    return game, people


def _a_move_not_handing_the_turn_to(game: Game, reader) -> tuple:
    """A waiting player other than `reader` and a move of theirs after which the table
    does not wait for `reader` (playing on until there is one)."""
    for _ in range(200):
        game.refresh_from_db()
        state = game.engine_state()
        reading = game.seats.get(user=reader).player
        for seat in waiting_humans(game):
            if seat.user_id == reader.pk or state.round.phase != "play":
                continue
            for action in legal(game, seat):
                after = state.apply(seat.player, engine.action_from_json(action))
                if reading not in after.awaiting_players and after.round.phase == "play":
                    return seat, action
        seat = waiting_humans(game)[0]
        commands.act(game.pk, seat.user, engine.action_from_json(legal(game, seat)[0]),
                     game.wait_for(seat.player).token)
    raise AssertionError("no such move")


def _events(reader, game_id: int, during, cookies: dict | None = None,
            chunks: list | None = None) -> list[str]:
    """The stream of `reader`'s page: the events it sends while `during` runs (in a
    thread), up to and including the first update; into `cookies`, the cookies its answer
    set (its form token's, if the browser had none); into `chunks`, how many events each
    chunk it sent held."""
    async def watch():
        client = AsyncClient()
        await client.aforce_login(reader)
        response = await client.get(f"/t/{game_id}/stream/")
        if cookies is not None:
            cookies.update({name: morsel.value for name, morsel in response.cookies.items()})
        stream = response.streaming_content.__aiter__()
        assert "retry:" in (await asyncio.wait_for(stream.__anext__(), NEVER)).decode()
        await sync_to_async(during)()
        seen = []
        while not seen or not seen[-1].startswith("event: update"):
            chunk = sse_events(await asyncio.wait_for(stream.__anext__(), NEVER))
            seen += chunk
            if chunks is not None:
                chunks.append(len(chunk))
        await stream.aclose()
        return seen

    return async_to_sync(watch)()


def _update(event: str) -> tuple[dict, str]:
    lines = [line.removeprefix("data: ") for line in event.split("\n") if line.startswith("data")]
    return json.loads(lines[0]), "\n".join(lines[1:])


def test_the_stream_brings_each_page_the_change_drawn_for_its_reader(table):
    game, people = table
    reader = people[1]
    seat, action = _a_move_not_handing_the_turn_to(game, reader)
    with one_instant():
        page = Page(Client(), game, reader)
        shown = game.version

        chunks = []
        events = _events(reader, game.pk, lambda: act_as(game, seat, action), chunks=chunks)
        game.refresh_from_db()
        assert events[0] == f"event: table\ndata: v{game.version}\n\n"
        # The change's event and the update that follows it go out in one chunk.
        assert chunks == [2]
        head, update = _update(events[-1])
        my_key = page.key
        assert head == {"v": game.version, "since": shown, "round": game.round_number,
                        "day": page.looked["d"], "key": my_key, "panels": page.looked["p"]}
        # What the page would have been answered, had it asked.
        with drawn_alone():
            alone = page.poll()
        assert _same_page(_pushed(update, int(page.looked["n"]))) == _same_page(
            _without_looked(alone.content.decode()))
    # Nobody else's key: each reader's own part is theirs alone. A page whose turn did not
    # come gets no hand and no form.
    others = [Page(Client(), game, user).key for user in people if user != reader]
    assert not any(key in events[-1] for key in others)
    assert "mine" not in head
    assert '<section id="me"' not in update and "csrfmiddlewaretoken" not in update


def test_a_page_whose_turn_comes_gets_its_hand_and_dock_with_its_own_form_token(table):
    """The stream brings the player whose turn it now is their own part too (hand, dock,
    standing orders), drawn with the update; their forms carry their browser's form
    token, and a move sent with it is taken."""
    from django.conf import settings

    game, people = table
    game = play_until(game, lambda g: g.engine_state().round.phase == "play")
    mover = waiting_humans(game)[0]
    state = game.engine_state()
    action = next(a for a in legal(game, mover) if a["type"] == "play")
    after = state.apply(mover.player, engine.action_from_json(action))
    next_player = after.awaiting_players[0]
    reader = game.seats.get(player=next_player).user
    page = Page(Client(), game, reader)

    cookies = {}
    events = _events(reader, game.pk, lambda: act_as(game, mover, action), cookies)
    head, update = _update(events[-1])
    game.refresh_from_db()
    assert head["mine"] is True and head["v"] == game.version
    assert head["key"] != page.key  # the page showed the hand before its turn
    assert fits(head, page.version, page.key, page.looked)
    # Their hand, their dock, their turn.
    assert '<section id="me"' in update and 'id="actions"' in update
    assert "Your turn!" in update
    tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', update))
    assert tokens and "\ue000" not in update
    # The token is the browser's own: a move sent with it passes the site's check.
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(reader)
    browser.cookies[settings.CSRF_COOKIE_NAME] = cookies[settings.CSRF_COOKIE_NAME]
    seat = game.seats.get(user=reader)
    move = next(a for a in legal(game, seat))
    forged = browser.post(f"/t/{game.pk}/act/", {**form_for(move, game.wait_for(seat.player).token),
                                                  "csrfmiddlewaretoken": "x" * 64})
    assert forged.status_code == 403
    taken = browser.post(f"/t/{game.pk}/act/", {**form_for(move, game.wait_for(seat.player).token),
                                                 "csrfmiddlewaretoken": tokens.pop()})
    assert taken.status_code == 302
    game.refresh_from_db()
    assert game.version > head["v"]


def test_the_others_hear_of_a_move_once_its_answer_drew_their_update(table):
    """The move's answer draws the update in the mover's language before the move is
    announced: the streams find it kept, and no web process draws it again."""
    game, people = table
    reader = people[1]
    seat, action = _a_move_not_handing_the_turn_to(game, reader)
    game.refresh_from_db()
    shown = game.version
    mover = seat.user
    found = []

    async def move_and_listen():
        hub = await live.hub()
        queue = await hub.join(live.channel(game.pk))
        client = AsyncClient()
        await client.aforce_login(mover)
        form = {"action": action["type"], "turn": game.wait_for(seat.player).token}
        if action["type"] == "play":
            form["card"] = [str(c) for c in action["cards"]]
        answer = await client.post(f"/t/{game.pk}/act/", form, headers={"HX-Request": "true"})
        assert answer.status_code == 200
        message = await asyncio.wait_for(queue.get(), NEVER)
        hub.leave(live.channel(game.pk), queue)
        step = live.Step.read(message)
        kept = await live.fetch(*updates.keys(game.pk, step.version, step.since, "en",
                                              "Europe/Amsterdam"))
        found.append((step, kept))

    async_to_sync(move_and_listen)()
    step, kept = found[0]
    game.refresh_from_db()
    assert step == live.Step(game.version, shown, step.since_seq, seat.player)
    assert kept[0] is not None and kept[1] is not None
    assert json.loads(kept[0])["version"] == game.version


def test_a_page_whose_update_is_late_is_told_to_ask(table, monkeypatch):
    """However long drawing the update takes, the stream tells the page in time: after
    FOLLOW_SECONDS, to ask for the change itself."""
    game, people = table
    reader = people[1]
    seat, action = _a_move_not_handing_the_turn_to(game, reader)

    async def never(*_args):
        await asyncio.sleep(NEVER * 2)

    monkeypatch.setattr(live, "FOLLOW_SECONDS", 0.2)
    monkeypatch.setattr(updates, "update_for", never)

    head, _html = _update(_events(reader, game.pk, lambda: act_as(game, seat, action))[-1])
    game.refresh_from_db()
    assert head == {"v": game.version, "ask": True}


def test_a_moves_answer_counts_the_mover_and_the_next_player_in_one_query(table, monkeypatch):
    """The header's count of tables awaiting a player comes with their own part: in a
    move's answer for the mover, and in the shared update for the player whose turn it
    now is. Both counts are asked of the database at once, each the one its reader would
    be told alone."""
    from django.test import Client

    from games.core import turns

    game, people = table
    # Another table of theirs, so that the counts differ by who is awaited where.
    elsewhere = start_table(people[1], [people[0], people[2], people[3]],
                            options={"first_round_taxes": False})
    play_until(elsewhere, lambda g: g.engine_state().round.phase == "play")
    monkeypatch.setattr(updates, "sharing", lambda request: True)
    asked = []
    counting = turns._AWAITING
    monkeypatch.setattr(turns, "_AWAITING", lambda *ids: asked.append(ids) or counting(*ids))
    for _ in range(3):
        game.refresh_from_db()
        seat = waiting_humans(game)[0]
        page = Page(Client(), game, seat.user)
        since = game.version
        asked.clear()
        answer = page.move(legal(game, seat)[0], game.wait_for(seat.player).token)
        assert answer.status_code == 200
        game.refresh_from_db()
        after = waiting_humans(game)[0]
        assert after.user != seat.user
        assert len(asked) == 1, asked
        counts = re.findall(r'<span id="awaiting-count"[^>]* data-awaiting="(\d+)" '
                            r'hx-swap-oob="true">', answer.content.decode())
        assert counts == [str(turns.tables_awaiting(seat.user))]
        update = updates._read(game.pk, game.version, since)
        event = update.event_for(after.player, "test-form-token")
        assert f'data-awaiting="{turns.tables_awaiting(after.user)}" hx-swap-oob' in event


def test_a_table_nobody_talked_at_reads_its_chat_from_the_database_once(table, monkeypatch):
    """The move's answer needs the newest chat message's id: where Redis does not know it
    (nobody has talked, or its entry lapsed), the database is read once and Redis told,
    so the answers that follow read no chat table."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game, people = table
    monkeypatch.setattr(updates, "sharing", lambda request: True)
    chat_reads = []
    for _ in range(3):
        game.refresh_from_db()
        seat = waiting_humans(game)[0]
        # The mover's page, loaded whole: it shows the table as it is.
        page = Page(Client(), game, seat.user)
        assert chat_reads or live.chat_last(game.pk) is None
        with CaptureQueriesContext(connection) as captured:
            answer = page.move(legal(game, seat)[0], game.wait_for(seat.player).token)
        assert answer.status_code == 200 and 'id="poller"' in answer.content.decode()
        chat_reads.append(len([q for q in captured.captured_queries
                               if '"chat_message"' in q["sql"]]))
    assert live.chat_last(game.pk) == 0
    assert chat_reads[1:] == [0, 0], chat_reads


def _a_move_drawn(table) -> tuple[Game, live.Step, str, updates.Update]:
    """A move in the play, and the update it brings drawn in this process as the move's
    answer draws it (in English): the table after it, the step it announced, the time
    zone and the update."""
    game, _people = table
    game = play_until(game, lambda g: g.engine_state().round.phase == "play")
    since, since_seq = game.version, game.seq
    seat = waiting_humans(game)[0]
    act_as(game, seat, legal(game, seat)[-1])
    game.refresh_from_db()
    step = live.Step(game.version, since, since_seq, seat.player)
    zone = timezone.get_current_timezone_name()
    return game, step, zone, updates.prepare(game.pk, step, "en", zone)


def test_the_process_that_drew_an_update_sends_it_without_reading_it_back(table, monkeypatch):
    """The move's answer draws the update in one web process: that process's streams and
    polls take it as it was drawn, without reading it back from Redis; any other process
    reads it there, and sends every page the same."""
    game, step, zone, drawn = _a_move_drawn(table)
    assert drawn is not None and not drawn.head["ask"]

    reads = []
    fetch = live.fetch

    async def counted(*keys):
        reads.append(keys)
        return await fetch(*keys)

    monkeypatch.setattr(live, "fetch", counted)
    load = live.load
    monkeypatch.setattr(live, "load", lambda *keys: reads.append(keys) or load(*keys))
    assert async_to_sync(updates._update)(game.pk, step, "en", zone) is drawn
    assert updates._read(game.pk, game.version, step.since) is drawn
    assert reads == []

    updates.forget()  # another web process
    streamed = async_to_sync(updates._update)(game.pk, step, "en", zone)
    polled = updates._read(game.pk, game.version, step.since)
    assert len(reads) == 2
    for player in map(int, drawn.own):
        event = drawn.event_for(player, "token")
        assert streamed.event_for(player, "token") == event
        assert polled.event_for(player, "token") == event


def test_a_stream_masks_the_form_token_only_for_an_update_that_brings_forms(table):
    """Masking the page's token afresh costs each stream at each move: only the player
    whose turn came gets forms with the update, and only their stream asks for it."""
    game, step, zone, drawn = _a_move_drawn(table)
    awaited = set(game.engine_state().awaiting_players)
    for player in map(int, drawn.own):
        masked = []
        follow = updates.follower(game.pk, player, "en", zone,
                                  lambda masked=masked: masked.append(1) or "page-token")
        event = async_to_sync(follow)(step)
        assert ("page-token" in event) == (player in awaited) == bool(masked)
