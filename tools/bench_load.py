"""A load benchmark (figures printed, never asserted): real gunicorn worker processes on
a database of its own and Redis, with the production settings, and simulated players.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dalmuti_bench \\
        python -m tools.bench_load --pages 500 --stream --seconds 60

It creates players and tables and deletes them again by name, so it refuses any database
whose name does not contain "bench" (tools/project.py), and migrates the one it is given.

Part 1, side by side in one run: the throughput of a view that reads no session and no
database (/health/), of the unchanged poll, of the signed-in floor (the page of a table
closed before it started: the session, the player, their seat and the site's frame, what
every table's page costs before it shows the table) and of the game page (as its host sees
it, at the first lead), each asked by the same number of connections for the same time; and, the
last table played on `--played` moves into its round first (60 unless told, while three
players or more hold cards), its host's page there, where the round's log has grown.

Part 2: `--pages` open game pages (`--seats` players a table, four unless told), their
tables in the play of their first round (its taxes already exchanged). Each does what
the browser does with the page it was served: it polls at the interval the page names,
and with `--stream` it holds the page's server-sent event stream, swaps in the update
that follows each new version's event when it fits the page, and asks for the change
(the poll) when it does not, when none comes, and for the table talk's news. At each
table the player whose turn it is acts after a human pause; and each page asks for the header's
count of tables awaiting its reader once a minute, as a page in view does. It prints requests/s,
p50/p95/p99 of polls, moves and page loads, how long a move takes to show on the other
open pages of its table (and to reach their streams), the web processes' CPU per move,
how many updates the pages swapped in, and errors. With `--gc`, also what the web
processes' garbage collector took of their CPU, in both parts.

The simulated browsers are one asyncio process (aiohttp, whose HTTP parser is compiled):
each page keeps its own keep-alive connections, one per request in flight (as a browser
keeps a few per site), and one per stream, so that thousands of open pages cost the
client little CPU beside the server it measures. What a page reads from an answer it
finds by the hooks its script uses (#poller, #chat-seen, #looked), as a browser would.

Everything it creates (users, tables) is deleted afterwards.
"""

import argparse
import asyncio
import json
import os
import random
import resource
import secrets
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from importlib import import_module
from urllib.parse import parse_qs, urlsplit

import aiohttp

from tools import server as harness
from tools.figures import Lines, cpu_seconds, gc_totals, gc_watched, percentiles
from tools.project import prepare_bench_database, require_bench_database, setup_django

setup_django()

from django.conf import settings  # noqa: E402
from django.contrib.auth import (  # noqa: E402
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
)
from django.db import connection  # noqa: E402

from games import commands, engine  # noqa: E402
from games.models import Game  # noqa: E402

PREFIX = "bench-load-"
# With a live stream the page's regular poll runs only every STREAM_SAFETY_SECONDS (the
# site's setting, which the page carries), while the stream's events or heartbeat came
# within the silence bound (static/js/dalmuti.js).
STREAM_SILENCE_SECONDS = 40
# How long a page waits for the update a new version's event announces before asking
# (static/js/dalmuti.js).
UPDATE_WAIT_SECONDS = 6.0
# How often a page in view asks for the header's count of tables awaiting its reader
# (static/js/dalmuti.js).
AWAITING_SECONDS = 60
# A request that takes longer than this counts as an error.
TIMEOUT = 30
# Moves this close to the end are not waited for on the other pages.
SETTLE = 2.0
FAILED = (aiohttp.ClientError, asyncio.TimeoutError, OSError, ValueError)


class Hooks(HTMLParser):
    """What the page's script reads from an answer: the poller (its address, with the
    version and own part shown, and its interval), the chat counter, the log counters
    and the time the table changes at that the next poll includes (`hx-include=
    "#chat-seen, #looked, #changes"`: the round, the panels, the day, when that day ends
    and the number of log lines), and how many log lines an update the stream brought
    adds (numbered "+1"…: the script counts them on the list). The first of each counts.
    (The pages this drives are bots' tables, whose moves come long before any such time.)"""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.poller: dict | None = None
        self.chat_seen: str | None = None
        self.changes: str | None = None
        self.looked: dict[str, str] = {}
        self.added_lines = 0
        self.in_looked = self.looked_done = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        ident = attrs.get("id")
        if ident == "poller" and self.poller is None:
            self.poller = attrs
        elif ident == "chat-seen" and self.chat_seen is None:
            self.chat_seen = attrs.get("value")
        elif ident == "changes" and self.changes is None:
            self.changes = attrs.get("value")
        elif ident == "looked" and not self.looked_done:
            self.in_looked = True
        elif self.in_looked and tag == "input" and attrs.get("name"):
            self.looked[attrs["name"]] = attrs.get("value") or ""
        elif tag == "li" and (attrs.get("data-line") or "").startswith("+"):
            self.added_lines += 1

    def handle_endtag(self, tag):
        if tag == "div" and self.in_looked:
            self.in_looked, self.looked_done = False, True


