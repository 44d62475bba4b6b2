"""What an unchanged poll needs to know, kept in Redis in step with the database, so that
the question an open page asks every few seconds — "has anything changed?" — is answered
without touching the database.

Kept only when there is a Redis shared by every web process (settings.REDIS_URL). The
entries are written after each commit and only ever move forward (a write for an older
version than the one stored is ignored, whatever order the writes arrive in); each
expires after a while and is rebuilt from the database when missing, so a cold or
flushed Redis, or a write that was lost, costs a database read, never a wrong answer.
"""

import asyncio
import hashlib
import json
import uuid
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from functools import partial
from urllib.parse import urlparse

import redis
from django.conf import settings
from django.db import transaction
from redis import asyncio as aredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from games.models import Wait

# How long an entry may be trusted: bounds how stale it can be if a write was lost.
TABLE_SECONDS = 60
SEAT_SECONDS = 300

# Store the table's entry if its version is newer than the stored one (or equal: the
# same version with a later deadline or status, from the database itself).
_FORWARD = """
local current = redis.call('HGET', KEYS[1], 'v')
if (not current) or tonumber(current) <= tonumber(ARGV[1]) then
  redis.call('HSET', KEYS[1], 'v', ARGV[1], 'status', ARGV[2], 'deadline', ARGV[3])
  redis.call('EXPIRE', KEYS[1], ARGV[4])
end
"""
# The newest chat message id only grows.
_MAX = """
local current = redis.call('GET', KEYS[1])
if (not current) or tonumber(current) < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
end
"""

_client: redis.Redis | None = None


def client() -> redis.Redis | None:
    global _client
    if not settings.REDIS_URL:
        return None
    if _client is None:
        _client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1,
                                       socket_connect_timeout=1)
    return _client


def enabled() -> bool:
    return bool(settings.REDIS_URL)


def _keys(game_id: int) -> tuple[str, str]:
    return f"live:table:{game_id}", f"live:chat:{game_id}"


def earliest_deadline(awaiting: dict) -> str:
    """The first stored deadline of Game.awaiting (as stored), or ""."""
    deadlines = [wait.deadline for wait in map(Wait.from_stored, awaiting.values())
                 if wait.deadline]
    return min(deadlines).isoformat() if deadlines else ""


@dataclass(frozen=True)
class Step:
    """An announced change of a table's public version: the version it made, the version
    and record number it started from (when known: the pages that show that version can
    be brought up to date from what the change added), and whose move made it."""

    version: int
    since: int | None = None
    since_seq: int | None = None
    actor: int | None = None

    def message(self) -> str:
        text = f"v{self.version}"
        if self.since is not None:
            text += f" from {self.since}:{self.since_seq}"
        if self.actor is not None:
            text += f" by {self.actor}"
        return text

    @classmethod
    def read(cls, message: str) -> "Step | None":
        """The step a message on a table's channel announces; None for other news (a
        chat message's "c<id>")."""
        words = message.split()
        if not words or not words[0].startswith("v"):
            return None
        found = dict(zip(words[1::2], words[2::2], strict=False))
        since, _, since_seq = found.get("from", "").partition(":")
        return cls(int(words[0][1:]),
                   int(since) if since else None, int(since_seq) if since_seq else None,
                   int(found["by"]) if "by" in found else None)


# Announcements made while a block of `holding` runs wait for its end.
_held: ContextVar["Held | None"] = ContextVar("live_held", default=None)


class Held:
    """The writes and announcements a `holding` block holds back, and the steps of the
    changes made in it."""

    def __init__(self):
        self.writes: list[tuple] = []
        self.made: list[tuple[int, Step]] = []

    def steps(self, game_id: int) -> list[Step]:
        """The steps this table took in the block, to be announced, oldest first."""
        return [step for made, step in self.made if made == game_id]


@contextmanager
def holding():
    """Hold back what the changes committed in this block announce until it ends: the
    answer to a move draws, before the other pages hear of it, what they will share."""
    held = Held()
    token = _held.set(held)
    try:
        yield held
    finally:
        _held.reset(token)
        for args in held.writes:
            _write_table(*args)


