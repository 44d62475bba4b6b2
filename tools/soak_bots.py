"""A soak of the bots through real Celery workers (figures printed, never asserted):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dalmuti_bench \\
        python -m tools.soak_bots --tables 50 --seconds 120

Opens `--tables` tables of 4, 5, 8 and 10 seats with bots of every level (the expert with
its default budget). At one in `--human-every` of them (a third by default) one seat is
a person, who moves `--think` seconds (±50%) after each time the table turns to them; at
the others the bots play among themselves, as fast as the workers let them. A Celery
worker (prefork, `--concurrency` processes, the production command) plays the bots.

It prints the p50/p95/p99 of the time from a person's move to the bot's reply (the next
bot move at that table, both as recorded), how many bot moves the bot-only tables made
meanwhile, and how much work waited in each queue. Needs CELERY_BROKER_URL (Redis).
Everything it creates is deleted afterwards (work still queued for its tables finds
nothing to do). It refuses a database whose name does not contain "bench"
(tools/project.py), and migrates the one it is given.
"""

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import time

from tools import server as harness
from tools.figures import Lines, percentiles
from tools.project import prepare_bench_database, require_bench_database, setup_django

setup_django()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import close_old_connections, connection  # noqa: E402

from dalmuti_site.celery import app, ping  # noqa: E402
from games import commands, engine  # noqa: E402
from games.models import Action, Game  # noqa: E402

PREFIX = "soak-bots-"
SIZES = (4, 5, 8, 10)
LEVELS = ("basic", "skilled", "expert")


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tools.soak_bots", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--human-every", type=int, default=3,
                        help="one table in this many has a person (default: a third)")
    parser.add_argument("--think", type=float, default=4.0,
                        help="seconds a person takes for a move, on average")
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--concurrency", type=int, default=os.cpu_count() or 2,
                        help="worker processes (default: one per core)")
    parser.add_argument("--seed", type=int, default=1)
    return parser


def main(argv: list[str] | None = None) -> int:
    options = vars(parser().parse_args(argv))
    prepare_bench_database("tools.soak_bots")
    if settings.CELERY_TASK_ALWAYS_EAGER:
        raise SystemExit("tools.soak_bots needs CELERY_BROKER_URL (a real broker)")
    Soak().run(options)
    return 0


