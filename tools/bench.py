"""How fast the engine plays: ``python -m tools.bench [--seconds S]``.

Random bots play complete rounds (deal, taxes, play) through the public contract only:
``Round.start``, ``legal_actions`` and ``apply``, on one core."""

from __future__ import annotations

import argparse
import random
import time

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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=4.0, help="per table size")
    args = parser.parse_args(argv)
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
