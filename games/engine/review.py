"""The expert's evaluation of one decision, from what the deciding seat knew: for a review
after the game (was the move played a good one?) and for a hint during it.

``evaluate(view, seed)`` takes a seat's own view (``Round.view(seat)``: never the other
hands) and measures every candidate action the way the expert bot searches a move
(``bots.expert.choice_of``: deals of the unseen cards sampled consistently with the view
and weighed by the other seats' past decisions, each candidate played out on the same
deals by the same models). Unlike the bot it does not stop measuring the candidates that
fall behind, takes no shortcut and measures every legal action when there are few
(``expert.WIDE_MOVES``), else the expert's own candidates plus those in ``also``. And
unlike the bot's search, the deciding seat does not search its own plan on each sampled
deal after the candidate (``choice_of(plan=False)``): it plays on as a good player would
without knowing the deal, as every other seat does. A playout that may pick the seat's
later moves with hindsight forgives the early commitments and the cards kept too long
that make up most of what separates a club player from a beginner; with one fixed way of
playing on, the places lost decision by decision add up to what a way of playing costs
in a round, which the calibration (``tools.review_calibration``) checks against the
arena.

Each ``Candidate`` holds the mean 1-based finishing place in this round over the sampled
deals and, where the table scores points, the mean points of the round. Candidates are
best first: the lowest expected place, then the most points. Because every candidate is
played out on the same deals, the difference between two candidates' places is measured
far more precisely than either place on its own.

Reproducible: with ``effort.samples`` set (the default, ``REVIEW_EFFORT``) the result
depends only on the view and ``seed``; with only a time ``budget`` it measures for that
long instead. Plain data, JSON-serialisable through ``Candidate.to_json``.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Action, action_from_json, action_to_json
from .bots import Effort
from .bots.expert import DEFAULT_BUDGET, MIN_SAMPLES, choice_of

REVIEW_SAMPLES = 32
REVIEW_EFFORT = Effort(samples=REVIEW_SAMPLES)


@dataclass(frozen=True)
class Candidate:
    """One candidate action (in its JSON form, ``actions.action_to_json``) and what the
    playouts gave it: the mean 1-based finishing place and, with scoring, the mean points
    of the round, over ``samples`` sampled deals. An only action is not measured
    (``samples`` 0, no place)."""

    action: dict[str, Any]
    place: float | None
    points: float | None
    samples: int

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "place": self.place, "points": self.points,
                "samples": self.samples}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Candidate:
        return cls(data["action"], data["place"], data["points"], data["samples"])


def evaluate(view: dict, seed: int, effort: Effort | None = None, *,
             also: Sequence[Action | dict] = ()) -> list[Candidate]:
    """The candidate actions of the seat to decide in ``view``, best first (see the module
    docstring). ``also``: actions (or their JSON forms) to measure even if the expert
    would not consider them, such as the move a player made; illegal ones are ignored.
    ``effort``: ``samples`` deals when set, else ``budget`` seconds (None: the expert's
    ``DEFAULT_BUDGET``); None: ``REVIEW_EFFORT``."""
    return _measure(view, seed, effort, also)[0]


def _measure(view: dict, seed: int, effort: Effort | None,
             also: Sequence[Action | dict]) -> tuple[list[Candidate], dict[str, list[int]]]:
    effort = REVIEW_EFFORT if effort is None else effort
    extra = [action_from_json(a) if isinstance(a, dict) else a for a in also]
    rng = random.Random(seed)
    choice = choice_of(view, rng, wide=True, also=extra, plan=False)
    if choice.trial is None:
        return [Candidate(action_to_json(a), None, None, 0) for a in choice.actions], {}
    k = len(choice.actions)
    everyone = list(range(k))
    places: list[list[int]] = [[] for _ in everyone]
    points = [0.0] * k
    samples = effort.samples
    deadline = 0.0
    if samples is None:
        budget = DEFAULT_BUDGET if effort.budget is None else effort.budget
        deadline = time.perf_counter() + budget
    done = 0
    while True:
        for i, (value, place) in enumerate(choice.trial(rng, everyone)):
            places[i].append(place + 1)
            points[i] += value
        done += 1
        if samples is not None:
            if done >= samples:
                break
        elif done >= MIN_SAMPLES and time.perf_counter() >= deadline:
            break
    scoring = bool(view["options"].get("scoring", True))
    out = [
        Candidate(action_to_json(a), sum(places[i]) / done,
                  points[i] / done if scoring else None, done)
        for i, a in enumerate(choice.actions)
    ]
    by_action = {_key(c.action): places[i] for i, c in enumerate(out)}
    # Stable: candidates measured alike keep the expert's order (its favourite first).
    out.sort(key=lambda c: (c.place, -(c.points or 0.0)))
    return out, by_action


def _key(action: dict) -> str:
    return json.dumps(action, sort_keys=True)


def find(candidates: Sequence[Candidate], action: Action | dict) -> Candidate | None:
    """The candidate of ``action`` among ``candidates``, if it was measured."""
    data = action if isinstance(action, dict) else action_to_json(action)
    target = action_to_json(action_from_json(data))
    for c in candidates:
        if c.action == target:
            return c
    return None


# --- judging a decision that was made ----------------------------------------------------

# Places lost on average (chosen minus best expected place) from which a decision counts as
# an inaccuracy, a mistake, a blunder. Calibrated with ``tools.review_calibration``: the
# expert's own decisions, measured again on other deals, lose less than the first
# threshold nearly always (sampling noise), while the simple bots' typical slips (breaking
# a set, leading a Dalmuti card early, passing when playing out was sure) reach the others.
INACCURACY = 0.1
MISTAKE = 0.25
BLUNDER = 0.5
KINDS = ("inaccuracy", "mistake", "blunder")


def classify(loss: float) -> str:
    """``""`` (a good decision), "inaccuracy", "mistake" or "blunder" for a loss in places."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return ""


