"""Figures for the web table, printed (never asserted by timed tests):

    python -m tools.bench_table           # the page's time, polling latency, query counts,
                                          # the page's floor, the page in play (first
                                          # load after each move, then reloaded), a
                                          # finished game's table and record, emails
                                          # per round
    python -m tools.bench_table --worker  # + human move -> bot move through a real worker
    python -m tools.bench_table --only finished   # one part alone

Everything it creates is removed again (rolled back, or deleted after the worker run). It
still writes, so it refuses a database whose name does not contain "bench"
(tools/project.py), and migrates the one it is given.
"""

import argparse
import logging
import statistics
import sys
import time
from datetime import timedelta

from tools.figures import Lines
from tools.project import prepare_bench_database, setup_django

setup_django()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core import mail  # noqa: E402
from django.db import connection, reset_queries, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, override_settings  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

from chat import services as talk  # noqa: E402
from chat.models import Message  # noqa: E402
from dalmuti_site.serving import ready_to_serve  # noqa: E402
from games import commands, engine  # noqa: E402
from games.away import emails  # noqa: E402
from games.commands import notifications  # noqa: E402
from games.models import Action, Game, Seat  # noqa: E402

SEED = 1  # every run plays the same deals


class Rollback(Exception):
    pass


def _users(prefix: str, n: int):
    User = get_user_model()  # noqa: N806
    return [
        User.objects.create_user(
            f"{prefix}{i}", f"{prefix}{i}@example.com", "x", display_name=f"P{i}",
            email_verified=True,
        )
        for i in range(n)
    ]


def _act_like_a_player(game: Game, seat: Seat) -> None:
    """The human plays as the basic bot would (a sensible, repeatable player)."""
    game.refresh_from_db()
    view = game.engine_state().view(seat.player)
    action = engine.choose_action("basic", view, game.version)
    commands.act(game.pk, seat.user, action, game.wait_for(seat.player).token)


def _humans_at_a_table(prefix: str, n: int, rounds: int) -> tuple[list, Game]:
    """`n` people at a table of their own, the first its host, dealt from `SEED`, started."""
    users = _users(prefix, n)
    game = commands.create_table(users[0], prefix.title(), n, {"rounds": rounds})
    Game.objects.filter(pk=game.pk).update(seed=SEED)
    for user in users[1:]:
        commands.join(game.pk, user)
    commands.start(game.pk)
    game.refresh_from_db()
    return users, game


def _play_a_turn(game: Game) -> bool:
    """Whoever the table waits for plays, as the basic bot would; False once it is over."""
    game.refresh_from_db()
    if not game.is_playing:
        return False
    seat = next(s for s in game.seats.select_related("user") if str(s.player) in game.awaiting)
    _act_like_a_player(game, seat)
    return True


def _table_in_play(users, n_bots: int, said: int = 1) -> Game:
    """The first user's table with the second and `n_bots` bots, dealt from `SEED`, and
    `said` messages said at it by the two in turn: a word, as most tables have (the page
    shows the talk it read), or a talkative table's (the panel shows the newest 30)."""
    game = commands.create_table(users[0], "Bench", 2 + n_bots, {"rounds": 10})
    Game.objects.filter(pk=game.pk).update(seed=SEED)
    commands.join(game.pk, users[1])
    for _ in range(n_bots):
        commands.add_bot(game.pk, "basic")
    commands.start(game.pk)
    game.refresh_from_db()
    speakers = [game.seats.get(user=users[1]), game.seats.get(user=users[0])]
    talk.post(game, speakers[0], "Good luck, all")
    # Said in one go, past the limit on how fast a player may talk.
    Message.objects.bulk_create(
        Message(game=game, seat=speakers[i % 2], name=speakers[i % 2].name,
                text=f"Well played, @{speakers[(i + 1) % 2].name}: that was trick {i}")
        for i in range(1, said))
    return game


def _timed(client: Client, path: str, times: int, status: int,
           headers: dict | None = None) -> list[float]:
    """Milliseconds each of `times` requests for `path` took, each answered `status`."""
    took = []
    for _ in range(times):
        start = time.perf_counter()
        response = client.get(path, secure=True, headers=headers)
        took.append((time.perf_counter() - start) * 1000)
        assert response.status_code == status, (path, response.status_code)
    return took