def _write_table(game_id: int, version: int, status: str, deadline: str,
                 announce: bool = False, step: Step | None = None) -> None:
    held = _held.get()
    if held is not None:
        held.writes.append((game_id, version, status, deadline, announce, step))
        return
    r = client()
    if r is None:
        return
    try:
        r.eval(_FORWARD, 1, _keys(game_id)[0], version, status, deadline, TABLE_SECONDS)
        if announce:
            r.publish(channel(game_id), (step or Step(version)).message())
    except redis.RedisError:
        pass  # read as cold: the database answers; open pages poll


def _write_chat(game_id: int, last_id: int, announce: bool = False) -> None:
    r = client()
    if r is None:
        return
    try:
        r.eval(_MAX, 1, _keys(game_id)[1], last_id, TABLE_SECONDS)
        if announce:
            r.publish(channel(game_id), f"c{last_id}")
    except redis.RedisError:
        pass


def table_changed(game, announce: bool = True, actor: int | None = None) -> None:
    """After the transaction commits, tell the polls the table's new version, and the open
    streams that it changed, from which version and record number (those `game` was read
    at) and by which player's move, if one made it. A change nobody else may see (a
    private decision) is not announced: an event at that moment would give it away."""
    if not settings.REDIS_URL:
        return
    since = getattr(game, "step_from", None)
    step = Step(game.version, *(since or (None, None)), actor=actor)
    held = _held.get()
    if held is not None and announce:
        held.made.append((game.pk, step))
    transaction.on_commit(partial(_write_table, game.pk, game.version, game.status,
                                  earliest_deadline(game.awaiting), announce=announce,
                                  step=step))
    transaction.on_commit(game.note_step)


def table_forgotten(game_id: int) -> None:
    """The table's deadlines or status changed without a new version: forget its entry
    once the transaction commits (the next poll asks the database)."""
    r = client()
    if r is not None:
        transaction.on_commit(partial(_forget, _keys(game_id)[0]))


def _forget(key: str) -> None:
    try:
        client().delete(key)
    except redis.RedisError:
        pass


def chat_posted(game_id: int, message_id: int) -> None:
    if settings.REDIS_URL:
        transaction.on_commit(partial(_write_chat, game_id, message_id, announce=True))


def chat_known(game_id: int, last_id: int) -> None:
    """What the database said the newest chat message is (0: none yet), kept for the
    answers that follow (the id only grows, so a late write never takes it back); written
    once the transaction commits, so that Redis never names a message that was undone."""
    if settings.REDIS_URL:
        transaction.on_commit(partial(_write_chat, game_id, last_id))


def remember(game_id: int, session_key: str, seat_pk: int, version: int, status: str,
             awaiting: dict, chat_last: int | None) -> None:
    """What the database said at a poll that had to ask it, the reader's seat kept under
    their session's key (`lookup`)."""
    r = client()
    if r is None:
        return
    try:
        r.set(f"live:seat:{game_id}:{_reader(session_key)}", seat_pk, ex=SEAT_SECONDS, nx=True)
    except redis.RedisError:
        return
    _write_table(game_id, version, status, earliest_deadline(awaiting))
    _write_chat(game_id, chat_last or 0)


def lookup(game_id: int, session_key: str, session_cached_at: str,
           seen_seconds: int) -> tuple[int, dict, bool] | None:
    """(seat pk, {"v", "status", "deadline", "chat"}, first sighting) from Redis, or None if
    any part is missing, in one round trip.

    The seat is found by the session's key, and only while the session lives: its copy in
    the cache (`session_cached_at`, the cache's own key for it) goes when the player signs
    out, the session ends or the cache lets it go, and then the poll asks the database
    (which loads the session and its player). So a poll that changes nothing loads no
    session. In the same round trip the player is marked seen (`first_sighting`)."""
    r = client()
    if r is None:
        return None
    table, chat = _keys(game_id)
    reader = _reader(session_key)
    try:
        session_lives, seat_pk, entry, chat_last, first = (
            r.pipeline(transaction=False)
            .exists(session_cached_at).get(f"live:seat:{game_id}:{reader}")
            .hgetall(table).get(chat)
            .set(_seen_key(game_id, reader), 1, ex=seen_seconds, nx=True)
            .execute()
        )
    except redis.RedisError:
        return None
    if not session_lives or seat_pk is None or not entry or chat_last is None:
        return None
    return int(seat_pk), {
        "v": int(entry[b"v"]), "status": entry[b"status"].decode(),
        "deadline": entry[b"deadline"].decode(), "chat": int(chat_last),
    }, bool(first)


