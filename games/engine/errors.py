"""IllegalMove and the English messages of its codes.

The web layer translates ``code`` (with ``params``) itself; ``MESSAGES`` holds the English
templates, formatted with ``params``.
"""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    "unknown_action": "That is not something you can do in this game.",
    "wrong_phase": "You cannot do that now: the round is in its {phase} phase.",
    "round_over": "The round is over.",
    "not_your_turn": "It is not your turn.",
    "not_awaited": "You have nothing to decide now.",
    "no_such_seat": "There is no seat {seat} at this table.",
    "bad_card": "{card} is not a card.",
    "empty_play": "Play at least one card.",
    "mixed_ranks": "Cards played together must all be of one rank (jesters may join them).",
    "cards_not_in_hand": "You do not hold those cards.",
    "leader_must_play": "You lead this trick, so you must play; you cannot pass.",
    "wrong_count": "You must play exactly {count} cards, as many as the last play.",
    "not_better": "Your cards must be of a better rank (lower number) than {rank}.",
    "jester_not_given": "Jesters are never given away in taxes or trades.",
    "wrong_give_count": "You must give back exactly {count} cards.",
    "already_chosen": "You have already chosen.",
    "worst_required": "You must give back your worst cards: {cards}.",
    "no_revolution": "Only the player holding both jesters may declare a revolution.",
    "not_a_merchant": "You can only trade with another Merchant: seat {seat} is not one.",
    "game_over": "The game is over.",
    "not_seated": "Player {player} has no seat in this round.",
    "unknown_player": "There is no player {player} at this table.",
    "not_between_rounds": "Players can join or leave only between rounds.",
    "round_not_over": "The round is not over yet.",
    "table_full": "The table is full: at most {max} players.",
    "place_required": "The Great Dalmuti chooses the newcomer's place: one of {places}.",
    "bad_place": "A newcomer sits in the middle: place {places}, not {place}.",
}


class IllegalMove(Exception):
    """A move the rules do not allow. ``code`` is stable (a key of ``MESSAGES``),
    ``params`` fills the template, and ``str(exc)`` is the English message."""

    def __init__(self, code: str, **params: object) -> None:
        self.code = code
        self.params = params
        self.message = MESSAGES[code].format(**params)
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message
