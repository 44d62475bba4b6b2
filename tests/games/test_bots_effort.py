"""The expert's search is configured in the settings and passed to the engine with each
decision (the engine reads no environment)."""

import pytest

from games import engine
from games.commands import moves

from .test_bots_never_stall import bots_table

pytestmark = pytest.mark.django_db


def test_the_expert_searches_as_the_settings_say(alice, settings, monkeypatch):
    settings.DALMUTI_EXPERT_BUDGET = 0.2
    settings.DALMUTI_EXPERT_SAMPLES = 3
    asked = []
    real_decide = engine.decide

    def spy(*args, **kwargs):
        asked.append(kwargs["effort"])
        return real_decide(*args, **kwargs)

    monkeypatch.setattr(engine, "decide", spy)
    game = bots_table(alice, ["expert"] * 4)
    (seat, view), *_ = moves._bots_to_move(game.engine_state(), list(game.seats.all()))
    decision = moves._decide(game, seat, view)
    assert asked == [engine.Effort(budget=0.2, samples=3)]
    seed = engine.derive_seed(game.seed, "bot", game.seq, seat.player)
    assert decision.level == "expert"
    assert decision.action == engine.choose_action("expert", view, seed, engine.Effort(samples=3))