def hooks(data: bytes) -> Hooks:
    found = Hooks()
    found.feed(data.decode("utf-8", "replace"))
    found.close()
    return found


def own_key(poll_url: str) -> str:
    """The key of the page's own part, which its poll address names (`me`)."""
    return parse_qs(urlsplit(poll_url).query).get("me", [""])[0]


def fits(head: dict, version: int, key: str, looked: dict) -> bool:
    """Whether an update the stream brought fits the page (as its script decides): it
    starts from the version the page shows, the page's own part did not change (or the
    update brings it), its folded panels did not, and the round and the day of its log's
    times are the page's."""
    return (not head.get("ask") and head.get("since") == version
            and (head.get("key") == key or bool(head.get("mine")))
            and str(head.get("round")) == looked.get("r") and head.get("day") == looked.get("d")
            and head.get("panels") == looked.get("p"))


def poll_parts(poller: dict | None) -> tuple[str, int | None, int | None]:
    """(poll address, version it asks about, seconds between polls) of a poller."""
    if not poller or not poller.get("hx-get"):
        return "", None, None
    url = poller["hx-get"]
    query = parse_qs(urlsplit(url).query)
    trigger = poller.get("hx-trigger", "")
    every = None
    if trigger.startswith("every "):
        every = int(trigger.split()[1].rstrip("s,"))
    return url, int(query["v"][0]), every


def client(port: int, connections: int = 0) -> aiohttp.ClientSession:
    """A browser's connections to the server: keep-alive, no cookie jar of its own (each
    request names its cookies), and no compression asked for (the figures are the
    server's work on the pages, not on compressing them)."""
    return aiohttp.ClientSession(
        f"http://127.0.0.1:{port}",
        connector=aiohttp.TCPConnector(limit=connections, force_close=False),
        cookie_jar=aiohttp.DummyCookieJar(),
        timeout=aiohttp.ClientTimeout(total=TIMEOUT),
        skip_auto_headers=("Accept-Encoding", "User-Agent"),
        auto_decompress=False,
    )


