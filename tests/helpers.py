"""Making players and games for the tests, through the same services the site uses."""

import dataclasses
import html
import re
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import import_module

import time_machine
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.core import mail
from django.db import OperationalError, connection
from django.db.models.sql.compiler import SQLCompiler
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from games import commands, engine
from games.away import emails
from games.commands import notifications
from games.commands.base import save_state
from games.models import Game, Seat
from tests.engine.helpers import give_both_jesters
from tools.bench_load import hooks, poll_parts

PASSWORD = "correct-horse-battery"


def one_instant():
    """The clock stands still while pages to be compared are drawn: a time in a log or
    the talk reads "11:59 p.m." on the reader's day and "Dec. 1, 2026, 11:59 p.m. CET"
    once their midnight has passed, and "just now" turns "1 minute ago"; two drawings a
    moment apart may fall either side."""
    return time_machine.travel(timezone.now(), tick=False)


def wait_for(condition, timeout=120) -> bool:
    """Wait until another thread or process (a worker, a mail server) has done its part:
    bounded, and the caller asserts the answer, the condition itself."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def _short_lock_wait() -> None:
    """This thread's connection waits a fifth of a second for a lock, then fails."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET lock_timeout = '200ms'")
        else:
            cursor.execute("PRAGMA busy_timeout = 200")


def meanwhile(monkeypatch, owner, name: str, work) -> tuple[list, list]:
    """Run `work` in another thread, on its own connection that waits a fifth of a second
    for a lock, while the first call of `owner.name` is under way (in real concurrent
    transactions: what the call's caller holds is held). What `work` returned, or the
    lock error it met, lands in the first list returned; the arguments of every call, in
    the second."""
    outcomes, calls = [], []
    wrapped = getattr(owner, name)

    def calling(*args, **kwargs):
        calls.append(args)
        if len(calls) == 1:
            def run():
                try:
                    _short_lock_wait()
                    outcomes.append(work())
                except OperationalError as error:
                    outcomes.append(error)
                finally:
                    connection.close()
            thread = threading.Thread(target=run)
            thread.start()
            thread.join()
        return wrapped(*args, **kwargs)

    monkeypatch.setattr(owner, name, calling)
    return outcomes, calls


def sql_compiles(monkeypatch) -> list:
    """Every SQL compiling of a SELECT from now on, by the model queried."""
    calls = []
    compiling = SQLCompiler.as_sql

    def counted(self, *args, **kwargs):
        calls.append(self.query.model)
        return compiling(self, *args, **kwargs)

    monkeypatch.setattr(SQLCompiler, "as_sql", counted)
    return calls


def templates_drawn(monkeypatch, module) -> list[str]:
    """The templates `module` draws from now on (through its `render_to_string`), by name."""
    names = []
    draw = module.render_to_string

    def counted(name, *args, **kwargs):
        names.append(name)
        return draw(name, *args, **kwargs)

    monkeypatch.setattr(module, "render_to_string", counted)
    return names


def names(text: str, word: str) -> bool:
    """Whether `text` has `word` standing alone: the page's random tokens (CSRF, the
    talk's, the push key) are letters, digits, '-' and '_', and may hold any short word."""
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


def colons_without_space(text: str) -> list[str]:
    """The colons of a French text not after a no-break space: a link's "https:" and a
    time's "09:51" aside."""
    text = re.sub(r"https?://\S+", "", text)
    bare = re.finditer(r"(?<![\u00a0\u202f\d]):", text)
    return [text[max(0, m.start() - 20):m.end()] for m in bare
            if not text[m.end():m.end() + 1].isdigit()]


