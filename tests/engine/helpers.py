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


def _move_jester(hands: list[list[int]], giver: int, taker: int) -> None:
    """One jester from `giver` to `taker`, swapped for one of `taker`'s other cards."""
    swap = next(c for c in hands[taker] if c != JESTER)
    hands[giver].remove(JESTER)
    hands[taker].remove(swap)
    hands[giver].append(swap)
    hands[taker].append(JESTER)


def give_both_jesters(hands: list[list[int]], holder: int) -> list[list[int]]:
    """The deal with both jesters moved into `holder`'s hand, each swapped for one of its
    other cards (hand sizes unchanged), every hand sorted."""
    for s in range(len(hands)):
        while s != holder and JESTER in hands[s]:
            _move_jester(hands, s, holder)
    return [sorted(h) for h in hands]


def one_jester_each(hands: list[list[int]], first: int, second: int) -> list[list[int]]:
    """The deal with one jester in `first`'s hand and one in `second`'s (nobody holds
    both), each moved as in `give_both_jesters`."""
    hands = give_both_jesters(hands, first)
    _move_jester(hands, first, second)
    return [sorted(h) for h in hands]


# Every option of the books across four table sizes (a 10-round game each), and the seat
# changes between rounds: after round 3 and round 6 somebody joins or leaves.
BOOK_GAMES = {
    4: (Options(rounds=10, great_revolution="at_once", master_rule=True,
                philanthropic="per_position", seating_ties="until_unique", reduced_deck=True),
        {3: "join", 6: "leave"}),
    5: (Options(rounds=10, tribute_return="worst", philanthropic="flat"),
        {3: "join", 6: "leave"}),
    8: (Options(rounds=10, merchant_trade="chosen", great_revolution="at_once",
                master_rule=True),
        {3: "join", 6: "leave"}),
    10: (Options(rounds=10, merchant_trade="random", merchant_trade_from=7,
                 seating_ties="until_unique"),
         {3: "leave", 6: "join"}),
}


def revolution_seed(n: int, options: Options) -> int:
    """The first game seed whose round 2 deals both jesters to the Greater Peon (a Great
    Revolution, at once or declared) and round 3 to the Lesser Peon (a revolution the
    basic bot declares): whoever plays, the game goes through both."""
    from games.engine import deal, derive_seed

    for seed in range(1_000_000):
        if deal(n, options, derive_seed(seed, "deal", 2))[n - 1].count(JESTER) != 2:
            continue
        if deal(n, options, derive_seed(seed, "deal", 3))[n - 2].count(JESTER) == 2:
            return seed
    raise AssertionError("no such seed")