def store(values: dict[str, str], seconds: int) -> None:
    """Keep these values in Redis for a while (what the streams send, games.views.updates);
    a write that fails is a value the streams will draw again."""
    r = client()
    if r is None:
        return
    try:
        pipe = r.pipeline(transaction=False)
        for key, value in values.items():
            pipe.set(key, value, ex=seconds)
        pipe.execute()
    except redis.RedisError:
        pass


def load(*keys: str) -> list[bytes | None]:
    """The values of these keys (None where missing, or where Redis cannot be reached)."""
    r = client()
    if r is None:
        return [None] * len(keys)
    try:
        return r.mget(keys)
    except redis.RedisError:
        return [None] * len(keys)


async def fetch(*keys: str) -> list[bytes | None] | None:
    """The values of these keys, read through this process's hub; None if Redis cannot be
    reached."""
    current = await hub()
    if current is None:
        return None
    try:
        return await current.redis.mget(keys)
    except (redis.RedisError, OSError):
        return None


def chat_last(game_id: int) -> int | None:
    """The newest chat message's id at the table, if Redis knows it."""
    r = client()
    if r is None:
        return None
    try:
        found = r.get(_keys(game_id)[1])
    except redis.RedisError:
        return None
    return int(found) if found is not None else None


def first_sighting(game_id: int, session_key: str, seconds: int) -> bool:
    """True at most once per `seconds` for a reader at a table: when their seat's "last
    seen" is due a write. A sighting marked where no write follows (a poll that goes on to
    read the table) is one whose reader writes it if due from the seat they read."""
    r = client()
    if r is None:
        return True
    try:
        return bool(r.set(_seen_key(game_id, _reader(session_key)), 1, ex=seconds, nx=True))
    except redis.RedisError:
        return True


def _reader(session_key: str) -> str:
    """What Redis knows a reader (a browser session) by, wherever a key names them: a
    digest of their session's key, a secret that is never written anywhere."""
    return hashlib.sha256(session_key.encode()).hexdigest()[:32]


def _seen_key(game_id: int, reader: str) -> str:
    return f"live:seen:{game_id}:{reader}"


# -- the stream: open pages are told at once that something changed --

HEARTBEAT_SECONDS = 15
# A player's own move reaches that player's streams this much later: the answer to the
# move has already updated the page that made it, which would otherwise fetch the same
# change a second time (the event overtakes the answer); their other pages still follow.
OWN_MOVE_SECONDS = 2.0
# How long a new stream waits for Redis to confirm its subscription.
SUBSCRIBE_SECONDS = 5
# How long a stream waits for the change it follows a version's event with, before it
# tells the page to ask for it (the page's script waits a little longer, in case the
# word is lost).
FOLLOW_SECONDS = 5


def _namespace() -> str:
    """Redis's pub/sub channels are shared by all of its numbered databases: named after
    the database that holds this site's keys, two sites (or two test runs) on one Redis
    never hear each other's tables."""
    return urlparse(settings.REDIS_URL).path.strip("/") or "0"


def control() -> str:
    """The channel every hub listens on for word about its streams ("close <stream id>")."""
    return f"live:{_namespace()}:hub"


# A session's open streams, in every web process together: a sorted set of stream ids in
# the order they opened, kept a day after the last one opened.
STREAMS_SECONDS = 86400
_STREAM_ORDER = "live:streams:order"
# Count a new stream of a session; beyond the cap, close the oldest ones (their hubs are
# told on the control channel, whichever process serves them).
_OPEN_STREAM = """
local order = redis.call('INCR', KEYS[2])
redis.call('ZADD', KEYS[1], order, ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[2])
if over > 0 then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, over - 1)
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, over - 1)
  for _, id in ipairs(oldest) do
    redis.call('PUBLISH', ARGV[4], 'close ' .. id)
  end
end
return over
"""
# Put in a stream's queue when a newer stream of the same session takes its place.
_CLOSED = object()


def session_streams(session_key: str) -> str:
    """The Redis key of a session's open streams."""
    return "live:streams:" + _reader(session_key)


