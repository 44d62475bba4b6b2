"""Bots: a bot is ``f(view, rng) -> action`` that sees only ``view(seat)`` (never the full
state) and draws any randomness from ``rng``.

This module is the registry: ``BOTS`` maps a level name to its function. The simple levels
live here; a stronger bot lives in its own module, builds on ``bots_common`` (never on this
registry) and is registered below.
"""

from __future__ import annotations

import random
from collections.abc import Callable

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

# Measuring sticks for the arena, never offered to players.
YARDSTICKS: dict[str, Bot] = {"greedy": greedy_bot}
