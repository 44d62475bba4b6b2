"""The start of a round and the tax phase (docs/RULES.md section 5): the Peons pay their best
cards, the Dalmutis choose what to give back, and the holder of both jesters may declare a
revolution instead (a Greater Peon: a Great Revolution, which turns the order round)."""

from __future__ import annotations

from itertools import combinations_with_replacement

from ..actions import Action, GiveBack, Revolution
from ..cards import JESTER
from ..errors import IllegalMove
from ..hands import best_cards, check_cards, holds, non_jesters, with_cards, without, worst_cards
from ..options import Options
from .phase import PhaseRules
from .play import begin_play
from .state import (
    Decide,
    Hand,
    Records,
    RoundState,
    Table,
    TaxStatus,
    deciding,
    new_table,
)
from .trade import after_taxes


def begin(t: Table, hands: tuple[Hand, ...]) -> RoundState:
    """The round as dealt: a Great Revolution at once, the Greater Peon asked (a first
    round without taxes), or the tax phase."""
    n = t.n
    options: Options = t.options
    holder = next((s for s in range(n) if hands[s][JESTER] == 2), None)
    choices = (None,) * n
    no_taxes = t.first_round and not options.first_round_taxes
    if holder == n - 1 and options.great_revolution == "at_once":
        rec = Records(taxes_status=TaxStatus.NONE if no_taxes else TaxStatus.CANCELLED)
        return great_revolution(t, hands, rec, holder)
    if no_taxes:
        # Only a Greater Peon dealt both jesters could change anything (a Great
        # Revolution), so the Greater Peon is always asked before the first trick,
        # jesters or not: a pause only when they hold both would tell everybody.
        rec = Records(taxes_status=TaxStatus.NONE)
        return deciding(table=t, phase="taxes", hands=hands, pending=(n - 1,),
                        decide=Decide(n - 1, choices), records=rec, events=())
    plan = []
    for peon, dalmuti, most in ((n - 1, 0, 2), (n - 2, 1, 1)):
        k = min(most, non_jesters(hands[peon]), non_jesters(hands[dalmuti]))
        if k:
            plan.append((peon, dalmuti, k))
    rec = Records(taxes_status=TaxStatus.PENDING, tax_plan=tuple(plan))
    decide = Decide(holder, choices)
    pending = pending_taxes(t, rec, decide)
    if not pending:
        return execute_taxes(t, hands, rec, decide, ())
    return deciding(table=t, phase="taxes", hands=hands, pending=pending, decide=decide,
                    records=rec, events=())


def give_back_due(rec: Records, decide: Decide | None, seat: int) -> int:
    """How many cards ``seat`` must still choose to give back (0: none)."""
    if decide is None or decide.choices[seat] is not None:
        return 0
    for _, dalmuti, k in rec.tax_plan:
        if dalmuti == seat:
            return k
    return 0


def pending_taxes(t: Table, rec: Records, decide: Decide) -> tuple[int, ...]:
    """The seats still to decide, in position order."""
    seats = {d for _, d, _ in rec.tax_plan if decide.choices[d] is None}
    if decide.jester_seat is not None:
        seats.add(decide.jester_seat)
    return tuple(sorted(seats, key=t.pos.__getitem__))


def execute_taxes(t: Table, hands: tuple[Hand, ...], rec: Records, decide: Decide,
                  events: tuple) -> RoundState:
    """Make the exchanges of the tax plan, all at once."""
    new = list(hands)
    taxes = []
    for peon, dalmuti, k in rec.tax_plan:
        tribute = best_cards(hands[peon], k)
        back = decide.choices[dalmuti]
        taxes += [(peon, dalmuti, tribute), (dalmuti, peon, back)]
        new[peon] = with_cards(without(new[peon], tribute), back)
        new[dalmuti] = with_cards(without(new[dalmuti], back), tribute)
    rec = rec._replace(taxes_status=TaxStatus.DONE, taxes=tuple(taxes))
    events += (("taxes",),) + tuple(("tax_exchange",) + ex for ex in taxes)
    return after_taxes(t, tuple(new), rec, events)


