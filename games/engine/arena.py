"""The arena: how much better one bot level plays than another.

    python -m games.engine.arena --candidate expert --baseline skilled --players 5 \\
        --deals 2000 --matches 200 --seed 1

Every seeded deal is played once with the candidate in each seat in turn and the baseline
in all the others, through the public ``Round`` and ``view``. Single rounds (no taxes) and
10-round matches (with taxes, through ``Game``) are reported separately. For each, the
candidate's mean finishing place and points per round with 95% confidence intervals (the
unit is a deal or a match, averaged over the candidate's seats, so the seats' shared luck
cancels), its "gain": how many places better it finishes than the fair (n+1)/2 that a copy
of the baseline would get in its seat, its share of wins (rounds finished first, matches
won) against the fair 1/n, and the p50/p95 time per move of both levels.

``--budget`` sets the expert's time per move; ``--samples`` instead fixes its number of
sampled deals per move, which makes the run reproducible. ``--jobs`` plays on several
processes; the figures do not depend on it (except the times).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from .bots import BOTS, Bot
from .bots_expert import expert_bot
from .game import Game, derive_seed
from .options import Options
from .round import Round, deal

Z95 = 1.959964


def make_bot(level: str, budget: float | None = None, samples: int | None = None) -> Bot:
    """The bot of a level; the expert's budget or sample count can be set."""
    if level == "expert":

        def bot(view, rng):
            return expert_bot(view, rng, budget=budget, samples=samples)

        return bot
    try:
        return BOTS[level]
    except KeyError:
        raise SystemExit(f"unknown bot level {level!r}; known: {', '.join(BOTS)}") from None


@dataclass
class Tally:
    """Per deal (or match): the candidate's mean place, points per round and wins, over
    its seats; and every move's time per level (``cand``, ``base``), also only for the
    moves with a choice (``cand_choice``, ``base_choice``: more than one legal action)."""

    places: list[float] = field(default_factory=list)
    points: list[float] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)
    times: dict[str, list[float]] = field(
        default_factory=lambda: {"cand": [], "base": [], "cand_choice": [], "base_choice": []})

    def extend(self, other: Tally) -> None:
        self.places += other.places
        self.points += other.points
        self.wins += other.wins
        for k in self.times:
            self.times[k] += other.times[k]


def _act(bot: Callable, view: dict, seed: int, tally: Tally, kind: str):
    rng = random.Random(seed)
    start = time.perf_counter()
    action = bot(view, rng)
    elapsed = time.perf_counter() - start
    tally.times[kind].append(elapsed)
    if len(view["legal_actions"]) > 1:
        tally.times[kind + "_choice"].append(elapsed)
    return action


def _play_round(r: Round, bots: list[Callable], is_cand: list[bool], seed: int,
                tally: Tally) -> Round:
    step = 0
    while r.phase != "over":
        seat = r.awaiting[0]
        kind = "cand" if is_cand[seat] else "base"
        action = _act(bots[seat], r.view(seat), derive_seed(seed, step), tally, kind)
        r = r.apply(seat, action)
        step += 1
    return r


def play_rounds(args: tuple) -> Tally:
    """Single rounds without taxes: deals ``first..last-1``."""
    cand_level, base_level, budget, samples, n, seed, first, last = args
    cand = make_bot(cand_level, budget, samples)
    base = make_bot(base_level, budget, samples)
    options = Options(first_round_taxes=False)
    tally = Tally()
    for d in range(first, last):
        hands = deal(n, options, derive_seed(seed, "deal", d))
        places, points, wins = [], [], []
        for c in range(n):
            start = Round.start(hands, options, first_round=True, seed=derive_seed(seed, d))
            bots = [cand if s == c else base for s in range(n)]
            is_cand = [s == c for s in range(n)]
            r = _play_round(start, bots, is_cand, derive_seed(seed, "bots", d, c), tally)
            place = r.finish_order.index(c) + 1
            places.append(place)
            points.append(r.points[c])
            wins.append(place == 1)
        tally.places.append(statistics.fmean(places))
        tally.points.append(statistics.fmean(points))
        tally.wins.append(statistics.fmean(wins))
    return tally