def words_of(page: str) -> str:
    """What a reader sees of an HTML page: its text, without tags, scripts or styles."""
    page = re.sub(r"<(script|style|template)\b.*?</\1>", "", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def poll_path(body: bytes) -> str:
    """The poll a game page's poller sends, with what it includes (`#chat-seen, #looked,
    #changes`)."""
    found = hooks(body)
    address = poll_parts(found.poller)[0]
    included = {"c": found.chat_seen, **found.looked, "t": found.changes}
    return address + "".join(f"&{name}={value}" for name, value in included.items()
                             if value is not None)


def hand_of(page: str) -> str:
    """The reader's hand as a page draws it, with what is told beside it."""
    return re.search(r'<fieldset class="hand.*?</fieldset>', page, re.S)[0]


def exchanges_told_with_the_hand(client, game: Game, part: str, opening: str,
                                 absent: str) -> int:
    """How many players read under their hand what they gave and received in the round's
    `part` ("taxes" or "trade"), as "<opening> you gave … and received …."; each of the
    others is checked to read nothing of it (no `absent`)."""
    from games.core.words import cards_phrase

    state = game.engine_state()
    told = 0
    for seat in game.seats.select_related("user"):
        client.force_login(seat.user)
        hand = hand_of(client.get(f"/t/{game.pk}/").content.decode())
        exchange = state.view(seat.player)[part]
        if exchange["gave"]:
            told += 1
            assert (f"{opening} you gave {cards_phrase(exchange['gave'])} and received "
                    f"{cards_phrase(exchange['received'])}.") in hand
        else:
            assert absent not in hand
    return told


def sse_events(chunk: bytes | str) -> list[str]:
    """The server-sent events in one chunk a stream sent, each with its blank line (a
    change's event goes out with what follows it)."""
    text = chunk.decode() if isinstance(chunk, bytes) else chunk
    return [event + "\n\n" for event in text.split("\n\n") if event]


def make_user(username: str, **extra):
    return get_user_model().objects.create_user(
        username, f"{username}@example.com", PASSWORD,
        display_name=extra.pop("display_name", username.title()),
        email_verified=extra.pop("email_verified", True), **extra,
    )


def start_table(host, others=(), bots=0, options=None, seats=None, turn_limit=0,
                seed=20261122, name="Test table", bank=0) -> Game:
    """A started game: the host, the other users, then `bots` basic bots; the shuffles
    come from `seed`, so a test plays the same game every run."""
    options = {"rounds": 2, **(options or {})}
    n = 1 + len(others) + bots
    game = commands.create_table(host, name, seats or n, options, turn_limit,
                                 bank_reserve=bank)
    Game.objects.filter(pk=game.pk).update(seed=seed)
    for user in others:
        commands.join(game.pk, user)
    for _ in range(bots):
        commands.add_bot(game.pk, "basic")
    commands.start(game.pk)
    return Game.objects.get(pk=game.pk)


def deal_a_merchant_both_jesters(game: Game, user, seed: int = 11) -> Game:
    """A second round dealt at `game` (five seats) with `user` in the Merchant's place
    holding both jesters: the table waits, in private, for them to decide on a revolution
    while the Dalmutis choose their give-back."""
    state = game.engine_state()
    mine = state.seats.index(game.seats.get(user=user).player)
    merchant = 2
    hands = give_both_jesters(engine.deal(5, state.options, seed), merchant)
    seats = list(state.seats)
    seats[mine], seats[merchant] = seats[merchant], seats[mine]
    rnd = engine.Round.start([sorted(h) for h in hands], state.options, first_round=False,
                             seed=3)
    game.awaiting = {}
    save_state(game, dataclasses.replace(state, seats=tuple(seats), round=rnd, round_number=2))
    return game


def bots_play_on(game: Game) -> Game:
    """The bots move until none may: the game waits for humans only (or is over)."""
    while commands.play_bot_move(game.pk):
        pass
    game.refresh_from_db()
    return game


def deliver_due() -> list:
    """Send what is due now (emails, in this process), as the worker would."""
    return [emails.deliver(pk) for pk in notifications.due_ids()]


def start_on_the_clock(host, others, turn_limit, options=None, bots=2) -> Game:
    """A started game with a turn limit in which only the clock acts for the players
    (standing orders off): the bots have moved, the news of the start is sent and the
    outbox is empty again."""
    game = start_table(host, others, bots, options, turn_limit=turn_limit)
    game.seats.update(auto_pass=False)
    bots_play_on(game)
    deliver_due()
    mail.outbox.clear()
    return game


def waiting_humans(game: Game) -> list[Seat]:
    """The seats of human players the game waits for now."""
    game.refresh_from_db()
    return _awaited_humans(game)


def _awaited_humans(game: Game) -> list[Seat]:
    """The seats of human players `game`, as it was last read, waits for."""
    if not game.awaiting:
        return []
    # The query every move makes, compiled once: these helpers play thousands of moves.
    return [s for s in game.seats_with_users()
            if not s.played_by_bot and str(s.player) in game.awaiting]


def legal(game: Game, seat: Seat) -> list[dict]:
    return game.engine_state().view(seat.player)["legal_actions"]


def act_as(game: Game, seat: Seat, action: dict) -> None:
    """`seat`'s player takes `action` (JSON form) with the turn token of their page."""
    commands.act(game.pk, seat.user, engine.action_from_json(action),
                 game.wait_for(seat.player).token)


def first(actions: list[dict]) -> dict:
    return actions[0]


def shed_worst(actions: list[dict]) -> dict:
    """A player out to finish first: the biggest set, of the worst cards that will do
    (keeping the strong ones to win tricks), and a pass only when nothing can be played."""
    return max(actions, key=lambda a: (len(a.get("cards") or ()), max(a.get("cards") or (0,))))


def play_until(game: Game, done, choose=first, max_steps=5000) -> Game:
    """Play on (bots, and each human taking `choose`'s action) until `done(game)` or the
    end of the game."""
    for _ in range(max_steps):
        game.refresh_from_db()
        if done(game) or game.is_over:
            return game
        humans = _awaited_humans(game)
        if not humans:
            assert commands.play_bot_move(game.pk), "the game waits for nobody"
            continue
        act_as(game, humans[0], choose(legal(game, humans[0])))
    raise AssertionError("the game did not get there")


def play_out(game: Game, choose=first) -> Game:
    return play_until(game, lambda g: False, choose)


def form_for(action: dict, turn: int) -> dict:
    """The POST data a page's form sends for an engine action (JSON form)."""
    data = {"turn": turn, "action": action["type"]}
    if action["type"] == "play":
        # The tapped cards, one `card` each, as the hand form sends them.
        data["card"] = [str(c) for c in action["cards"]]
    elif action["type"] == "give_back":
        data["card"] = [str(c) for c in action["cards"]]
    elif action["type"] == "revolution":
        data["declare"] = "yes" if action["declare"] else "no"
    elif action["type"] == "trade":
        data["partner"] = "none" if action["partner"] is None else str(action["partner"])
    elif action["type"] == "trade_card":
        data["card"] = str(action["card"])
    return data


def session_for(user) -> str:
    """The key of a new signed-in session for `user` in the configured store, for a client
    that talks to a real server (a browser's cookie) rather than the test client."""
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key


class EventStream(threading.Thread):
    """An open page's server-sent event stream, read on `conn` in a thread of its own: the
    answer's status and headers, `ready` once the stream has said hello, and when each
    table version was first heard."""

    def __init__(self, conn, path: str, headers: dict[str, str]):
        super().__init__(daemon=True)
        self.conn, self.path, self.request_headers = conn, path, headers
        self.heard: dict[int, float] = {}
        self.ready = threading.Event()
        self.status, self.headers = None, {}

    @property
    def versions(self) -> set[int]:
        return set(self.heard)

    def run(self):
        self.conn.request("GET", self.path, headers=self.request_headers)
        answer = self.conn.getresponse()
        self.status, self.headers = answer.status, dict(answer.getheaders())
        try:
            while True:
                line = answer.fp.readline()
                if not line:
                    return
                if line.startswith(b"retry:"):
                    self.ready.set()
                if line.startswith(b"data: v"):
                    self.heard.setdefault(int(line[7:].strip()), time.monotonic())
        except (OSError, ValueError):
            return

    def close(self):
        try:
            self.conn.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.conn.close()


class WebhookServer:
    """A local server standing for the chat services Apprise posts to: records each
    message's path and body; /moved answers with a redirect to a private address (which
    the outbound guard must not follow)."""

    def __init__(self):
        self.received: list[tuple[str, str]] = []
        hook = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - the http.server API
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                hook.received.append((self.path, body.decode()))
                if self.path.startswith("/moved"):
                    self.send_response(302)
                    self.send_header("Location", "http://10.20.30.40/steal")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(200)  # Slack's plugin wants "ok", the others any 2xx
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()

    def texts(self, prefix: str = "") -> list[str]:
        return [body for path, body in self.received if path.startswith(prefix)]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def site_routes() -> list[str]:
    """Every route of the site, the admin's aside, as its pattern reads ("/t/<id:game_id>/")."""
    found = []

    def walk(patterns, prefix):
        for entry in patterns:
            route = prefix + str(entry.pattern)
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, route)
            elif isinstance(entry, URLPattern) and "admin" not in route:
                found.append(route)

    walk(get_resolver().url_patterns, "/")
    return found
