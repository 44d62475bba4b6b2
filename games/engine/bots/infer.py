"""What the other seats' past plays and passes say about their hands.

A seat's hand at an earlier decision is its hand now plus every card it has played since,
and everything else it knew then (the cards gone, how many cards each seat held, the set
to beat) is public: the view's ``history`` replays it. So for a guessed hand we can ask
what a model player, the skilled bot, would have done at each of that seat's decisions,
and compare with what the seat did. A guess that explains the seat's actions is more
likely than one that does not. Real players (and the other bots) do not play exactly like
the model, so a mismatch only multiplies the guess's weight by ``eps`` instead of ruling it
out: the true hands always keep a weight above zero, and sampling never stalls.

A seat's weight depends only on its own guessed hand, so it is cached per hand.
"""

from __future__ import annotations

from collections.abc import Callable
from math import log

from ..cards import JESTER
from ..hands import UNBEATABLE
from ..sim import Move, move_of
from .endgame import out_on
from .knowledge import Knowledge
from .skilled import best_move

Model = Callable[[list[int], list[int], int, int, "tuple[int, int] | None", tuple], Move]
Decision = tuple[tuple[int, ...], tuple[int, ...], int, int, "tuple[int, int] | None", tuple,
                 Move]


class Inference:
    """The other seats' decisions in the round so far, replayable against guessed hands.

    ``decisions[s]``: for each of seat s's past decisions, ``(later, avail, n_opp, max_opp,
    last, passed, move)``: ``later`` the cards (counts) s has played from then on,
    ``avail`` the cards not yet played then (``deck - played``), the number of other seats
    holding cards and the largest of their hands, the set to beat ``(count, rank)`` or
    None, what the others holding cards had passed on by then (as
    ``knowledge.passed_on``), and the move s made. Decisions where s could not have
    done anything but what it did are left out."""

    def __init__(self, view: dict, eps: float):
        n = view["n_players"]
        seat = view["seat"]
        self.seat = seat
        self.eps = eps
        history = view["history"]
        played_by = [[0] * 14 for _ in range(n)]
        tricks: list[list[tuple[int, Move]]] = []
        for trick in history:
            moves = []
            for entry in trick:
                s = entry["seat"]
                move = None if entry["type"] == "pass" else move_of(entry["cards"])
                moves.append((s, move))
                if move is not None:
                    _take(played_by[s], move, -1)
            tricks.append(moves)
        counts = [view["counts"][s] + played_by[s][0] for s in range(n)]
        avail = list(view["deck"])
        avail[0] = sum(avail[1:])
        later = [p[:] for p in played_by]
        self.decisions: list[list[Decision]] = [[] for _ in range(n)]
        caps = [[0] * 16 for _ in range(n)]
        for moves in tricks:
            last = None
            for s, move in moves:
                if s != seat and counts[s] != _size(move):  # going out tells nothing new
                    others = [counts[o] for o in range(n) if o != s and counts[o]]
                    passed = tuple(tuple(caps[o]) for o in range(n) if o != s and counts[o])
                    self.decisions[s].append((tuple(later[s]), tuple(avail), len(others),
                                              max(others, default=0), last, passed, move))
                if move is None:
                    if last is not None and last[1] > caps[s][last[0]]:
                        caps[s][last[0]] = last[1]
                else:
                    q, m, j = move
                    _take(later[s], move)
                    _take(avail, move)
                    counts[s] -= m + j
                    last = (m + j, q)
        self._cache: dict[tuple, float] = {}
        # How each seat is taken to play: the skilled bot unless ``choose_models`` finds
        # that another model explains its decisions better.
        self.models: list[Model] = [skilled_model] * n

    def choose_models(self, deals: list[list[list[int]]]) -> None:
        """For each other seat, the model that explains its past decisions best over the
        given deals: the fewest decisions it would have made differently, on average
        (the skilled bot on a tie). The average count is steadier than the average
        weight, which a single lucky deal dominates."""
        for s, decisions in enumerate(self.decisions):
            if s == self.seat or not decisions:
                continue
            best, best_like = skilled_model, -1e18
            for model in MODELS:
                like = sum(log(self.seat_weight(s, h[s], model)) for h in deals)
                if like > best_like + 1e-9:
                    best, best_like = model, like
            self.models[s] = best

    @property
    def informative(self) -> bool:
        return any(self.decisions)

    def seat_weight(self, s: int, hand: list[int], model: Model | None = None) -> float:
        """``eps`` to the power of the number of s's past decisions the model player
        holding ``hand`` now would have made differently."""
        decisions = self.decisions[s]
        if not decisions:
            return 1.0
        if model is None:
            model = self.models[s]
        key = (s, model, *hand)
        w = self._cache.get(key)
        if w is not None:
            return w
        w = 1.0
        eps = self.eps
        for later, avail, n_opp, max_opp, last, passed, move in decisions:
            h = [a + b for a, b in zip(hand, later, strict=True)]
            if last is not None:
                k, q = last
                jesters = h[JESTER]
                for r in range(1, q if q < JESTER else JESTER):
                    if h[r] and h[r] + jesters >= k:
                        break
                else:
                    continue  # it could only pass, and did
            unseen = [a - b for a, b in zip(avail, h, strict=True)]
            if model(h, unseen, n_opp, max_opp, last, passed) != move:
                w *= eps
        self._cache[key] = w
        return w

    def weight(self, hands: list[list[int]]) -> float:
        """The weight of a guessed deal: the product of every other seat's weight."""
        w = 1.0
        for s, h in enumerate(hands):
            if s != self.seat and self.decisions[s]:
                w *= self.seat_weight(s, h)
        return w


