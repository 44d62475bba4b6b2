"""Does the review rank the bots as the arena does?

    python -m tools.review_calibration --deals 20 --players 5 --samples 32 --jobs 2

The same seeded deals are played once per bot level, every seat played by that level
(single rounds without taxes, as the arena's), and every decision with a real choice is
then judged by the review (``games.engine.review.judge``) from the deciding seat's own
view. Per level: the decisions judged, the mean places lost per decision with its 95%
confidence interval (the unit is a deal), the mean accuracy and the counts per class.
A review that sees play as the arena does gives random > basic > greedy > skilled >
expert, the expert's own decisions close to zero (they are measured again on other deals,
so not exactly zero).

``--samples`` is the review's deals per decision; ``--expert-samples`` the expert's own
when it plays (a fixed number makes the run reproducible).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from games.engine.bots import Effort
from games.engine.game import derive_seed
from games.engine.options import Options
from games.engine.review import KINDS, decision_accuracy, judge, real_choice
from games.engine.round import Round, deal
from tools.arena import make_bot, t975

LEVELS = ("random", "basic", "greedy", "skilled", "expert")


@dataclass
class Figures:
    """One level's decisions judged: per deal the mean loss; every loss; the classes."""

    per_deal: list[float] = field(default_factory=list)
    losses: list[float] = field(default_factory=list)
    kinds: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))

    @property
    def mean_loss(self) -> float:
        return statistics.fmean(self.losses) if self.losses else 0.0

    @property
    def accuracy(self) -> float:
        return statistics.fmean(decision_accuracy(x) for x in self.losses) if self.losses else 100.0

    def half_width(self) -> float:
        k = len(self.per_deal)
        return t975(k - 1) * statistics.stdev(self.per_deal) / k**0.5 if k > 1 else float("nan")


def judge_deal(args: tuple) -> tuple[str, list[float], dict[str, int]]:
    """Play deal ``d`` with ``level`` in every seat and judge every decision with a choice."""
    level, d, n, seed, samples, expert_samples, reduced = args
    options = Options(first_round_taxes=False, reduced_deck=reduced)
    bot = make_bot(level, None, expert_samples)
    effort = Effort(samples=samples)
    r = Round.start(deal(n, options, derive_seed(seed, "deal", d)), options, first_round=True,
                    seed=derive_seed(seed, d))
    losses: list[float] = []
    kinds = dict.fromkeys(KINDS, 0)
    step = 0
    while r.phase != "over":
        seat = r.awaiting[0]
        view = r.view(seat)
        if real_choice(view):
            action = bot(view, random.Random(derive_seed(seed, "bots", d, step)))
            verdict = judge(view, action, derive_seed(seed, "review", d, step), effort)
            if verdict is not None:
                losses.append(verdict.loss)
                if verdict.kind:
                    kinds[verdict.kind] += 1
        else:
            action = r.legal_actions(seat)[0]
        r = r.apply(seat, action)
        step += 1
    return level, losses, kinds


def calibrate(levels=LEVELS, deals: int = 20, n: int = 5, seed: int = 1, samples: int = 32,
              expert_samples: int = 16, jobs: int = 1, reduced: bool = False,
              progress=None) -> dict[str, Figures]:
    """The figures of each level over the same ``deals`` seeded deals; ``progress(done,
    figures)`` is called after each deal's levels are judged (in order)."""
    work = [(level, d, n, seed, samples, expert_samples, reduced)
            for d in range(deals) for level in levels]
    figures = {level: Figures() for level in levels}
    if jobs > 1:
        pool = ProcessPoolExecutor(jobs)
        results = pool.map(judge_deal, work)
    else:
        pool = None
        results = map(judge_deal, work)
    for i, (level, losses, kinds) in enumerate(results):
        f = figures[level]
        f.losses += losses
        if losses:
            f.per_deal.append(statistics.fmean(losses))
        for k, c in kinds.items():
            f.kinds[k] += c
        if progress is not None and (i + 1) % len(levels) == 0:
            progress((i + 1) // len(levels), figures)
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

    def report(done: int, figures: dict[str, Figures]) -> None:
        print(f"review calibration: {done} of {args.deals} deals, {args.players} players, "
              f"seed {args.seed}, review {args.samples} samples, expert "
              f"{args.expert_samples} samples ({time.perf_counter() - start:.0f} s, "
              f"{time.process_time():.0f} s CPU here)")
        print(f"{'level':8} {'decisions':>9} {'places lost/decision':>24} {'accuracy':>9} "
              f"{'inacc.':>7} {'mistakes':>8} {'blunders':>8}")
        for level, f in figures.items():
            print(f"{level:8} {len(f.losses):9d} {f.mean_loss:14.3f} ± {f.half_width():.3f}"
                  f"     {f.accuracy:8.1f}% {f.kinds['inaccuracy']:7d} "
                  f"{f.kinds['mistake']:8d} {f.kinds['blunder']:8d}", flush=True)

    calibrate(args.levels, args.deals, args.players, args.seed, args.samples,
              args.expert_samples, args.jobs, progress=report)


if __name__ == "__main__":
    main()
