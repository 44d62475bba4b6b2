"""One round of The Great Dalmuti: the deal, revolution and taxes, merchant trade, play.

A ``Round`` is immutable: ``apply`` returns a new round or raises ``IllegalMove`` and
leaves the round as it was. Seats are the positions at the start of the round (seat 0 =
Great Dalmuti); ``order`` is the turn order, which only a Great Revolution changes.

What a view may not reveal (RULES.md section 5). Nobody may learn who holds both jesters
before a revolution is declared. The public shape of the tax phase never depends on the
jesters: the Dalmutis always act (also with ``tribute_return="worst"``, where their only
legal action is to confirm their worst cards), and the seats shown as awaiting are only
the Dalmutis still choosing, plus, in its own view only, a seat deciding on a revolution.
One edge case remains, because a decision someone is waiting for takes time: after both
Dalmutis have chosen, a tax phase that has not ended yet tells the table that somebody is
still deciding on a revolution (the holder decides while the Dalmutis choose, so this only
shows when the holder is slower than both Dalmutis). A first round without taxes has no
such case: there the Greater Peon is asked every time, jesters or not, and everybody
sees the table wait for them.

Likewise a Dalmuti sees the tribute only once the exchange is made, after choosing what to
give back, and in a ``chosen`` merchant trade neither Merchant sees the other's card first.

Readings of the rules where RULES.md leaves room:

* The holder of both jesters decides during the tax phase, alongside the Dalmutis (a
  Dalmuti holding both decides both). In a first round without taxes only the Greater
  Peon is asked (any other revolution would change nothing), and always: one without
  both jesters can only say no.
* With ``great_revolution="at_once"`` a Greater Peon dealt both jesters makes the Great
  Revolution as the round starts, before anybody acts (there is nothing to decide, so
  nothing to hide); a Lesser Peon or anybody else dealt both still chooses.
* Merchants trade only at tables of at least ``merchant_trade_from`` players.
* Without scoring (``scoring=False``) every round scores 0 points for everyone; the next
  round's positions are made as usual.
* A revolution, like a first round without taxes, cancels every exchange: there is no
  merchant trade either ("no taxes (card exchange)", and the French trade happens "at the
  time of the taxes").
* The best placed Merchant's partner cannot refuse. In a ``random`` trade each side gives
  a card drawn uniformly from its non-jester cards, from the round's seed.
* The master rule and philanthropic scoring measure from the positions held during the
  round (after a Great Revolution, the new ones) to the next round's positions.
* Only in hand-made deals can a hand hold fewer non-jester cards than the tax asks; then
  fewer cards change hands, as many each way.
"""

from __future__ import annotations

import json
import random
from itertools import combinations_with_replacement
from typing import Any, NamedTuple

from .actions import (
    PASS,
    Action,
    GiveBack,
    Pass,
    Play,
    Revolution,
    Trade,
    TradeCard,
    action_to_json,
)
from .cards import (
    JESTER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    cards_of,
    counts_of,
    deck_for,
    full_deck,
    title,
)
from .errors import IllegalMove
from .options import Options

PHASES = ("taxes", "trade", "play", "over")
_PHASE_ACTIONS = {
    "taxes": (GiveBack, Revolution),
    "trade": (Trade, TradeCard),
    "play": (Play, Pass),
}
JSON_VERSION = 1


def deal(n_players: int, options: Options, seed: int) -> list[list[int]]:
    """Shuffle with ``seed`` and deal every card one at a time in position order, starting
    with the Great Dalmuti (index 0); the extra cards go to the best positions."""
    if not isinstance(n_players, int) or not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise ValueError(f"a table has {MIN_PLAYERS} to {MAX_PLAYERS} players")
    deck = deck_for(n_players, options.reduced_deck)
    random.Random(seed).shuffle(deck)
    return [sorted(deck[i::n_players]) for i in range(n_players)]


# --- precomputed sets -------------------------------------------------------------------
# _PLAYS[q][m][j]: the Play of m cards of rank q and j jesters (q = 13: m jesters alone).
# _SETS[cards]: (rank, m, j) for every valid sorted set.
_PLAYS: list[list[list[Play | None]]] = [[[None] * 3 for _ in range(14)] for _ in range(14)]
_SETS: dict[tuple[int, ...], tuple[int, int, int]] = {}


def _new_play(cards: tuple[int, ...]) -> Play:
    play = object.__new__(Play)
    object.__setattr__(play, "cards", cards)
    return play


for _q in range(1, 13):
    for _m in range(1, _q + 1):
        for _j in range(3):
            _cards = (_q,) * _m + (JESTER,) * _j
            _PLAYS[_q][_m][_j] = _new_play(_cards)
            _SETS[_cards] = (_q, _m, _j)
for _m in (1, 2):
    _cards = (JESTER,) * _m
    _PLAYS[JESTER][_m][0] = _new_play(_cards)
    _SETS[_cards] = (JESTER, _m, 0)


def _lead_actions(h: tuple[int, ...]) -> list[Action]:
    jesters = h[JESTER]
    plays = _PLAYS
    out: list[Action] = []
    for q in range(1, 13):
        c = h[q]
        if c:
            row = plays[q]
            for m in range(1, c + 1):
                cell = row[m]
                for j in range(jesters + 1):
                    out.append(cell[j])
    for m in range(1, jesters + 1):
        out.append(plays[JESTER][m][0])
    return out


