"""The arena: how much better one bot level plays than another.

    python -m tools.arena --a expert --b skilled --players 5 \\
        --deals 2000 --matches 200 --seed 1 --samples 40

Every seeded deal is played once with the candidate in each seat in turn and the baseline
in all the others, through the public ``Round`` and ``view``. Single rounds (no taxes) and
10-round matches (with taxes, through ``Game``) are reported separately. For each, the
candidate's mean finishing place and points per round with 95% confidence intervals
(Student's t; the unit is a deal or a match, averaged over the candidate's seats, so the
seats' shared luck cancels), its "gain": how many places better it finishes than the
fair (n+1)/2 that a copy of the baseline would get in its seat, its share of wins (rounds
finished first, matches won) against the fair 1/n, and the p50/p95 time per move of both
levels.

``--budget`` sets the expert's time per move; ``--samples`` instead fixes its number of
sampled deals per move, which makes the run reproducible. ``--jobs`` plays on several
processes; the figures do not depend on it (except the times). Besides the levels offered
to players, the ``greedy`` yardstick (``bots.greedy``) can play.
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

from games.engine.actions import Trade, action_from_json
from games.engine.bots import BOTS, YARDSTICKS, Bot
from games.engine.bots.expert import expert_bot
from games.engine.game import Game, derive_seed
from games.engine.options import Options
from games.engine.round import Round, deal

# Student's t, two-sided 95%: the quantile 0.975 for 1..30 degrees of freedom.
T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
Z975 = 1.959964


def t975(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom (beyond 30 by the
    Cornish-Fisher expansion around the normal quantile, good to four decimals)."""
    if df < 1:
        return float("nan")
    if df <= len(T975):
        return T975[df - 1]
    z = Z975
    return (z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3))


def make_bot(level: str, budget: float | None = None, samples: int | None = None) -> Bot:
    """The bot of a level; the expert's budget or sample count can be set."""
    if level == "expert":

        def bot(view, rng):
            return expert_bot(view, rng, budget=budget, samples=samples)

        return bot
    try:
        return {**BOTS, **YARDSTICKS}[level]
    except KeyError:
        known = ", ".join([*BOTS, *YARDSTICKS])
        raise SystemExit(f"unknown bot level {level!r}; known: {known}") from None


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
    legal = view["legal_actions"]
    # As in a game (``choose_action``): an only choice is no choice.
    action = action_from_json(legal[0]) if len(legal) == 1 else bot(view, rng)
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


@dataclass
class Played:
    """What happened in a game played by ``play_game``: how often each kind of decision
    with a choice was asked, the revolutions declared, the seat changes."""

    asked: dict[str, int] = field(default_factory=dict)
    revolutions: int = 0
    great_revolutions: int = 0
    trades: int = 0
    joins: int = 0
    leaves: int = 0
    moves: int = 0


def play_game(level_of: Callable[[int], str], n: int, options: Options, seed: int,
              budget: float | None = None, samples: int | None = None,
              changes: dict[int, str] | None = None) -> tuple[Game, Played]:
    """A whole game through the public ``Game``, player p played by the bot
    ``level_of(p)`` (an error of a bot is not caught: this is how bots are tested).
    ``changes`` maps a round number to "join" or "leave": after that round a newcomer
    joins (in the middle place) or the player in the middle leaves."""
    bots: dict[int, Bot] = {}
    played = Played()
    game = Game.new(n, options, seed=seed)
    step = 0
    while not game.is_over:
        if game.round.phase == "over":
            change = (changes or {}).get(game.round_number)
            if change == "join" and len(game.lineup) < 10:
                game, _player = game.join(game.join_places()[0])
                played.joins += 1
            elif change == "leave" and len(game.lineup) > 4:
                game = game.leave(game.lineup[len(game.lineup) // 2])
                played.leaves += 1
            game = game.next_round()
        seat = game.round.awaiting[0]
        player = game.seats[seat]
        if player not in bots:
            bots[player] = make_bot(level_of(player), budget, samples)
        view = game.round.view(seat)
        legal = view["legal_actions"]
        if len(legal) > 1:
            kinds = {a["type"] for a in legal}
            kind = "revolution" if "revolution" in kinds else legal[0]["type"]
            played.asked[kind] = played.asked.get(kind, 0) + 1
        action = _act(bots[player], view, derive_seed(seed, "bots", step), Tally(), "cand")
        game = game.apply(player, action)
        if isinstance(action, Trade) and action.partner is not None:
            played.trades += 1
        step += 1
    played.moves = step
    for result in game.results:
        if result["revolution"] is not None:
            played.revolutions += 1
            played.great_revolutions += result["revolution"]["great"]
    return game, played


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
    """The mean and the half-width of its 95% confidence interval (Student's t)."""
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, float("nan")
    return m, t975(len(values) - 1) * statistics.stdev(values) / len(values) ** 0.5


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
    parser = argparse.ArgumentParser(prog="python -m tools.arena", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", "--candidate", dest="candidate", default="skilled",
                        help="the level measured (default: skilled)")
    parser.add_argument("--b", "--baseline", dest="baselines", nargs="+", default=["greedy"],
                        help="one or more levels it is measured against (default: greedy)")
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
    for level in [a.candidate, *a.baselines]:
        make_bot(level)
    budget = f", budget {a.budget} s" if a.budget is not None else ""
    samples = f", {a.samples} samples" if a.samples is not None else ""
    for baseline in a.baselines:
        print(f"arena: {a.candidate} (candidate) vs {baseline} (baseline), seed {a.seed}"
              f"{budget}{samples}, {a.jobs} job(s)")
        common = (a.candidate, baseline, a.budget, a.samples)
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
                chunks = _chunks(a.matches, a.jobs)
                args = [common + (n, a.seed, i, j, a.rounds) for i, j in chunks]
                tally = _run(play_matches, args, a.jobs)
                lines = report(f"{n} players, {a.rounds}-round matches with taxes", n, tally)
                print("\n".join(lines) + f"\n  ({time.perf_counter() - start:.0f} s)")
                sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