def decision_accuracy(loss: float) -> float:
    """A decision's accuracy in percent: 100 for the best move, one point less for every
    hundredth of a place lost on average, 0 from a whole place lost. A player's accuracy
    in a game is the mean over its reviewed decisions."""
    return 100.0 * (1.0 - min(max(loss, 0.0), 1.0))


@dataclass(frozen=True)
class Judgement:
    """A decision measured after the fact: the action ``chosen`` and the ``best``
    candidate (JSON forms), their expected places and points, the places lost
    (``loss`` >= 0, 0 when the chosen action was measured best) and its class."""

    chosen: dict[str, Any]
    best: dict[str, Any]
    chosen_place: float
    best_place: float
    chosen_points: float | None
    best_points: float | None
    loss: float
    kind: str
    candidates: list[Candidate]

    def to_json(self) -> dict[str, Any]:
        return {
            "chosen": self.chosen, "best": self.best, "chosen_place": self.chosen_place,
            "best_place": self.best_place, "chosen_points": self.chosen_points,
            "best_points": self.best_points, "loss": self.loss, "kind": self.kind,
            "candidates": [c.to_json() for c in self.candidates],
        }


def real_choice(view: dict) -> bool:
    """Whether the seat had more than one legal action: only such decisions are judged."""
    return len(view["legal_actions"]) > 1


def mattered(candidates: Sequence[Candidate]) -> bool:
    """Whether the choice mattered: its measured candidates' expected places at least
    ``MISTAKE`` apart, so that a mistake was possible. Where every option comes to about
    the same place (following or passing with the round decided, say) nothing can be
    lost, and counting such decisions would make a player who faces many of them (one
    who passes a lot, and so is asked again and again) look more accurate per decision
    than one whose decisions all count. ``judge`` does not judge the others."""
    measured = [c.place for c in candidates if c.place is not None]
    return len(measured) > 1 and max(measured) - min(measured) >= MISTAKE


def judge(view: dict, chosen: Action | dict, seed: int, effort: Effort | None = None, *,
          also: Sequence[Action | dict] = ()) -> Judgement | None:
    """How good ``chosen`` was in ``view`` (the deciding seat's own view just before it):
    every candidate measured by ``evaluate`` (``chosen`` and those in ``also`` among
    them). None when there was no real choice, or when it did not matter (``mattered``)."""
    if not real_choice(view):
        return None
    chosen_json = chosen if isinstance(chosen, dict) else action_to_json(chosen)
    candidates, places = _measure(view, seed, effort, [chosen_json, *also])
    mine = find(candidates, chosen_json)
    best = candidates[0]
    if mine is None or mine.place is None or best.place is None:
        return None
    if not mattered(candidates):
        return None
    loss = paired_loss(places[_key(mine.action)], places[_key(best.action)])
    if loss == 0.0:
        best = mine
    return Judgement(mine.action, best.action, mine.place, best.place, mine.points,
                     best.points, loss, classify(loss), candidates)


def paired_loss(chosen: Sequence[int], best: Sequence[int]) -> float:
    """Places lost: the mean difference of the two candidates' places on the same deals,
    less one standard error of that mean, and never below 0. Picking the best of several
    candidates measured on a few dozen deals favours one that was lucky on them; without
    the standard error taken off, a player who always chose the truly best move would
    still seem to lose a tenth of a place or so per decision."""
    n = len(chosen)
    diffs = [a - b for a, b in zip(chosen, best, strict=True)]
    mean = sum(diffs) / n
    if n < 2 or mean <= 0:
        return 0.0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return max(0.0, mean - (var / n) ** 0.5)
