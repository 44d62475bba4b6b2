"""A round's JSON form and its events as dicts.

``to_json``/``from_json`` are the stored form of every game in progress: the keys, their
order and the status strings must stay as they are (``tests/engine/test_stored_rounds.py``
reloads rounds saved by earlier code). Events are kept compactly as tuples led by their
kind's tag (``..events``) and become dicts only when read."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..cards import cards_of, counts_of
from ..events import BY_TAG, EventKind
from ..hands import SETS
from ..options import Options
from .state import Decide, Records, RoundState, TaxStatus, TradeStatus, make, new_table

JSON_VERSION = 1


def to_json(r: RoundState) -> dict[str, Any]:
    """``Round.to_json``: a lossless JSON form (``from_json`` restores an equal round)."""
    t = r.table
    rec = r.records
    decide = r.decide
    return {
        "version": JSON_VERSION,
        "n": t.n,
        "options": t.options.to_json(),
        "first_round": t.first_round,
        "seed": t.seed,
        "order": list(t.order),
        "deck": list(t.deck),
        "phase": r.phase,
        "hands": [cards_of(h) for h in r.hands],
        "pending": list(r.pending),
        "decide": None
        if decide is None
        else {
            "jester_seat": decide.jester_seat,
            "choices": [None if c is None else list(c) for c in decide.choices],
        },
        "records": {
            "revolution": list(rec.revolution) if rec.revolution else None,
            "taxes_status": rec.taxes_status.value,
            "tax_plan": [list(p) for p in rec.tax_plan],
            "taxes": [[a, b, list(c)] for a, b, c in rec.taxes],
            "trade_status": rec.trade_status.value,
            "trade_pair": list(rec.trade_pair) if rec.trade_pair else None,
            "trades": [[a, b, list(c)] for a, b, c in rec.trades],
        },
        "to_act": r.to_act,
        "trick": [[s, list(c)] for s, c in r.trick],
        "last": list(r.last) if r.last else None,
        "passed": list(r.passed),
        "finish": list(r.finish_order),
        "result": None
        if r.result is None
        else {"points": list(r.result[0]), "next_order": list(r.result[1])},
        "events": [[list(x) if isinstance(x, tuple) else x for x in ev] for ev in r.events],
        "history": [
            [[s, None if cards is None else list(cards)] for s, cards in trick]
            for trick in r.history
        ],
    }


def from_json(data: dict[str, Any]) -> RoundState:
    """``Round.from_json``: the round of a JSON form made by ``to_json``."""
    if data.get("version") != JSON_VERSION:
        raise ValueError(f"unknown round format version {data.get('version')!r}")
    t = new_table(
        data["n"],
        Options.from_json(data["options"]),
        data["first_round"],
        data["seed"],
        tuple(data["order"]),
        tuple(data["deck"]),
    )
    decide = data["decide"]
    if decide is not None:
        decide = Decide(
            decide["jester_seat"],
            tuple(None if c is None else tuple(c) for c in decide["choices"]),
        )
    r = data["records"]
    rec = Records(
        revolution=(r["revolution"][0], r["revolution"][1]) if r["revolution"] else None,
        taxes_status=TaxStatus(r["taxes_status"]),
        tax_plan=tuple(tuple(p) for p in r["tax_plan"]),
        taxes=tuple((a, b, tuple(c)) for a, b, c in r["taxes"]),
        trade_status=TradeStatus(r["trade_status"]),
        trade_pair=tuple(r["trade_pair"]) if r["trade_pair"] else None,
        trades=tuple((a, b, tuple(c)) for a, b, c in r["trades"]),
    )
    result = data["result"]
    if result is not None:
        result = (tuple(result["points"]), tuple(result["next_order"]))
    return make(
        table=t,
        phase=data["phase"],
        hands=tuple(counts_of(h) for h in data["hands"]),
        pending=tuple(data["pending"]),
        decide=decide,
        records=rec,
        to_act=data["to_act"],
        trick=tuple((s, tuple(c)) for s, c in data["trick"]),
        last=tuple(data["last"]) if data["last"] else None,
        passed=tuple(data["passed"]),
        finish_order=tuple(data["finish"]),
        result=result,
        events=tuple(tuple(tuple(x) if isinstance(x, list) else x for x in ev)
                     for ev in data["events"]),
        history=history_from_json(data),
    )


def history_from_json(data: dict[str, Any]) -> tuple:
    """The history of a round's JSON form. A form saved before rounds kept their history
    has none: the open trick's plays (passes unknown) are the best that can be restored."""
    if "history" in data:
        return tuple(
            tuple((s, None if cards is None else tuple(cards)) for s, cards in trick)
            for trick in data["history"]
        )
    if data["trick"]:
        return (tuple((s, tuple(c)) for s, c in data["trick"]),)
    return ()


# --- events -------------------------------------------------------------------------------


def _play(ev: tuple, r: RoundState) -> dict:
    seat, cards = ev[1], ev[2]
    q, m, j = SETS[cards]
    return {"seat": seat, "title": r.title(seat), "cards": list(cards), "count": m + j,
            "rank": q, "jesters": j}


def _exchange(ev: tuple, r: RoundState) -> dict:
    return {"from": ev[1], "to": ev[2], "cards": list(ev[3]),
            "visible_to": sorted((ev[1], ev[2]))}


def _seat(ev: tuple, r: RoundState) -> dict:
    return {"seat": ev[1]}


def _pair(ev: tuple, r: RoundState) -> dict:
    return {"from": ev[1], "to": ev[2]}


#: Per tag, the keys of the event besides ``type``, in the order the dicts have always had.
BUILDERS: dict[str, Callable[[tuple, RoundState], dict]] = {
    "play": _play,
    "pass": lambda ev, r: {"seat": ev[1], "title": r.title(ev[1])},
    "trick": lambda ev, r: {"seat": ev[1], "leader": ev[2]},
    "out": lambda ev, r: {"seat": ev[1], "title": r.title(ev[1]), "place": ev[2]},
    "over": lambda ev, r: {"finish_order": list(r.finish_order), "points": list(r.points),
                           "next_order": list(r.next_order)},
    "revolution": lambda ev, r: {"seat": ev[1], "great": ev[2]},
    "revolution_declined": lambda ev, r: {"seat": ev[1], "visible_to": [ev[1]]},
    "give_back_chosen": _seat,
    "taxes": lambda ev, r: {
        "exchanges": [{"from": p, "to": d, "count": k} for p, d, k in r.records.tax_plan]},
    "tax_exchange": _exchange,
    "trade_offer": _seat,
    "trade": _pair,
    "trade_declined": _seat,
    "trade_card_chosen": _seat,
    "trade_done": _pair,
    "trade_exchange": _exchange,
    "play_starts": lambda ev, r: {"leader": ev[1]},
}


def event_json(ev: tuple, r: RoundState) -> dict:
    """The dict of a stored event, as ``Round.last_events`` lists it."""
    kind: EventKind | None = BY_TAG.get(ev[0])
    if kind is None:
        raise ValueError(f"unknown event {ev[0]!r}")
    return {"type": kind.name, **BUILDERS[kind.tag](ev, r)}