def play_matches(args: tuple) -> Tally:
    """Matches of ``rounds`` rounds with taxes: matches ``first..last-1``."""
    cand_level, base_level, budget, samples, n, seed, first, last, rounds = args
    cand = make_bot(cand_level, budget, samples)
    base = make_bot(base_level, budget, samples)
    options = Options(rounds=rounds)
    tally = Tally()
    for d in range(first, last):
        game_seed = derive_seed(seed, "match", d)
        places, points, wins = [], [], []
        for c in range(n):
            game = Game.new(n, options, seed=game_seed)
            bots = {p: cand if p == c else base for p in range(n)}
            step = 0
            while not game.is_over:
                if game.round.phase == "over":
                    game = game.next_round()
                seat = game.round.awaiting[0]
                player = game.seats[seat]
                kind = "cand" if player == c else "base"
                seed_k = derive_seed(seed, "bots", d, c, step)
                action = _act(bots[player], game.round.view(seat), seed_k, tally, kind)
                game = game.apply(player, action)
                step += 1
            my_places = [res["finish_order"].index(c) + 1 for res in game.results]
            k = len(game.results)
            places.append(statistics.fmean(my_places))
            points.append(game.scores[c] / k)
            wins.append(game.winner == c)
        tally.places.append(statistics.fmean(places))
        tally.points.append(statistics.fmean(points))
        tally.wins.append(statistics.fmean(wins))
    return tally


def _run(task: Callable, args: list[tuple], jobs: int) -> Tally:
    total = Tally()
    if jobs <= 1:
        for a in args:
            total.extend(task(a))
        return total
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for part in pool.map(task, args):
            total.extend(part)
    return total


def _chunks(count: int, jobs: int) -> list[tuple[int, int]]:
    size = max(1, -(-count // (jobs * 4))) if jobs > 1 else count
    return [(i, min(i + size, count)) for i in range(0, count, size)]


def mean_ci(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% confidence interval."""
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, float("nan")
    return m, Z95 * statistics.stdev(values) / len(values) ** 0.5


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def _ms(t: float) -> str:
    return f"{t * 1000:.2f}" if t < 0.1 else f"{t * 1000:.0f}"


def report(label: str, n: int, tally: Tally) -> list[str]:
    fair_place = (n + 1) / 2
    place, place_hw = mean_ci(tally.places)
    points, points_hw = mean_ci(tally.points)
    gain = fair_place - place
    wins, wins_hw = mean_ci(tally.wins)
    lines = [
        f"{label}: {len(tally.places)} x {n} seats",
        f"  mean place     {place:.3f} ± {place_hw:.3f}   (fair {fair_place:.2f}); "
        f"gain {gain:+.3f} [{gain - place_hw:+.3f}, {gain + place_hw:+.3f}] places",
        f"  points/round   {points:.3f} ± {points_hw:.3f}   (fair {(n - 1) / 2:.2f})",
        f"  win share      {wins:.3f} ± {wins_hw:.3f}   (fair {1 / n:.3f})",
    ]
    for kind, name in (("cand", "candidate"), ("base", "baseline")):
        every, choice = tally.times[kind], tally.times[kind + "_choice"]
        lines.append(
            f"  time/move {name:9}  p50 {_ms(_pct(every, 0.5))} ms, p95 "
            f"{_ms(_pct(every, 0.95))} ms ({len(every)} moves); with a choice: p50 "
            f"{_ms(_pct(choice, 0.5))} ms, p95 {_ms(_pct(choice, 0.95))} ms ({len(choice)})")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine.arena", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--candidate", default="skilled")
    parser.add_argument("--baseline", default="basic")
    parser.add_argument("--players", type=int, nargs="+", default=[5],
                        help="one or more table sizes (4..10)")
    parser.add_argument("--deals", type=int, default=2000, help="single rounds (0: none)")
    parser.add_argument("--matches", type=int, default=200, help="matches with taxes (0: none)")
    parser.add_argument("--rounds", type=int, default=10, help="rounds per match")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, default=None,
                        help="expert: seconds per move (default: the bot's own)")
    parser.add_argument("--samples", type=int, default=None,
                        help="expert: sampled deals per move instead of a time budget")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    a = parser.parse_args(argv)
    budget = f", budget {a.budget} s" if a.budget is not None else ""
    samples = f", {a.samples} samples" if a.samples is not None else ""
    print(f"arena: {a.candidate} (candidate) vs {a.baseline} (baseline), seed {a.seed}"
          f"{budget}{samples}, {a.jobs} job(s)")
    common = (a.candidate, a.baseline, a.budget, a.samples)
    for n in a.players:
        if a.deals > 0:
            start = time.perf_counter()
            args = [common + (n, a.seed, i, j) for i, j in _chunks(a.deals, a.jobs)]
            tally = _run(play_rounds, args, a.jobs)
            lines = report(f"{n} players, single rounds without taxes", n, tally)
            print("\n".join(lines) + f"\n  ({time.perf_counter() - start:.0f} s)")
            sys.stdout.flush()
        if a.matches > 0:
            start = time.perf_counter()
            args = [common + (n, a.seed, i, j, a.rounds) for i, j in _chunks(a.matches, a.jobs)]
            tally = _run(play_matches, args, a.jobs)
            lines = report(f"{n} players, {a.rounds}-round matches with taxes", n, tally)
            print("\n".join(lines) + f"\n  ({time.perf_counter() - start:.0f} s)")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
