"""Bots: a bot is ``f(view, rng) -> action`` that sees only ``view(seat)`` (never the full
state) and draws any randomness from ``rng``.

This package's face is the registry: ``BOTS`` maps a level name to its function,
``choose_action`` asks one level and ``decide`` asks it with the simpler levels standing
in for a failure. Each level lives in a module of its own and builds on ``common`` (never
on this registry): ``basic`` (with ``random`` and what an absent player does),
``skilled`` (with what it knows, ``knowledge``, and its exact ``endgame``), ``expert``
(with its ``deals`` and ``playouts``, and the other seats read by ``infer``), and the
arena's ``greedy`` yardstick.
"""

from __future__ import annotations

import random
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from ..actions import Action, action_from_json
from .basic import basic_bot, random_bot, timeout_action
from .expert import expert_bot
from .greedy import greedy_bot
from .skilled import skilled_bot

Bot = Callable[[dict, random.Random], Action]

__all__ = [
    "BOTS", "LAST_RESORT", "SIMPLER", "YARDSTICKS", "Bot", "Decision", "Effort", "Failure",
    "basic_bot", "bot_for", "choose_action", "decide", "random_bot", "timeout_action",
]

BOTS: dict[str, Bot] = {
    "random": random_bot,
    "basic": basic_bot,
    "skilled": skilled_bot,
    "expert": expert_bot,
}


@dataclass(frozen=True)
class Effort:
    """How hard the expert searches a move: ``samples`` sampled deals when set (its moves
    then depend only on the view and the seed), else ``budget`` seconds (None: its own
    ``DEFAULT_BUDGET``). The engine reads no configuration: whoever asks a bot says this."""

    budget: float | None = None
    samples: int | None = None


DEFAULT_EFFORT = Effort()


def bot_for(level: str, effort: Effort = DEFAULT_EFFORT) -> Bot:
    """The bot of ``level``, the expert searching with ``effort``."""
    try:
        bot = BOTS[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}") from None
    if bot is expert_bot:
        return partial(expert_bot, budget=effort.budget, samples=effort.samples)
    return bot


def choose_action(level: str, view: dict, seed: int, effort: Effort = DEFAULT_EFFORT) -> Action:
    """The action of the bot ``level`` for this view, drawing randomness from ``seed``."""
    bot = bot_for(level, effort)
    legal = view["legal_actions"]
    if len(legal) == 1:  # an only choice (a Greater Peon without jesters asked) is no choice
        return action_from_json(legal[0])
    return bot(view, random.Random(seed))


# The level that decides when a bot of this level fails (raises, overruns its time or
# answers with an illegal action). The basic bot is the last level; after it, what an
# absent player would do (``timeout_action``), then the first legal action.
SIMPLER: dict[str, str] = {"expert": "skilled", "skilled": "basic"}
LAST_RESORT = "last_resort"


@dataclass(frozen=True)
class Failure:
    """A level that could not decide: why, and the traceback if it raised."""

    level: str
    reason: str
    trace: str = ""


@dataclass(frozen=True)
class Decision:
    """A bot's action, the level that chose it (``LAST_RESORT`` if every level failed),
    and the failures of the levels asked before it."""

    action: Action
    level: str
    failures: tuple[Failure, ...] = ()

    @property
    def stood_in(self) -> bool:
        """A simpler level than the one asked made this decision."""
        return bool(self.failures)


def decide(level: str, view: dict, seed: int, limit: float | None = None,
           clock: Callable[[], float] = time.perf_counter,
           effort: Effort = DEFAULT_EFFORT) -> Decision:
    """The decision of the bot ``level`` for this view, which never fails while the view
    has a legal action: a level that raises, answers with an action not in
    ``view["legal_actions"]`` or takes longer than ``limit`` seconds is replaced, for this
    decision, by the next simpler one (``SIMPLER``). An unknown level counts as a failure
    of that level. The failures come back with the decision, for the caller to report.
    ``effort`` is the expert's (see ``Effort``)."""
    legal = [action_from_json(a) for a in view["legal_actions"]]
    if not legal:
        raise ValueError("this seat has nothing to do")
    failures: list[Failure] = []
    current: str | None = level
    if level not in BOTS:
        failures.append(Failure(level, "unknown bot level"))
        current = "basic"
    while current is not None:
        start = clock()
        try:
            action = choose_action(current, view, seed, effort)
        except Exception as exc:  # any bug of a bot: the next level decides
            failures.append(Failure(current, f"raised {type(exc).__name__}: {exc}",
                                    traceback.format_exc()))
        else:
            elapsed = clock() - start
            if action not in legal:
                failures.append(Failure(current, f"chose {action!r}, not a legal action"))
            elif limit is not None and elapsed > limit:
                failures.append(Failure(current, f"took {elapsed:.2f} s (limit {limit:g} s)"))
            else:
                return Decision(action, current, tuple(failures))
        current = SIMPLER.get(current)
    try:
        action = timeout_action(view)
    except Exception:  # the view itself is odd: any legal action keeps the table going
        action = legal[0]
    return Decision(action if action in legal else legal[0], LAST_RESORT, tuple(failures))


# Measuring sticks for the arena, never offered to players.
YARDSTICKS: dict[str, Bot] = {"greedy": greedy_bot}