def ask_event(version: int) -> str:
    """The stream's event that tells a page to ask for version `version` itself."""
    return f"event: update\ndata: {json.dumps({'v': version, 'ask': True})}\n\n"


def channel(game_id: int) -> str:
    """The Redis channel every web process listens on for this table's open streams. A
    message says only which public version or chat message is new (and, for a version,
    the one it started from and whose move made it): the streams bring the change drawn
    for every page (games.views.updates), and pages ask through the poll, which knows what
    each player may see, for the rest."""
    return f"live:{_namespace()}:events:{game_id}"


class _Hub:
    """One Redis subscription per web process, shared by all of its open streams.

    A connection and a reader per open page would cost Redis a client and the process a
    task waking up every second per page; here one reader hands each message to the
    queues of the streams of that table, and a table is subscribed to while any of its
    pages is open. If the connection fails every stream ends: browsers reconnect (after
    the `retry` delay) to a new hub, and the pages' polls catch up with what was missed.
    """

    def __init__(self):
        self.loop = asyncio.get_running_loop()
        # No retries: a reconnection would silently miss messages; ending the streams
        # makes the pages reconnect and poll.
        self.redis = aredis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1,
                                           retry=Retry(NoBackoff(), 0))
        self.pubsub = self.redis.pubsub()
        self.queues: dict[str, set[asyncio.Queue]] = {}
        # The streams this process serves for sessions, by stream id.
        self.streams: dict[str, asyncio.Queue] = {}
        # Per channel: SUBSCRIBE commands sent and not yet confirmed, and who waits for
        # the confirmation (a stream may only start once Redis would send it everything).
        self.unconfirmed: dict[str, int] = {}
        self.confirmed: dict[str, asyncio.Event] = {}
        self.reader: asyncio.Task | None = None
        self.broken = False
        self.tasks: set[asyncio.Task] = set()

    async def start(self) -> None:
        # A first subscription gives the reader a connection to read from, and brings
        # the word about this process's streams.
        await self.pubsub.subscribe(control())
        self.reader = asyncio.create_task(self._read())

    async def join(self, name: str) -> asyncio.Queue:
        queue: asyncio.Queue = asyncio.Queue()
        listeners = self.queues.setdefault(name, set())
        listeners.add(queue)
        try:
            if len(listeners) == 1:
                self.confirmed[name] = asyncio.Event()
                self.unconfirmed[name] = self.unconfirmed.get(name, 0) + 1
                await self.pubsub.subscribe(name)
            await asyncio.wait_for(self.confirmed[name].wait(), SUBSCRIBE_SECONDS)
        except BaseException:
            self.leave(name, queue)
            raise
        return queue

    def leave(self, name: str, queue: asyncio.Queue) -> None:
        listeners = self.queues.get(name)
        if listeners is None:
            return
        listeners.discard(queue)
        if not listeners and not self.broken:
            del self.queues[name]
            self.confirmed.pop(name, None)
            task = asyncio.ensure_future(self._unsubscribe(name))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _unsubscribe(self, name: str) -> None:
        try:
            await self.pubsub.unsubscribe(name)
        except (redis.RedisError, OSError):
            self._break()

    async def _read(self) -> None:
        try:
            while True:
                message = await self.pubsub.get_message(timeout=None)
                if message is None:
                    continue
                name = message["channel"].decode()
                if message["type"] == "message":
                    data = message["data"].decode()
                    if name == control():
                        self._control(data)
                        continue
                    for queue in self.queues.get(name, ()):
                        queue.put_nowait(data)
                elif message["type"] == "subscribe" and name in self.unconfirmed:
                    # Confirmations come in the order the commands were sent: the
                    # stream may start when the last one sent is confirmed.
                    self.unconfirmed[name] -= 1
                    if not self.unconfirmed[name]:
                        del self.unconfirmed[name]
                        if name in self.confirmed:
                            self.confirmed[name].set()
        except (redis.RedisError, OSError):
            pass
        finally:
            self._break()

    def _control(self, data: str) -> None:
        kind, _, stream_id = data.partition(" ")
        if kind == "close" and stream_id in self.streams:
            self.streams[stream_id].put_nowait(_CLOSED)

    async def count_stream(self, session: str, stream_id: str, queue: asyncio.Queue) -> None:
        """Count a session's new stream; the oldest ones beyond STREAMS_PER_SESSION are
        closed, in whichever process they are. Without an answer from Redis the stream
        stays uncounted (it ends with the hub anyway)."""
        self.streams[stream_id] = queue
        try:
            await self.redis.eval(_OPEN_STREAM, 2, session, _STREAM_ORDER, stream_id,
                                  max(1, settings.STREAMS_PER_SESSION), STREAMS_SECONDS,
                                  control())
        except (redis.RedisError, OSError):
            pass

    async def uncount_stream(self, session: str, stream_id: str) -> None:
        self.streams.pop(stream_id, None)
        try:
            await self.redis.zrem(session, stream_id)
        except (redis.RedisError, OSError):
            pass  # counted until newer streams of the session push it out

    def _break(self) -> None:
        global _hub
        if self.broken:
            return
        self.broken = True
        if _hub is self:
            _hub = None
        for listeners in self.queues.values():
            for queue in listeners:
                queue.put_nowait(None)
        if self.reader is not None and self.reader is not asyncio.current_task():
            self.reader.cancel()
        task = asyncio.ensure_future(self.redis.aclose())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


