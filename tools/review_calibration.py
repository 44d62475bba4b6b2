"""Does the review rank the bots as the arena does?

    python -m tools.review_calibration --deals 60 --players 5 --samples 32 --jobs 2

The same design as the arena (``tools.arena``): each seeded deal (a single round without
taxes) is played with the level in one seat and the arena's yardstick, the skilled bot,
in the others, once for every seat; every decision of the level's seat with a real choice
is judged by the review (``games.engine.review.judge``, as after a game on the site). Per
level: the decisions judged, the places lost per decision (the review's figure) with its
95% confidence interval, the accuracy, the inaccuracies, mistakes and blunders per round,
and the finishing place the level reached. Then the differences between adjacent levels
(paired: the same deals and seats; interval by the delta method over the units, one deal
and seat each).

Beside them, ``vs skilled``: the places the level's choices lost against what the skilled
bot would have played at the same decisions, measured on the same sampled deals, summed
over the level's round. The review plays every candidate on with one fixed way of playing
(``choice_of(plan=False)``), so by the performance difference lemma that sum estimates
how many places the level's way of playing loses to the skilled bot's in a round: the
arena's figure for the same pairing (``python -m tools.arena --a LEVEL --b skilled``,
with the sign turned: places lost rather than gained).

``--samples``: the review's deals per decision (32 on the site); ``--expert-samples``: the
expert's own when it plays (a fixed number makes the run reproducible).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from games.engine.bots import Effort
from games.engine.game import derive_seed
from games.engine.options import Options
from games.engine.review import KINDS, decision_accuracy, find, judge, real_choice
from games.engine.round import Round, deal
from tools.arena import make_bot, t975

LEVELS = ("random", "basic", "greedy", "skilled", "expert")
YARDSTICK = "skilled"


@dataclass
class Unit:
    """One level in one seat of one deal: its judged decisions and where it finished."""

    losses: list[float] = field(default_factory=list)
    vs_skilled: list[float] = field(default_factory=list)
    kinds: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    place: int = 0


def judge_seat(args: tuple) -> tuple[str, int, int, Unit]:
    """Deal ``d`` with ``level`` in ``seat`` and the yardstick elsewhere; the level's
    decisions judged."""
    level, d, seat, n, seed, samples, expert_samples, reduced = args
    options = Options(first_round_taxes=False, reduced_deck=reduced)
    bot = make_bot(level, None, expert_samples)
    yardstick = make_bot(YARDSTICK)
    effort = Effort(samples=samples)
    r = Round.start(deal(n, options, derive_seed(seed, "deal", d)), options, first_round=True,
                    seed=derive_seed(seed, d))
    unit = Unit()
    step = 0
    while r.phase != "over":
        s = r.awaiting[0]
        view = r.view(s)
        if not real_choice(view):
            action = r.legal_actions(s)[0]
        elif s != seat:
            action = yardstick(view, random.Random(derive_seed(seed, "bots", d, step)))
        else:
            action = bot(view, random.Random(derive_seed(seed, "bots", d, step)))
            usual = yardstick(view, random.Random(derive_seed(seed, "bots", d, step)))
            verdict = judge(view, action, derive_seed(seed, "review", d, step), effort,
                            also=[usual])
            if verdict is not None:
                unit.losses.append(verdict.loss)
                unit.vs_skilled.append(verdict.chosen_place - find(verdict.candidates,
                                                                   usual).place)
                if verdict.kind:
                    unit.kinds[verdict.kind] += 1
        r = r.apply(s, action)
        step += 1
    unit.place = r.finish_order.index(seat) + 1
    return level, d, seat, unit


@dataclass
class Figures:
    """Every level's units, in the same order (deal, then seat) for each level."""

    levels: tuple[str, ...]
    units: dict[str, list[Unit]]

    def decisions(self, level: str) -> int:
        return sum(len(u.losses) for u in self.units[level])

    def loss(self, level: str) -> float:
        """Places lost per decision."""
        n = self.decisions(level)
        return sum(sum(u.losses) for u in self.units[level]) / n if n else 0.0

    def accuracy(self, level: str) -> float:
        values = [decision_accuracy(x) for u in self.units[level] for x in u.losses]
        return statistics.fmean(values) if values else 100.0

    def per_round(self, level: str, kind: str) -> float:
        return sum(u.kinds[kind] for u in self.units[level]) / len(self.units[level])

    def vs_skilled(self, level: str) -> float:
        """Places lost to the skilled bot's choices, summed over a round."""
        return sum(sum(u.vs_skilled) for u in self.units[level]) / len(self.units[level])

    def vs_skilled_half_width(self, level: str, other: str) -> float:
        """95% half-width of ``vs_skilled(level) - vs_skilled(other)``, paired by unit."""
        z = [sum(a.vs_skilled) - sum(b.vs_skilled)
             for a, b in zip(self.units[level], self.units[other], strict=True)]
        k = len(z)
        return t975(k - 1) * statistics.stdev(z) / math.sqrt(k) if k > 1 else float("nan")

    def place(self, level: str) -> float:
        return statistics.fmean(u.place for u in self.units[level])

    def _centred(self, level: str) -> list[float]:
        """Each unit's share of the ratio estimate's error (the delta method): its losses
        less the mean times its decisions, over the mean decisions per unit."""
        units = self.units[level]
        mean = self.loss(level)
        per_unit = self.decisions(level) / len(units)
        return [(sum(u.losses) - mean * len(u.losses)) / per_unit for u in units]

    def half_width(self, level: str, other: str | None = None) -> float:
        """95% half-width of ``loss(level)``, or of its difference with ``other``'s over
        the same deals and seats."""
        z = self._centred(level)
        if other is not None:
            z = [a - b for a, b in zip(z, self._centred(other), strict=True)]
        k = len(z)
        return t975(k - 1) * statistics.stdev(z) / math.sqrt(k) if k > 1 else float("nan")


