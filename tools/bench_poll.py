"""What a move costs in-process, printed (never asserted by timed tests):

    python -m tools.bench_poll [--seats 5] [--moves 60]

A table of people (Django's test client on the configured database and cache, the
production settings when run with DEBUG=0): each move is made by the player whose turn
it is, and its answer draws the update the other pages share (games.views.updates), as
under the production server; each other page's stream fills it in for its reader. A
page it fits swaps it in; any other asks for the change with what it shows (the
version, the key of its hand and dock, the log's length and its panels' key), as an
open page does (with what the page's script sends: the poller's address, the newest
chat message and #looked). Answers and polls are drawn from the shared update where it
fits the page. It prints the CPU time of the move's answer (which draws the update), of
reading the update and filling it in for a page, and of a page's poll (medians), their
queries and sizes, how many pages took the update and how many asked, and the sum per
move; then what the header's count costs, which each page in view asks for once a
minute. With `--no-updates`, every other page asks and every answer is drawn for its page
alone, as before. Everything it creates is rolled back; it refuses a database whose
name does not contain "bench" (tools/project.py).
"""

import argparse
import json
import statistics
import time
import uuid

from tools.project import prepare_bench_database, setup_django

setup_django()

from django.db import connection, transaction  # noqa: E402
from django.test import Client, TestCase  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from dalmuti_site.serving import ready_to_serve  # noqa: E402
from games.core.live import Step  # noqa: E402
from games.views import updates  # noqa: E402
from tests.helpers import form_for, legal, make_user, start_table, waiting_humans  # noqa: E402
from tools.bench_load import fits, hooks, own_key, poll_parts  # noqa: E402


class Rollback(Exception):
    pass


class Shown:
    """What an open page shows, read from its answers by the hooks its script uses (as
    tools.bench_load's simulated browsers read them): the poll's address with the version
    and hand key, the newest chat message, the log and panels (#looked)."""

    def __init__(self):
        self.poll_url, self.chat_seen, self.looked = "", None, {}

    def read(self, content: bytes) -> None:
        found = hooks(content)
        if found.poller is not None:
            self.poll_url = poll_parts(found.poller)[0] or self.poll_url
        if found.chat_seen is not None:
            self.chat_seen = found.chat_seen
        if "r" in found.looked and "n" in found.looked:
            self.looked = dict(found.looked)
        elif found.added_lines and self.looked:
            self.looked["n"] = str(int(self.looked["n"]) + found.added_lines)

    @property
    def version(self) -> int:
        return poll_parts({"hx-get": self.poll_url})[1]

    @property
    def key(self) -> str:
        """The key of the page's own part (its hand, dock and standing orders)."""
        return own_key(self.poll_url)

    def looked_query(self) -> dict:
        """#looked, as the poller and the move form include it, with the version the page
        shows (`sv`, as its script adds)."""
        return {**self.looked, "sv": str(self.version)}

    def poll(self) -> str:
        chat = f"&c={self.chat_seen}" if self.chat_seen is not None else ""
        return self.poll_url + chat + "".join(
            f"&{k}={v}" for k, v in self.looked_query().items())


