"""The merchant trade (docs/RULES.md section 5): after the taxes, at tables large enough, the
best placed Merchant may trade one card with another Merchant, chosen or at random."""

from __future__ import annotations

import random

from ..actions import Action, Trade, TradeCard
from ..cards import JESTER, cards_of
from ..errors import IllegalMove
from ..hands import check_cards, non_jesters, with_cards, without
from .phase import PhaseRules
from .play import begin_play
from .state import Decide, Hand, Records, RoundState, Table, TradeStatus, deciding


def trade_partners(t: Table, hands: tuple[Hand, ...]) -> list[int]:
    """The Merchants the best placed Merchant may trade with (none: no trade)."""
    merchants = t.order[2 : t.n - 2]
    if len(merchants) < 2 or not non_jesters(hands[merchants[0]]):
        return []
    return [s for s in merchants[1:] if non_jesters(hands[s])]


def after_taxes(t: Table, hands: tuple[Hand, ...], rec: Records, events: tuple) -> RoundState:
    """Offer the trade if the table trades and can, else start the play."""
    options = t.options
    if (
        options.merchant_trade != "off"
        and t.n >= options.merchant_trade_from
        and trade_partners(t, hands)
    ):
        best = t.order[2]
        rec = rec._replace(trade_status=TradeStatus.CHOOSING_PARTNER)
        decide = Decide(None, (None,) * t.n)
        events += (("trade_offer", best),)
        return deciding(table=t, phase="trade", hands=hands, pending=(best,), decide=decide,
                        records=rec, events=events)
    return begin_play(t, hands, rec, events)


def choose_partner(r: RoundState, seat: int, partner: int | None) -> RoundState:
    t = r.table
    rec = r.records
    if rec.trade_status != TradeStatus.CHOOSING_PARTNER:
        raise IllegalMove("not_awaited")
    if partner is None:
        rec = rec._replace(trade_status=TradeStatus.DECLINED)
        return begin_play(t, r.hands, rec, (("trade_declined", seat),))
    if type(partner) is not int or partner not in trade_partners(t, r.hands):
        raise IllegalMove("not_a_merchant", seat=partner)
    pair = (seat, partner)
    events: tuple = (("trade", seat, partner),)
    if t.options.merchant_trade == "random":
        rng = random.Random(f"merchant-trade:{t.seed}")
        a = rng.choice(cards_of(r.hands[seat])[: non_jesters(r.hands[seat])])
        b = rng.choice(cards_of(r.hands[partner])[: non_jesters(r.hands[partner])])
        return exchange(r, rec._replace(trade_pair=pair), a, b, events)
    rec = rec._replace(trade_status=TradeStatus.CHOOSING_CARDS, trade_pair=pair)
    pending = tuple(sorted(pair, key=t.pos.__getitem__))
    decide = Decide(None, (None,) * t.n)
    return deciding(table=t, phase="trade", hands=r.hands, pending=pending, decide=decide,
                    records=rec, events=events)


def choose_card(r: RoundState, seat: int, card: int) -> RoundState:
    rec = r.records
    if rec.trade_status != TradeStatus.CHOOSING_CARDS:
        raise IllegalMove("not_awaited")
    check_cards((card,))
    if card == JESTER:
        raise IllegalMove("jester_not_given")
    if not r.hands[seat][card]:
        raise IllegalMove("cards_not_in_hand")
    choices = list(r.decide.choices)
    choices[seat] = (card,)
    events: tuple = (("trade_card_chosen", seat),)
    a, b = rec.trade_pair
    if choices[a] is None or choices[b] is None:
        pending = tuple(s for s in r.pending if s != seat)
        decide = r.decide._replace(choices=tuple(choices))
        return deciding(table=r.table, phase="trade", hands=r.hands, pending=pending,
                        decide=decide, records=rec, events=events)
    return exchange(r, rec, choices[a][0], choices[b][0], events)


def exchange(r: RoundState, rec: Records, a_card: int, b_card: int,
             events: tuple) -> RoundState:
    """Both Merchants give their card at once; then the play starts."""
    a, b = rec.trade_pair
    hands = list(r.hands)
    hands[a] = with_cards(without(hands[a], (a_card,)), (b_card,))
    hands[b] = with_cards(without(hands[b], (b_card,)), (a_card,))
    trades = ((a, b, (a_card,)), (b, a, (b_card,)))
    rec = rec._replace(trade_status=TradeStatus.DONE, trades=trades)
    events += (("trade_done", a, b),) + tuple(("trade_exchange",) + ex for ex in trades)
    return begin_play(r.table, tuple(hands), rec, events)


class TradePhase(PhaseRules):
    name = "trade"
    moves = {Trade: lambda r, seat, a: choose_partner(r, seat, a.partner),
             TradeCard: lambda r, seat, a: choose_card(r, seat, a.card)}

    def choices(self, r: RoundState, seat: int) -> list[Action]:
        out: list[Action] = []
        if r.records.trade_status == TradeStatus.CHOOSING_PARTNER:
            out.extend(Trade(p) for p in trade_partners(r.table, r.hands))
            out.append(Trade(None))
        else:
            h = r.hands[seat]
            out.extend(TradeCard(rank) for rank in range(1, 13) if h[rank])
        return out