def calibrate(levels=LEVELS, deals: int = 20, n: int = 5, seed: int = 1, samples: int = 32,
              expert_samples: int = 16, jobs: int = 1, reduced: bool = False,
              progress=None) -> Figures:
    """The figures of each level over the same ``deals`` seeded deals, each played once
    per seat; ``progress(done, figures)`` after each deal (in order)."""
    levels = tuple(levels)
    work = [(level, d, seat, n, seed, samples, expert_samples, reduced)
            for d in range(deals) for seat in range(n) for level in levels]
    figures = Figures(levels, {level: [] for level in levels})
    pool = ProcessPoolExecutor(jobs) if jobs > 1 else None
    results = pool.map(judge_seat, work, chunksize=2) if pool else map(judge_seat, work)
    per_deal = n * len(levels)
    for i, (level, _, _, unit) in enumerate(results):
        figures.units[level].append(unit)
        if progress is not None and (i + 1) % per_deal == 0:
            progress((i + 1) // per_deal, figures)
    if pool is not None:
        pool.shutdown()
    return figures


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", nargs="+", default=list(LEVELS))
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=32, help="the review's deals per decision")
    parser.add_argument("--expert-samples", type=int, default=16,
                        help="the expert's own deals per move when it plays")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    start = time.perf_counter()

    def report(done: int, f: Figures) -> None:
        if done < args.deals and done % 5:
            return
        print(f"review calibration: {done} of {args.deals} deals x {args.players} seats, each "
              f"level in one seat and {YARDSTICK} bots in the others, seed {args.seed}, review "
              f"{args.samples} samples, expert {args.expert_samples} samples "
              f"({time.perf_counter() - start:.0f} s in {args.jobs} process(es))")
        print(f"{'level':8} {'decisions':>9} {'places lost/decision':>22} {'accuracy':>9} "
              f"{'per round: inacc.':>17} {'mistakes':>8} {'blunders':>8} "
              f"{'vs skilled':>10} {'place':>6}")
        for level in f.levels:
            print(f"{level:8} {f.decisions(level):9d} {f.loss(level):12.3f} ± "
                  f"{f.half_width(level):.3f} {f.accuracy(level):8.1f}% "
                  f"{f.per_round(level, 'inaccuracy'):17.2f} {f.per_round(level, 'mistake'):8.2f} "
                  f"{f.per_round(level, 'blunder'):8.2f} {f.vs_skilled(level):+10.2f} "
                  f"{f.place(level):6.2f}")
        for a, b in zip(f.levels, f.levels[1:], strict=False):
            print(f"{a + ' - ' + b:18} {f.loss(a) - f.loss(b):+8.3f} ± {f.half_width(a, b):.3f}"
                  f"   vs skilled per round {f.vs_skilled(a) - f.vs_skilled(b):+.2f} ± "
                  f"{f.vs_skilled_half_width(a, b):.2f}")
        print(flush=True)

    calibrate(args.levels, args.deals, args.players, args.seed, args.samples,
              args.expert_samples, args.jobs, progress=report)


if __name__ == "__main__":
    main()