def _take(h: list[int], move: tuple[int, int, int], sign: int = 1) -> None:
    q, m, j = move
    h[q] -= sign * m
    h[JESTER] -= sign * j
    h[0] -= sign * (m + j)


def _size(move: Move) -> int:
    return 0 if move is None else move[1] + move[2]


# --- models of the other players ---------------------------------------------------------


def skilled_model(h: list[int], unseen: list[int], n_opp: int, max_opp: int,
                  last: tuple[int, int] | None, passed: tuple = ()) -> Move:
    """The skilled bot's move."""
    return best_move(Knowledge(h, unseen, n_opp, max_opp, passed), last)


def plain_model(h: list[int], unseen: list[int], n_opp: int, max_opp: int,
                last: tuple[int, int] | None, passed: tuple = ()) -> Move:
    """The plain whole-set player of many card-game apps: go out when one set empties
    the hand; lead the worst whole rank (or, with one other rank left, the worst set
    nobody can beat, to go out on the lead it wins back); follow with the worst whole set
    of the size asked, else pass; never break a set; keep the jesters for going out."""
    jesters = h[JESTER]
    if last is None:
        found = 0
        for r in range(1, JESTER):
            if h[r]:
                if found:
                    found = -1
                    break
                found = r
        if found == 0:
            return (JESTER, jesters, 0)
        if found > 0:
            return (found, h[found], jesters)
        worst_other = worst_control = 0
        others = 0
        for r in range(1, JESTER):
            c = h[r]
            if c:
                if _plain_beat(unseen, max_opp, c) >= r:
                    worst_control = r
                else:
                    worst_other = r
                    others += 1
        if worst_control and others <= 1:
            return (worst_control, h[worst_control], 0)
        return (worst_other, h[worst_other], 0)
    move = out_on(h, last)
    if move is not None:
        return move
    k, q = last
    top = q if q < JESTER else JESTER
    for r in range(top - 1, 0, -1):
        if h[r] == k:
            return (r, k, 0)
    return None


MODELS: tuple[Model, ...] = (skilled_model, plain_model)


def _plain_beat(unseen: list[int], max_opp: int, k: int) -> int:
    if k > max_opp:
        return UNBEATABLE
    uj = unseen[JESTER]
    for r in range(1, JESTER):
        if unseen[r] and unseen[r] + uj >= k:
            return r
    return JESTER if uj >= k else UNBEATABLE