class Soak:
    def __init__(self):
        self.stdout = Lines()

    def run(self, options: dict) -> None:
        self._clean()
        worker = self._worker(options["concurrency"])
        try:
            people = self._tables(options["tables"], options["human_every"], options["seed"])
            self.stdout.write(
                f"{options['tables']} tables ({len(people)} with a person moving every "
                f"~{options['think']:g} s), {options['concurrency']} worker processes, "
                f"{options['seconds']:g} s")
            self._soak(people, options)
        finally:
            worker.terminate()  # a warm shutdown: the tasks in hand are finished
            try:
                worker.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(worker.pid, signal.SIGKILL)
                worker.wait()
            self._clean()

    # -- set-up --

    def _worker(self, concurrency: int) -> subprocess.Popen:
        """The production worker command (every declared queue), in a process group of
        its own so that it and its children stop together."""
        worker = harness.start(
            [sys.executable, "-m", "celery", "-A", "dalmuti_site", "worker",
             "--concurrency", str(concurrency), "--loglevel", "WARNING",
             "--hostname", f"soak-{os.getpid()}@%h"],
            {**os.environ}, quiet=False,
        )
        ping.apply_async(ignore_result=False).get(timeout=120)  # it consumes
        self.stdout.write(f"worker: pid {worker.pid}, queues "
                          f"{', '.join(q.name for q in settings.CELERY_TASK_QUEUES)}")
        return worker

    def _tables(self, n_tables: int, human_every: int, seed: int) -> list[dict]:
        User = get_user_model()  # noqa: N806
        rng = random.Random(seed)
        people = []
        for t in range(n_tables):
            # No password: hashing one costs far more than the rest of the set-up.
            host = User.objects.create_user(f"{PREFIX}{t}", "", None)
            n = SIZES[t % len(SIZES)]
            game = commands.create_table(host, f"{PREFIX}{t}", n, {"rounds": 30})
            Game.objects.filter(pk=game.pk).update(seed=rng.randrange(2**62))
            person = t % human_every == 0
            if not person:
                game.seats.filter(user=host).delete()
            for i in range(n - 1 if person else n):
                commands.add_bot(game.pk, LEVELS[(t + i) % len(LEVELS)])
            if person:
                game.seats.filter(user=host).update(auto_pass=False)
                people.append({"game": game.pk, "user": host, "next": None})
            commands.start(game.pk)
        return people

    def _clean(self) -> None:
        require_bench_database("tools.soak_bots", connection.settings_dict)
        Game.objects.filter(name__startswith=PREFIX).delete()
        get_user_model().objects.filter(username__startswith=PREFIX).delete()

    # -- the soak --

    def _soak(self, people: list[dict], options) -> None:
        rng = random.Random(options["seed"])
        think = options["think"]
        start = time.monotonic()
        stop = start + options["seconds"]
        first_seq = dict(Game.objects.filter(name__startswith=PREFIX).values_list("pk", "seq"))
        sent = []  # (game, seq of the person's move)
        queues = {q.name: [] for q in settings.CELERY_TASK_QUEUES}
        last_sample = 0.0
        while time.monotonic() < stop:
            now = time.monotonic()
            for table in people:
                game = Game.objects.get(pk=table["game"])
                seat = game.seats.get(user=table["user"])
                wait = game.wait_for(seat.player)
                if not game.is_playing or wait is None:
                    table["next"] = None
                    continue
                if table["next"] is None:
                    table["next"] = now + think * rng.uniform(0.5, 1.5)
                if now < table["next"]:
                    continue
                table["next"] = None
                view = game.engine_state().view(seat.player)
                action = engine.choose_action("basic", view, game.seq)
                try:
                    # The game as this move's transaction left it (a worker may be on).
                    moved = commands.act(game.pk, table["user"], action, wait.token)
                except commands.Rejected:
                    continue  # the table moved on meanwhile
                if commands.bots_awaited(moved):
                    sent.append((moved.pk, moved.seq))
            if now - last_sample >= 1:
                last_sample = now
                for name in queues:
                    queues[name].append(_queued(name))
            close_old_connections()
            time.sleep(0.05)
        self._report(sent, first_seq, queues, options["seconds"])

    def _report(self, sent, first_seq, queues, seconds: float) -> None:
        delays, missing = [], 0
        for game_id, seq in sent:
            mine = Action.objects.get(game_id=game_id, seq=seq)
            reply = (Action.objects.filter(game_id=game_id, seq__gt=seq,
                                           by__in=["bot", "stand_in"]).order_by("seq").first())
            if reply is None:
                missing += 1
                continue
            delays.append((reply.created - mine.created).total_seconds())
        self.stdout.write(f"\nperson's move -> the bot's reply: {percentiles(delays)}; "
                          f"max {max(delays, default=0) * 1000:.0f} ms")
        if missing:
            self.stdout.write(f"  {missing} moves had no reply yet when the soak ended")
        bot_only = Game.objects.filter(name__startswith=PREFIX).exclude(
            seats__user__isnull=False).distinct()
        made = sum(g.seq - first_seq.get(g.pk, 0) for g in bot_only)
        self.stdout.write(f"bot-only tables ({bot_only.count()}): {made} records in "
                          f"{seconds:g} s ({made / seconds:.1f}/s)")
        for name, lengths in queues.items():
            if lengths:
                self.stdout.write(f"queue {name}: waiting tasks median "
                                  f"{statistics.median(lengths):g}, max {max(lengths)}")


def _queued(name: str) -> int:
    """How many tasks wait in a queue of the broker (Redis)."""
    with app.connection_for_write() as conn:
        return conn.default_channel.client.llen(name)


if __name__ == "__main__":
    sys.exit(main())
