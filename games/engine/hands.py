"""The rules' primitives, written once: hands as counts, the sets a hand can play, what
beats what, the cards a tax takes, and the points a finishing order scores.

A hand is 14 counts (``hand[r]`` cards of rank r, ``hand[0]`` the total; see ``cards.py``).
A set is m cards of rank q and j jesters, or m jesters alone (rank ``JESTER``). The referee
(``round``) and the bots' simulator (``sim``) both take their move generation and scoring
from here, so the two can never disagree about the rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from .actions import Play
from .cards import JESTER, counts_of
from .errors import IllegalMove

Hand = tuple[int, ...]
Move = tuple[int, int, int]  # (rank, cards of that rank, jesters)

#: A rank worse than any card: "nobody can beat this set" (rank 14 sorts after the jester).
UNBEATABLE = JESTER + 1

# --- every set, precomputed -------------------------------------------------------------
# MOVES[q][m][j] / PLAYS[q][m][j]: m cards of rank q and j jesters, as a (q, m, j) move and
# as the Play action (q = JESTER: m jesters alone). SETS[cards]: (q, m, j) of a sorted set.
# Move generation looks the sets up instead of building them: it runs on every turn.

T = TypeVar("T")


def _table_of(make) -> list[list[list]]:
    table: list[list[list]] = [[[None] * 3 for _ in range(14)] for _ in range(14)]
    for q in range(1, 13):
        for m in range(1, q + 1):
            for j in range(3):
                table[q][m][j] = make(q, m, j)
    for m in (1, 2):
        table[JESTER][m][0] = make(JESTER, m, 0)
    return table


def set_cards(q: int, m: int, j: int) -> tuple[int, ...]:
    """The sorted cards of the set (q, m, j)."""
    return (q,) * m + (JESTER,) * j


def _new_play(q: int, m: int, j: int) -> Play:
    # Skips Play's checks: every precomputed set is valid by construction.
    play = object.__new__(Play)
    object.__setattr__(play, "cards", set_cards(q, m, j))
    return play


MOVES: list[list[list[Move]]] = _table_of(lambda q, m, j: (q, m, j))
PLAYS: list[list[list[Play]]] = _table_of(_new_play)
SETS: dict[tuple[int, ...], Move] = {
    set_cards(*move): move for row in MOVES for cell in row for move in cell if move
}


def lead_sets(h: Sequence[int], table: list[list[list[T]]]) -> list[T]:
    """Every set hand ``h`` can lead, from ``table`` (``MOVES`` or ``PLAYS``), in the order
    of ``Round.legal_actions``: by rank, best first, then jesters alone."""
    jesters = h[JESTER]
    out: list[T] = []
    for q in range(1, 13):
        c = h[q]
        if c:
            row = table[q]
            for m in range(1, c + 1):
                cell = row[m]
                for j in range(jesters + 1):
                    out.append(cell[j])
    for m in range(1, jesters + 1):
        out.append(table[JESTER][m][0])
    return out


def follow_sets(h: Sequence[int], count: int, rank: int, table: list[list[list[T]]],
                out: list) -> list:
    """Append to ``out`` every set of ``count`` cards of a rank better than ``rank`` that
    hand ``h`` holds (jesters fill in for the missing cards); returns ``out``."""
    jesters = h[JESTER]
    lowest_m = count - jesters if count > jesters else 1
    for q in range(1, rank if rank < JESTER else JESTER):
        c = h[q]
        if c and c >= lowest_m:
            row = table[q]
            for m in range(lowest_m, (c if c < count else count) + 1):
                out.append(row[m][count - m])
    return out


# --- hands --------------------------------------------------------------------------------


def without(h: Hand, cards: Iterable[int]) -> Hand:
    """Hand ``h`` after giving up ``cards``."""
    new = list(h)
    for c in cards:
        new[c] -= 1
        new[0] -= 1
    return tuple(new)


def with_cards(h: Hand, cards: Iterable[int]) -> Hand:
    """Hand ``h`` after receiving ``cards``."""
    new = list(h)
    for c in cards:
        new[c] += 1
        new[0] += 1
    return tuple(new)


def holds(h: Hand, cards: Iterable[int]) -> bool:
    need = counts_of(cards)
    return all(need[r] <= h[r] for r in range(1, 14))


def best_cards(h: Hand, k: int) -> tuple[int, ...]:
    """The k best non-jester cards (the tribute a Peon must pay)."""
    out: list[int] = []
    for r in range(1, 13):
        out.extend([r] * min(h[r], k - len(out)))
        if len(out) == k:
            break
    return tuple(out)


def worst_cards(h: Hand, k: int) -> tuple[int, ...]:
    """The k worst non-jester cards, sorted (the give-back with ``tribute_return="worst"``)."""
    out: list[int] = []
    for r in range(12, 0, -1):
        out.extend([r] * min(h[r], k - len(out)))
        if len(out) == k:
            break
    return tuple(sorted(out))


def non_jesters(h: Hand) -> int:
    return h[0] - h[JESTER]


def check_cards(cards: Iterable[object]) -> None:
    """``IllegalMove("bad_card")`` unless every card is a rank from 1 to ``JESTER``."""
    for c in cards:
        if type(c) is not int or not 1 <= c <= JESTER:
            raise IllegalMove("bad_card", card=c)


def diagnose_set(cards: object) -> None:
    """Raise the IllegalMove explaining why ``cards`` is not a set."""
    if not isinstance(cards, tuple):
        raise IllegalMove("unknown_action")
    if not cards:
        raise IllegalMove("empty_play")
    check_cards(cards)
    if len({c for c in cards if c != JESTER}) > 1:
        raise IllegalMove("mixed_ranks")
    raise IllegalMove("cards_not_in_hand")  # e.g. three jesters: nobody holds them


# --- scoring ------------------------------------------------------------------------------


def _places(n: int, finish: Sequence[int]) -> list[int]:
    place = [0] * n
    for i, s in enumerate(finish):
        place[s] = i
    return place


def next_order(order: Sequence[int], finish: Sequence[int], master_rule: bool) -> tuple[int, ...]:
    """The seats in the next round's position order. Under the master rule walk down the
    old positions: each player is compared with whoever now holds the place above; who
    finished earlier takes the higher place. Otherwise the finishing order."""
    if not master_rule:
        return tuple(finish)
    place = _places(len(order), finish)
    nxt = list(order)
    for i in range(1, len(nxt)):
        if place[nxt[i]] < place[nxt[i - 1]]:
            nxt[i - 1], nxt[i] = nxt[i], nxt[i - 1]
    return tuple(nxt)


def round_points(order: Sequence[int], finish: Sequence[int], philanthropic: str,
                 master_rule: bool) -> list[int]:
    """Per seat, the points of a complete finishing order: n - 1 for the first out down to
    0; with philanthropic scoring each Dalmuti also scores for their Peon's rise (per
    position or once) from ``order`` to the next round's order."""
    n = len(order)
    place = _places(n, finish)
    points = [n - 1 - place[s] for s in range(n)]
    if philanthropic != "off":
        new_pos = {s: i for i, s in enumerate(next_order(order, finish, master_rule))}
        for dalmuti_pos, peon_pos in ((0, n - 1), (1, n - 2)):
            rise = peon_pos - new_pos[order[peon_pos]]
            if rise > 0:
                points[order[dalmuti_pos]] += rise if philanthropic == "per_position" else 1
    return points