_hub: _Hub | None = None
_starting: tuple[asyncio.AbstractEventLoop, asyncio.Task] | None = None


async def hub() -> _Hub | None:
    """This process's hub, connected to Redis; None if Redis cannot be reached. Streams
    that open together wait for the same connection."""
    global _starting
    loop = asyncio.get_running_loop()
    if _hub is not None and _hub.loop is loop and not _hub.broken:
        return _hub
    if _starting is None or _starting[0] is not loop or _starting[1].done():
        _starting = (loop, loop.create_task(_start_hub()))
    return await asyncio.shield(_starting[1])


async def _start_hub() -> _Hub | None:
    global _hub
    candidate = _Hub()
    try:
        await asyncio.wait_for(candidate.start(), SUBSCRIBE_SECONDS)
    except (redis.RedisError, OSError, TimeoutError):
        await candidate.redis.aclose()
        return None
    _hub = candidate
    return _hub


async def events(game_id: int, player: int | None = None, session: str | None = None,
                 follow=None):
    """Server-sent events for one open page: "table" whenever the table or its chat
    changes, and a "ping" as a heartbeat: it keeps proxies from closing the connection and
    tells the page its stream is alive, so it need not poll often. The first line is sent
    only once Redis has confirmed the subscription, so nothing committed after it is
    missed.

    `follow(step)`, if given, is awaited for each new version's event: the event it
    returns goes out with it, in the same chunk (the change itself, for the page to show
    without asking, or word to ask for it; see games.views.updates), or word to ask when
    it takes longer than FOLLOW_SECONDS.

    A session (`session_streams`) holds at most STREAMS_PER_SESSION streams: opening
    one more closes the oldest, which says "closed" first so that its page stops
    reconnecting and polls instead."""
    name = channel(game_id)
    current = await hub()
    if current is None:
        return
    try:
        queue = await current.join(name)
    except (redis.RedisError, OSError, TimeoutError):
        return
    stream_id = uuid.uuid4().hex
    try:
        if session:
            await current.count_stream(session, stream_id, queue)
        yield "retry: 3000\n\n"
        while True:
            try:
                data = await asyncio.wait_for(queue.get(), HEARTBEAT_SECONDS)
            except TimeoutError:
                yield "event: ping\ndata: \n\n"
                continue
            if data is _CLOSED:
                yield "event: closed\ndata: \n\n"
                return
            if data is None:
                return
            step = Step.read(data)
            if step is None:
                yield f"event: table\ndata: {data}\n\n"  # the table talk's news
                continue
            if player is not None and step.actor == player:
                later = replace(step, actor=None).message()
                asyncio.get_running_loop().call_later(OWN_MOVE_SECONDS, queue.put_nowait, later)
                continue
            event = f"event: table\ndata: v{step.version}\n\n"
            if follow is not None:
                # The event and what follows it go out together: each chunk a stream
                # sends is a pass through Django's and the server's streaming and a
                # write to the socket, for every open page of the table.
                try:
                    event += await asyncio.wait_for(follow(step), FOLLOW_SECONDS)
                except TimeoutError:
                    event += ask_event(step.version)
            yield event
    finally:
        current.leave(name, queue)
        if session:
            await current.uncount_stream(session, stream_id)
