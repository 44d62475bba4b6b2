"""Bots: a bot is ``f(view, rng) -> action`` that sees only ``view(seat)`` (never the full
state) and draws any randomness from ``rng``.

This module is the registry: ``BOTS`` maps a level name to its function. The simple levels
live here; a stronger bot lives in its own module, builds on ``bots_common`` (never on this
registry) and is registered below.
"""

from __future__ import annotations

import random
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass

from .actions import (
    PASS,
    Action,
    GiveBack,
    Play,
    Revolution,
    Trade,
    TradeCard,
    action_from_json,
)
from .bots_common import legal_actions
from .bots_expert import expert_bot
from .bots_greedy import greedy_bot
from .bots_skilled import skilled_bot
from .cards import JESTER

Bot = Callable[[dict, random.Random], Action]


def random_bot(view: dict, rng: random.Random) -> Action:
    """Any legal action, uniformly."""
    actions = legal_actions(view)
    if not actions:
        raise ValueError("this seat has nothing to do")
    return rng.choice(actions)


def basic_bot(view: dict, rng: random.Random) -> Action:
    """The rulebooks' tips: play your worst sets first, do not break sets, keep good cards
    and jesters to win the lead back, return your worst cards, and declare a revolution
    only when it helps (as a Peon, who would otherwise pay the tribute)."""
    actions = legal_actions(view)
    if not actions:
        raise ValueError("this seat has nothing to do")
    if view["phase"] == "taxes":
        if Revolution(True) in actions:
            title = view["titles"][view["seat"]]
            return Revolution(title in ("greater_peon", "lesser_peon"))
        if Revolution(False) in actions and len(actions) == 1:
            return Revolution(False)  # asked without holding both jesters
        return _worst_give_back(actions)
    if view["phase"] == "trade":
        return _trade(actions)
    return _basic_play(view, actions)


def timeout_action(view: dict) -> Action:
    """What an absent player does: keep quiet about a revolution, give back the worst
    cards, decline a trade (or give the worst card once picked), pass when following and
    lead as the basic bot."""
    actions = legal_actions(view)
    if not actions:
        raise ValueError("this seat has nothing to do")
    if view["phase"] == "taxes":
        gives = [a for a in actions if isinstance(a, GiveBack)]
        return _worst_give_back(gives) if gives else Revolution(False)
    if view["phase"] == "trade":
        return _trade(actions)
    if PASS in actions:
        return PASS
    return _basic_play(view, actions)


def _worst_give_back(actions: list[Action]) -> Action:
    gives = [a for a in actions if isinstance(a, GiveBack)]
    return max(gives, key=lambda a: sorted(a.cards, reverse=True))


def _trade(actions: list[Action]) -> Action:
    if Trade(None) in actions:
        return Trade(None)
    return max((a for a in actions if isinstance(a, TradeCard)), key=lambda a: a.card)


def _basic_play(view: dict, actions: list[Action]) -> Action:
    hand = view["hand"]
    counts = [0] * 14
    for c in hand:
        counts[c] += 1
    plays = [a for a in actions if isinstance(a, Play)]
    for play in plays:
        if len(play.cards) == len(hand):
            return play  # going out
    if view["trick"]["to_beat"] is None:
        ranks = [r for r in range(1, 13) if counts[r]]
        if not ranks:
            return Play((JESTER,) * counts[JESTER])
        worst = ranks[-1]
        return Play((worst,) * counts[worst])
    whole_sets = [p for p in plays if JESTER not in p.cards and counts[p.cards[0]] == len(p.cards)]
    if not whole_sets:
        return PASS
    choice = max(whole_sets, key=lambda p: p.cards[0])
    if choice.cards[0] <= 3 and len(hand) >= 8:
        return PASS  # keep the best cards to win a lead later
    return choice


BOTS: dict[str, Bot] = {
    "random": random_bot,
    "basic": basic_bot,
}


def choose_action(level: str, view: dict, seed: int) -> Action:
    """The action of the bot ``level`` for this view, drawing randomness from ``seed``."""
    try:
        bot = BOTS[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}") from None
    legal = view["legal_actions"]
    if len(legal) == 1:  # an only choice (a Greater Peon without jesters asked) is no choice
        return action_from_json(legal[0])
    return bot(view, random.Random(seed))


BOTS["skilled"] = skilled_bot
BOTS["expert"] = expert_bot

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
           clock: Callable[[], float] = time.perf_counter) -> Decision:
    """The decision of the bot ``level`` for this view, which never fails while the view
    has a legal action: a level that raises, answers with an action not in
    ``view["legal_actions"]`` or takes longer than ``limit`` seconds is replaced, for this
    decision, by the next simpler one (``SIMPLER``). An unknown level counts as a failure
    of that level. The failures come back with the decision, for the caller to report."""
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
            action = choose_action(current, view, seed)
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
