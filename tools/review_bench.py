"""How long the review of a whole game takes on one core:

    python -m tools.review_bench --players 5 --rounds 10 --level skilled --seed 1

A game is played by bots (``--level`` in every seat), then every decision with a real
choice of every seat is judged as the review task judges a person's
(``games.engine.review.judge`` from the seat's own view, the default number of sampled
deals unless ``--samples`` says otherwise): as if every seat were a person, the most a
review of such a game can cost. The figure is the process's CPU time, so other work on
the machine does not count against it; the wall-clock time is shown beside it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from games.engine.bots import Effort
from games.engine.game import Game, derive_seed
from games.engine.options import Options
from games.engine.review import REVIEW_SAMPLES, judge, real_choice
from tools.arena import make_bot


def decisions(n: int, rounds: int, level: str, seed: int, expert_samples: int):
    """(view, action) of every decision with a choice in a bot game of ``rounds`` rounds."""
    bot = make_bot(level, None, expert_samples)
    game = Game.new(n, Options(rounds=rounds), seed=seed)
    step = 0
    out = []
    while not game.is_over:
        if game.round.phase == "over":
            game = game.next_round()
            continue
        seat = game.round.awaiting[0]
        view = game.round.view(seat)
        if real_choice(view):
            action = bot(view, random.Random(derive_seed(seed, "bots", step)))
            out.append((view, action))
        else:
            action = game.round.legal_actions(seat)[0]
        game = game.apply(game.seats[seat], action)
        step += 1
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--level", default="skilled")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=REVIEW_SAMPLES)
    parser.add_argument("--expert-samples", type=int, default=16)
    args = parser.parse_args(argv)
    todo = decisions(args.players, args.rounds, args.level, args.seed, args.expert_samples)
    effort = Effort(samples=args.samples)
    cpu = time.process_time()
    wall = time.perf_counter()
    each = []
    for i, (view, action) in enumerate(todo):
        start = time.process_time()
        judge(view, action, derive_seed(args.seed, "review", i), effort)
        each.append(time.process_time() - start)
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    each.sort()
    print(f"review bench: {args.players} players, {args.rounds} rounds, {args.level} bots, "
          f"seed {args.seed}, {args.samples} samples per decision")
    print(f"  {len(todo)} decisions judged (every seat): {cpu:.0f} s CPU "
          f"({wall:.0f} s wall), {cpu / max(len(todo), 1) * 1000:.0f} ms per decision "
          f"(median {statistics.median(each) * 1000:.0f} ms, "
          f"p95 {each[int(0.95 * (len(each) - 1))] * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
