"""Does the review rank the bots as the arena does?

    python -m tools.review_calibration --deals 40 --players 5 --samples 32

Paired (the default): the same seeded deals are played by one level in every seat
(``--play``, skilled; single rounds without taxes, as the arena's). At every decision with
a real choice each level's bot is asked what it would play from that seat's own view, and
the review measures the candidates once with all those choices among them
(``games.engine.review.measure``), so every level's choice is measured on the same sampled
deals. A level's loss at a decision is its choice's mean place less the best candidate's,
raw: the best candidate, and with it the bias of picking the best of several measured on
few deals, is the same for every level, so the differences between levels are exact
paired differences of their choices' places (the review's correction, one standard error
of a paired difference off and never below 0, is not linear and would blur them); the
review's own loss (``judge``'s, corrected) is shown beside it. Per level: the mean places
lost per decision with its 95% confidence interval, then the differences between adjacent
levels with theirs (the unit is a deal: its decisions' mean). A review that sees play as
the arena does gives random > basic > greedy > skilled > expert, the expert's own choices
close to zero loss. Measured (README): random far worst and the expert clearly best, but
basic, greedy and skilled within a hundredth of a place of each other per decision: their
arena gaps come from plans over several decisions, which a review of one decision at a
time does not see.

``--per-level``: the older, noisier figures: each level plays its own games, every
decision judged by ``judge`` (no pairing between levels).

``--samples`` is the review's deals per decision; ``--expert-samples`` the expert's own
when it chooses (a fixed number makes the run reproducible).
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
from games.engine.review import (
    KINDS,
    action_key,
    decision_accuracy,
    judge,
    measure,
    paired_loss,
    real_choice,
)
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


@dataclass
class Paired:
    """Every level's choices at the same decisions: per level and deal the raw losses
    (chosen less best expected place) and the review's corrected ones."""

    levels: tuple[str, ...]
    raw: dict[str, list[list[float]]] = field(default_factory=dict)
    judged: dict[str, list[list[float]]] = field(default_factory=dict)

    def decisions(self) -> int:
        return sum(len(x) for x in self.raw[self.levels[0]])

    def mean(self, level: str, judged: bool = False) -> float:
        losses = [x for one in (self.judged if judged else self.raw)[level] for x in one]
        return statistics.fmean(losses) if losses else 0.0

    def per_deal(self, level: str, other: str | None = None) -> list[float]:
        """Per deal with decisions: the level's mean raw loss, less ``other``'s."""
        out = []
        for i, losses in enumerate(self.raw[level]):
            if losses:
                diff = losses if other is None else [
                    a - b for a, b in zip(losses, self.raw[other][i], strict=True)]
                out.append(statistics.fmean(diff))
        return out

    def difference(self, level: str, other: str) -> float:
        """Mean raw loss of ``level`` less ``other``'s over the same decisions."""
        return self.mean(level) - self.mean(other)

    @staticmethod
    def half_width(values: list[float]) -> float:
        k = len(values)
        return t975(k - 1) * statistics.stdev(values) / k**0.5 if k > 1 else float("nan")


def paired_deal(args: tuple) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Play deal ``d`` with ``play`` in every seat; at every decision with a choice measure
    every level's choice on the same sampled deals. Per level: raw and judged losses."""
    levels, play, d, n, seed, samples, expert_samples, reduced = args
    options = Options(first_round_taxes=False, reduced_deck=reduced)
    bots = {level: make_bot(level, None, expert_samples) for level in levels}
    player = bots[play] if play in bots else make_bot(play, None, expert_samples)
    effort = Effort(samples=samples)
    r = Round.start(deal(n, options, derive_seed(seed, "deal", d)), options, first_round=True,
                    seed=derive_seed(seed, d))
    raw: dict[str, list[float]] = {level: [] for level in levels}
    judged: dict[str, list[float]] = {level: [] for level in levels}
    step = 0
    while r.phase != "over":
        seat = r.awaiting[0]
        view = r.view(seat)
        if real_choice(view):
            choices = {level: bot(view, random.Random(derive_seed(seed, "choice", d, step, level)))
                       for level, bot in bots.items()}
            candidates, places = measure(view, derive_seed(seed, "review", d, step), effort,
                                         also=list(choices.values()))
            if places:
                best = places[action_key(candidates[0].action)]
                for level, action in choices.items():
                    mine = places[action_key(action)]
                    raw[level].append(statistics.fmean(mine) - statistics.fmean(best))
                    judged[level].append(paired_loss(mine, best))
            action = player(view, random.Random(derive_seed(seed, "bots", d, step)))
        else:
            action = r.legal_actions(seat)[0]
        r = r.apply(seat, action)
        step += 1
    return raw, judged


def calibrate_paired(levels=LEVELS, deals: int = 20, n: int = 5, seed: int = 1,
                     samples: int = 32, expert_samples: int = 16, play: str = "skilled",
                     jobs: int = 1, reduced: bool = False, progress=None) -> Paired:
    """Every level's choices measured on the same decisions of ``deals`` seeded deals
    played by ``play``; ``progress(done, paired)`` is called after each deal (in order)."""
    levels = tuple(levels)
    work = [(levels, play, d, n, seed, samples, expert_samples, reduced) for d in range(deals)]
    paired = Paired(levels, {level: [] for level in levels}, {level: [] for level in levels})
    pool = ProcessPoolExecutor(jobs) if jobs > 1 else None
    results = pool.map(paired_deal, work) if pool is not None else map(paired_deal, work)
    for i, (raw, judged) in enumerate(results):
        for level in levels:
            paired.raw[level].append(raw[level])
            paired.judged[level].append(judged[level])
        if progress is not None:
            progress(i + 1, paired)
    if pool is not None:
        pool.shutdown()
    return paired


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
    parser.add_argument("--play", default="skilled",
                        help="the level playing the deals whose decisions are measured (paired)")
    parser.add_argument("--per-level", action="store_true",
                        help="each level plays its own deals, judged one by one (unpaired)")
    args = parser.parse_args(argv)
    start = time.perf_counter()

    def report_paired(done: int, paired: Paired) -> None:
        if done < args.deals and done % 5:
            return
        print(f"review calibration (paired): {done} of {args.deals} deals played by "
              f"{args.play}, {args.players} players, seed {args.seed}, {paired.decisions()} "
              f"decisions, review {args.samples} samples, expert {args.expert_samples} "
              f"samples ({time.perf_counter() - start:.0f} s, "
              f"{time.process_time():.0f} s CPU here)")
        print(f"{'level':8} {'places lost/decision (raw)':>28} {'judged':>7} {'accuracy':>9}")
        for level in paired.levels:
            acc = statistics.fmean(decision_accuracy(x) for one in paired.judged[level]
                                   for x in one) if paired.decisions() else 100.0
            print(f"{level:8} {paired.mean(level):18.3f} ± "
                  f"{paired.half_width(paired.per_deal(level)):.3f} "
                  f"{paired.mean(level, judged=True):7.3f} {acc:8.1f}%")
        for a, b in zip(paired.levels, paired.levels[1:], strict=False):
            print(f"{a + ' - ' + b:18} {paired.difference(a, b):+8.3f} ± "
                  f"{paired.half_width(paired.per_deal(a, b)):.3f}")
        print(flush=True)

    if not args.per_level:
        calibrate_paired(args.levels, args.deals, args.players, args.seed, args.samples,
                         args.expert_samples, args.play, args.jobs, progress=report_paired)
        return

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
