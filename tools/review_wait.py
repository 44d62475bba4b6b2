"""How long the site's writes wait while a finished game is reviewed (figures printed,
never asserted):

    DATABASE_URL=sqlite:///var/bench.sqlite3 python -m tools.review_wait [--rounds 2]

A table of one person and three bots is played out (the person moving as the simplest
bot would), then its review is judged in a thread of its own, as a worker (or, without a
broker, a thread of the web process) judges it, while this thread writes as the site does
meanwhile: one short transaction after another that updates another table's row (a move
elsewhere, a form). It prints how many decisions were judged, in what time, and how long
each write took, waiting included (median, p95, the longest). With SQLite, whose
transactions hold the whole database, that is what every write of the site waits while
a review runs; with PostgreSQL, rows are locked alone. It refuses a database whose name
does not contain "bench" (tools/project.py), and deletes what it created.
"""

import argparse
import statistics
import threading
import time
import uuid

from tools.project import prepare_bench_database, setup_django

setup_django()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import override_settings  # noqa: E402
from django.utils import timezone  # noqa: E402

from games.commands import reviews  # noqa: E402
from games.models import Game, Review  # noqa: E402
from tests.helpers import make_user, play_out, start_table  # noqa: E402

PREFIX = "review-wait-"


def _judge(game_id: int, took: list[float]) -> None:
    try:
        started = time.perf_counter()
        reviews.judge_some(game_id)
        took.append(time.perf_counter() - started)
    finally:
        connection.close()


def measure(rounds: int) -> dict:
    tag = uuid.uuid4().hex[:6]
    person, other = make_user(f"{PREFIX}{tag}"), make_user(f"{PREFIX}{tag}-elsewhere")
    # Played out in an instant: the bots that are Dalmutis do not hold their choice after
    # each deal as they do in a game played in time.
    with override_settings(REVOLUTION_WINDOW_SECONDS=0):
        game = play_out(start_table(person, bots=3, options={"rounds": rounds}))
    elsewhere = start_table(other, bots=3)
    reviews.begin_review(game.pk)
    took: list[float] = []
    judging = threading.Thread(target=_judge, args=(game.pk, took))
    waits = []
    judging.start()
    while judging.is_alive():
        started = time.perf_counter()
        with transaction.atomic():
            Game.objects.filter(pk=elsewhere.pk).update(updated=timezone.now())
        waits.append(time.perf_counter() - started)
        time.sleep(0.002)  # a stream of writes, not one that never lets go
    judging.join()
    review = Review.objects.get(game=game)
    figures = {"decisions": review.judged, "done": review.is_done, "seconds": took[0],
               "writes": waits, "vendor": connection.vendor}
    Game.objects.filter(pk__in=[game.pk, elsewhere.pk]).delete()
    get_user_model().objects.filter(username__startswith=PREFIX).delete()
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    prepare_bench_database("tools.review_wait")
    figures = measure(args.rounds)
    waits = sorted(figures["writes"])
    ms = 1000
    print(f"review wait ({figures['vendor']}): {figures['decisions']} decisions judged in "
          f"{figures['seconds']:.1f} s (review done: {figures['done']})")
    print(f"  {len(waits)} writes meanwhile, each waiting included: median "
          f"{statistics.median(waits) * ms:.1f} ms, p95 "
          f"{waits[int(0.95 * (len(waits) - 1))] * ms:.1f} ms, the longest "
          f"{waits[-1] * ms:.1f} ms")


if __name__ == "__main__":
    main()
