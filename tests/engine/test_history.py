"""The round's public history in every view: who played what and who passed, trick by
trick, and nothing that a player at a real table could not have seen."""

import json
import random

import pytest

from games.engine import JESTER, PASS, Options, Play, Round, action_from_json, deal

from .helpers import open_round, passes, run

J = JESTER
HANDS = [[12, 12, 3], [11, 11, 4], [10, 10, 5], [9, 9, 6]]


def _play(seat, cards):
    return {"seat": seat, "type": "play", "cards": cards}


def _pass(seat):
    return {"seat": seat, "type": "pass"}


def test_the_history_lists_each_trick_s_plays_and_passes_in_turn_order():
    r = open_round(HANDS)
    assert r.view(0)["history"] == []
    r = run(r, [(0, [12, 12]), (1, None), (2, [10, 10]), (3, [9, 9]), *passes(0, 1, 2)])
    r = run(r, [(3, [6]), (0, [3])])
    assert r.view(1)["history"] == [
        [_play(0, [12, 12]), _pass(1), _play(2, [10, 10]), _play(3, [9, 9]),
         _pass(0), _pass(1), _pass(2)],
        [_play(3, [6]), _play(0, [3])],
    ]


def test_a_trick_won_by_a_player_who_went_out_ends_and_the_next_starts_after_them():
    r = open_round([[1], [2, 12], [3, 11], [4, 10]])
    r = run(r, [(0, [1]), *passes(1, 2, 3), (1, [12]), (2, [11])])
    history = r.view(3)["history"]
    assert history == [
        [_play(0, [1]), _pass(1), _pass(2), _pass(3)],
        [_play(1, [12]), _play(2, [11])],
    ]


def test_jesters_appear_in_the_history_as_played():
    r = open_round([[6, 6, J, 3], [11, 11, 4], [10, 10, 5], [9, 9, 6]])
    r = run(r, [(0, [6, 6, J])])
    assert r.view(2)["history"] == [[_play(0, [6, 6, J])]]


def _random_round(seed: int, n: int) -> list[Round]:
    """Every state of a round played at random, from the deal to the end."""
    rng = random.Random(seed)
    options = Options(first_round_taxes=rng.random() < 0.5)
    r = Round.start(deal(n, options, seed), options, first_round=True, seed=seed)
    states = [r]
    while r.phase != "over":
        seat = r.awaiting[0]
        r = r.apply(seat, rng.choice(r.legal_actions(seat)))
        states.append(r)
    return states


@pytest.mark.parametrize("seed", range(8))
def test_the_history_is_the_same_for_every_seat_and_for_a_spectator(seed):
    n = 4 + seed % 7
    for r in _random_round(seed, n):
        spectator = r.view(None)["history"]
        assert all(r.view(s)["history"] == spectator for s in range(n))


@pytest.mark.parametrize("seed", range(8))
def test_the_history_is_exactly_what_a_spectator_saw_happen(seed):
    """Rebuilt from the public events a spectator is shown move by move, the history
    comes out the same: it adds nothing that was not public as it happened."""
    n = 4 + seed % 7
    seen: list[list[dict]] = []
    open_trick = False
    for r in _random_round(seed, n):
        for event in r.events_for(None):
            if event["type"] == "play":
                if not open_trick:
                    seen.append([])
                    open_trick = True
                seen[-1].append(_play(event["seat"], event["cards"]))
            elif event["type"] == "pass":
                seen[-1].append(_pass(event["seat"]))
            elif event["type"] == "trick_won":
                open_trick = False
        assert r.view(None)["history"] == seen


def _hidden_swap(states: list[Round], k: int, seat: int, rng: random.Random):
    """The deal of ``states`` with the cards that nobody played in the first k moves
    shuffled among the seats other than ``seat`` (each keeps its count and its jesters),
    or None if nothing could change."""
    first = states[0]
    n = first.n_players
    hands = [first.hand(s) for s in range(n)]
    played = [list(hands[s]) for s in range(n)]
    for s in range(n):
        for c in states[k].hand(s):
            played[s].remove(c)
    others = [s for s in range(n) if s != seat]
    kept = {s: [c for c in states[k].hand(s) if c != J] for s in others}
    pool = [c for s in others for c in kept[s]]
    if len(set(pool)) < 2:
        return None
    rng.shuffle(pool)
    new = [list(h) for h in hands]
    for s in others:
        jesters = [c for c in states[k].hand(s) if c == J]
        take, pool = pool[: len(kept[s])], pool[len(kept[s]):]
        new[s] = sorted(played[s] + jesters + take)
    return new


@pytest.mark.parametrize("seed", range(12))
def test_a_seat_s_view_with_its_history_does_not_depend_on_the_hidden_cards(seed):
    """Replay the same moves on a deal whose unplayed cards in the other hands are
    shuffled among them: every view of the seat, history included, is identical."""
    rng = random.Random(seed)
    n = 4 + seed % 7
    options = Options(first_round_taxes=False)
    r = open_round(deal(n, options, seed))
    states, moves = [r], []
    while r.phase != "over":
        seat = r.to_act
        action = rng.choice(r.legal_actions(seat))
        moves.append((seat, action))
        r = r.apply(seat, action)
        states.append(r)
    checked = 0
    for k in (len(moves) // 3, len(moves) // 2, (2 * len(moves)) // 3):
        seat = rng.randrange(n)
        hands = _hidden_swap(states, k, seat, rng)
        if hands is None:
            continue
        other = open_round(hands)
        for s, action in moves[:k]:
            other = other.apply(s, action)
        assert other.view(seat) == states[k].view(seat)
        assert other.view(seat)["history"] == states[k].view(None)["history"]
        checked += 1
    assert checked


def test_the_history_survives_json_and_a_form_saved_without_it_still_loads():
    r = run(open_round(HANDS), [(0, [12, 12]), (1, None), (2, [10, 10])])
    data = json.loads(json.dumps(r.to_json()))
    assert Round.from_json(data) == r
    del data["history"]
    old = Round.from_json(data)
    assert old.view(0)["history"] == [[_play(0, [12, 12]), _play(2, [10, 10])]]
    old = old.apply(3, PASS).apply(0, PASS).apply(1, PASS)
    assert old.view(0)["history"][-1][-1] == _pass(1)
    assert old.apply(2, Play((5,))).view(0)["history"][-1] == [_play(2, [5])]


def test_the_tax_phase_has_no_history_and_the_history_keeps_only_public_moves():
    options = Options()
    r = Round.start(deal(5, options, 3), options, seed=3)
    assert r.view(0)["history"] == []
    while r.phase != "play":
        seat = r.awaiting[0]
        r = r.apply(seat, action_from_json(r.view(seat)["legal_actions"][-1]))
    assert r.view(0)["history"] == []
    text = json.dumps(r.view(None)["history"])
    assert "give_back" not in text and "trade" not in text