def _follow_actions(h: tuple[int, ...], count: int, rank: int) -> list[Action]:
    jesters = h[JESTER]
    plays = _PLAYS
    out: list[Action] = [PASS]
    lowest_m = count - jesters if count > jesters else 1
    for q in range(1, rank if rank < 13 else 13):
        c = h[q]
        if c and c >= lowest_m:
            row = plays[q]
            for m in range(lowest_m, (c if c < count else count) + 1):
                out.append(row[m][count - m])
    return out


def _remove(h: tuple[int, ...], cards) -> tuple[int, ...]:
    new = list(h)
    for c in cards:
        new[c] -= 1
    new[0] -= len(cards)
    return tuple(new)


def _add(h: tuple[int, ...], cards) -> tuple[int, ...]:
    new = list(h)
    for c in cards:
        new[c] += 1
    new[0] += len(cards)
    return tuple(new)


def _holds(h: tuple[int, ...], cards) -> bool:
    need = counts_of(cards)
    return all(need[r] <= h[r] for r in range(1, 14))


def _best_cards(h: tuple[int, ...], k: int) -> tuple[int, ...]:
    """The k best non-jester cards (the forced tribute)."""
    out: list[int] = []
    for r in range(1, 13):
        out.extend([r] * min(h[r], k - len(out)))
        if len(out) == k:
            break
    return tuple(out)


def _worst_cards(h: tuple[int, ...], k: int) -> tuple[int, ...]:
    """The k worst non-jester cards, sorted."""
    out: list[int] = []
    for r in range(12, 0, -1):
        out.extend([r] * min(h[r], k - len(out)))
        if len(out) == k:
            break
    return tuple(sorted(out))


def _non_jesters(h: tuple[int, ...]) -> int:
    return h[0] - h[JESTER]


def _check_cards(cards) -> None:
    for c in cards:
        if type(c) is not int or not 1 <= c <= JESTER:
            raise IllegalMove("bad_card", card=c)


# --- internal records -------------------------------------------------------------------


class _Table(NamedTuple):
    """What stays fixed during the play phase."""

    n: int
    options: Options
    first_round: bool
    seed: int
    order: tuple[int, ...]
    pos: tuple[int, ...]  # pos[seat]: 0-based position in order
    nxt: tuple[int, ...]  # nxt[seat]: the seat after it in order
    deck: tuple[int, ...]  # counts of the cards the round was dealt with


def _table(n, options, first_round, seed, order, deck) -> _Table:
    pos = [0] * n
    nxt = [0] * n
    for i, s in enumerate(order):
        pos[s] = i
        nxt[s] = order[(i + 1) % n]
    return _Table(n, options, first_round, seed, tuple(order), tuple(pos), tuple(nxt), deck)


class _Records(NamedTuple):
    """What was decided and exchanged before the play; ``(from, to, cards)`` exchanges."""

    revolution: tuple[int, bool] | None = None  # (seat, great)
    taxes_status: str = "none"  # none | pending | cancelled | done
    tax_plan: tuple[tuple[int, int, int], ...] = ()  # (peon, dalmuti, count)
    taxes: tuple[tuple[int, int, tuple[int, ...]], ...] = ()
    trade_status: str = "none"  # none | choosing_partner | choosing_cards | declined | done
    trade_pair: tuple[int, int] | None = None
    trades: tuple[tuple[int, int, tuple[int, ...]], ...] = ()


class _Decide(NamedTuple):
    """Decisions still open in the tax or trade phase."""

    jester_seat: int | None  # seat still deciding on a revolution
    choices: tuple[tuple[int, ...] | None, ...]  # per seat: chosen give-back / trade card


# --- the round --------------------------------------------------------------------------

_SLOTS = (
    "_t",
    "_phase",
    "_hands",
    "_pending",
    "_decide",
    "_rec",
    "_to_act",
    "_trick",
    "_last",
    "_passed",
    "_finish",
    "_result",
    "_events",
    "_history",
)


