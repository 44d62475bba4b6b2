"""The play phase (docs/RULES.md section 6): lead, follow with as many cards of a better rank,
or pass; the last to play before everybody else passed wins the trick and leads again.
The round is over when one player still holds cards."""

from __future__ import annotations

from ..actions import PASS, Action, Pass, Play
from ..cards import JESTER
from ..errors import IllegalMove
from ..hands import (
    PLAYS,
    SETS,
    diagnose_set,
    follow_sets,
    lead_sets,
    next_order,
    round_points,
)
from .phase import PhaseRules
from .state import Hand, Records, RoundState, Table, check_seat, make


def begin_play(t: Table, hands: tuple[Hand, ...], rec: Records, events: tuple) -> RoundState:
    """The first trick: the Great Dalmuti (after a Great Revolution, the new one) leads."""
    leader = t.order[0]
    return make(table=t, phase="play", hands=hands, records=rec, to_act=leader,
                events=events + (("play_starts", leader),))


def play(r: RoundState, seat: int, cards: tuple[int, ...]) -> RoundState:
    try:
        info = SETS.get(cards)
    except TypeError:
        info = None
    if info is None:
        diagnose_set(cards)
    q, m, j = info
    h = r.hands[seat]
    if h[q] < m or h[JESTER] < j:
        raise IllegalMove("cards_not_in_hand")
    k = m + j
    last = r.last
    if last is not None:
        if k != last[1]:
            raise IllegalMove("wrong_count", count=last[1])
        if q >= last[2]:
            raise IllegalMove("not_better", rank=last[2])
    new = list(h)
    new[q] -= m
    new[JESTER] -= j
    new[0] -= k
    hands = r.hands
    hands = hands[:seat] + (tuple(new),) + hands[seat + 1 :]
    t = r.table
    events: tuple = (("play", seat, cards),)
    history = r.history
    if last is None:
        history = history + (((seat, cards),),)
    else:
        history = history[:-1] + (history[-1] + ((seat, cards),),)
    finish = r.finish_order
    if new[0] == 0:
        finish = finish + (seat,)
        events += (("out", seat, len(finish)),)
        if len(finish) == t.n - 1:
            last_seat = next(s for s in t.order if hands[s][0])
            finish = finish + (last_seat,)
            events += (("out", last_seat, t.n), ("over",))
            return make(table=t, phase="over", hands=hands, records=r.records,
                        trick=r.trick + ((seat, cards),), last=(seat, k, q), finish_order=finish,
                        result=result(t, finish), events=events, history=history)
    nxt = t.nxt
    s = nxt[seat]
    while not hands[s][0]:
        s = nxt[s]
    return make(table=t, phase="play", hands=hands, records=r.records, to_act=s,
                trick=r.trick + ((seat, cards),), last=(seat, k, q), finish_order=finish,
                events=events, history=history)


def pass_turn(r: RoundState, seat: int) -> RoundState:
    last = r.last
    if last is None:
        raise IllegalMove("leader_must_play")
    t = r.table
    hands = r.hands
    passed = r.passed + (seat,)
    holders = t.n - len(r.finish_order)
    nxt = t.nxt
    s = nxt[seat]
    while not hands[s][0]:
        s = nxt[s]
    history = r.history
    history = history[:-1] + (history[-1] + ((seat, None),),)
    # Everybody else still holding cards passed (the last to play, if out, counts too):
    # the trick is won.
    if len(passed) >= (holders - 1 if hands[last[0]][0] else holders):
        return make(table=t, phase="play", hands=hands, records=r.records, to_act=s,
                    finish_order=r.finish_order, events=(("pass", seat), ("trick", last[0], s)),
                    history=history)
    return make(table=t, phase="play", hands=hands, records=r.records, to_act=s, trick=r.trick,
                last=last, passed=passed, finish_order=r.finish_order, events=(("pass", seat),),
                history=history)


def result(t: Table, finish: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(points per seat, the next round's order) of a finished round."""
    options = t.options
    order = next_order(t.order, finish, options.master_rule)
    if not options.scoring:
        return (0,) * t.n, order
    points = round_points(t.order, finish, options.philanthropic, options.master_rule)
    return tuple(points), order


class PlayPhase(PhaseRules):
    name = "play"
    moves = {Play: lambda r, seat, a: play(r, seat, a.cards),
             Pass: lambda r, seat, a: pass_turn(r, seat)}

    def legal_actions(self, r: RoundState, seat: int) -> list[Action]:
        if seat != r.to_act:
            return []
        last = r.last
        if last is None:
            return lead_sets(r.hands[seat], PLAYS)
        return follow_sets(r.hands[seat], last[1], last[2], PLAYS, [PASS])

    def apply(self, r: RoundState, seat: int, action: Action) -> RoundState:
        # The hot path of every round: the seat to act playing or passing, checked first.
        if seat != r.to_act:
            check_seat(r, seat)
            raise IllegalMove("not_your_turn")
        kind = type(action)
        if kind is Play:
            return play(r, seat, action.cards)
        if kind is Pass:
            return pass_turn(r, seat)
        return super().apply(r, seat, action)

