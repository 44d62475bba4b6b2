"""The skilled bot's exact endgame: a play that empties the hand, or the first step of a
sequence of plays that goes out whatever the others hold.

With few cards in hand (``ENDGAME_CARDS``) the bot looks for sets nobody can beat (the
seat's ``Knowledge`` says which) that leave one set to go out on the lead they win back.
The sets nobody can beat stay so while nothing else is played, so the test needs no
search over orders (``_goes_out``); only the first step is searched.
"""

from __future__ import annotations

from ..cards import JESTER
from ..sim import Move
from .knowledge import Knowledge

ENDGAME_CARDS = 12  # search for a sure way out from this many cards in hand


def _after(h, move: tuple[int, int, int]) -> list[int]:
    q, m, j = move
    new = h[:]
    new[q] -= m
    new[JESTER] -= j
    new[0] -= m + j
    return new


def _one_set(h) -> tuple[int, int, int] | None:
    """The set that empties a hand of one rank plus jesters (or only jesters)."""
    found = None
    for r in range(1, JESTER):
        if h[r]:
            if found:
                return None
            found = (r, h[r], h[JESTER])
    return found or (JESTER, h[JESTER], 0)


def _hopeful(h, kn: Knowledge) -> bool:
    """At most one rank in hand is hopeless: somebody could beat it even with all the
    jesters added, so it needs a lead of its own that may be lost. A sure way out can
    only play such a rank last. (It stops at the second one, so it looks at the weakest
    ranks first, the likeliest to be hopeless.)"""
    jesters = h[JESTER]
    beat = kn.beat
    hopeless = False
    for r in range(JESTER - 1, 0, -1):
        c = h[r]
        if c and beat(c + jesters) < r:
            if hopeless:
                return False
            hopeless = True
    return True


def guaranteed_out(h, kn: Knowledge) -> tuple[int, int, int] | None:
    """A lead from which the hand surely goes out: sets nobody can beat, then the rest in
    one set; None if there is no such sequence. It is the first such lead in the order of
    ``lead_moves``; ``_goes_out`` tells, without a search, whether what it leaves goes
    out (``_hopeful`` is the same test's quick first part)."""
    move = _one_set(h)
    if move is None and _hopeful(h, kn) and _goes_out(h, kn):
        move = next((m for m in _safe_leads(h, kn) if _goes_out(_after(h, m), kn)), None)
    return move


def _goes_out(h, kn: Knowledge) -> bool:
    """Some sequence of sets nobody can beat leaves one set (one rank and every jester
    left, or jesters alone), found without searching: the sets nobody can beat stay so
    (the Knowledge does not change), so their order does not matter. Each rank but the
    last one is led whole with the fewest jesters that make it safe (split, it would need
    more), and the jesters left over go with the last one: the rank that needs the most
    is best kept for last."""
    jesters = h[JESTER]
    beat = kn.beat
    need = most = 0
    for q in range(1, JESTER):
        c = h[q]
        if c:
            if beat(c + jesters) < q:
                extra = jesters + 1  # not even with every jester: it must come last
            else:
                extra = 0  # a bigger set is at least as safe: the fewest that will do
                while beat(c + extra) < q:
                    extra += 1
            need += extra
            if extra > most:
                most = extra
    return need - most <= jesters


def _safe_leads(h, kn: Knowledge) -> list[tuple[int, int, int]]:
    """The sets of ``lead_moves(h)`` that nobody can beat, in the same order. A bigger set
    is at least as safe (fewer ranks make one), so a rank whose whole, with every jester,
    can be beaten has none."""
    jesters = h[JESTER]
    beat = kn.beat
    out = []
    for q in range(1, JESTER):
        c = h[q]
        if c and beat(c + jesters) >= q:
            for m in range(1, c + 1):
                for j in range(jesters + 1):
                    if beat(m + j) >= q:
                        out.append((q, m, j))
    for m in range(1, jesters + 1):
        if beat(m) >= JESTER:
            out.append((JESTER, m, 0))
    return out


def out_on(h, last: tuple[int, int]) -> tuple[int, int, int] | None:
    """The play of one rank and every jester that beats ``last`` and empties the hand."""
    k, q = last
    if h[0] == k:
        jesters = h[JESTER]
        for r in range(1, q if q < JESTER else JESTER):
            if h[r] and h[r] + jesters == k:
                return (r, h[r], jesters)
    return None


def sure_move(kn: Knowledge, last: tuple[int, int] | None) -> Move | bool:
    """A play that empties the hand, or the first step of a sure way out; False if none."""
    h = kn.hand
    jesters = h[JESTER]
    if last is None:
        move = _one_set(h)
        if move is not None:
            return move
        if h[0] <= ENDGAME_CARDS:
            move = guaranteed_out(h, kn)
            if move is not None:
                return move
        return False
    k, q = last
    top = q if q < JESTER else JESTER
    move = out_on(h, last)
    if move is not None:
        return move
    reach = min(top, kn.beat(k) + 1)  # a safe play has a rank below this
    need = k - jesters if k > jesters else 1  # cards of one rank that make a play
    if (h[0] <= ENDGAME_CARDS and max(h[1:reach], default=0) >= need
            and _hopeful(h, kn)):
        for r in range(1, reach):
            c = h[r]
            for m in range(max(1, k - jesters), min(c, k) + 1):
                move = (r, m, k - m)
                if kn.safe(move) and _goes_out(_after(h, move), kn):
                    return move
    return False
