"""How fast the engine plays: ``python -m tools.bench [--seconds S] [--against REV]``.

Random bots play complete rounds (deal, taxes, play) through the public contract only:
``Round.start``, ``legal_actions`` and ``apply``, on one core.

``--against REV`` compares this checkout's engine with the engine of a git revision in one
run: each side plays in its own process, the two alternate, time is the process's CPU time
(so other work on the machine does not count against either), and the best of the runs is
kept for each."""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

from games.engine.options import Options
from games.engine.round import Round, deal


def play_rounds(n_players: int, seconds: float, options: Options) -> tuple[int, int, float]:
    """Play random rounds for about ``seconds``; returns (rounds, moves, elapsed)."""
    rng = random.Random(n_players)
    rounds = moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        r = Round.start(deal(n_players, options, rounds), options, seed=rounds)
        while r.phase != "over":
            seat = r.awaiting[0]
            r = r.apply(seat, rng.choice(r.legal_actions(seat)))
            moves += 1
        rounds += 1
    return rounds, moves, time.perf_counter() - start


def time_moves(n_players: int, options: Options, limit: int = 200_000) -> float:
    """Mean seconds of one ``legal_actions`` + ``apply``, the random choice excluded."""
    rng = random.Random(0)
    states: list[tuple[Round, int, object]] = []
    k = 0
    while len(states) < limit:
        r = Round.start(deal(n_players, options, k), options, seed=k)
        while r.phase != "over":
            seat = r.awaiting[0]
            action = rng.choice(r.legal_actions(seat))
            states.append((r, seat, action))
            r = r.apply(seat, action)
        k += 1
    start = time.perf_counter()
    for r, seat, action in states:
        r.legal_actions(seat)
        r.apply(seat, action)
    return (time.perf_counter() - start) / len(states)


ROOT = Path(__file__).resolve().parent.parent

# One side of a comparison: the engine found first on sys.path (a revision's, or this
# checkout's) played by this file's own loops, timed in CPU seconds.
SIDE = """
import json, sys, time
sys.path[:0] = [{engine!r}, {root!r}]
time.perf_counter = time.process_time
from games.engine.options import Options
from tools.bench import play_rounds, time_moves
rounds, moves, elapsed = play_rounds(5, {seconds}, Options())
print(json.dumps([rounds / elapsed, time_moves(5, Options(), limit=60_000) * 1e6]))
"""


def engine_of(revision: str, folder: Path) -> Path:
    """The ``games`` package of a revision (its engine only), unpacked into ``folder``."""
    archive = subprocess.run(["git", "archive", revision, "games/__init__.py", "games/engine"],
                             cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def compare(revision: str, seconds: float, runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        sides = {revision: str(engine_of(revision, Path(tmp))), "this checkout": str(ROOT)}
        best = {name: [0.0, float("inf")] for name in sides}
        for run in range(runs):
            for name, engine in sides.items():
                code = SIDE.format(engine=engine, root=str(ROOT), seconds=seconds)
                out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                                     text=True, check=True, cwd=tmp).stdout
                per_second, micros = json.loads(out)
                best[name] = [max(best[name][0], per_second), min(best[name][1], micros)]
                print(f"  run {run + 1} {name:>14}: {per_second:6.0f} rounds/s (5 players), "
                      f"{micros:.2f} µs per legal_actions + apply", flush=True)
    print("Best of each (CPU time):")
    for name, (per_second, micros) in best.items():
        print(f"  {name:>14}: {per_second:6.0f} rounds/s (5 players), {micros:.2f} µs per move")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=4.0, help="per table size")
    parser.add_argument("--against", metavar="REV",
                        help="compare with the engine of this git revision, in one run")
    parser.add_argument("--runs", type=int, default=5, help="runs per side with --against")
    args = parser.parse_args(argv)
    if args.against:
        compare(args.against, min(args.seconds, 1.5), args.runs)
        return
    options = Options()
    print("Random-bot rounds through Round.start + legal_actions + apply, one core:")
    for n in (4, 5, 6, 8):
        rounds, moves, elapsed = play_rounds(n, args.seconds, options)
        print(
            f"  {n} players: {rounds / elapsed:7.0f} rounds/s "
            f"({moves / rounds:.0f} moves a round, {rounds} rounds in {elapsed:.1f} s)"
        )
    mean = time_moves(5, options)
    print(f"Mean legal_actions + apply (5 players): {mean * 1e6:.2f} µs")


if __name__ == "__main__":
    main()
