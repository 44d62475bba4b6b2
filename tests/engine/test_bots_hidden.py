"""No bot can read hidden cards: its decision depends on the seat's view only.

The check: take a state, deal the cards hidden from the seat (the other hands) out again
in two different ways, and ask the bot in each resulting round. The view is the same, so
the action must be. A bot that reached past its view for the live round (the heap, the
caller's frames) would see different hands and answer differently; the two cheating bots
below do exactly that, and the check catches them, which shows it can fail.
"""

import ast
import copy
import gc
import inspect
import json
import random
import sys

import pytest

from games.engine import (
    BOTS,
    Effort,
    Round,
    action_from_json,
    choose_action,
    sim,
)
from games.engine.bots import (
    bot_for,
    common,
    deals,
    endgame,
    expert,
    infer,
    knowledge,
    playouts,
    skilled,
)

from .test_bots_levels import kind, random_states

# Stored as JSON so that no live Round of these states exists outside the check.
STATES = [(r.to_json(), seat) for r, seat in random_states(11, 90, every=0.2)]


def _shuffled(data: dict, seat: int, rng: random.Random) -> dict:
    data = copy.deepcopy(data)
    hands = data["hands"]
    others = [s for s in range(len(hands)) if s != seat]
    pool = [c for s in others for c in hands[s]]
    rng.shuffle(pool)
    i = 0
    for s in others:
        k = len(hands[s])
        hands[s] = sorted(pool[i : i + k])
        i += k
    return data


def _decide(bot, data: dict, seat: int, seed: int):
    r = Round.from_json(data)  # alive while the bot thinks, as in a real game
    view = r.view(seat)
    return bot(view, random.Random(seed)), json.dumps(r.view(seat), sort_keys=True)


def reads_only_its_view(bot, states, seed: int = 0) -> bool:
    """True if the bot decides the same on every state however the hidden cards lie."""
    rng = random.Random(seed)
    for i, (data, seat) in enumerate(states):
        a, view_a = _decide(bot, _shuffled(data, seat, rng), seat, i)
        b, view_b = _decide(bot, _shuffled(data, seat, rng), seat, i)
        assert view_a == view_b  # the seat cannot tell the two rounds apart
        if a != b:
            return False
    return True


def _pick(view: dict, hidden: list[int]):
    legal = view["legal_actions"]
    return action_from_json(legal[hash(tuple(hidden)) % len(legal)])


def heap_peeking_bot(view: dict, rng: random.Random):
    """Cheats: finds the live round on the heap and reads the next seat's hand."""
    seat = view["seat"]
    for obj in gc.get_objects():
        if type(obj) is Round and obj.hand(seat) == view["hand"]:
            return _pick(view, obj.hand((seat + 1) % view["n_players"]))
    raise AssertionError("no round found")


def frame_peeking_bot(view: dict, rng: random.Random):
    """Cheats: walks up the call stack to a frame holding the round."""
    frame = sys._getframe(1)
    while frame is not None:
        for value in frame.f_locals.values():
            if type(value) is Round:
                return _pick(view, value.hand((view["seat"] + 1) % view["n_players"]))
        frame = frame.f_back
    raise AssertionError("no round found")


@pytest.mark.parametrize("cheat", [heap_peeking_bot, frame_peeking_bot])
def test_the_check_catches_a_bot_that_reads_hidden_cards(cheat):
    states = [(d, s) for d, s in STATES if len(Round.from_json(d).legal_actions(s)) > 3][:6]
    assert len(states) == 6
    assert not reads_only_its_view(cheat, states)


@pytest.mark.parametrize("level", ["random", "basic", "skilled", "expert"])
def test_no_bot_reads_hidden_cards(level):
    kinds = {kind(Round.from_json(d), s) for d, s in STATES}
    assert {"lead", "follow", "GiveBack"} <= kinds
    assert reads_only_its_view(bot_for(level, Effort(samples=3)), STATES)


def test_bots_get_a_plain_json_view_and_leave_it_unchanged(monkeypatch):
    seen = []

    def spy(view, rng):
        seen.append((view, rng))
        return BOTS["random"](view, rng)

    monkeypatch.setitem(BOTS, "spy", spy)
    data, seat = STATES[0]
    view = Round.from_json(data).view(seat)
    choose_action("spy", view, 1)
    (got, rng), = seen
    assert type(got) is dict and json.loads(json.dumps(got)) == got
    assert type(rng) is random.Random
    for level in ("skilled", "expert"):
        bot = bot_for(level, Effort(samples=2))
        for data, seat in STATES[:30]:
            view = Round.from_json(data).view(seat)
            before = copy.deepcopy(view)
            bot(view, random.Random(0))
            assert view == before


@pytest.mark.parametrize(
    "module", [common, knowledge, endgame, skilled, infer, deals, playouts, expert, sim])
def test_the_bot_modules_have_no_way_to_the_round(module):
    tree = ast.parse(inspect.getsource(module))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported |= {node.module or ""} | {a.name for a in node.names}
    assert not imported & {"gc", "inspect", "sys", "round", "game", "Round", "Game"}
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    attributes = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert not (names | attributes) & {"_getframe", "get_objects", "_hands", "to_json"}
