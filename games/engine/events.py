"""Every kind of event in a game's record, in one registry (``EVENT_KINDS``).

A round stores the events of its last move compactly, as tuples whose first item is the
kind's ``tag`` (that form is saved with every stored round: a tag never changes); the codec
(``round.codec``) turns them into dicts whose ``type`` is the kind's ``name`` and whose other
keys are its ``fields`` (``ROUND_KINDS``). A ``private`` kind also carries ``visible_to``,
the only seats that may see it. The table's own kinds (``TABLE_KINDS``: a round dealt, a
player joining or leaving, the game's end) are recorded by the commands beside the round's,
with a ``player`` where a round's event has a ``seat``; they have no tag. The game's words
(``games.core.words``) keep one sentence for each kind.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class EventKind:
    """One kind of event: its public ``name``, the ``tag`` it is stored under, its keys
    besides ``type``, whether only ``visible_to`` may see it, and what it means."""

    name: str
    tag: str | None
    fields: tuple[str, ...]
    meaning: str
    private: bool = False


#: What a round reports (``Round.last_events``).
ROUND_KINDS: dict[str, EventKind] = {
    kind.name: kind
    for kind in (
        EventKind("play", "play", ("seat", "title", "cards", "count", "rank", "jesters"),
                  "a seat plays a set (rank 13: jesters alone)"),
        EventKind("pass", "pass", ("seat", "title"), "a seat passes"),
        EventKind("trick_won", "trick", ("seat", "leader"),
                  "everybody else passed: seat won the trick, leader leads next"),
        EventKind("out", "out", ("seat", "title", "place"),
                  "a seat has no cards left and finishes in place (1-based)"),
        EventKind("round_over", "over", ("finish_order", "points", "next_order"),
                  "one player still holds cards: the round is over"),
        EventKind("revolution", "revolution", ("seat", "great"),
                  "a seat reveals both jesters: no taxes (great: the order turns round)"),
        EventKind("revolution_declined", "revolution_declined", ("seat", "visible_to"),
                  "the holder of both jesters keeps them to themselves", private=True),
        EventKind("give_back_chosen", "give_back_chosen", ("seat",),
                  "a Dalmuti has chosen the cards to give back"),
        EventKind("taxes", "taxes", ("exchanges",),
                  "the taxes are paid: the public plan, {from, to, count}"),
        EventKind("tax_exchange", "tax_exchange", ("from", "to", "cards", "visible_to"),
                  "the cards one side of a tax gave the other", private=True),
        EventKind("trade_offer", "trade_offer", ("seat",),
                  "the best placed Merchant may trade"),
        EventKind("trade", "trade", ("from", "to"), "a Merchant chooses a partner"),
        EventKind("trade_declined", "trade_declined", ("seat",),
                  "the best placed Merchant declines to trade"),
        EventKind("trade_card_chosen", "trade_card_chosen", ("seat",),
                  "a Merchant has chosen the card to trade"),
        EventKind("trade_done", "trade_done", ("from", "to"), "the Merchants have traded"),
        EventKind("trade_exchange", "trade_exchange", ("from", "to", "cards", "visible_to"),
                  "the card one Merchant gave the other", private=True),
        EventKind("play_starts", "play_starts", ("leader",), "the first trick begins"),
    )
}

#: The kinds by the tag a stored round keeps them under.
BY_TAG: dict[str, EventKind] = {kind.tag: kind for kind in ROUND_KINDS.values()}

TABLE_KINDS: dict[str, EventKind] = {
    kind.name: kind
    for kind in (
        EventKind("round_starts", None, ("round", "dealer"),
                  "a round is dealt; dealer: the Greater Peon"),
        EventKind("joined", None, ("player", "place"), "a player joins the table"),
        EventKind("left", None, ("player",), "a player leaves; their points stay"),
        EventKind("leaving", None, ("player", "bot"),
                  "a player says they leave: when the round ends (bot: at once, a bot "
                  "playing their seat for the rest of the game)"),
        EventKind("game_ending", None, ("player",),
                  "a player ends the game after this round"),
        EventKind("game_continues", None, ("player",),
                  "a player lets the game go on after this round"),
        EventKind("game_over", None, ("winner",), "the game is over"),
        EventKind("end_proposed", None, ("player",),
                  "a player proposes to end the game after this round"),
        EventKind("end_vote", None, ("player", "agree"),
                  "a player answers the proposal to end the game"),
        EventKind("end_agreed", None, ("yes", "needed"),
                  "most players agreed: the game ends after this round"),
        EventKind("end_declined", None, (), "too few players can still agree: no end"),
        EventKind("end_lapsed", None, (), "the proposal to end the game lapsed"),
        EventKind("stand_in_plays", None, ("player",),
                  "the stand-in bot now plays for an absent player"),
    )
}
#: Every kind of event in a game's record, by name.
EVENT_KINDS: dict[str, EventKind] = {**ROUND_KINDS, **TABLE_KINDS}


def may_see(event: dict, seat: int | None) -> bool:
    """Whether ``seat`` (None: a spectator) may see ``event``."""
    return "visible_to" not in event or seat in event["visible_to"]
