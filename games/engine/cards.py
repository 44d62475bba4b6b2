"""Cards, ranks, titles and the deck.

Cards are plain ints: ranks 1..12 (a lower number is a better card) and ``JESTER = 13``.
Internally a hand is a tuple of 14 counts: ``hand[r]`` cards of rank r for r in 1..13 and
``hand[0]`` the total, so that checking and removing a set costs a few index operations.
"""

from __future__ import annotations

JESTER = 13
RANKS = range(1, 13)

RANK_NAMES = {
    1: "Dalmuti",
    2: "Archbishop",
    3: "Earl Marshal",
    4: "Baroness",
    5: "Abbess",
    6: "Knight",
    7: "Seamstress",
    8: "Mason",
    9: "Cook",
    10: "Shepherdess",
    11: "Stonecutter",
    12: "Peasant",
    13: "Jester",
}

TITLES = ("great_dalmuti", "lesser_dalmuti", "merchant", "lesser_peon", "greater_peon")
TITLE_NAMES = {
    "great_dalmuti": "Great Dalmuti",
    "lesser_dalmuti": "Lesser Dalmuti",
    "merchant": "Merchant",
    "lesser_peon": "Lesser Peon",
    "greater_peon": "Greater Peon",
}

MIN_PLAYERS = 4
MAX_PLAYERS = 10

EMPTY = (0,) * 14


def title(position: int, n_players: int) -> str:
    """The title of a 0-based position at a table of n_players."""
    if position == 0:
        return "great_dalmuti"
    if position == 1:
        return "lesser_dalmuti"
    if position == n_players - 1:
        return "greater_peon"
    if position == n_players - 2:
        return "lesser_peon"
    return "merchant"


def full_deck() -> list[int]:
    """The 80 cards: r cards of rank r, and two jesters."""
    return [r for r in RANKS for _ in range(r)] + [JESTER, JESTER]


def deck_for(n_players: int, reduced: bool) -> list[int]:
    """The deck dealt at a table: the reduced deck drops the 12s (5 players) or the 12s
    and 11s (4 players); with 6 or more players it is the full deck."""
    deck = full_deck()
    if reduced and n_players == 4:
        return [c for c in deck if c not in (11, 12)]
    if reduced and n_players == 5:
        return [c for c in deck if c != 12]
    return deck


def counts_of(cards) -> tuple[int, ...]:
    """The count tuple of an iterable of cards (no validation)."""
    h = [0] * 14
    for c in cards:
        h[c] += 1
    h[0] = sum(h)
    return tuple(h)


def cards_of(counts: tuple[int, ...]) -> list[int]:
    """The sorted cards of a count tuple."""
    out: list[int] = []
    for r in range(1, 14):
        if counts[r]:
            out.extend([r] * counts[r])
    return out
