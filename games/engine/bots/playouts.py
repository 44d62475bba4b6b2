"""The expert bot's playouts: a sampled deal played on to the end on the fast simulator
(``sim.py``), every seat playing its model (``infer``), and what the result is worth to
the seat (``Values``). The seat's own next decisions can branch (``own_moves``), a search
of its own plan on the deal.
"""

from __future__ import annotations

from operator import sub

from ..cards import JESTER
from ..sim import Move, Sim, round_points
from .endgame import sure_move
from .infer import plain_model
from .knowledge import Knowledge
from .skilled import best_move, scored_moves


class Values:
    """What a finished (or decided) playout is worth to the seat: its round points."""

    def __init__(self, view: dict):
        self.seat = view["seat"]
        self.n = view["n_players"]
        self.options = view["options"]
        self.philanthropic = self.options["philanthropic"] != "off"
        # How each seat plays in the playouts: ``playout_move`` (the skilled bot) unless
        # the seat's past decisions fit the plain whole-set player better.
        self.policy = [playout_move] * self.n

    def playout(self, sim: Sim, width: int = 0, depth: int = 1) -> float:
        """Play the round on, every seat playing its model, until the seat's place is
        known (to the end when a Dalmuti's philanthropic points depend on the others);
        what it scores. With ``width`` > 1, each of the seat's own next ``depth``
        decisions instead tries ``width`` moves (``own_moves``) and keeps the best
        outcome: a search of the seat's own plan on this deal."""
        return self.outcome(sim, width, depth)[0]

    def outcome(self, sim: Sim, width: int = 0, depth: int = 1) -> tuple[float, int]:
        """``playout``'s points and, with them, the seat's 0-based finishing place in the
        same (best) line of play: what a review reports beside the points."""
        left = [sum(h[r] for h in sim.hands) for r in range(14)]
        return self._run(sim, left, width, depth if width > 1 else 0)

    def _run(self, sim: Sim, left: list[int], width: int, depth: int) -> tuple[float, int]:
        seat = self.seat
        to_the_end = self.philanthropic and seat in sim.order[:2]
        stop = None if to_the_end else seat
        finish = sim.finish
        while sim.to_act is not None and stop not in finish:
            if depth and sim.to_act == seat:
                moves = own_moves(sim, left, width)
                if len(moves) > 1:
                    best = (-1e9, 0)
                    for move in moves:
                        branch = sim.copy()
                        after = left[:]
                        _step(branch, after, move)
                        value = self._run(branch, after, width, depth - 1)
                        if value[0] > best[0]:
                            best = value
                    return best
                move = moves[0]
            else:
                move = self.policy[sim.to_act](sim, left)
            _step(sim, left, move)
        place = finish.index(seat)
        if to_the_end:
            return round_points(sim.order, finish, self.options)[seat], place
        return self.n - 1 - place, place


def _step(sim: Sim, left: list[int], move: Move) -> None:
    sim.step(move)
    if move is not None:
        q, m, j = move
        left[q] -= m
        left[JESTER] -= j
        left[0] -= m + j


def _knowledge(sim: Sim, left: list[int], seat: int) -> Knowledge:
    """What ``seat`` knows in the simulation: its hand and the cards still held."""
    hands = sim.hands
    h = hands[seat]
    n_opp = max_opp = 0
    for other in hands:
        c = other[0]
        if c and other is not h:
            n_opp += 1
            if c > max_opp:
                max_opp = c
    return Knowledge(h, list(map(sub, left, h)), n_opp, max_opp)


def _forced_pass(h: list[int], last) -> bool:
    """Nothing in the hand can follow ``last`` (``(seat, count, rank)``)."""
    top = last[2] if last[2] < JESTER else JESTER
    if top <= 1:
        return True
    need = last[1] - h[JESTER]
    return max(h[1:top]) < (need if need > 1 else 1)


def own_moves(sim: Sim, left: list[int], width: int) -> list[Move]:
    """``width`` moves worth trying for ``sim.to_act``: the skilled bot's best ones, the
    last of them replaced by the plain whole-set player's move when that differs (two
    different ways to play on, rather than two near-equal skilled scores); only the sure
    one when it has a sure way out, only passing when it cannot follow."""
    last = sim.last
    h = sim.hands[sim.to_act]
    if last is not None and _forced_pass(h, last):
        return [None]
    kn = _knowledge(sim, left, sim.to_act)
    pair = None if last is None else (last[1], last[2])
    move = sure_move(kn, pair)
    if move is not False:
        return [move]
    moves = [m for _, m in scored_moves(kn, pair)][:width]
    plain = plain_model(kn.hand, kn.unseen, 0, kn.max_opp, pair)
    if plain not in moves:
        moves = moves[:max(1, width - 1)] + [plain]
    return moves


def playout_move(sim: Sim, left: list[int]) -> Move:
    """The skilled bot's move for ``sim.to_act``, which knows its own hand and the cards
    still held (``left``: all hands together), as it would from its view."""
    last = sim.last
    seat = sim.to_act
    if last is not None:
        if _forced_pass(sim.hands[seat], last):
            return None
        last = (last[1], last[2])
    return best_move(_knowledge(sim, left, seat), last)


def plain_playout_move(sim: Sim, left: list[int]) -> Move:
    """The plain whole-set player's move for ``sim.to_act`` (``infer.plain_model``)."""
    last = sim.last
    seat = sim.to_act
    hands = sim.hands
    h = hands[seat]
    if last is not None:
        if _forced_pass(h, last):
            return None
        last = (last[1], last[2])
    max_opp = 0
    for other in hands:
        c = other[0]
        if c > max_opp and other is not h:
            max_opp = c
    return plain_model(h, list(map(sub, left, h)), 0, max_opp, last)