class Round:
    """The state of one round. Build it with ``Round.start``; never mutate it."""

    __slots__ = _SLOTS

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Round is immutable")

    __delattr__ = __setattr__

    # -- construction --

    @classmethod
    def start(
        cls,
        hands: list[list[int]],
        options: Options = Options(),  # noqa: B008 - Options is frozen
        first_round: bool = False,
        seed: int = 0,
    ) -> Round:
        """A round from a deal: ``hands[i]`` is the hand of position i (seat i).

        ``first_round`` matters with ``Options(first_round_taxes=False)``; ``seed`` drives
        the ``random`` merchant trade."""
        if not isinstance(options, Options):
            raise TypeError("options must be an Options")
        n = len(hands)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ValueError(f"a round has {MIN_PLAYERS} to {MAX_PLAYERS} hands")
        counted = []
        for hand in hands:
            if not hand:
                raise ValueError("every hand needs at least one card")
            for c in hand:
                if type(c) is not int or not 1 <= c <= JESTER:
                    raise ValueError(f"{c!r} is not a card")
            counted.append(counts_of(hand))
        deck = tuple(sum(h[r] for h in counted) for r in range(14))
        limit = counts_of(full_deck())
        if any(deck[r] > limit[r] for r in range(1, 14)):
            raise ValueError("more cards of a rank than the deck holds")
        t = _table(n, options, bool(first_round), int(seed), tuple(range(n)), deck)
        hands_t = tuple(counted)
        holder = next((s for s in range(n) if hands_t[s][JESTER] == 2), None)
        choices = (None,) * n
        no_taxes = first_round and not options.first_round_taxes
        if holder == n - 1 and options.great_revolution == "at_once":
            rec = _Records(taxes_status="none" if no_taxes else "cancelled")
            return _great_revolution(t, hands_t, rec, holder)
        if no_taxes:
            # Only a Greater Peon dealt both jesters could change anything (a Great
            # Revolution), so the Greater Peon is always asked before the first trick,
            # jesters or not: a pause only when they hold both would tell everybody.
            rec = _Records(taxes_status="none")
            decide = _Decide(n - 1, choices)
            return _deciding(t, "taxes", hands_t, (n - 1,), decide, rec, ())
        plan = []
        for peon, dalmuti, most in ((n - 1, 0, 2), (n - 2, 1, 1)):
            k = min(most, _non_jesters(hands_t[peon]), _non_jesters(hands_t[dalmuti]))
            if k:
                plan.append((peon, dalmuti, k))
        rec = _Records(taxes_status="pending", tax_plan=tuple(plan))
        decide = _Decide(holder, choices)
        pending = _pending_taxes(t, rec, decide)
        if not pending:
            return _execute_taxes(t, hands_t, rec, decide, ())
        return _deciding(t, "taxes", hands_t, pending, decide, rec, ())

    # -- the public state --

    @property
    def n_players(self) -> int:
        return self._t.n

    @property
    def options(self) -> Options:
        return self._t.options

    @property
    def first_round(self) -> bool:
        return self._t.first_round

    @property
    def seed(self) -> int:
        return self._t.seed

    @property
    def phase(self) -> str:
        """``"taxes"``, ``"trade"``, ``"play"`` or ``"over"``."""
        return self._phase

    @property
    def awaiting(self) -> tuple[int, ...]:
        """Every seat that may act now, in position order. Secret: in the tax phase this
        includes a seat deciding on a revolution; show players ``view(seat)["awaiting"]``."""
        if self._phase == "play":
            return (self._to_act,)
        return self._pending

    @property
    def to_act(self) -> int | None:
        return self._to_act if self._phase == "play" else None

    @property
    def order(self) -> tuple[int, ...]:
        """The seats in position order for this round's play."""
        return self._t.order

    def hand(self, seat: int) -> list[int]:
        return cards_of(self._hands[seat])

    def count(self, seat: int) -> int:
        return self._hands[seat][0]

    def position(self, seat: int) -> int:
        """The 0-based position of a seat this round (0 = Great Dalmuti)."""
        return self._t.pos[seat]

    def title(self, seat: int) -> str:
        return title(self._t.pos[seat], self._t.n)

    @property
    def finish_order(self) -> tuple[int, ...]:
        return self._finish

    @property
    def points(self) -> tuple[int, ...] | None:
        """Per seat, what it scored this round; None until the round is over."""
        return self._result[0] if self._result else None

    @property
    def next_order(self) -> tuple[int, ...] | None:
        """This round's seats in the next round's position order; None until over."""
        return self._result[1] if self._result else None

    @property
    def revolution(self) -> dict | None:
        """``{"seat": s, "great": bool}`` once a revolution is declared."""
        rev = self._rec.revolution
        return {"seat": rev[0], "great": rev[1]} if rev else None

    @property
    def trick(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """The plays of the current trick, ``(seat, cards)``."""
        return self._trick

    @property
    def passed(self) -> tuple[int, ...]:
        """The seats that passed since the last play of the current trick."""
        return self._passed

    @property
    def last_events(self) -> list[dict]:
        """What the last ``apply`` (or ``start``) did, in order, unfiltered. Each event is
        a dict with a ``type``; one with a ``visible_to`` list may be shown only to those
        seats (``events_for`` filters). Types and keys:

        - ``play`` seat, title, cards, count, rank (13: jesters alone), jesters
        - ``pass`` seat, title; ``trick_won`` seat (who won it), leader (who leads next)
        - ``out`` seat, title, place (1-based); ``round_over`` finish_order, points,
          next_order
        - ``revolution`` seat, great; ``revolution_declined`` seat (private to it)
        - ``give_back_chosen`` seat; ``taxes`` exchanges (as in the view); private
          ``tax_exchange`` from, to, cards (one per direction)
        - ``trade_offer`` seat (the best placed Merchant may trade); ``trade`` from, to;
          ``trade_declined`` seat; ``trade_card_chosen`` seat; ``trade_done`` from, to;
          private ``trade_exchange`` from, to, cards
        - ``play_starts`` leader
        """
        return [_event_json(ev, self) for ev in self._events]

    def events_for(self, seat: int | None) -> list[dict]:
        """``last_events`` as ``seat`` may see them (None: a spectator)."""
        return [e for e in self.last_events if "visible_to" not in e or seat in e["visible_to"]]

    # -- legal actions --

    def legal_actions(self, seat: int) -> list[Action]:
        """Exactly the actions ``apply`` accepts from ``seat`` now."""
        phase = self._phase
        if phase == "play":
            if seat != self._to_act:
                return []
            last = self._last
            if last is None:
                return _lead_actions(self._hands[seat])
            return _follow_actions(self._hands[seat], last[1], last[2])
        if phase == "over" or seat not in self._pending:
            return []
        h = self._hands[seat]
        decide = self._decide
        out: list[Action] = []
        if phase == "taxes":
            k = _give_back_due(self._rec, decide, seat)
            if k:
                if self._t.options.tribute_return == "worst":
                    out.append(GiveBack(_worst_cards(h, k)))
                else:
                    ranks = [r for r in range(1, 13) if h[r]]
                    for cards in combinations_with_replacement(ranks, k):
                        if all(cards.count(r) <= h[r] for r in cards):
                            out.append(GiveBack(cards))
            if decide.jester_seat == seat:
                if h[JESTER] == 2:
                    out.append(Revolution(True))
                out.append(Revolution(False))
            return out
        rec = self._rec
        if rec.trade_status == "choosing_partner":
            out.extend(Trade(p) for p in _trade_partners(self._t, self._hands))
            out.append(Trade(None))
        else:
            out.extend(TradeCard(r) for r in range(1, 13) if h[r])
        return out

    # -- moves --

    def apply(self, seat: int, action: Action) -> Round:
        """The round after ``seat`` takes ``action``; ``IllegalMove`` if it may not."""
        phase = self._phase
        if phase == "play":
            if seat != self._to_act:
                _check_seat(self, seat)
                raise IllegalMove("not_your_turn")
            kind = type(action)
            if kind is Play:
                return self._play(seat, action.cards)
            if kind is Pass:
                return self._pass(seat)
        _check_seat(self, seat)
        kind = type(action)
        if kind not in (Play, Pass, GiveBack, Revolution, Trade, TradeCard):
            raise IllegalMove("unknown_action")
        if phase == "over":
            raise IllegalMove("round_over")
        if kind not in _PHASE_ACTIONS[phase]:
            raise IllegalMove("wrong_phase", phase=phase)
        if seat not in self._pending:
            if kind is Revolution:
                t = self._t
                offered = self._rec.taxes_status == "pending" or t.pos[seat] == t.n - 1
                if self._hands[seat][JESTER] == 2 and offered:
                    raise IllegalMove("already_chosen")
                raise IllegalMove("no_revolution")
            if kind is GiveBack and any(d == seat for _, d, _ in self._rec.tax_plan):
                raise IllegalMove("already_chosen")
            raise IllegalMove("not_awaited")
        if kind is GiveBack:
            return self._give_back(seat, action.cards)
        if kind is Revolution:
            return self._revolution(seat, action.declare)
        if kind is Trade:
            return self._trade(seat, action.partner)
        return self._trade_card(seat, action.card)

    def _play(self, seat: int, cards: tuple[int, ...]) -> Round:
        try:
            info = _SETS.get(cards)
        except TypeError:
            info = None
        if info is None:
            _diagnose_set(cards)
        q, m, j = info
        h = self._hands[seat]
        if h[q] < m or h[JESTER] < j:
            raise IllegalMove("cards_not_in_hand")
        k = m + j
        last = self._last
        if last is not None:
            if k != last[1]:
                raise IllegalMove("wrong_count", count=last[1])
            if q >= last[2]:
                raise IllegalMove("not_better", rank=last[2])
        new = list(h)
        new[q] -= m
        new[JESTER] -= j
        new[0] -= k
        hands = self._hands
        hands = hands[:seat] + (tuple(new),) + hands[seat + 1 :]
        t = self._t
        events: tuple = (("play", seat, cards),)
        history = self._history
        if last is None:
            history = history + (((seat, cards),),)
        else:
            history = history[:-1] + (history[-1] + ((seat, cards),),)
        finish = self._finish
        if new[0] == 0:
            finish = finish + (seat,)
            events += (("out", seat, len(finish)),)
            if len(finish) == t.n - 1:
                last_seat = next(s for s in t.order if hands[s][0])
                finish = finish + (last_seat,)
                events += (("out", last_seat, t.n), ("over",))
                return _make(
                    t,
                    "over",
                    hands,
                    (),
                    None,
                    self._rec,
                    None,
                    self._trick + ((seat, cards),),
                    (seat, k, q),
                    (),
                    finish,
                    _result(t, finish),
                    events,
                    history,
                )
        nxt = t.nxt
        s = nxt[seat]
        while not hands[s][0]:
            s = nxt[s]
        return _make(
            t,
            "play",
            hands,
            (),
            None,
            self._rec,
            s,
            self._trick + ((seat, cards),),
            (seat, k, q),
            (),
            finish,
            None,
            events,
            history,
        )

    def _pass(self, seat: int) -> Round:
        last = self._last
        if last is None:
            raise IllegalMove("leader_must_play")
        t = self._t
        hands = self._hands
        passed = self._passed + (seat,)
        holders = t.n - len(self._finish)
        nxt = t.nxt
        s = nxt[seat]
        while not hands[s][0]:
            s = nxt[s]
        history = self._history
        history = history[:-1] + (history[-1] + ((seat, None),),)
        if len(passed) >= (holders - 1 if hands[last[0]][0] else holders):
            return _make(
                t,
                "play",
                hands,
                (),
                None,
                self._rec,
                s,
                (),
                None,
                (),
                self._finish,
                None,
                (("pass", seat), ("trick", last[0], s)),
                history,
            )
        return _make(
            t,
            "play",
            hands,
            (),
            None,
            self._rec,
            s,
            self._trick,
            last,
            passed,
            self._finish,
            None,
            (("pass", seat),),
            history,
        )

    def _give_back(self, seat: int, cards: tuple[int, ...]) -> Round:
        k = _give_back_due(self._rec, self._decide, seat)
        if not k:
            if self._decide.choices[seat] is not None:
                raise IllegalMove("already_chosen")
            raise IllegalMove("not_awaited")
        if not isinstance(cards, tuple):
            raise IllegalMove("unknown_action")
        _check_cards(cards)
        if JESTER in cards:
            raise IllegalMove("jester_not_given")
        if len(cards) != k:
            raise IllegalMove("wrong_give_count", count=k)
        h = self._hands[seat]
        if not _holds(h, cards):
            raise IllegalMove("cards_not_in_hand")
        if self._t.options.tribute_return == "worst":
            worst = _worst_cards(h, k)
            if cards != worst:
                raise IllegalMove("worst_required", cards=", ".join(map(str, worst)))
        decide = self._decide
        choices = list(decide.choices)
        choices[seat] = cards
        decide = decide._replace(choices=tuple(choices))
        return self._taxes_step(decide, (("give_back_chosen", seat),))

    def _revolution(self, seat: int, declare: bool) -> Round:
        if self._decide.jester_seat != seat:
            raise IllegalMove("no_revolution")
        if type(declare) is not bool:
            raise IllegalMove("unknown_action")
        if declare and self._hands[seat][JESTER] != 2:
            raise IllegalMove("no_revolution")
        t = self._t
        if not declare:
            decide = self._decide._replace(jester_seat=None)
            return self._taxes_step(decide, (("revolution_declined", seat),))
        rec = self._rec
        if rec.taxes_status == "pending":
            rec = rec._replace(taxes_status="cancelled")
        if t.pos[seat] == t.n - 1:
            return _great_revolution(t, self._hands, rec, seat)
        rec = rec._replace(revolution=(seat, False))
        return _begin_play(t, self._hands, rec, (("revolution", seat, False),))

    def _taxes_step(self, decide: _Decide, events: tuple) -> Round:
        t = self._t
        pending = _pending_taxes(t, self._rec, decide)
        if pending:
            return _deciding(t, "taxes", self._hands, pending, decide, self._rec, events)
        if self._rec.taxes_status == "none":
            return _begin_play(t, self._hands, self._rec, events)
        return _execute_taxes(t, self._hands, self._rec, decide, events)

    def _trade(self, seat: int, partner: int | None) -> Round:
        t = self._t
        rec = self._rec
        if rec.trade_status != "choosing_partner":
            raise IllegalMove("not_awaited")
        if partner is None:
            rec = rec._replace(trade_status="declined")
            return _begin_play(t, self._hands, rec, (("trade_declined", seat),))
        if type(partner) is not int or partner not in _trade_partners(t, self._hands):
            raise IllegalMove("not_a_merchant", seat=partner)
        pair = (seat, partner)
        events: tuple = (("trade", seat, partner),)
        if t.options.merchant_trade == "random":
            rng = random.Random(f"merchant-trade:{t.seed}")
            a = rng.choice(cards_of(self._hands[seat])[: _non_jesters(self._hands[seat])])
            b = rng.choice(cards_of(self._hands[partner])[: _non_jesters(self._hands[partner])])
            return self._exchange_trade(rec._replace(trade_pair=pair), a, b, events)
        rec = rec._replace(trade_status="choosing_cards", trade_pair=pair)
        pending = tuple(sorted(pair, key=t.pos.__getitem__))
        decide = _Decide(None, (None,) * t.n)
        return _deciding(t, "trade", self._hands, pending, decide, rec, events)

    def _trade_card(self, seat: int, card: int) -> Round:
        rec = self._rec
        if rec.trade_status != "choosing_cards":
            raise IllegalMove("not_awaited")
        _check_cards((card,))
        if card == JESTER:
            raise IllegalMove("jester_not_given")
        if not self._hands[seat][card]:
            raise IllegalMove("cards_not_in_hand")
        choices = list(self._decide.choices)
        choices[seat] = (card,)
        events: tuple = (("trade_card_chosen", seat),)
        a, b = rec.trade_pair
        if choices[a] is None or choices[b] is None:
            t = self._t
            pending = tuple(s for s in self._pending if s != seat)
            decide = self._decide._replace(choices=tuple(choices))
            return _deciding(t, "trade", self._hands, pending, decide, rec, events)
        return self._exchange_trade(rec, choices[a][0], choices[b][0], events)

    def _exchange_trade(self, rec: _Records, a_card: int, b_card: int, events: tuple) -> Round:
        a, b = rec.trade_pair
        hands = list(self._hands)
        hands[a] = _add(_remove(hands[a], (a_card,)), (b_card,))
        hands[b] = _add(_remove(hands[b], (b_card,)), (a_card,))
        trades = ((a, b, (a_card,)), (b, a, (b_card,)))
        rec = rec._replace(trade_status="done", trades=trades)
        events += (("trade_done", a, b),) + tuple(("trade_exchange",) + ex for ex in trades)
        return _begin_play(self._t, tuple(hands), rec, events)

    # -- what a seat may know --

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may know, as JSON-able data (``None``: a spectator).

        Keys: ``seat``, ``n_players``, ``phase``, ``first_round``, ``options``; ``order``
        (seats in position order), ``positions`` (per seat, 1 = Great Dalmuti), ``titles``
        (per seat); ``counts`` (cards per seat), ``hand`` (own cards, sorted); ``trick``
        (``plays`` as ``{seat, cards}``, ``passed`` since the last play, ``to_beat``
        ``{count, rank}`` or None, ``leader``); ``to_act``; ``awaiting`` (as this seat may
        know it); ``finish_order``; ``legal_actions`` (``action_to_json`` forms);
        ``taxes`` (``status`` none/pending/cancelled/done, public ``exchanges`` of the
        Peons' tribute ``{from, to, count}`` (each Dalmuti gives back as many), own
        ``gave``/``received`` once made, own pending ``choice`` and ``to_give_back``);
        ``trade`` (``status`` none/choosing_partner/choosing_cards/declined/done,
        ``from``, ``to``, own ``gave``/``received``/``choice``); ``revolution``
        (``{seat, great}`` once declared); ``played`` (cards played so far, indexed by
        rank, index 0 unused) and ``deck`` (the round's cards per rank, same indexing);
        ``points`` and ``next_order`` when over, else None; ``last_events`` (see
        ``events_for``); ``history``: the round's tricks so far, first to last (the last
        one may still be open), each the list of its moves in turn order,
        ``{seat, type: "play", cards}`` or ``{seat, type: "pass"}`` - what everybody at a
        real table saw played and passed, so it is the same in every seat's view.
        """
        if seat is not None:
            _check_seat(self, seat)
        t = self._t
        n = t.n
        rec = self._rec
        phase = self._phase
        hands = self._hands
        if phase == "taxes":
            dalmutis = [d for _, d, _ in rec.tax_plan if self._decide.choices[d] is None]
            if rec.taxes_status == "none":
                # A first round without taxes always asks the Greater Peon: public.
                dalmutis = [self._t.n - 1]
            awaiting = [s for s in self._pending if s in dalmutis or s == seat]
        else:
            awaiting = list(self.awaiting)
        played = [0] * 14
        for r in range(1, 14):
            played[r] = t.deck[r] - sum(h[r] for h in hands)
        last = self._last
        trick = {
            "plays": [{"seat": s, "cards": list(c)} for s, c in self._trick],
            "passed": list(self._passed),
            "to_beat": {"count": last[1], "rank": last[2]} if last else None,
            "leader": self._trick[0][0] if self._trick else self.to_act,
        }
        view: dict[str, Any] = {
            "seat": seat,
            "n_players": n,
            "phase": phase,
            "first_round": t.first_round,
            "options": t.options.to_json(),
            "order": list(t.order),
            "positions": [p + 1 for p in t.pos],
            "titles": [title(p, n) for p in t.pos],
            "counts": [h[0] for h in hands],
            "hand": self.hand(seat) if seat is not None else [],
            "trick": trick,
            "to_act": self.to_act,
            "awaiting": awaiting,
            "finish_order": list(self._finish),
            "legal_actions": (
                [action_to_json(a) for a in self.legal_actions(seat)] if seat is not None else []
            ),
            "taxes": self._taxes_view(seat),
            "trade": self._trade_view(seat),
            "revolution": self.revolution,
            "played": played,
            "deck": list(t.deck),
            "points": list(self.points) if self._result else None,
            "next_order": list(self.next_order) if self._result else None,
            "last_events": self.events_for(seat),
            "history": self._history_view(),
        }
        return view

    def _history_view(self) -> list[list[dict[str, Any]]]:
        return [
            [
                {"seat": s, "type": "pass"}
                if cards is None
                else {"seat": s, "type": "play", "cards": list(cards)}
                for s, cards in trick
            ]
            for trick in self._history
        ]

    def _taxes_view(self, seat: int | None) -> dict[str, Any]:
        rec = self._rec
        status = rec.taxes_status
        out: dict[str, Any] = {
            "status": status,
            "exchanges": [],
            "gave": None,
            "received": None,
            "choice": None,
            "to_give_back": 0,
        }
        if status in ("pending", "done"):
            out["exchanges"] = [{"from": p, "to": d, "count": k} for p, d, k in rec.tax_plan]
        if status == "done" and seat is not None:
            for giver, taker, cards in rec.taxes:
                if giver == seat:
                    out["gave"] = list(cards)
                if taker == seat:
                    out["received"] = list(cards)
        if status == "pending" and seat is not None and self._phase == "taxes":
            choice = self._decide.choices[seat]
            out["choice"] = list(choice) if choice else None
            out["to_give_back"] = _give_back_due(rec, self._decide, seat)
        return out

    def _trade_view(self, seat: int | None) -> dict[str, Any]:
        rec = self._rec
        pair = rec.trade_pair
        out: dict[str, Any] = {
            "status": rec.trade_status,
            "from": pair[0] if pair else None,
            "to": pair[1] if pair else None,
            "gave": None,
            "received": None,
            "choice": None,
        }
        if rec.trade_status == "choosing_partner":
            out["from"] = self._pending[0]
        for giver, taker, cards in rec.trades:
            if giver == seat:
                out["gave"] = list(cards)
            if taker == seat:
                out["received"] = list(cards)
        if rec.trade_status == "choosing_cards" and seat is not None:
            choice = self._decide.choices[seat]
            out["choice"] = choice[0] if choice else None
        return out

    # -- JSON and equality --

    def to_json(self) -> dict[str, Any]:
        """A lossless JSON form (``Round.from_json`` restores an equal round)."""
        t = self._t
        rec = self._rec
        decide = self._decide
        return {
            "version": JSON_VERSION,
            "n": t.n,
            "options": t.options.to_json(),
            "first_round": t.first_round,
            "seed": t.seed,
            "order": list(t.order),
            "deck": list(t.deck),
            "phase": self._phase,
            "hands": [cards_of(h) for h in self._hands],
            "pending": list(self._pending),
            "decide": None
            if decide is None
            else {
                "jester_seat": decide.jester_seat,
                "choices": [None if c is None else list(c) for c in decide.choices],
            },
            "records": {
                "revolution": list(rec.revolution) if rec.revolution else None,
                "taxes_status": rec.taxes_status,
                "tax_plan": [list(p) for p in rec.tax_plan],
                "taxes": [[a, b, list(c)] for a, b, c in rec.taxes],
                "trade_status": rec.trade_status,
                "trade_pair": list(rec.trade_pair) if rec.trade_pair else None,
                "trades": [[a, b, list(c)] for a, b, c in rec.trades],
            },
            "to_act": self._to_act,
            "trick": [[s, list(c)] for s, c in self._trick],
            "last": list(self._last) if self._last else None,
            "passed": list(self._passed),
            "finish": list(self._finish),
            "result": None
            if self._result is None
            else {"points": list(self._result[0]), "next_order": list(self._result[1])},
            "events": [_event_to_json(ev) for ev in self._events],
            "history": [
                [[s, None if cards is None else list(cards)] for s, cards in trick]
                for trick in self._history
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Round:
        if data.get("version") != JSON_VERSION:
            raise ValueError(f"unknown round format version {data.get('version')!r}")
        options = Options.from_json(data["options"])
        t = _table(
            data["n"],
            options,
            data["first_round"],
            data["seed"],
            tuple(data["order"]),
            tuple(data["deck"]),
        )
        decide = data["decide"]
        if decide is not None:
            decide = _Decide(
                decide["jester_seat"],
                tuple(None if c is None else tuple(c) for c in decide["choices"]),
            )
        r = data["records"]
        rec = _Records(
            revolution=(r["revolution"][0], r["revolution"][1]) if r["revolution"] else None,
            taxes_status=r["taxes_status"],
            tax_plan=tuple(tuple(p) for p in r["tax_plan"]),
            taxes=tuple((a, b, tuple(c)) for a, b, c in r["taxes"]),
            trade_status=r["trade_status"],
            trade_pair=tuple(r["trade_pair"]) if r["trade_pair"] else None,
            trades=tuple((a, b, tuple(c)) for a, b, c in r["trades"]),
        )
        result = data["result"]
        if result is not None:
            result = (tuple(result["points"]), tuple(result["next_order"]))
        return _make(
            t,
            data["phase"],
            tuple(counts_of(h) for h in data["hands"]),
            tuple(data["pending"]),
            decide,
            rec,
            data["to_act"],
            tuple((s, tuple(c)) for s, c in data["trick"]),
            tuple(data["last"]) if data["last"] else None,
            tuple(data["passed"]),
            tuple(data["finish"]),
            result,
            tuple(_event_from_json(ev) for ev in data["events"]),
            _history_from_json(data),
        )

    def _key(self) -> tuple:
        return tuple(getattr(self, name) for name in _SLOTS)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Round):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(json.dumps(self.to_json(), sort_keys=True))

    def __repr__(self) -> str:
        return (
            f"<Round {self._phase} n={self._t.n} to_act={self.to_act} "
            f"counts={[h[0] for h in self._hands]}>"
        )


# --- helpers building rounds ------------------------------------------------------------

_new = object.__new__
_setters = [Round.__dict__[name].__set__ for name in _SLOTS]
(
    _s_t,
    _s_phase,
    _s_hands,
    _s_pending,
    _s_decide,
    _s_rec,
    _s_to_act,
    _s_trick,
    _s_last,
    _s_passed,
    _s_finish,
    _s_result,
    _s_events,
    _s_history,
) = _setters


def _make(
    t, phase, hands, pending, decide, rec, to_act, trick, last, passed, finish, result, events,
    history=(),
) -> Round:
    r = _new(Round)
    _s_t(r, t)
    _s_phase(r, phase)
    _s_hands(r, hands)
    _s_pending(r, pending)
    _s_decide(r, decide)
    _s_rec(r, rec)
    _s_to_act(r, to_act)
    _s_trick(r, trick)
    _s_last(r, last)
    _s_passed(r, passed)
    _s_finish(r, finish)
    _s_result(r, result)
    _s_events(r, events)
    _s_history(r, history)
    return r


def _deciding(t, phase, hands, pending, decide, rec, events) -> Round:
    """A round in the tax or trade phase, waiting on ``pending``."""
    return _make(t, phase, hands, pending, decide, rec, None, (), None, (), (), None, events)


def _check_seat(r: Round, seat: object) -> None:
    if type(seat) is not int or not 0 <= seat < r._t.n:
        raise IllegalMove("no_such_seat", seat=seat)


def _diagnose_set(cards) -> None:
    """Raise the IllegalMove explaining why ``cards`` is not a set."""
    if not isinstance(cards, tuple):
        raise IllegalMove("unknown_action")
    if not cards:
        raise IllegalMove("empty_play")
    _check_cards(cards)
    if len({c for c in cards if c != JESTER}) > 1:
        raise IllegalMove("mixed_ranks")
    raise IllegalMove("cards_not_in_hand")  # e.g. three jesters: nobody holds them


def _give_back_due(rec: _Records, decide: _Decide | None, seat: int) -> int:
    """How many cards ``seat`` must still choose to give back (0: none)."""
    if decide is None or decide.choices[seat] is not None:
        return 0
    for _, dalmuti, k in rec.tax_plan:
        if dalmuti == seat:
            return k
    return 0


def _pending_taxes(t: _Table, rec: _Records, decide: _Decide) -> tuple[int, ...]:
    seats = {d for _, d, _ in rec.tax_plan if decide.choices[d] is None}
    if decide.jester_seat is not None:
        seats.add(decide.jester_seat)
    return tuple(sorted(seats, key=t.pos.__getitem__))


def _trade_partners(t: _Table, hands) -> list[int]:
    merchants = t.order[2 : t.n - 2]
    if len(merchants) < 2 or not _non_jesters(hands[merchants[0]]):
        return []
    return [s for s in merchants[1:] if _non_jesters(hands[s])]


def _execute_taxes(t: _Table, hands, rec: _Records, decide: _Decide, events: tuple) -> Round:
    """Make the exchanges of the tax plan, all at once."""
    new = list(hands)
    taxes = []
    for peon, dalmuti, k in rec.tax_plan:
        tribute = _best_cards(hands[peon], k)
        back = decide.choices[dalmuti]
        taxes += [(peon, dalmuti, tribute), (dalmuti, peon, back)]
        new[peon] = _add(_remove(new[peon], tribute), back)
        new[dalmuti] = _add(_remove(new[dalmuti], back), tribute)
    rec = rec._replace(taxes_status="done", taxes=tuple(taxes))
    events += (("taxes",),) + tuple(("tax_exchange",) + ex for ex in taxes)
    return _after_taxes(t, tuple(new), rec, events)


def _great_revolution(t: _Table, hands, rec: _Records, seat: int) -> Round:
    """The Greater Peon ``seat`` reveals both jesters: the order turns round, no taxes."""
    t = _table(t.n, t.options, t.first_round, t.seed, t.order[::-1], t.deck)
    rec = rec._replace(revolution=(seat, True))
    return _begin_play(t, hands, rec, (("revolution", seat, True),))


def _after_taxes(t: _Table, hands, rec: _Records, events: tuple) -> Round:
    options = t.options
    if (
        options.merchant_trade != "off"
        and t.n >= options.merchant_trade_from
        and _trade_partners(t, hands)
    ):
        best = t.order[2]
        rec = rec._replace(trade_status="choosing_partner")
        decide = _Decide(None, (None,) * t.n)
        events += (("trade_offer", best),)
        return _deciding(t, "trade", hands, (best,), decide, rec, events)
    return _begin_play(t, hands, rec, events)


def _begin_play(t: _Table, hands, rec: _Records, events: tuple) -> Round:
    leader = t.order[0]
    return _make(
        t,
        "play",
        hands,
        (),
        None,
        rec,
        leader,
        (),
        None,
        (),
        (),
        None,
        events + (("play_starts", leader),),
    )


def _result(t: _Table, finish: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    n = t.n
    place = [0] * n
    for i, s in enumerate(finish):
        place[s] = i
    if t.options.master_rule:
        # Walk down the old positions: each player is compared with whoever now holds
        # the place above; who finished earlier takes the higher place.
        nxt = list(t.order)
        for i in range(1, n):
            if place[nxt[i]] < place[nxt[i - 1]]:
                nxt[i - 1], nxt[i] = nxt[i], nxt[i - 1]
        next_order = tuple(nxt)
    else:
        next_order = finish
    if not t.options.scoring:
        return (0,) * n, next_order
    points = [n - 1 - place[s] for s in range(n)]
    mode = t.options.philanthropic
    if mode != "off":
        new_pos = {s: i for i, s in enumerate(next_order)}
        for dalmuti_pos, peon_pos in ((0, n - 1), (1, n - 2)):
            rise = peon_pos - new_pos[t.order[peon_pos]]
            if rise > 0:
                points[t.order[dalmuti_pos]] += rise if mode == "per_position" else 1
    return tuple(points), next_order


# --- events -----------------------------------------------------------------------------
# Stored compactly as tuples; ``last_events`` turns them into dicts.


def _event_json(ev: tuple, r: Round) -> dict:
    kind = ev[0]
    if kind == "play":
        seat, cards = ev[1], ev[2]
        q, m, j = _SETS[cards]
        return {
            "type": "play",
            "seat": seat,
            "title": r.title(seat),
            "cards": list(cards),
            "count": m + j,
            "rank": q,
            "jesters": j,
        }
    if kind == "pass":
        return {"type": "pass", "seat": ev[1], "title": r.title(ev[1])}
    if kind == "trick":
        return {"type": "trick_won", "seat": ev[1], "leader": ev[2]}
    if kind == "out":
        return {"type": "out", "seat": ev[1], "title": r.title(ev[1]), "place": ev[2]}
    if kind == "over":
        return {
            "type": "round_over",
            "finish_order": list(r.finish_order),
            "points": list(r.points),
            "next_order": list(r.next_order),
        }
    if kind == "revolution":
        return {"type": "revolution", "seat": ev[1], "great": ev[2]}
    if kind == "revolution_declined":
        return {"type": "revolution_declined", "seat": ev[1], "visible_to": [ev[1]]}
    if kind == "give_back_chosen":
        return {"type": "give_back_chosen", "seat": ev[1]}
    if kind == "taxes":
        return {
            "type": "taxes",
            "exchanges": [{"from": p, "to": d, "count": k} for p, d, k in r._rec.tax_plan],
        }
    if kind in ("tax_exchange", "trade_exchange"):
        return {
            "type": kind,
            "from": ev[1],
            "to": ev[2],
            "cards": list(ev[3]),
            "visible_to": sorted((ev[1], ev[2])),
        }
    if kind == "trade_offer":
        return {"type": "trade_offer", "seat": ev[1]}
    if kind == "trade":
        return {"type": "trade", "from": ev[1], "to": ev[2]}
    if kind == "trade_declined":
        return {"type": "trade_declined", "seat": ev[1]}
    if kind == "trade_card_chosen":
        return {"type": "trade_card_chosen", "seat": ev[1]}
    if kind == "trade_done":
        return {"type": "trade_done", "from": ev[1], "to": ev[2]}
    if kind == "play_starts":
        return {"type": "play_starts", "leader": ev[1]}
    raise ValueError(f"unknown event {kind!r}")


def _history_from_json(data: dict[str, Any]) -> tuple:
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


def _event_to_json(ev: tuple) -> list:
    return [list(x) if isinstance(x, tuple) else x for x in ev]


def _event_from_json(ev: list) -> tuple:
    return tuple(tuple(x) if isinstance(x, list) else x for x in ev)


__all__ = ["PHASES", "Round", "deal"]
