"""One round of The Great Dalmuti: the deal, revolution and taxes, merchant trade, play.

A ``Round`` is immutable: ``apply`` returns a new round or raises ``IllegalMove`` and
leaves the round as it was. Seats are the positions at the start of the round (seat 0 =
Great Dalmuti); ``order`` is the turn order, which only a Great Revolution changes.

What a view may not reveal (docs/RULES.md section 5). Nobody may learn who holds both jesters
before a revolution is declared. The public shape of the tax phase never depends on the
jesters: the Dalmutis always act (also with ``tribute_return="worst"``, where their only
legal action is to confirm their worst cards), and the seats shown as awaiting are only
the Dalmutis still choosing, plus, in its own view only, a seat deciding on a revolution.
One edge case remains, because a decision someone is waiting for takes time: after both
Dalmutis have chosen, a tax phase that has not ended yet tells the table that somebody is
still deciding on a revolution (the holder decides while the Dalmutis choose, so this only
shows when the holder is slower than both Dalmutis). The site never lets it show: it
closes the holder's decision the moment both Dalmutis have chosen. A first round without
taxes has no such case: there the Greater Peon is asked every time, jesters or not, and
everybody sees the table wait for them.

Likewise a Dalmuti sees the tribute only once the exchange is made, after choosing what to
give back, and in a ``chosen`` merchant trade neither Merchant sees the other's card first.

Readings of the rules where docs/RULES.md leaves room:

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

The package: ``state`` (what a round is made of, built by ``make`` with every part named),
one module a phase (``taxes`` with the start of a round, ``trade``, ``play``), each a
``PhaseRules`` registered in ``PHASE_RULES`` with its legal actions and moves; ``view``
(what one seat may see: all of the privacy above) and ``codec`` (the stored JSON and the
events). The rules' primitives (sets, tribute, scoring) are ``..hands``; the event kinds
``..events``.
"""

from __future__ import annotations

import json
import random
from typing import Any

from ..actions import Action
from ..cards import JESTER, MAX_PLAYERS, MIN_PLAYERS, counts_of, deck_for, full_deck
from ..events import may_see
from ..options import Options
from . import codec
from .codec import JSON_VERSION
from .phase import Over, PhaseRules
from .play import PlayPhase
from .state import RoundState, new_table
from .taxes import TaxPhase, begin
from .trade import TradePhase
from .view import awaiting_seen_by
from .view import view as seat_view

#: The phases of a round, each with its legal actions and moves, by name.
PHASE_RULES: dict[str, PhaseRules] = {
    rules.name: rules for rules in (TaxPhase(), TradePhase(), PlayPhase(), Over())
}
PHASES = tuple(PHASE_RULES)
# Bound once: ``legal_actions`` and ``apply`` run on every move of every round.
_LEGAL_ACTIONS = {name: rules.legal_actions for name, rules in PHASE_RULES.items()}
_APPLY = {name: rules.apply for name, rules in PHASE_RULES.items()}


def deal(n_players: int, options: Options, seed: int) -> list[list[int]]:
    """Shuffle with ``seed`` and deal every card one at a time in position order, starting
    with the Great Dalmuti (index 0); the extra cards go to the best positions."""
    if not isinstance(n_players, int) or not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise ValueError(f"a table has {MIN_PLAYERS} to {MAX_PLAYERS} players")
    deck = deck_for(n_players, options.reduced_deck)
    random.Random(seed).shuffle(deck)
    return [sorted(deck[i::n_players]) for i in range(n_players)]


class Round(RoundState):
    """The state of one round. Build it with ``Round.start``; never mutate it."""

    __slots__ = ()

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
        t = new_table(n, options, bool(first_round), int(seed), tuple(range(n)), deck)
        return begin(t, tuple(counted))

    def legal_actions(self, seat: int) -> list[Action]:
        """Exactly the actions ``apply`` accepts from ``seat`` now."""
        return _LEGAL_ACTIONS[self.phase](self, seat)

    def apply(self, seat: int, action: Action) -> Round:
        """The round after ``seat`` takes ``action``; ``IllegalMove`` if it may not."""
        return _APPLY[self.phase](self, seat, action)

    @property
    def last_events(self) -> list[dict]:
        """What the last ``apply`` (or ``start``) did, in order, unfiltered. Each event is
        a dict with a ``type``; one with a ``visible_to`` list may be shown only to those
        seats (``events_for`` filters). The kinds and their keys: ``games.engine.events``.
        """
        return [codec.event_json(ev, self) for ev in self.events]

    def events_for(self, seat: int | None) -> list[dict]:
        """``last_events`` as ``seat`` may see them (None: a spectator)."""
        return [e for e in self.last_events if may_see(e, seat)]

    def awaiting_seen_by(self, seat: int | None) -> list[int]:
        """The seats awaited as ``seat`` may know it (None: as everybody may)."""
        return awaiting_seen_by(self, seat)

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
        ``gave``/``received`` once made, own pending ``choice`` and ``to_give_back``, and
        a Peon's own ``tribute``, the cards they are to pay, until then);
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
        return seat_view(self, seat)

    def to_json(self) -> dict[str, Any]:
        """A lossless JSON form (``Round.from_json`` restores an equal round)."""
        return codec.to_json(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Round:
        return codec.from_json(data)

    def __hash__(self) -> int:
        return hash(json.dumps(self.to_json(), sort_keys=True))


__all__ = ["JSON_VERSION", "PHASES", "PHASE_RULES", "Round", "deal"]