class Page:
    """One open game page of one player: what its browser knows and asks."""

    def __init__(self, run: "Run", index: int, table: dict, player: int, session: str):
        self.run, self.index, self.table, self.player = run, index, table, player
        self.game = table["game"]
        self.csrf = secrets.token_hex(16)
        self.cookie = (f"{settings.SESSION_COOKIE_NAME}={session}; "
                       f"{settings.CSRF_COOKIE_NAME}={self.csrf}")
        self.session: aiohttp.ClientSession | None = None  # opened in the event loop
        self.poll_url = ""  # from the page: "/t/1/poll/?v=3&me=…"
        self.every = settings.GAME_POLL_SECONDS
        self.version = 0
        self.chat_seen = self.looked = None
        self.waiting: asyncio.TimerHandle | None = None  # for an announced update
        self.polling = self.again = False
        self.streaming = False
        self.stream_alive = self.last_poll = 0.0

    def headers(self, method: str, path: str, signed_in: bool = True) -> dict[str, str]:
        headers = {"X-Forwarded-Proto": "https"}
        if signed_in:
            headers["Cookie"] = self.cookie
        if method == "POST":
            headers.update({"X-CSRFToken": self.csrf, "HX-Request": "true",
                            "Origin": f"https://127.0.0.1:{self.run.port}",
                            "Content-Type": "application/x-www-form-urlencoded"})
        elif "/poll/" in path or path == "/awaiting/":
            headers["HX-Request"] = "true"
        return headers

    async def fetch(self, method: str, path: str, body: bytes = b"") -> tuple[int, bytes]:
        if self.session is None:
            self.session = client(self.run.port)
        for attempt in (1, 2):
            try:
                async with self.session.request(method, path, data=body or None,
                                                headers=self.headers(method, path)) as answer:
                    return answer.status, await answer.read()
            except aiohttp.ServerDisconnectedError:
                # A kept-alive connection the server had closed: once more on a new one.
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def request(self, kind: str, method: str, path: str, body: bytes = b""):
        """One request on an idle connection of this page (a new one if none is idle),
        timed under `kind`; None if it failed (counted as an error)."""
        start = time.monotonic()
        self.run.in_flight += 1
        try:
            status, data = await self.fetch(method, path, body)
        except FAILED as exc:
            self.run.error(f"{kind} {type(exc).__name__}")
            return None
        finally:
            self.run.in_flight -= 1
        self.run.done(kind if kind != "poll" else "poll (unchanged)" if status == 204
                      else "poll (changed)", time.monotonic() - start)
        if status >= 400:
            self.run.error(f"{kind} {status}")
        return status, data

    def read(self, data: bytes) -> int | None:
        """What an answer changes on the page: the poller (with the version it shows),
        the chat and log counters the next poll includes. The version shown, if any."""
        found = hooks(data)
        version = None
        if found.poller is not None:
            self.poll_url, version, every = poll_parts(found.poller)
            if every:
                self.every = every
            if version is not None:
                self.saw(version)
        if found.chat_seen is not None:
            self.chat_seen = found.chat_seen
        if "r" in found.looked and "n" in found.looked:
            self.looked = dict(found.looked)
        elif found.added_lines and self.looked:
            self.looked["n"] = str(int(self.looked["n"]) + found.added_lines)
        return version

    def bring(self, head: dict, html: bytes) -> None:
        """An update the stream brought: swapped in if it fits, else the page asks."""
        if self.waiting is not None:
            self.waiting.cancel()
            self.waiting = None
        if head["v"] <= self.version:
            return
        if fits(head, self.version, own_key(self.poll_url), self.looked or {}):
            self.run.brought += self.run.measuring
            self.read(html)
            # The script's safety net counts from each update that fit, too.
            self.last_poll = time.monotonic()
        else:
            self.trigger()

    def expect_update(self) -> None:
        """A new version's event: its update follows; the page asks if none comes."""
        if self.waiting is not None:
            self.waiting.cancel()
        self.waiting = asyncio.get_running_loop().call_later(UPDATE_WAIT_SECONDS, self.trigger)

    def looked_query(self) -> str:
        """The page's #looked inputs, as the poller and the move form include them, with
        the version the page shows (`sv`, as its script adds)."""
        return "".join(f"&{name}={value}" for name, value in (self.looked or {}).items()) + (
            f"&sv={self.version}" if self.looked else "")

    def saw(self, version: int) -> None:
        now = time.monotonic()
        for v in range(self.version + 1, version + 1):
            if self.version:  # not the versions before the page was opened
                self.run.seen.append((self.game, v, self.index, now))
        self.version = max(self.version, version)

    def loaded(self, data: bytes) -> None:
        """A page drawn whole: the script's safety net counts from it."""
        self.read(data)
        self.last_poll = time.monotonic()

    async def open(self) -> None:
        answer = await self.request("page load (opening)", "GET", f"/t/{self.game}/")
        if answer is None:
            return
        self.loaded(answer[1])
        if self.run.stream:
            self.run.spawn(self.listen())
        self.run.spawn(self.keep_polling())
        self.run.spawn(self.keep_counting())

    async def reload(self) -> None:
        answer = await self.request("page load (during the run)", "GET", f"/t/{self.game}/")
        if answer is not None:
            self.loaded(answer[1])

    async def keep_polling(self) -> None:
        await asyncio.sleep(random.uniform(0, self.every))
        while self.poll_url:
            now = time.monotonic()
            if not (now - self.stream_alive < STREAM_SILENCE_SECONDS
                    and now - self.last_poll < settings.STREAM_SAFETY_SECONDS):
                self.trigger()
            await asyncio.sleep(self.every)

    async def keep_counting(self) -> None:
        """The header's count of tables awaiting the reader, asked anew every minute (as a
        page in view does; the reader's turn here brings it with their own part)."""
        await asyncio.sleep(random.uniform(0, AWAITING_SECONDS))
        while True:
            await self.request("header's count", "GET", "/awaiting/")
            await asyncio.sleep(AWAITING_SECONDS)

    def trigger(self) -> None:
        """Poll now; if a poll is under way, once more when it is back (htmx queues the
        last trigger of an element that is busy)."""
        self.last_poll = time.monotonic()
        if self.polling:
            self.again = True
        elif self.poll_url:
            self.polling = True
            self.run.spawn(self.poll())

    async def poll(self) -> None:
        try:
            while True:
                self.again = False
                path = self.poll_url
                if self.chat_seen is not None:
                    path += f"&c={self.chat_seen}"
                path += self.looked_query()
                answer = await self.request("poll", "GET", path)
                if answer is not None:
                    status, data = answer
                    if status in (200, 286):
                        self.read(data)
                    if status == 286:
                        self.poll_url = ""  # htmx stops polling
                if not self.again or not self.poll_url:
                    return
        finally:
            self.polling = False

    async def listen(self) -> None:
        """The page's event stream: each event makes the page poll at once."""
        # A connection of its own, held for as long as the stream is open.
        session = client(self.run.port, 1)
        path = f"/t/{self.game}/stream/"
        try:
            async with session.get(
                path, headers={**self.headers("GET", path), "Accept": "text/event-stream"},
                timeout=aiohttp.ClientTimeout(total=None, sock_connect=TIMEOUT),
            ) as answer:
                if answer.status != 200:
                    self.run.error(f"stream {answer.status}")
                    return
                self.streaming = True
                self.stream_alive = time.monotonic()
                event: list[bytes] = []
                async for line in answer.content:
                    line = line.rstrip(b"\r\n")
                    if line:
                        event.append(line)
                        continue
                    now = time.monotonic()
                    kind = event[0] if event else b""
                    data, event = event[1:], []
                    if kind == b"event: ping":
                        self.stream_alive = now
                    if kind == b"event: update":
                        self.stream_alive = now
                        lines = [item.removeprefix(b"data: ") for item in data]
                        self.bring(json.loads(lines[0]), b"\n".join(lines[1:]))
                        continue
                    if kind != b"event: table":
                        continue
                    self.stream_alive = now
                    for item in data:
                        if item.startswith(b"data: v"):
                            self.run.arrivals.append((self.game, int(item[7:]), self.index, now))
                            self.expect_update()
                            break
                    else:
                        self.trigger()  # the table talk's news
            if not self.run.stopping:
                self.run.error("stream ended")
        except FAILED as exc:
            if not self.run.stopping:
                self.run.error(f"stream {type(exc).__name__}")
        finally:
            self.streaming = False
            await session.close()