def _cpu(client: Client, path: str, times: int, status: int,
         headers: dict | None = None) -> float:
    """CPU milliseconds per request of `times` requests for `path`, each answered `status`."""
    start = time.process_time()
    _timed(client, path, times, status, headers)
    return (time.process_time() - start) * 1000 / times


def _ratios(cpu: dict[str, list[float]]) -> list[str]:
    """Each figure's median and its rate against `/health/`'s, a line each."""
    health = statistics.median(cpu["/health/"])
    width = max(map(len, cpu))
    return [f"  {name:{width}s}  {statistics.median(took):6.2f} ms  "
            f"({health / statistics.median(took):.2f}x of /health/'s rate)"
            for name, took in cpu.items()]


def _spread(took: list[float]) -> str:
    return (f"median {statistics.median(took):.2f} ms, "
            f"p95 {sorted(took)[int(len(took) * 0.95)]:.2f} ms over {len(took)}")


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench_table", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--polls", type=int, default=500)
    parser.add_argument("--loads", type=int, default=300,
                        help="times the host's game page is loaded and timed at each table")
    parser.add_argument("--worker", action="store_true",
                        help="also time human move -> bot move through a real worker")
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--said", type=int, default=1,
                        help="messages said at the tables whose page and floor are timed "
                             "(1: a word, as most tables have; 30: a panel full of talk)")
    parser.add_argument("--moves-seen", type=int, default=120,
                        help="moves after which the host's page is loaded, then reloaded")
    parser.add_argument("--only", choices=("pages", "floor", "in-play", "finished", "emails"),
                        help="measure one part alone (the worker's latency apart)")
    return parser


def main(argv: list[str] | None = None) -> int:
    options = vars(parser().parse_args(argv))
    prepare_bench_database("tools.bench_table")
    # Set up as each web process of the production server is (its garbage collector's
    # settings are part of what a request costs there).
    ready_to_serve()
    if options["worker"] and settings.CELERY_TASK_ALWAYS_EAGER:
        raise SystemExit("--worker needs CELERY_BROKER_URL (a real broker)")
    Bench().run(options)
    return 0


