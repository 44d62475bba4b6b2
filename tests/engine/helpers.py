"""Small helpers for the engine tests."""

from __future__ import annotations

from games.engine import JESTER, PASS, Options, Play, Revolution, Round

NO_TAXES = Options(first_round_taxes=False)


def open_round(hands, **options) -> Round:
    """A round straight into play: a first round without taxes, the Greater Peon (asked
    about a Great Revolution, jesters or not) having said no."""
    r = Round.start(hands, Options(first_round_taxes=False, **options), first_round=True)
    if r.phase == "taxes":
        r = r.apply(len(hands) - 1, Revolution(False))
    return r


def run(r: Round, moves) -> Round:
    """Apply moves given as (seat, cards) for a play or (seat, None) for a pass."""
    for seat, cards in moves:
        r = r.apply(seat, PASS if cards is None else Play(tuple(cards)))
    return r


def passes(*seats):
    return [(s, None) for s in seats]


def give_both_jesters(hands: list[list[int]], holder: int) -> list[list[int]]:
    """The deal with both jesters moved into `holder`'s hand, each swapped for one of its
    other cards (hand sizes unchanged), every hand sorted."""
    for s in range(len(hands)):
        while s != holder and JESTER in hands[s]:
            swap = next(c for c in hands[holder] if c != JESTER)
            hands[s].remove(JESTER)
            hands[holder].remove(swap)
            hands[s].append(swap)
            hands[holder].append(JESTER)
    return [sorted(h) for h in hands]