def _decide(game_id: int) -> tuple[int, str, int] | None:
    """(player, form body, version) of a move the basic bot would make for a player the
    game waits for; None if it waits for nobody."""
    game = Game.objects.get(pk=game_id)
    if not game.is_playing or not game.awaiting:
        return None
    state = game.engine_state()
    player = min(game.awaiting, key=int)
    wait = game.wait_for(int(player))
    action = engine.action_to_json(
        engine.choose_action("basic", state.view(int(player)), game.seq))
    body = f"action={action['type']}&turn={wait.token}"
    if action["type"] == "play":
        body += "&cards=" + ",".join(map(str, action["cards"]))
    elif action["type"] == "give_back":
        body += "".join(f"&card={c}" for c in action["cards"])
    elif action["type"] == "revolution":
        body += "&declare=" + ("yes" if action["declare"] else "no")
    elif action["type"] == "trade":
        body += "&partner=" + ("none" if action["partner"] is None else str(action["partner"]))
    elif action["type"] == "trade_card":
        body += f"&card={action['card']}"
    return int(player), body, game.version


def _as_the_basic_bot(game_id: int, users: dict, playing, moves: int | None = None) -> int:
    """Make a table's moves as the basic bot would, the lowest awaited seat first, while
    `playing(round's phase, the mover's view)` holds (and for at most `moves`); how many
    were made."""
    made = 0
    while moves is None or made < moves:
        game = Game.objects.get(pk=game_id)
        state = game.engine_state()
        if not game.awaiting:
            break
        player = min(game.awaiting, key=int)
        view = state.view(int(player))
        if not playing(state.round.phase, view):
            break
        seat = game.seats.get(player=int(player))
        action = engine.choose_action("basic", view, game.seq)
        commands.act(game_id, users[seat.user_id], action, game.wait_for(int(player)).token)
        made += 1
    return made