class Bench:
    """Measure the game page, the polling endpoint, emails per round and bot latency."""

    def __init__(self):
        self.stdout = Lines()

    def run(self, options: dict) -> None:
        self.stdout.write(f"database: {connection.vendor}; messages said at each table whose "
                          f"page is timed: {options['said']}")
        try:
            with transaction.atomic(), override_settings(
                ALLOWED_HOSTS=["testserver"],
                EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
            ):
                parts = {
                    "pages": lambda: self.pages(options["polls"], options["loads"],
                                                options["said"]),
                    "floor": lambda: self.floor(options["loads"], options["said"]),
                    "in-play": lambda: self.in_play(options["moves_seen"]),
                    "finished": lambda: self.finished(options["loads"]),
                    "emails": self.emails_per_round,
                }
                for name, measure in parts.items():
                    if options["only"] in (None, name):
                        measure()
                raise Rollback
        except Rollback:
            pass
        if options["worker"]:
            self.worker_latency(options["moves"])

    def pages(self, polls: int, loads: int, said: int) -> None:
        # Asked as over HTTPS, as the site is served with DEBUG=0 (it redirects plain HTTP).
        client = Client()
        if settings.DEBUG:
            self.stdout.write("DEBUG is on: templates are read afresh and no drawing is kept, "
                              "so the page's time is not the site's (DEBUG=0 SECRET_KEY=x)")
        for n_bots in (2, 6):
            users = _users(f"bench{n_bots}x", 2)
            game = _table_in_play(users, n_bots, said)
            client.force_login(users[0])
            client.get(f"/t/{game.pk}/", secure=True)
            reset_queries()  # each request resets the log; count from a clean one
            # A capture's queries are a window on the connection's log, read when asked:
            # counted at once, before the next request resets that log.
            with CaptureQueriesContext(connection) as captured:
                client.get(f"/t/{game.pk}/", secure=True)
            page_queries = len(captured.captured_queries)
            # The page as its host loads it again and again: what each web process keeps
            # (the header, the seats, the hand...) is drawn by the first load.
            page_times = _timed(client, f"/t/{game.pk}/", loads, 200)
            reset_queries()
            with CaptureQueriesContext(connection) as captured:
                client.get(f"/t/{game.pk}/poll/?v={game.version}", secure=True)
            poll_queries = len(captured.captured_queries)
            times = _timed(client, f"/t/{game.pk}/poll/?v={game.version}", polls, 204)
            changed = _timed(client, f"/t/{game.pk}/poll/?v=0&me=x", max(20, polls // 20), 200)
            self.stdout.write(
                f"{2 + n_bots} players: game page {page_queries} queries, {_spread(page_times)}; "
                f"unchanged poll {poll_queries} queries, {_spread(times)}; "
                f"changed poll (fragments rendered) median {statistics.median(changed):.1f} ms"
            )

    def floor(self, loads: int, said: int) -> None:
        """The least a table's page can cost beside what it shows: the CPU time of
        `/health/` (no session, no database), of the page of a table that closed before
        it started (the signed-in player and their seat read, the site's frame drawn:
        the header, its count of tables awaiting the player, the page's head), and of
        the game page, asked in turns so that the machine's drift falls on each alike."""
        users = _users("floor", 2)
        closed = commands.create_table(users[0], "Closed", 4, {"rounds": 1})
        commands.cancel_table(closed.pk, users[0])
        game = _table_in_play(users, 3, said)
        client = Client()
        client.force_login(users[0])
        asked = {"/health/": ("/health/", 200),
                 "a closed table's page": (f"/t/{closed.pk}/", 410),
                 "the game page": (f"/t/{game.pk}/", 200)}
        per_turn = max(20, loads // 5)
        cpu: dict[str, list[float]] = {name: [] for name in asked}
        # Django logs each 410 ("Gone") as a warning: not news here.
        request_log = logging.getLogger("django.request")
        level = request_log.level
        request_log.setLevel(logging.ERROR)
        try:
            for path, status in asked.values():
                _timed(client, path, 20, status)  # what each process keeps, drawn
            for _ in range(5):
                for name, (path, status) in asked.items():
                    cpu[name].append(_cpu(client, path, per_turn, status))
        finally:
            request_log.setLevel(level)
        self.stdout.write(f"the page's floor, CPU per request (median of 5 turns of "
                          f"{per_turn}, in-process):")
        for line in _ratios(cpu):
            self.stdout.write(line)

    def in_play(self, moves: int) -> None:
        """The game page as a player opens it in play: for the first time at a new
        version (another player moved; a turn email or the app's badge brought them),
        then reloaded unchanged, the only load `floor` and `bench_load` time. What a
        web process keeps (the seats, the hand, the log's lines...) serves the first load
        as well as the reload; a page kept whole per reader and version could serve the
        reload alone. Five people at the table, each playing as the basic bot would;
        `/health/` asked at every step too, so that the machine's drift falls on each
        figure alike. CPU of the page's request alone (the move is not counted)."""
        users, game = _humans_at_a_table("seen", 5, rounds=10)
        client = Client()
        client.force_login(users[0])
        page = f"/t/{game.pk}/"
        _timed(client, page, 20, 200)  # what each process keeps of the table, drawn
        _timed(client, "/health/", 20, 200)
        cpu: dict[str, list[float]] = {"/health/": [], "first load at a new version": [],
                                       "reloaded unchanged": []}
        for _ in range(moves):
            if not _play_a_turn(game):
                break
            for name, path in (("/health/", "/health/"), ("first load at a new version", page),
                               ("reloaded unchanged", page)):
                cpu[name].append(_cpu(client, path, 1, 200))
        self.stdout.write(f"the game page in play, CPU per request (median over "
                          f"{len(cpu['/health/'])} moves at a table of five, in-process):")
        for line in _ratios(cpu):
            self.stdout.write(line)

    def finished(self, loads: int) -> None:
        """A finished game's pages, as its players open them at its end: the table, and
        its record, which draws every line of the game's log (folded by round). A
        three-round game at a table of five, each playing as the basic bot would."""
        users, game = _humans_at_a_table("done", 5, rounds=3)
        while _play_a_turn(game):
            pass
        client = Client()
        client.force_login(users[0])
        lines = Action.objects.filter(game=game).count()
        per_turn = max(5, loads // 20)
        self.stdout.write(f"a finished game of three rounds at a table of five ({lines} "
                          f"actions), CPU per load (median of 5 turns of {per_turn}, in-process):")
        replay = reverse("replay", args=[game.pk])
        for name, path, headers in (
                ("the table", f"/t/{game.pk}/", {}),
                ("its record", reverse("game_record", args=[game.pk]), {}),
                ("its replay, halfway", f"{replay}?step={lines // 2}", {}),
                # The replay's next step, as its "Next" button asks for it.
                ("a replay step", f"{replay}?step={lines - 1}", {"HX-Request": "true"})):
            _timed(client, path, 3, 200, headers)
            took = [_cpu(client, path, per_turn, 200, headers) for _ in range(5)]
            self.stdout.write(f"  {name:20s} {statistics.median(took):.2f} ms")

    def emails_per_round(self) -> None:
        """A four-human table, everyone on "every turn", nobody watching: each player acts
        only after their email has gone out (the asynchronous case)."""
        users, game = _humans_at_a_table("mail", 4, rounds=2)
        now = timezone.now()
        mail.outbox = []
        decisions = 0
        import time_machine

        for _ in range(2000):
            game.refresh_from_db()
            if game.round_number > 1 or not game.is_playing:
                break
            now += timedelta(seconds=settings.NOTIFY_GRACE_SECONDS + 1)
            with time_machine.travel(now, tick=False):
                for pk in notifications.due_ids(now):
                    emails.deliver(pk)
                _play_a_turn(game)
            decisions += 1
        ours = {u.email for u in users}
        sent = [m for m in mail.outbox if m.to[0] in ours]
        turn_mails = [m for m in sent if "started" not in m.subject]
        auto = Action.objects.filter(game=game, round_number=1, by="standing_order").count()
        self.stdout.write(
            f"4 humans, one round: {decisions} decisions by hand, {auto} passes by standing "
            f"order, {len(turn_mails)} turn emails (+{len(sent) - len(turn_mails)} "
            f"'game started')"
        )

    def worker_latency(self, moves: int) -> None:
        from celery.contrib.testing.worker import start_worker

        from dalmuti_site.celery import app

        user = _users(f"lat{int(time.time())}x", 1)[0]
        game = commands.create_table(user, "Latency", 4, {"rounds": 30})
        Game.objects.filter(pk=game.pk).update(seed=SEED)
        for _ in range(3):
            commands.add_bot(game.pk, "basic")
        game.seats.filter(user=user).update(auto_pass=False)
        delays = []
        with start_worker(app, pool="solo", perform_ping_check=False):
            commands.start(game.pk)
            seat = game.seats.get(user=user)
            deadline = time.monotonic() + 300
            while len(delays) < moves and time.monotonic() < deadline:
                game.refresh_from_db()
                if not game.is_playing:
                    break
                if str(seat.player) not in game.awaiting:
                    time.sleep(0.01)
                    continue
                _act_like_a_player(game, seat)
                game.refresh_from_db()
                mine = Action.objects.filter(game=game, by_user=user).last()
                if not commands.bots_awaited(game):
                    continue
                while time.monotonic() < deadline:
                    bot = Action.objects.filter(game=game, seq__gt=mine.seq, by="bot").first()
                    if bot:
                        delays.append((bot.created - mine.created).total_seconds() * 1000)
                        break
                    time.sleep(0.005)
        Game.objects.filter(pk=game.pk).delete()
        user.delete()
        if not delays:
            raise SystemExit("no bot moves observed")
        p95 = sorted(delays)[int(len(delays) * 0.95)]
        self.stdout.write(
            f"human move -> next bot move through the worker: median "
            f"{statistics.median(delays):.1f} ms, p95 {p95:.1f} ms over {len(delays)} moves"
        )


if __name__ == "__main__":
    sys.exit(main())
