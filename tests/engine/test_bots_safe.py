"""A bot decision never fails: a level that raises, overruns its time or answers with an
illegal action is replaced, for that decision, by the next simpler level."""

import itertools
import random

import pytest

from games.engine import BOTS, PASS, Effort, Options, Round, deal, decide
from games.engine import bots as bots_module

from .helpers import open_round


def view_with_choices():
    # Seat 0 leads: many plays to choose from.
    return open_round([[12, 12, 3, 5], [11, 11], [10, 9], [9, 8]]).view(0)


def broken(view, rng):
    raise ValueError("zip() argument 2 is longer than argument 1")


def test_a_bot_that_raises_is_replaced_by_the_next_simpler_level(monkeypatch):
    monkeypatch.setitem(BOTS, "expert", broken)
    decision = decide("expert", view_with_choices(), seed=5)
    assert decision.level == "skilled"
    assert decision.action == BOTS["skilled"](view_with_choices(), random.Random(5))
    [failure] = decision.failures
    assert failure.level == "expert"
    assert "ValueError" in failure.reason and "zip()" in failure.reason
    assert "Traceback" in failure.trace and "broken" in failure.trace
    assert decision.stood_in


def test_each_failing_level_hands_on_to_the_next_down_to_basic(monkeypatch):
    monkeypatch.setitem(BOTS, "expert", broken)
    monkeypatch.setitem(BOTS, "skilled", broken)
    decision = decide("expert", view_with_choices(), seed=5)
    assert decision.level == "basic"
    assert [f.level for f in decision.failures] == ["expert", "skilled"]


def test_when_every_level_fails_the_table_still_moves_on(monkeypatch):
    for level in ("expert", "skilled", "basic"):
        monkeypatch.setitem(BOTS, level, broken)
    view = view_with_choices()
    decision = decide("expert", view, seed=5)
    assert decision.level == bots_module.LAST_RESORT
    assert decision.action in open_round([[12, 12, 3, 5], [11, 11], [10, 9], [9, 8]]) \
        .legal_actions(0)


def test_a_bot_that_overruns_its_time_is_replaced(monkeypatch):
    ticks = itertools.count(step=10.0)  # every reading of the clock: ten seconds later
    decision = decide("expert", view_with_choices(), seed=1, limit=5.0,
                      clock=lambda: next(ticks))
    # Every level "took" ten seconds: none is kept, but the table moves on.
    assert [f.level for f in decision.failures] == ["expert", "skilled", "basic"]
    assert "took 10.00 s" in decision.failures[0].reason
    fast = itertools.count(step=0.01)
    decision = decide("skilled", view_with_choices(), seed=1, limit=5.0,
                      clock=lambda: next(fast))
    assert decision.level == "skilled" and not decision.failures


def test_an_illegal_answer_is_replaced(monkeypatch):
    monkeypatch.setitem(BOTS, "skilled", lambda view, rng: PASS)  # passing on a lead
    decision = decide("skilled", view_with_choices(), seed=3)
    assert decision.level == "basic"
    assert "not a legal action" in decision.failures[0].reason


def test_an_unknown_level_is_a_failure_and_basic_decides():
    decision = decide("grandmaster", view_with_choices(), seed=3)
    assert decision.level == "basic"
    assert decision.failures[0].level == "grandmaster"


@pytest.mark.parametrize("level", ["basic", "skilled", "expert"])
def test_a_sound_bot_decides_itself_in_every_phase(level):
    options = Options(merchant_trade="chosen")
    r = Round.start(deal(6, options, 3), options, first_round=False, seed=3)
    steps = 0
    while r.phase != "over" and steps < 40:
        seat = r.awaiting[0]
        decision = decide(level, r.view(seat), seed=steps, effort=Effort(samples=2))
        assert decision.level == level and not decision.failures
        r = r.apply(seat, decision.action)
        steps += 1