def _to_the_play(game_id: int, users: dict) -> None:
    """Play a new table's first deal up to its first lead (the taxes, a revolution), as
    the basic bot would: a run of half a minute would otherwise measure mostly the deals
    of its tables, which are a twentieth of a game's moves."""
    _as_the_basic_bot(game_id, users, lambda phase, view: phase != "play")


def _play_on(game_id: int, users: dict, moves: int) -> int:
    """Play a table at its first lead on for `moves` moves as the basic bot would, while
    three players or more hold cards (the round goes on); how many were played."""
    return _as_the_basic_bot(
        game_id, users,
        lambda phase, view: phase == "play" and sum(n > 0 for n in view["counts"]) > 2,
        moves)


class Run:
    """The simulated browsers and players of part 2, and what they measured."""

    def __init__(self, port: int, tables: list[dict], options: dict):
        self.port, self.tables = port, tables
        self.stream = options["stream"]
        self.seconds, self.think = options["seconds"], options["think"]
        self.reloads = options["reloads"]
        self.ramp = options["ramp"]
        self.timings: dict[str, list[float]] = defaultdict(list)
        self.errors: Counter = Counter()
        self.seen: list[tuple[int, int, int, float]] = []  # game, version, page, when
        self.arrivals: list[tuple[int, int, int, float]] = []
        self.clicks: dict[tuple[int, int], tuple[float, int]] = {}  # (game, v) -> when, page
        self.brought = 0  # updates the streams brought that the pages swapped in
        self.tasks: set[asyncio.Task] = set()
        self.measuring = False
        self.stopping = False
        self.in_flight = 0
        self.pages: list[Page] = []
        for table in tables:
            for page in table["pages"]:
                self.pages.append(Page(self, len(self.pages), table, page["player"],
                                       page["session"]))
        self.decider = ThreadPoolExecutor(2)
        self.server_pids: list[int] = options.get("server_pids", [])
        self.gc_dir: str | None = options.get("gc_dir")
        self.gc: tuple[list[int], float] | None = None

    def spawn(self, coroutine) -> None:
        task = asyncio.ensure_future(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def done(self, kind: str, took: float) -> None:
        if self.measuring or kind == "page load (opening)":
            self.timings[kind].append(took)

    def error(self, what: str) -> None:
        if not self.stopping:
            self.errors[what] += 1

    async def play(self, table: dict) -> None:
        loop = asyncio.get_running_loop()
        pages = {page.player: page for page in self.pages if page.table is table}
        while not self.stopping:
            await asyncio.sleep(random.expovariate(1 / self.think))
            decided = await loop.run_in_executor(self.decider, _decide, table["game"])
            if decided is None or self.stopping:
                continue
            player, body, version = decided
            page = pages[player]
            clicked = time.monotonic()
            # The move form includes what the page shows (hx-include="#looked").
            body += page.looked_query()
            answer = await page.request("move", "POST", f"/t/{table['game']}/act/", body.encode())
            if answer is None:
                continue
            if answer[0] not in (200, 204):
                continue
            shown = page.read(answer[1])
            new = shown if shown is not None else version
            for v in range(version + 1, new + 1):
                self.clicks[(table["game"], v)] = (clicked, page.index)

    async def reload_some(self) -> None:
        while not self.stopping:
            await asyncio.sleep(1 / self.reloads)
            self.spawn(random.choice(self.pages).reload())

    async def main(self, out) -> None:
        # Pages open over the ramp, as players arrive, not all in one instant.
        for page in self.pages:
            self.spawn(page.open())
            await asyncio.sleep(self.ramp / len(self.pages))
        await self._until(lambda: all(p.poll_url or not p.version for p in self.pages), 30)
        if self.stream:
            await self._until(lambda: all(p.streaming for p in self.pages), 30)
        # The opening's backlog served before the measuring starts.
        await self._until(lambda: self.in_flight <= len(self.pages) // 100, 60)
        streams = sum(p.streaming for p in self.pages)
        self.measuring = True
        started = time.monotonic()
        cpu = time.process_time(), cpu_seconds(self.server_pids)
        collected = gc_totals(self.gc_dir, self.server_pids) if self.gc_dir else None
        players = [asyncio.ensure_future(self.play(t)) for t in self.tables]
        reloader = asyncio.ensure_future(self.reload_some()) if self.reloads else None
        await asyncio.sleep(self.seconds)
        self.measuring = False
        elapsed = time.monotonic() - started
        self.client_cpu = (time.process_time() - cpu[0]) / elapsed
        self.server_cpu = (cpu_seconds(self.server_pids) - cpu[1]) / elapsed
        if collected is not None:
            now = gc_totals(self.gc_dir, self.server_pids)
            self.gc = ([b - a for a, b in zip(collected[0], now[0], strict=True)],
                       now[1] - collected[1])
        last_click = started + self.seconds - SETTLE
        # Let the last moves reach the other pages before counting what arrived.
        await asyncio.sleep(SETTLE)
        self.stopping = True
        everything = [*players, *([reloader] if reloader else []), *self.tasks]
        for task in everything:
            task.cancel()
        await asyncio.gather(*everything, return_exceptions=True)
        for page in self.pages:
            if page.session is not None:
                await page.session.close()
        self.decider.shutdown()
        self.report(out, elapsed, last_click, streams)

    async def _until(self, condition, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while not condition() and time.monotonic() < deadline:
            await asyncio.sleep(0.1)

    def report(self, out, elapsed: float, last_click: float, streams: int) -> None:
        requests = sum(len(v) for k, v in self.timings.items() if k != "page load (opening)")
        clicks = {key: value for key, value in self.clicks.items() if value[0] <= last_click}
        first_seen: dict[tuple[int, int, int], float] = {}
        for game, v, page, when in self.seen:
            first_seen.setdefault((game, v, page), when)
        first_event: dict[tuple[int, int, int], float] = {}
        for game, v, page, when in self.arrivals:
            first_event.setdefault((game, v, page), when)
        delays, events, expected = [], [], 0
        for (game, v), (clicked, by) in clicks.items():
            for page in self.pages:
                if page.game != game or page.index == by:
                    continue
                expected += 1
                if (game, v, page.index) in first_seen:
                    delays.append(first_seen[(game, v, page.index)] - clicked)
                if (game, v, page.index) in first_event:
                    events.append(first_event[(game, v, page.index)] - clicked)
        every = {p.every for p in self.pages}
        out.write(f"\n{len(self.pages)} open pages on {len(self.tables)} tables, polling every "
                  f"{'/'.join(map(str, sorted(every)))} s"
                  f"{f', {streams} event streams open' if self.stream else ''}, players "
                  f"acting after {self.think} s on average, {elapsed:.0f} s:")
        out.write(f"  moves/s          {len(self.timings['move']) / elapsed:.1f} (players want "
                  f"about {len(self.tables) / self.think:.1f}: each table's next move comes "
                  f"{self.think} s on average after the answer to its last)")
        moves = len(self.timings["move"])
        per_move = (f"; {1000 * self.server_cpu * elapsed / moves:.0f} ms of web CPU per move"
                    if moves and self.server_pids else "")
        out.write(f"  requests/s       {requests / elapsed:.0f}; CPU used: web processes "
                  f"{self.server_cpu:.2f} cores, these simulated browsers {self.client_cpu:.2f}"
                  f"{per_move}")
        if self.gc is not None:
            (young, middle, old), seconds = self.gc
            share = seconds / (self.server_cpu * elapsed) if self.server_cpu else 0.0
            out.write(f"  garbage collection in the web processes: {young + middle + old} "
                      f"collections ({young}/{middle}/{old} by generation), "
                      f"{1000 * seconds:.0f} ms, {100 * share:.1f}% of their CPU"
                      + (f"; {1000 * seconds / moves:.2f} ms per move" if moves else ""))
        for kind in ("poll (unchanged)", "poll (changed)", "move", "page load (opening)",
                     "page load (during the run)", "header's count"):
            out.write(f"  {kind:<27}{percentiles(self.timings[kind])}")
        out.write(f"  move -> other pages show it  {percentiles(delays)}; "
                  f"{len(delays)} of {expected} shown")
        if self.stream:
            out.write(f"  move -> their streams' event {percentiles(events)}; "
                      f"{len(events)} of {expected} announced; {self.brought} updates "
                      f"brought by the streams and swapped in without asking")
        out.write(f"  errors           {dict(self.errors) or 'none'}")


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench_load", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=100)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--web-workers", type=int, default=2)
    parser.add_argument("--think", type=float, default=4.0,
                        help="mean seconds a table's player takes to act")
    parser.add_argument("--reloads", type=float, default=1.0,
                        help="full page loads per second during the run")
    parser.add_argument("--ramp", type=float, default=None,
                        help="seconds over which the pages open (default: pages / 25)")
    parser.add_argument("--hammer-seconds", type=int, default=10,
                        help="seconds of each kind of request side by side (0: none)")
    parser.add_argument("--hammer-connections", type=int, default=8)
    parser.add_argument("--seats", type=int, default=4,
                        help="players a table, each with their page open (4-10)")
    parser.add_argument("--stream", action="store_true",
                        help="serve with uvicorn workers (ASGI) and open a server-sent "
                             "event stream for every page (needs Redis)")
    parser.add_argument("--played", type=int, default=60,
                        help="moves the last table plays on into its round before part 1, "
                             "whose host's page is measured there too (0: none)")
    parser.add_argument("--gc", action="store_true",
                        help="also print the web processes' garbage collection (each "
                             "writes a small file after every collection)")
    return parser


def main(argv: list[str] | None = None) -> int:
    options = vars(parser().parse_args(argv))
    prepare_bench_database("tools.bench_load")
    Bench().run(options)
    return 0


class Bench:
    def __init__(self):
        self.stdout = Lines()

    def run(self, options: dict) -> None:
        # Two connections per open page, on both sides.
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        if options["ramp"] is None:
            options["ramp"] = max(1.0, options["pages"] / 25)
        self.stdout.write(f"database: {connection.vendor} {connection.settings_dict['NAME']}; "
                          f"Redis: {settings.REDIS_URL or 'none'}")
        # DEBUG=0: the production settings; the same secret key as here, so that the
        # sessions made here are valid there.
        # Errors only in the servers' log: the signed-in floor's closed table answers
        # "Gone", which Django logs as a warning each time (unless LOG_LEVEL says).
        env = harness.environment(DEBUG="0", LOG_LEVEL=os.environ.get("LOG_LEVEL", "ERROR"))
        if options["gc"]:
            options["gc_dir"] = tempfile.mkdtemp(prefix="bench-gc-")
            env = gc_watched(env, options["gc_dir"])
        server = harness.start_server(env, options["web_workers"], options["stream"],
                                      graceful_timeout=3, quiet=False)
        try:
            server.wait_until_up()
            self.stdout.write(f"gunicorn: {server.workers} {server.kind} workers on port "
                              f"{server.port}, DEBUG=0")
            self._clean()  # what an interrupted run left
            tables = self._tables(max(1, options["pages"] // options["seats"]),
                                  options["seats"], options["played"])
            connection.close()
            options["server_pids"] = server.worker_pids()
            asyncio.run(self._side_by_side(server.port, tables, options))
            run = Run(server.port, tables, options)
            asyncio.run(run.main(self.stdout))
        finally:
            try:
                # Open streams would hold a graceful shutdown for its whole timeout.
                harness.stop(server.process, timeout=60)
            finally:
                self._clean()
                if options.get("gc_dir"):
                    shutil.rmtree(options["gc_dir"], ignore_errors=True)

    # -- set-up --

    def _tables(self, n_tables: int, seats: int = 4, played: int = 0) -> list[dict]:
        """The tables, each at its first lead; with `played`, the last (of two or more)
        that many moves further into its round (`_play_on`)."""
        User = get_user_model()  # noqa: N806
        store = import_module(settings.SESSION_ENGINE).SessionStore
        tables = []
        for t in range(n_tables):
            # No password: hashing one costs far more than the rest of the set-up.
            users = [User.objects.create_user(f"{PREFIX}{t}-{i}", "", None)
                     for i in range(seats)]
            game = commands.create_table(users[0], f"{PREFIX}{t}", seats, {"rounds": 30})
            for user in users[1:]:
                commands.join(game.pk, user)
            commands.start(game.pk)
            by_id = {u.pk: u for u in users}
            _to_the_play(game.pk, by_id)
            on = _play_on(game.pk, by_id, played) if played and t == n_tables - 1 > 0 else 0
            pages = []
            for user in users:
                session = store()
                session[SESSION_KEY] = str(user.pk)
                session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
                session[HASH_SESSION_KEY] = user.get_session_auth_hash()
                session.create()
                pages.append({"session": session.session_key,
                              "player": game.seats.get(user=user).player})
            closed = None
            if t == 0:
                closed = commands.create_table(users[0], f"{PREFIX}{t}-closed", seats,
                                               {"rounds": 1})
                commands.cancel_table(closed.pk, users[0])
            tables.append({"game": game.pk, "pages": pages, "played": on,
                           "closed": closed.pk if closed else None})
        return tables

    def _clean(self) -> None:
        require_bench_database("tools.bench_load", connection.settings_dict)
        Game.objects.filter(name__startswith=PREFIX).delete()
        get_user_model().objects.filter(username__startswith=PREFIX).delete()

    # -- part 1 --

    async def _hammer(self, page: Page, path: str, seconds: float, conns: int,
                      signed_in: bool = True, answered: int = 200) -> int:
        """Requests answered `answered` (or 204) by `conns` connections asking in a loop."""
        statuses: Counter = Counter()
        stop = time.monotonic() + seconds

        async def run() -> None:
            headers = page.headers("GET", path, signed_in)  # signed out: as a load balancer asks
            async with client(page.run.port, 1) as session:
                while time.monotonic() < stop:
                    try:
                        async with session.get(path, headers=headers) as answer:
                            await answer.read()
                            statuses[answer.status] += 1
                    except FAILED as exc:
                        statuses[type(exc).__name__] += 1

        await asyncio.gather(*(run() for _ in range(conns)))
        if set(statuses) - {answered, 204}:
            self.stdout.write(f"  {path}: answers {dict(statuses)}")
        return statuses[answered] + statuses[204]

    async def _side_by_side(self, port: int, tables: list[dict], options) -> None:
        """The three kinds of request in turns of a second or two, so that a change in
        what else runs on the machine weighs on all three alike."""
        seconds, conns = options["hammer_seconds"], options["hammer_connections"]
        if seconds <= 0:
            return  # `--hammer-seconds 0`: the open pages alone
        pids = options["server_pids"]
        run = Run(port, tables, {**options, "stream": False})
        page = run.pages[0]
        await page.reload()  # the page's own poll address; and it warms the caches
        poll = page.poll_url + (f"&c={page.chat_seen}" if page.chat_seen else "") + (
            page.looked_query())
        await page.request("poll", "GET", poll)
        await page.session.close()
        kinds = {"/health/ (no session, no database)": ("/health/", False, page, 200),
                 "unchanged poll": (poll, True, page, 200),
                 # The least a table's page costs beside what it shows: the player and
                 # their seat read, the site's frame drawn (its header, the count of
                 # tables awaiting them), at a table closed before it started ("Gone").
                 "signed-in floor (a closed table)": (
                     f"/t/{tables[0]['closed']}/", True, page, 410),
                 "game page": (f"/t/{page.game}/", True, page, 200)}
        played = tables[-1].get("played", 0)
        if played:
            # The host's page of the table played on: a round's log grows with every move.
            host = next(p for p in run.pages if p.game == tables[-1]["game"])
            await host.reload()
            await host.session.close()
            kinds[f"game page, {played} moves into its round"] = (
                f"/t/{host.game}/", True, host, 200)
        done = Counter()
        cpu = Counter()
        client_cpu = Counter()
        collecting = Counter()
        watch = options.get("gc_dir")
        turns = max(1, round(seconds / 2))
        for _ in range(turns):
            for kind, (path, signed_in, asking, answered) in kinds.items():
                before, mine = cpu_seconds(pids), time.process_time()
                collected = gc_totals(watch, pids)[1] if watch else 0.0
                done[kind] += await self._hammer(asking, path, seconds / turns, conns,
                                                 signed_in, answered)
                cpu[kind] += cpu_seconds(pids) - before
                if watch:
                    collecting[kind] += gc_totals(watch, pids)[1] - collected
                client_cpu[kind] += time.process_time() - mine
        self.stdout.write(f"\nside by side, {conns} connections, {seconds} s each, in {turns} "
                          f"turns (web processes' CPU per request in brackets, then this "
                          f"client's, which the machine's cores also serve):")
        bare = done["/health/ (no session, no database)"] / seconds
        for kind in kinds:
            rate = done[kind] / seconds
            per = f"{1000 * cpu[kind] / done[kind]:.1f} ms" if done[kind] and pids else "?"
            if watch and done[kind]:
                per += f", garbage collection {1000 * collecting[kind] / done[kind]:.2f} ms"
            ours = f"{1000 * client_cpu[kind] / done[kind]:.2f} ms" if done[kind] else "?"
            self.stdout.write(f"  {kind:<40}{rate:8.0f} requests/s  ({rate / bare:.2f}x)  "
                              f"[{per}; client {ours}]")


if __name__ == "__main__":
    sys.exit(main())
