"""Rounds stored by the engine before it was split into phases load and save unchanged.

``data/rounds_before.json`` was recorded with the single-module engine: rounds of every
option set at every phase (taxes pending, revolutions, trades chosen and random, play and
over), each with its JSON form as stored, every seat's legal actions, a digest of every
seat's view (and a spectator's) and the last events."""

import hashlib
import json
from pathlib import Path

import pytest

from games.engine import Round, action_to_json
from games.engine.events import BY_TAG, ROUND_KINDS
from games.engine.round import codec

RECORDED = json.loads((Path(__file__).parent / "data" / "rounds_before.json").read_text())


def _as_recorded(view: dict) -> dict:
    """A seat's view without what views have told since the recording: a Peon's own
    tribute while the taxes are pending (tests/engine/test_taxes.py tells it)."""
    taxes = {k: v for k, v in view["taxes"].items() if k != "tribute"}
    return {**view, "taxes": taxes}


def test_the_recording_covers_every_phase_and_status():
    states = [json.loads(entry["state"]) for entry in RECORDED]
    assert {s["phase"] for s in states} == {"taxes", "trade", "play", "over"}
    assert {s["records"]["taxes_status"] for s in states} == {
        "none", "pending", "cancelled", "done"}
    assert {s["records"]["trade_status"] for s in states} >= {
        "none", "choosing_partner", "choosing_cards", "done"}
    assert any(s["records"]["revolution"] for s in states)


@pytest.mark.parametrize("entry", RECORDED, ids=[e["label"] for e in RECORDED])
def test_a_stored_round_loads_and_saves_to_the_same_json(entry):
    r = Round.from_json(json.loads(entry["state"]))
    assert json.dumps(r.to_json()) == entry["state"]
    n = r.n_players
    assert [[action_to_json(a) for a in r.legal_actions(s)] for s in range(n)] == (
        entry["legal_actions"])
    views = json.dumps([_as_recorded(r.view(s)) for s in [*range(n), None]])
    assert hashlib.sha256(views.encode()).hexdigest() == entry["views_sha256"]
    assert r.last_events == entry["last_events"]


def test_every_event_kind_has_one_builder_in_the_codec():
    assert set(codec.BUILDERS) == set(BY_TAG)
    assert {kind.tag for kind in ROUND_KINDS.values()} == set(BY_TAG)