def measure(seats: int, moves: int, shared_updates: bool) -> dict:
    tag = uuid.uuid4().hex[:6]
    users = [make_user(f"bench-poll-{tag}-{i}") for i in range(seats)]
    game = start_table(users[0], users[1:], options={"rounds": 20})
    game.seats.update(auto_pass=False)
    # The move's answer draws the update the other pages share, as under the production
    # server (an ASGI server with Redis), and is drawn from it.
    updates.sharing = lambda request: shared_updates
    pages, shown = {}, {}
    for user in users:
        pages[user.pk], shown[user.pk] = Client(secure=True), Shown()
        pages[user.pk].force_login(user)
        shown[user.pk].read(pages[user.pk].get(f"/t/{game.pk}/", secure=True).content)
    figures = {name: [] for name in ("answer", "draw", "fill", "poll", "queries", "bytes",
                                     "move_queries", "update_bytes")}
    unchanged = brought = 0
    for _ in range(moves):
        game.refresh_from_db()
        since = Step(0, game.version)
        seat = waiting_humans(game)[0]
        players = {s.user_id: s.player for s in game.seats.exclude(user=None)}
        actions = legal(game, seat)
        # A play when there is one (a pass leaves most of the table as it was).
        action = next((a for a in actions if a["type"] != "pass"), actions[0])
        data = form_for(action, game.wait_for(seat.player).token)
        data |= shown[seat.user_id].looked_query()  # the move form includes #looked
        started = time.process_time()
        # Everything runs in one transaction that is rolled back at the end, so what a
        # move does once it commits (Redis learns the new version, the next players'
        # notices are queued) is run here, as part of the move's cost: without it, the
        # polls would be answered from an outdated Redis entry.
        with (CaptureQueriesContext(connection) as captured,
              TestCase.captureOnCommitCallbacks(execute=True)):
            answer = pages[seat.user_id].post(f"/t/{game.pk}/act/", data, secure=True,
                                              headers={"HX-Request": "true"})
        figures["answer"].append(time.process_time() - started)
        figures["move_queries"].append(len(captured.captured_queries))
        shown[seat.user_id].read(answer.content)
        game.refresh_from_db()
        update = None
        if shared_updates:
            # What the streams of the other pages read (drawn by the move's answer): as
            # another web process reads it (the one that drew it keeps it at hand).
            updates.forget()
            started = time.process_time()
            update = updates._read(game.pk, game.version, since.since)
            figures["draw"].append(time.process_time() - started)
        for user in users:
            if user.pk == seat.user_id:
                continue
            page = shown[user.pk]
            if update is not None:
                started = time.process_time()
                event = update.event_for(players[user.pk], "bench-form-token")
                figures["fill"].append(time.process_time() - started)
                figures["update_bytes"].append(len(event))
                lines = [line.removeprefix("data: ") for line in event.split("\n")
                         if line.startswith("data")]
                head = json.loads(lines[0])
                if fits(head, page.version, page.key, page.looked):
                    brought += 1
                    page.read("\n".join(lines[1:]).encode())
                    continue
            with (CaptureQueriesContext(connection) as captured,
                  TestCase.captureOnCommitCallbacks(execute=True)):
                started = time.process_time()
                poll = pages[user.pk].get(page.poll(), secure=True,
                                          headers={"HX-Request": "true"})
                figures["poll"].append(time.process_time() - started)
            unchanged += poll.status_code == 204
            figures["queries"].append(len(captured.captured_queries))
            figures["bytes"].append(len(poll.content))
            page.read(poll.content)

    # The header's count, which every open page in view asks for anew once a minute
    # (static/js/dalmuti.js): not a move's cost, but what a page costs while nothing moves.
    figures["awaiting"], figures["awaiting_queries"] = [], []
    for user in users:
        for _ in range(4):
            with CaptureQueriesContext(connection) as captured:
                started = time.process_time()
                pages[user.pk].get("/awaiting/", secure=True, headers={"HX-Request": "true"})
                figures["awaiting"].append(time.process_time() - started)
            figures["awaiting_queries"].append(len(captured.captured_queries))

    def median(name: str) -> float:
        return statistics.median(figures[name]) if figures[name] else 0.0

    def total(name: str) -> float:
        return sum(figures[name]) / moves

    return {"answer": median("answer"), "draw": median("draw"), "fill": median("fill"),
            "poll": median("poll"),
            "per_move": total("answer") + total("draw") + total("fill") + total("poll"),
            "polls": len(figures["poll"]) / moves, "brought": brought / moves,
            "queries": median("queries"), "bytes": median("bytes"),
            "update_bytes": median("update_bytes"),
            "unchanged": unchanged, "move_queries": median("move_queries"),
            "awaiting": median("awaiting"), "awaiting_queries": median("awaiting_queries")}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=5)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--no-updates", action="store_true",
                        help="every other page asks for the change (no shared update)")
    args = parser.parse_args(argv)
    prepare_bench_database("bench_poll")
    # Set up as each web process of the production server is (its garbage collector's
    # settings are part of what a request costs there).
    ready_to_serve()
    try:
        with transaction.atomic():
            figures = measure(args.seats, args.moves, not args.no_updates)
            raise Rollback
    except Rollback:
        pass
    ms = 1000
    print(f"{args.seats} seats, {args.moves} moves, CPU in this process:")
    print(f"  the move's answer      {figures['answer'] * ms:6.1f} ms (median), "
          f"{figures['move_queries']:.0f} queries")
    if not args.no_updates:
        print(f"  reading the update     {figures['draw'] * ms:6.1f} ms (median), once per "
              f"move in each other web process (the move's answer draws it)")
        print(f"  filling it in, a page  {figures['fill'] * ms:6.2f} ms (median), "
              f"{figures['update_bytes'] / 1000:.1f} KB; taken by "
              f"{figures['brought']:.1f} pages a move")
    print(f"  a changed poll         {figures['poll'] * ms:6.1f} ms (median), "
          f"{figures['queries']:.0f} queries, {figures['bytes'] / 1000:.1f} KB; "
          f"{figures['polls']:.1f} pages a move ask")
    print(f"  per move               {figures['per_move'] * ms:6.1f} ms (the answer, the "
          f"update and the {args.seats - 1} other pages)")
    print(f"  the header's count     {figures['awaiting'] * ms:6.1f} ms (median), "
          f"{figures['awaiting_queries']:.0f} queries: asked once a minute by each page in "
          f"view, not by a move")
    # Each poll follows a move: one answered "unchanged" would mean the bench measured
    # nothing (an outdated Redis entry, say).
    print(f"  polls answered unchanged: {figures['unchanged']}")


if __name__ == "__main__":
    main()