def great_revolution(t: Table, hands: tuple[Hand, ...], rec: Records, seat: int) -> RoundState:
    """The Greater Peon ``seat`` reveals both jesters: the order turns round, no taxes."""
    t = new_table(t.n, t.options, t.first_round, t.seed, t.order[::-1], t.deck)
    rec = rec._replace(revolution=(seat, True))
    return begin_play(t, hands, rec, (("revolution", seat, True),))


def give_back(r: RoundState, seat: int, cards: tuple[int, ...]) -> RoundState:
    k = give_back_due(r.records, r.decide, seat)
    if not k:
        if r.decide.choices[seat] is not None:
            raise IllegalMove("already_chosen")
        raise IllegalMove("not_awaited")
    if not isinstance(cards, tuple):
        raise IllegalMove("unknown_action")
    check_cards(cards)
    if JESTER in cards:
        raise IllegalMove("jester_not_given")
    if len(cards) != k:
        raise IllegalMove("wrong_give_count", count=k)
    h = r.hands[seat]
    if not holds(h, cards):
        raise IllegalMove("cards_not_in_hand")
    if r.table.options.tribute_return == "worst":
        worst = worst_cards(h, k)
        if cards != worst:
            raise IllegalMove("worst_required", cards=", ".join(map(str, worst)))
    decide = r.decide
    choices = list(decide.choices)
    choices[seat] = cards
    decide = decide._replace(choices=tuple(choices))
    return taxes_step(r, decide, (("give_back_chosen", seat),))


def revolution(r: RoundState, seat: int, declare: bool) -> RoundState:
    if r.decide.jester_seat != seat:
        raise IllegalMove("no_revolution")
    if type(declare) is not bool:
        raise IllegalMove("unknown_action")
    if declare and r.hands[seat][JESTER] != 2:
        raise IllegalMove("no_revolution")
    t = r.table
    if not declare:
        decide = r.decide._replace(jester_seat=None)
        return taxes_step(r, decide, (("revolution_declined", seat),))
    rec = r.records
    if rec.taxes_status == TaxStatus.PENDING:
        rec = rec._replace(taxes_status=TaxStatus.CANCELLED)
    if t.pos[seat] == t.n - 1:
        return great_revolution(t, r.hands, rec, seat)
    rec = rec._replace(revolution=(seat, False))
    return begin_play(t, r.hands, rec, (("revolution", seat, False),))


def taxes_step(r: RoundState, decide: Decide, events: tuple) -> RoundState:
    """After a decision: wait for the others, or exchange and move on."""
    t = r.table
    pending = pending_taxes(t, r.records, decide)
    if pending:
        return deciding(table=t, phase="taxes", hands=r.hands, pending=pending,
                        decide=decide, records=r.records, events=events)
    if r.records.taxes_status == TaxStatus.NONE:
        return begin_play(t, r.hands, r.records, events)
    return execute_taxes(t, r.hands, r.records, decide, events)


class TaxPhase(PhaseRules):
    name = "taxes"
    moves = {GiveBack: lambda r, seat, a: give_back(r, seat, a.cards),
             Revolution: lambda r, seat, a: revolution(r, seat, a.declare)}

    def choices(self, r: RoundState, seat: int) -> list[Action]:
        h = r.hands[seat]
        decide = r.decide
        out: list[Action] = []
        k = give_back_due(r.records, decide, seat)
        if k:
            if r.table.options.tribute_return == "worst":
                out.append(GiveBack(worst_cards(h, k)))
            else:
                ranks = [rank for rank in range(1, 13) if h[rank]]
                for cards in combinations_with_replacement(ranks, k):
                    if all(cards.count(rank) <= h[rank] for rank in cards):
                        out.append(GiveBack(cards))
        if decide.jester_seat == seat:
            if h[JESTER] == 2:
                out.append(Revolution(True))
            out.append(Revolution(False))
        return out

    def refuse_unawaited(self, r: RoundState, seat: int, action: Action) -> None:
        if type(action) is Revolution:
            t = r.table
            offered = r.records.taxes_status == TaxStatus.PENDING or t.pos[seat] == t.n - 1
            if r.hands[seat][JESTER] == 2 and offered:
                raise IllegalMove("already_chosen")
            raise IllegalMove("no_revolution")
        if type(action) is GiveBack and any(d == seat for _, d, _ in r.records.tax_plan):
            raise IllegalMove("already_chosen")
        raise IllegalMove("not_awaited")
