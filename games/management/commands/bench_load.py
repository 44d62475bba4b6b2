"""A load benchmark (figures printed, never asserted): real gunicorn worker processes on
the configured database and Redis, with the production settings, and simulated players.

    python manage.py bench_load --pages 100 --seconds 30

Part 1, side by side in one run: the throughput of a view that reads no session and no
database (/health/), of the unchanged poll, and of the game page, each hammered by the
same number of connections for the same time.

Part 2: `--pages` open game pages (four players a table), each polling every
GAME_POLL_SECONDS as a browser would, while the player whose turn it is acts after a
human pause. It prints requests/s, p50/p95/p99 of polls, moves and page loads, how long
a move takes to reach the other open pages of its table, and errors.

Everything it creates (users, tables) is deleted afterwards.
"""

import heapq
import http.client
import os
import random
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import defaultdict
from importlib import import_module

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.core.management.base import BaseCommand
from django.db import connection

from games import commands, engine
from games.models import Game

PREFIX = "bench-load-"
# With a live stream, the page's regular poll runs this often (static/js/dalmuti.js).
STREAM_SAFETY_SECONDS = 30
VERSION = re.compile(rb"[?&]v=(\d+)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _percentiles(values: list[float]) -> str:
    if not values:
        return "no samples"
    values = sorted(values)
    pick = lambda q: values[min(len(values) - 1, int(q * len(values)))] * 1000  # noqa: E731
    return (f"n={len(values)} p50 {pick(0.5):.1f} ms  p95 {pick(0.95):.1f} ms  "
            f"p99 {pick(0.99):.1f} ms")


class Browser:
    """One keep-alive connection with one player's cookies."""

    def __init__(self, port: int, session: str, csrf: str):
        self.port, self.csrf = port, csrf
        self.cookie = (f"{settings.SESSION_COOKIE_NAME}={session}; "
                       f"{settings.CSRF_COOKIE_NAME}={csrf}")
        self.conn = None

    def request(self, method: str, path: str, body: str = "") -> tuple[int, bytes]:
        headers = {"Cookie": self.cookie, "X-Forwarded-Proto": "https",
                   "Host": f"127.0.0.1:{self.port}"}
        if method == "POST":
            headers.update({"X-CSRFToken": self.csrf, "HX-Request": "true",
                            "Origin": f"https://127.0.0.1:{self.port}",
                            "Content-Type": "application/x-www-form-urlencoded"})
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            try:
                self.conn.request(method, path, body=body or None, headers=headers)
                answer = self.conn.getresponse()
                return answer.status, answer.read()
            except (OSError, http.client.HTTPException):
                self.conn.close()
                self.conn = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


class Command(BaseCommand):
    help = "Load benchmark: gunicorn processes, simulated open pages and players."

    def add_arguments(self, parser):
        parser.add_argument("--pages", type=int, default=100)
        parser.add_argument("--seconds", type=int, default=30)
        parser.add_argument("--web-workers", type=int, default=2)
        parser.add_argument("--threads", type=int, default=32,
                            help="client threads sharing the open pages")
        parser.add_argument("--think", type=float, default=4.0,
                            help="mean seconds a player takes to act")
        parser.add_argument("--hammer-seconds", type=int, default=10)
        parser.add_argument("--stream", action="store_true",
                            help="serve with uvicorn workers (ASGI) and open a server-sent "
                                 "event stream for every page (needs Redis)")

    def handle(self, *args, **options):
        self.stdout.write(f"database: {connection.vendor}; Redis: {settings.REDIS_URL or 'none'}")
        port = _free_port()
        server = self._serve(port, options["web_workers"], options["stream"])
        try:
            tables = self._tables(max(1, options["pages"] // 4))
            self._side_by_side(port, tables, options["hammer_seconds"])
            self._open_pages(port, tables, options)
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(30)
            self._clean()

    # -- set-up --

    def _serve(self, port: int, workers: int, asgi: bool) -> subprocess.Popen:
        # The same key as here: the sessions made here must be valid there.
        env = {**os.environ, "DEBUG": "0", "ALLOWED_HOSTS": "127.0.0.1",
               "SECRET_KEY": settings.SECRET_KEY}
        app = ["dalmuti_site.asgi", "-k", "uvicorn_worker.UvicornWorker"] if asgi else [
            "dalmuti_site.wsgi"]
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", *app, "--workers", str(workers),
             "--bind", f"127.0.0.1:{port}", "--log-level", "warning"],
            env=env, start_new_session=True,
        )
        for _ in range(300):
            try:
                with socket.create_connection(("127.0.0.1", port), 0.2):
                    break
            except OSError:
                time.sleep(0.1)
        kind = "uvicorn (ASGI)" if asgi else "sync"
        self.stdout.write(f"gunicorn: {workers} {kind} workers on port {port}, DEBUG=0")
        return server

    def _tables(self, n_tables: int) -> list[dict]:
        User = get_user_model()  # noqa: N806
        store = import_module(settings.SESSION_ENGINE).SessionStore
        tables = []
        for t in range(n_tables):
            users = [User.objects.create_user(f"{PREFIX}{t}-{i}", "", "x") for i in range(4)]
            game = commands.create_table(users[0], f"{PREFIX}{t}", 4, {"rounds": 30})
            for user in users[1:]:
                commands.join(game.pk, user)
            commands.start(game.pk)
            game.refresh_from_db()
            pages = []
            for user in users:
                session = store()
                session[SESSION_KEY] = str(user.pk)
                session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
                session[HASH_SESSION_KEY] = user.get_session_auth_hash()
                session.create()
                pages.append({"user": user, "session": session.session_key,
                              "csrf": secrets.token_hex(16), "v": game.version,
                              "player": game.seats.get(user=user).player})
            tables.append({"game": game.pk, "pages": pages})
        return tables

    def _clean(self) -> None:
        Game.objects.filter(name__startswith=PREFIX).delete()
        get_user_model().objects.filter(username__startswith=PREFIX).delete()

    # -- part 1 --

    def _hammer(self, port: int, page: dict, path: str, seconds: int, conns: int) -> float:
        done = [0] * conns
        stop = time.monotonic() + seconds

        statuses = defaultdict(int)

        def run(i: int) -> None:
            browser = Browser(port, page["session"], page["csrf"])
            while time.monotonic() < stop:
                status, _ = browser.request("GET", path)
                statuses[status] += 1
                if status in (200, 204):
                    done[i] += 1

        threads = [threading.Thread(target=run, args=(i,)) for i in range(conns)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if set(statuses) - {200, 204}:
            self.stdout.write(f"  {path}: answers {dict(statuses)}")
        return sum(done) / seconds

    def _side_by_side(self, port: int, tables: list[dict], seconds: int) -> None:
        table = tables[0]
        page = table["pages"][0]
        game = table["game"]
        browser = Browser(port, page["session"], page["csrf"])
        browser.request("GET", f"/t/{game}/poll/?v={page['v']}")  # warm the caches
        conns = 8
        bare = self._hammer(port, page, "/health/", seconds, conns)
        poll = self._hammer(port, page, f"/t/{game}/poll/?v={page['v']}", seconds, conns)
        full = self._hammer(port, page, f"/t/{game}/", seconds, conns)
        self.stdout.write(f"\nside by side, {conns} connections, {seconds} s each:")
        self.stdout.write(f"  /health/ (no session, no database)  {bare:8.0f} requests/s")
        self.stdout.write(f"  unchanged poll                      {poll:8.0f} requests/s"
                          f"  ({poll / bare:.2f}x)")
        self.stdout.write(f"  game page                           {full:8.0f} requests/s"
                          f"  ({full / bare:.2f}x)")

    # -- part 2 --

    def _open_pages(self, port: int, tables: list[dict], options) -> None:
        seconds, think = options["seconds"], options["think"]
        # As the page does: with a live stream the regular poll is only a safety net, and
        # each event makes the page fetch the change at once.
        every = STREAM_SAFETY_SECONDS if options["stream"] else settings.GAME_POLL_SECONDS
        timings = defaultdict(list)
        errors = defaultdict(int)
        delays: list[float] = []
        moved_at: dict[tuple[int, int], float] = {}  # (game, version) -> when the player clicked
        lock = threading.Lock()
        rng = random.Random(1)
        pages = [(table, page) for table in tables for page in table["pages"]]
        due = [(time.monotonic() + rng.uniform(0, every), i) for i in range(len(pages))]
        next_move = {t["game"]: time.monotonic() + rng.expovariate(1 / think) for t in tables}
        stop = time.monotonic() + seconds
        browsers: dict[int, Browser] = {}

        def browser_for(i: int) -> Browser:
            if i not in browsers:
                page = pages[i][1]
                browsers[i] = Browser(port, page["session"], page["csrf"])
            return browsers[i]

        def poll(i: int) -> None:
            table, page = pages[i]
            start = time.monotonic()
            status, body = browser_for(i).request(
                "GET", f"/t/{table['game']}/poll/?v={page['v']}&me=x")
            took = time.monotonic() - start
            with lock:
                timings["poll"].append(took)
                if status >= 400:
                    errors[f"poll {status}"] += 1
                elif status in (200, 286):
                    found = VERSION.search(body)
                    new = int(found.group(1)) if found else page["v"]
                    for version in range(page["v"] + 1, new + 1):
                        clicked = moved_at.get((table["game"], version))
                        if clicked is not None:
                            delays.append(time.monotonic() - clicked)
                            break
                    page["v"] = new

        def move(table: dict) -> None:
            try:
                _move(table)
            finally:
                connection.close()  # back to the pool: the threads outnumber it

        def _move(table: dict) -> None:
            game = Game.objects.get(pk=table["game"])
            if not game.is_playing:
                return
            state = game.engine_state()
            for page in table["pages"]:
                wait = game.awaiting.get(str(page["player"]))
                if wait is None:
                    continue
                view = state.view(page["player"])
                action = engine.action_to_json(engine.choose_action("basic", view, game.seq))
                body = f"action={action['type']}&turn={wait[0]}"
                if action["type"] == "play":
                    body += "&cards=" + ",".join(map(str, action["cards"]))
                elif action["type"] == "give_back":
                    body += "".join(f"&card={c}" for c in action["cards"])
                elif action["type"] == "revolution":
                    body += "&declare=" + ("yes" if action["declare"] else "no")
                elif action["type"] == "trade":
                    body += "&partner=" + ("none" if action["partner"] is None
                                           else str(action["partner"]))
                elif action["type"] == "trade_card":
                    body += f"&card={action['card']}"
                index = next(i for i, (t, p) in enumerate(pages) if p is page)
                start = time.monotonic()  # the click: delays to other pages count from it
                status, answer = browser_for(index).request(
                    "POST", f"/t/{table['game']}/act/", body)
                landed = time.monotonic()
                with lock:
                    timings["move"].append(landed - start)
                    if status not in (200, 204):
                        errors[f"move {status}"] += 1
                    found = VERSION.search(answer)
                    if found:
                        moved_at[(table["game"], int(found.group(1)))] = start
                        page["v"] = int(found.group(1))
                return

        events = [(when, "poll", i) for when, i in due]
        events += [(when, "move", game_id) for game_id, when in next_move.items()]
        heapq.heapify(events)
        events_lock = threading.Lock()
        by_game = {t["game"]: t for t in tables}

        def worker() -> None:
            while True:
                with events_lock:
                    when, kind, key = heapq.heappop(events)
                    now = time.monotonic()
                    if now >= stop:
                        heapq.heappush(events, (when, kind, key))
                        return
                    if when > now:
                        heapq.heappush(events, (when, kind, key))
                        pause = min(when - now, 0.02)
                    else:
                        pause = 0
                if pause:
                    time.sleep(pause)
                    continue
                try:
                    if kind in ("poll", "fetch"):
                        poll(key)
                    else:
                        move(by_game[key])
                except Exception as exc:  # counted, the run goes on
                    with lock:
                        errors[type(exc).__name__] += 1
                if kind == "fetch":
                    continue  # a one-off: the page's regular poll goes on as before
                later = when + every if kind == "poll" else time.monotonic() + rng.expovariate(
                    1 / think)
                with events_lock:
                    heapq.heappush(events, (later, kind, key))

        streamed: list[float] = []
        arrivals: list[tuple[int, int, float]] = []
        reader = None

        def told(index: int) -> None:
            """An event reached page `index`: it fetches the change now, as sse:table does."""
            with events_lock:
                heapq.heappush(events, (time.monotonic(), "fetch", index))

        if options["stream"]:
            reader = threading.Thread(target=self._read_streams, daemon=True, args=(
                port, pages, arrivals, lock, stop, told))
            reader.start()
            time.sleep(2)  # let the streams connect
        started = time.monotonic()
        threads = [threading.Thread(target=worker) for _ in range(options["threads"])]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
        # Page loads, measured after the run on a sample of pages.
        for i in range(0, len(pages), max(1, len(pages) // 40)):
            table, _page = pages[i]
            start = time.monotonic()
            status, _ = browser_for(i).request("GET", f"/t/{table['game']}/")
            timings["page"].append(time.monotonic() - start)
            if status >= 400:
                errors[f"page {status}"] += 1
        total = len(timings["poll"]) + len(timings["move"])
        self.stdout.write(f"\n{len(pages)} open pages on {len(tables)} tables, polling every "
                          f"{every} s, players acting after {think} s on average, {seconds} s:")
        self.stdout.write(f"  requests/s       {total / elapsed:.0f}")
        self.stdout.write(f"  poll             {_percentiles(timings['poll'])}")
        self.stdout.write(f"  move             {_percentiles(timings['move'])}")
        self.stdout.write(f"  page load        {_percentiles(timings['page'])}")
        self.stdout.write(f"  move -> other pages  {_percentiles(delays)}"
                          + (f"  (mean {statistics.mean(delays) * 1000:.0f} ms)" if delays
                             else ""))
        if options["stream"]:
            reader.join()
            streamed = [arrived - moved_at[(g, v)] for g, v, arrived in arrivals
                        if (g, v) in moved_at]
            self.stdout.write(f"  move -> streams  {_percentiles(streamed)}")
        self.stdout.write(f"  errors           {dict(errors) or 'none'}")

    def _read_streams(self, port, pages, arrivals, lock, stop, told) -> None:
        """One server-sent event stream per open page, all read by this one thread: when
        an event announces a version, when it arrived; each event makes its page fetch."""
        import selectors

        selector = selectors.DefaultSelector()
        for index, (table, page) in enumerate(pages):
            sock = socket.create_connection(("127.0.0.1", port))
            cookie = (f"{settings.SESSION_COOKIE_NAME}={page['session']}")
            sock.sendall((f"GET /t/{table['game']}/stream/ HTTP/1.1\r\n"
                          f"Host: 127.0.0.1:{port}\r\nCookie: {cookie}\r\n"
                          "X-Forwarded-Proto: https\r\nAccept: text/event-stream\r\n\r\n"
                          ).encode())
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ, (table["game"], index))
        while time.monotonic() < stop + 5:
            for key, _ in selector.select(timeout=0.5):
                try:
                    data = key.fileobj.recv(65536)
                except BlockingIOError:
                    continue
                arrived = time.monotonic()
                game_id, index = key.data
                found = list(re.finditer(rb"data: v(\d+)", data))
                for event in found:
                    with lock:
                        arrivals.append((game_id, int(event.group(1)), arrived))
                if found and arrived < stop:
                    told(index)
        for key in list(selector.get_map().values()):
            key.fileobj.close()
