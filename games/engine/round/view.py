"""What one seat may know of a round: all of the engine's privacy rules in one place.

A seat sees its own hand, its own tax and trade choices and the cards it gave and got;
everybody sees the counts, the tricks and the public shape of the tax phase, which never
depends on who holds the jesters (see the package docstring)."""

from __future__ import annotations

from typing import Any

from ..actions import action_to_json
from ..cards import title
from ..hands import best_cards
from .state import RoundState, TaxStatus, TradeStatus, check_seat
from .taxes import give_back_due


def awaiting_seen_by(r: RoundState, seat: int | None) -> list[int]:
    """``Round.awaiting`` as ``seat`` may know it: in the tax phase, the Dalmutis still
    choosing and, in its own view only, a seat deciding on a revolution."""
    if r.phase != "taxes":
        return list(r.awaiting)
    rec = r.records
    dalmutis = [d for _, d, _ in rec.tax_plan if r.decide.choices[d] is None]
    if rec.taxes_status == TaxStatus.NONE:
        # A first round without taxes always asks the Greater Peon: public.
        dalmutis = [r.table.n - 1]
    return [s for s in r.pending if s in dalmutis or s == seat]


def played_cards(r: RoundState) -> list[int]:
    """Per rank, the cards played so far (index 0 unused)."""
    t = r.table
    played = [0] * 14
    for rank in range(1, 14):
        played[rank] = t.deck[rank] - sum(h[rank] for h in r.hands)
    return played


def view(r: Any, seat: int | None) -> dict[str, Any]:
    """``Round.view``: everything ``seat`` may know (``None``: a spectator). ``r`` is a
    ``Round`` (its legal actions and events are part of the view)."""
    if seat is not None:
        check_seat(r, seat)
    t = r.table
    n = t.n
    last = r.last
    trick = {
        "plays": [{"seat": s, "cards": list(c)} for s, c in r.trick],
        "passed": list(r.passed),
        "to_beat": {"count": last[1], "rank": last[2]} if last else None,
        "leader": r.trick[0][0] if r.trick else r.to_act,
    }
    return {
        "seat": seat,
        "n_players": n,
        "phase": r.phase,
        "first_round": t.first_round,
        "options": t.options.to_json(),
        "order": list(t.order),
        "positions": [p + 1 for p in t.pos],
        "titles": [title(p, n) for p in t.pos],
        "counts": [h[0] for h in r.hands],
        "hand": r.hand(seat) if seat is not None else [],
        "trick": trick,
        "to_act": r.to_act,
        "awaiting": awaiting_seen_by(r, seat),
        "finish_order": list(r.finish_order),
        "legal_actions": (
            [action_to_json(a) for a in r.legal_actions(seat)] if seat is not None else []
        ),
        "taxes": taxes_view(r, seat),
        "trade": trade_view(r, seat),
        "revolution": r.revolution,
        "played": played_cards(r),
        "deck": list(t.deck),
        "points": list(r.points) if r.result else None,
        "next_order": list(r.next_order) if r.result else None,
        "last_events": r.events_for(seat),
        "history": history_view(r),
    }


def history_view(r: RoundState) -> list[list[dict[str, Any]]]:
    """The round's tricks, each the list of its moves: what everybody at the table saw."""
    return [
        [
            {"seat": s, "type": "pass"}
            if cards is None
            else {"seat": s, "type": "play", "cards": list(cards)}
            for s, cards in trick
        ]
        for trick in r.history
    ]


def taxes_view(r: RoundState, seat: int | None) -> dict[str, Any]:
    """The taxes: the public plan; the cards given and got, the pending choice and, to a
    Peon, the tribute they are to pay, only in the seat's own view."""
    rec = r.records
    status = rec.taxes_status
    out: dict[str, Any] = {
        "status": status.value,
        "exchanges": [],
        "gave": None,
        "received": None,
        "choice": None,
        "to_give_back": 0,
        "tribute": None,
    }
    if status in (TaxStatus.PENDING, TaxStatus.DONE):
        out["exchanges"] = [{"from": p, "to": d, "count": k} for p, d, k in rec.tax_plan]
    if status == TaxStatus.DONE and seat is not None:
        for giver, taker, cards in rec.taxes:
            if giver == seat:
                out["gave"] = list(cards)
            if taker == seat:
                out["received"] = list(cards)
    if status == TaxStatus.PENDING and seat is not None and r.phase == "taxes":
        choice = r.decide.choices[seat]
        out["choice"] = list(choice) if choice else None
        out["to_give_back"] = give_back_due(rec, r.decide, seat)
        # A Peon's tribute is no choice: their best cards, which they may know before
        # the exchange takes them.
        out["tribute"] = next((list(best_cards(r.hands[seat], k))
                               for peon, _, k in rec.tax_plan if peon == seat), None)
    return out


def trade_view(r: RoundState, seat: int | None) -> dict[str, Any]:
    """The merchant trade: who trades with whom is public, the cards are not."""
    rec = r.records
    pair = rec.trade_pair
    out: dict[str, Any] = {
        "status": rec.trade_status.value,
        "from": pair[0] if pair else None,
        "to": pair[1] if pair else None,
        "gave": None,
        "received": None,
        "choice": None,
    }
    if rec.trade_status == TradeStatus.CHOOSING_PARTNER:
        out["from"] = r.pending[0]
    for giver, taker, cards in rec.trades:
        if giver == seat:
            out["gave"] = list(cards)
        if taker == seat:
            out["received"] = list(cards)
    if rec.trade_status == TradeStatus.CHOOSING_CARDS and seat is not None:
        choice = r.decide.choices[seat]
        out["choice"] = choice[0] if choice else None
    return out
