"""What a move costs in-process, printed (never asserted by timed tests):

    python -m tools.bench_poll [--seats 5] [--moves 60]

A table of people (Django's test client on the configured database and cache, the
production settings when run with DEBUG=0): each move is made by the player whose turn
it is, and then every other player's page asks for the change with what it shows (the
version, the key of its hand and dock, the log's length and its panels' key), as an
open page does when its stream tells it the table changed (with what the page's script
sends: the poller's address, the newest chat message and #looked). It prints the CPU time of the
move's answer and of a changed poll (medians), their queries and sizes, and the sum per
move. Everything it creates is rolled back; it refuses a database whose name does not
contain "bench" (tools/project.py).
"""

import argparse
import statistics
import time
import uuid

from tools.project import prepare_bench_database, setup_django

setup_django()

from django.db import connection, transaction  # noqa: E402
from django.test import Client, TestCase  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from tests.helpers import form_for, legal, make_user, start_table, waiting_humans  # noqa: E402
from tools.bench_load import hooks, poll_parts  # noqa: E402


class Rollback(Exception):
    pass


class Shown:
    """What an open page shows, read from its answers by the hooks its script uses (as
    tools.bench_load's simulated browsers read them): the poll's address with the version
    and hand key, the newest chat message, and the log and panels (#looked)."""

    def __init__(self):
        self.poll_url, self.chat_seen, self.looked = "", None, {}

    def read(self, answer) -> None:
        found = hooks(answer.content)
        if found.poller is not None:
            self.poll_url = poll_parts(found.poller)[0] or self.poll_url
        if found.chat_seen is not None:
            self.chat_seen = found.chat_seen
        if "r" in found.looked and "n" in found.looked:
            self.looked = dict(found.looked)

    def poll(self) -> str:
        chat = f"&c={self.chat_seen}" if self.chat_seen is not None else ""
        return self.poll_url + chat + "".join(f"&{k}={v}" for k, v in self.looked.items())


def measure(seats: int, moves: int) -> dict:
    tag = uuid.uuid4().hex[:6]
    users = [make_user(f"bench-poll-{tag}-{i}") for i in range(seats)]
    game = start_table(users[0], users[1:], options={"rounds": 20})
    game.seats.update(auto_pass=False)
    pages, shown = {}, {}
    for user in users:
        pages[user.pk], shown[user.pk] = Client(secure=True), Shown()
        pages[user.pk].force_login(user)
        shown[user.pk].read(pages[user.pk].get(f"/t/{game.pk}/", secure=True))
    answers, polls, queries, sizes, unchanged, move_queries = [], [], [], [], 0, []
    for _ in range(moves):
        game.refresh_from_db()
        seat = waiting_humans(game)[0]
        actions = legal(game, seat)
        # A play when there is one (a pass leaves most of the table as it was).
        action = next((a for a in actions if a["type"] != "pass"), actions[0])
        data = form_for(action, game.wait_for(seat.player).token)
        data |= shown[seat.user_id].looked  # the move form includes #looked
        started = time.process_time()
        # Everything runs in one transaction that is rolled back at the end, so what a
        # move does once it commits (Redis learns the new version, the next players'
        # notices are queued) is run here, as part of the move's cost: without it, the
        # polls would be answered from an outdated Redis entry.
        with (CaptureQueriesContext(connection) as captured,
              TestCase.captureOnCommitCallbacks(execute=True)):
            answer = pages[seat.user_id].post(f"/t/{game.pk}/act/", data, secure=True,
                                              headers={"HX-Request": "true"})
        answers.append(time.process_time() - started)
        move_queries.append(len(captured.captured_queries))
        shown[seat.user_id].read(answer)
        for user in users:
            if user.pk == seat.user_id:
                continue
            with (CaptureQueriesContext(connection) as captured,
                  TestCase.captureOnCommitCallbacks(execute=True)):
                started = time.process_time()
                poll = pages[user.pk].get(shown[user.pk].poll(), secure=True,
                                          headers={"HX-Request": "true"})
                polls.append(time.process_time() - started)
            unchanged += poll.status_code == 204
            queries.append(len(captured.captured_queries))
            sizes.append(len(poll.content))
            shown[user.pk].read(poll)
    return {"answer": statistics.median(answers), "poll": statistics.median(polls),
            "per_move": statistics.mean(answers) + (seats - 1) * statistics.mean(polls),
            "queries": statistics.median(queries), "bytes": statistics.median(sizes),
            "unchanged": unchanged, "move_queries": statistics.median(move_queries)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=5)
    parser.add_argument("--moves", type=int, default=60)
    args = parser.parse_args(argv)
    prepare_bench_database("bench_poll")
    try:
        with transaction.atomic():
            figures = measure(args.seats, args.moves)
            raise Rollback
    except Rollback:
        pass
    print(f"{args.seats} seats, {args.moves} moves, CPU in this process:")
    print(f"  the move's answer     {figures['answer'] * 1000:6.1f} ms (median), "
          f"{figures['move_queries']:.0f} queries")
    print(f"  a changed poll        {figures['poll'] * 1000:6.1f} ms (median), "
          f"{figures['queries']:.0f} queries, {figures['bytes'] / 1000:.1f} KB")
    print(f"  per move              {figures['per_move'] * 1000:6.1f} ms "
          f"(the answer and {args.seats - 1} polls)")
    # Each poll follows a move: one answered "unchanged" would mean the bench measured
    # nothing (an outdated Redis entry, say).
    print(f"  polls answered unchanged: {figures['unchanged']}")


if __name__ == "__main__":
    main()
