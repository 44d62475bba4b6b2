"""The simple levels: ``random`` (any legal action) and ``basic`` (the rulebooks' tips),
and what an absent player does (``timeout_action``), which the basic bot's play shares."""

from __future__ import annotations

import random

from ..actions import PASS, Action, GiveBack, Play, Revolution, Trade, TradeCard
from ..cards import JESTER
from .common import counts, legal_actions


def random_bot(view: dict, rng: random.Random) -> Action:
    """Any legal action, uniformly."""
    actions = legal_actions(view)
    return rng.choice(actions)


def basic_bot(view: dict, rng: random.Random) -> Action:
    """The rulebooks' tips: play your worst sets first, do not break sets, keep good cards
    and jesters to win the lead back, return your worst cards, and declare a revolution
    only when it helps (as a Peon, who would otherwise pay the tribute)."""
    actions = legal_actions(view)
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
    held = counts(hand)
    plays = [a for a in actions if isinstance(a, Play)]
    for play in plays:
        if len(play.cards) == len(hand):
            return play  # going out
    if view["trick"]["to_beat"] is None:
        ranks = [r for r in range(1, 13) if held[r]]
        if not ranks:
            return Play((JESTER,) * held[JESTER])
        worst = ranks[-1]
        return Play((worst,) * held[worst])
    whole_sets = [p for p in plays if JESTER not in p.cards and held[p.cards[0]] == len(p.cards)]
    if not whole_sets:
        return PASS
    choice = max(whole_sets, key=lambda p: p.cards[0])
    if choice.cards[0] <= 3 and len(hand) >= 8:
        return PASS  # keep the best cards to win a lead later
    return choice
