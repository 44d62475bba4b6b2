"""The expert bot: its deals of the unseen cards fit what the seat knows; it searches."""

import random
import time

from games.engine import JESTER, PASS, Options, Play, Revolution, Round, deal
from games.engine.bots.common import counts
from games.engine.bots.deals import Deals, Sampler
from games.engine.bots.expert import _search, expert_bot
from games.engine.bots.greedy import greedy_bot
from games.engine.bots.infer import Inference, plain_model
from games.engine.bots.playouts import Values, _step, own_moves, playout_move
from games.engine.bots.skilled import last_of, skilled_bot
from games.engine.sim import Sim, move_of

from .helpers import give_both_jesters, open_round, run
from .test_bots_levels import random_states

J = JESTER
# States after the taxes and trades, where the sampler knows the most.
STATES = [(r, s) for r, s in random_states(21, 500, every=0.3) if r.phase == "play"]


def test_what_the_sampler_knows_is_true_of_the_real_hands():
    constrained = 0
    for r, seat in STATES:
        sampler = Sampler(r.view(seat))
        for s in range(r.n_players):
            if s == seat:
                continue
            hand = counts(r.hand(s))
            for rank in range(1, 14):
                assert sampler.low[s][rank] <= hand[rank] <= sampler.high[s][rank], (
                    r.view(seat), s, rank)
        constrained += bool(sampler.lows or sampler.restricted)
    assert constrained > 20


def test_the_sampled_deals_fit_the_view():
    rng = random.Random(0)
    for r, seat in STATES[:150]:
        view = r.view(seat)
        sampler = Sampler(view)
        unseen = [0] * 14
        for s in range(r.n_players):
            if s != seat:
                for rank, k in enumerate(counts(r.hand(s))):
                    unseen[rank] += k
        for _ in range(3):
            hands = sampler.sample(rng)
            assert hands[seat] == counts(r.hand(seat))
            assert [h[0] for h in hands] == view["counts"]
            got = [sum(h[rank] for s, h in enumerate(hands) if s != seat) for rank in range(14)]
            assert got == unseen
            for s, h in enumerate(hands):
                if s != seat:
                    for rank in range(1, 14):
                        assert sampler.low[s][rank] <= h[rank] <= sampler.high[s][rank]


def test_a_dalmuti_knows_the_peon_kept_no_better_card_than_its_tribute():
    hands = [
        [2, 4, 6, 6, 8, 8, 10, 11, 12, 12],
        [3, 5, 7, 9, 9, 10, 11, 12],
        [5, 6, 7, 8, 9, 10, 11, 12],
        [1, 3, 4, 7, 7, 9, 10, 11],
    ]
    r = Round.start(hands, Options())
    r = r.apply(0, expert_bot(r.view(0), random.Random(0), samples=3))
    r = r.apply(1, expert_bot(r.view(1), random.Random(0), samples=3))
    assert r.phase == "play"
    view = r.view(0)
    assert view["taxes"]["received"] == [1, 3]
    sampler = Sampler(view)
    gave = view["taxes"]["gave"]
    for rank in (1, 2):
        assert sampler.high[3][rank] == gave.count(rank)
    for rank in set(gave):
        assert sampler.low[3][rank] == gave.count(rank)


def test_it_plays_a_sure_way_out_without_searching():
    r = open_round([[1, 12, 12], [2, 3, 11, 11], [4, 5, 10], [6, 7, 9]])
    assert expert_bot(r.view(0), random.Random(0), samples=1) == Play((1,))
    r = open_round([[9, 9, 12], [5, J], [3, 3, 7], [4, 4, 11]])
    r = run(r, [(0, [9, 9])])
    assert expert_bot(r.view(1), random.Random(0), samples=1) == Play((5, J))


def test_a_playout_stops_when_the_seat_is_out_unless_philanthropy_needs_the_rest():
    r = open_round([[12, 12, 3], [11, 11, 4], [10, 10, 5], [9, 9, 6]])
    view = r.view(0)
    values = Values(view)
    sim = Sim.from_round(r)
    assert values.playout(sim) in range(4)
    assert len(sim.finish) < 4 or sim.finish[-1] == 0
    generous = open_round([[12, 12, 3], [11, 11, 4], [10, 10, 5], [9, 9, 6]],
                          philanthropic="per_position")
    values = Values(generous.view(0))
    sim = Sim.from_round(generous)
    values.playout(sim)
    assert sorted(sim.finish) == [0, 1, 2, 3]


# --- inference from the history ------------------------------------------------------------


def _rounds_played_by(bot, seeds, every: float):
    """States of single rounds played by ``bot`` in every seat, with the seat to act."""
    for seed in seeds:
        rng = random.Random(seed)
        n = rng.randint(4, 10)
        options = Options(first_round_taxes=rng.random() < 0.5)
        r = Round.start(deal(n, options, seed), options, first_round=rng.random() < 0.5)
        while r.phase != "over":
            seat = r.awaiting[0]
            if r.phase == "play" and rng.random() < every:
                yield r, seat
            r = r.apply(seat, bot(r.view(seat), rng))


def test_the_true_deal_explains_skilled_play_perfectly_and_a_random_one_less():
    checked = 0
    guessed = []
    rng = random.Random(5)
    for r, seat in _rounds_played_by(skilled_bot, range(25), 0.15):
        view = r.view(seat)
        inference = Inference(view, 0.3)
        true = [counts(r.hand(s)) for s in range(r.n_players)]
        assert inference.weight(true) == 1.0
        if inference.informative:
            sampler = Sampler(view)
            guessed += [inference.weight(sampler.sample(rng)) for _ in range(5)]
            checked += 1
    assert checked > 50
    assert sum(guessed) / len(guessed) < 0.5


def test_the_true_deal_keeps_a_weight_whoever_plays():
    rng = random.Random(8)
    seen = 0
    for r, seat in STATES:
        view = r.view(seat)
        inference = Inference(view, 0.3)
        true = [counts(r.hand(s)) for s in range(r.n_players)]
        assert inference.weight(true) > 0
        assert inference.weight(true) >= 0.3 ** sum(len(d) for d in inference.decisions)
        seen += inference.informative
        rng.random()
    assert seen > 20


def test_the_plain_model_plays_as_the_greedy_yardstick():
    compared = 0
    for r, seat in _rounds_played_by(greedy_bot, range(15), 0.5):
        view = r.view(seat)
        hand = counts(view["hand"])
        unseen = [view["deck"][i] - view["played"][i] - hand[i] for i in range(14)]
        max_opp = max(c for s, c in enumerate(view["counts"]) if s != seat)
        action = greedy_bot(view, random.Random(0))
        expected = None if action == PASS else move_of(action.cards)
        assert plain_model(hand, unseen, 0, max_opp, last_of(view)) == expected
        compared += 1
    assert compared > 300


def test_the_models_found_for_the_others_follow_how_they_play():
    found = {}
    for name, bot in (("skilled", skilled_bot), ("greedy", greedy_bot)):
        tally = [0, 0]
        for r, seat in _rounds_played_by(bot, range(8), 0.2):
            deals = Deals(r.view(seat), random.Random(0))
            for s, model in enumerate(deals.inference.models):
                if s != seat and deals.inference.decisions[s]:
                    tally[model is plain_model] += 1
        found[name] = tally
    # Random guesses of the hands explain little either way, so the choice is far from
    # perfect; but it follows how the others play.
    plain_share = {k: t[1] / sum(t) for k, t in found.items()}
    assert plain_share["skilled"] < 0.25
    assert plain_share["greedy"] > 2 * plain_share["skilled"]


def test_the_deals_drawn_by_weight_fit_the_view():
    rng = random.Random(3)
    for r, seat in STATES[:120]:
        view = r.view(seat)
        deals = Deals(view, rng)
        sampler = deals.sampler
        for _ in range(2):
            hands = deals.draw(rng)
            assert hands[seat] == counts(r.hand(seat))
            assert [h[0] for h in hands] == view["counts"]
            for s, h in enumerate(hands):
                assert min(h) >= 0
                if s != seat:
                    for rank in range(1, 14):
                        assert sampler.low[s][rank] <= h[rank] <= sampler.high[s][rank]
            for rank in range(1, 14):
                left = view["deck"][rank] - view["played"][rank]
                assert sum(h[rank] for h in hands) == left


# --- the expert's own decisions ---------------------------------------------------------------


def test_its_revolution_trade_and_tribute_decisions_are_legal():
    asked = {"revolution": 0, "give_back": 0, "trade": 0, "trade_card": 0}
    for seed in range(40):
        rng = random.Random(seed)
        n = rng.choice([6, 7, 8])
        options = Options(merchant_trade=rng.choice(["chosen", "random"]))
        hands = deal(n, options, seed)
        if seed % 2:
            hands = give_both_jesters(hands, rng.choice([n - 1, n - 2, 0]))
        r = Round.start(hands, options, first_round=False)
        while r.phase in ("taxes", "trade"):
            seat = r.awaiting[0]
            view = r.view(seat)
            action = expert_bot(view, random.Random(seed), samples=2)
            assert action in r.legal_actions(seat)
            if len(view["legal_actions"]) > 1:
                kind = view["legal_actions"][0]["type"]
                if any(a["type"] == "revolution" for a in view["legal_actions"]):
                    kind = "revolution"
                asked[kind] = asked.get(kind, 0) + 1
            r = r.apply(seat, action)
    assert all(asked[k] for k in ("revolution", "give_back", "trade", "trade_card")), asked


def test_a_greater_peon_searches_a_great_revolution_with_a_strong_hand_turned_round():
    # The Greater Peon holds both jesters and good cards: turning the order round makes
    # it the Great Dalmuti, who leads.
    hands = [
        [6, 7, 8, 9, 10, 11, 12, 12, 12, 12],
        [5, 6, 7, 8, 9, 10, 11, 12, 12, 12],
        [4, 5, 6, 7, 8, 9, 10, 11, 11, 11],
        [1, 2, 2, 3, 3, 3, 4, 4, J, J],
    ]
    r = Round.start(hands, Options(first_round_taxes=False), first_round=True)
    assert Revolution(True) in r.legal_actions(3)
    action = expert_bot(r.view(3), random.Random(1), samples=6)
    assert action == Revolution(True)


def test_its_move_is_legal_and_the_same_for_the_same_samples_and_rng():
    for r, seat in STATES[:40]:
        view = r.view(seat)
        first = expert_bot(view, random.Random(7), samples=3)
        assert first in r.legal_actions(seat)
        assert expert_bot(view, random.Random(7), samples=3) == first


def test_the_lookahead_moves_are_legal_and_led_by_the_skilled_choice():
    for seed in range(30):
        rng = random.Random(seed)
        r = open_round(deal(rng.randint(4, 10), Options(first_round_taxes=False), seed))
        sim = Sim.from_round(r)
        left = [sum(h[i] for h in sim.hands) for i in range(14)]
        while sim.to_act is not None:
            moves = own_moves(sim, left, 3)
            assert moves and len(moves) <= 3
            assert all(m in sim.legal() for m in moves)
            assert moves[0] == playout_move(sim, left)
            _step(sim, left, rng.choice(moves))


def test_ties_are_not_given_to_the_first_candidate():
    picks = set()
    for seed in range(30):
        picks.add(_search(["a", "b", "c"], lambda r, a: [1.0, 1.0, 1.0], random.Random(seed),
                          3, None))
    assert picks == {"a", "b", "c"}
    assert _search(["a", "b"], lambda r, a: [0.0, 1.0], random.Random(0), 2, None) == "b"


def test_clearly_worse_candidates_stop_being_played_out():
    seen = []

    def trial(r, active):
        seen.append(list(active))
        return [(0.0 if i == 0 else 1.0 + r.random()) for i in active]

    deadline = time.perf_counter() + 0.3
    assert _search(["bad", "x", "y"], trial, random.Random(0), None, deadline) != "bad"
    assert seen[0] == [0, 1, 2]
    assert 0 not in seen[-1] and seen[-1]
    # With a fixed number of samples the search is the same, stops after that many deals
    # and is reproducible.
    seen.clear()
    first = _search(["bad", "x", "y"], trial, random.Random(0), 30, None)
    assert len(seen) == 30 and seen[0] == [0, 1, 2] and 0 not in seen[-1]
    runs = list(seen)
    seen.clear()
    assert _search(["bad", "x", "y"], trial, random.Random(0), 30, None) == first
    assert seen == runs


def test_searching_its_own_next_decisions_finds_better_plans_on_a_known_deal():
    # Every branch of the search contains the plain playout's line (the skilled bot's
    # move comes first), so a deeper search never scores a deal lower; and sometimes
    # another plan after the first move does better.
    better = 0
    for seed in range(40):
        rng = random.Random(seed)
        r = open_round(deal(rng.randint(4, 7), Options(first_round_taxes=False), seed))
        seat = r.to_act
        values = Values(r.view(seat))
        scores = [values.playout(Sim.from_round(r), 2, depth) for depth in (0, 1, 2, 3)]
        assert scores == sorted(scores), (seed, scores)
        better += scores[-1] > scores[0]
    assert better >= 5


def test_a_dalmuti_gives_back_with_enough_samples_to_prune_candidates():
    # With more deals than PRUNE_FROM the search drops clearly worse candidates; each
    # decision before the first trick must then play out only the candidates still in.
    asked = 0
    for seed in range(10):
        options = Options(merchant_trade=["off", "chosen", "random"][seed % 3])
        r = Round.start(deal(5, options, seed), options, first_round=False, seed=seed)
        while r.phase in ("taxes", "trade"):
            seat = r.awaiting[0]
            view = r.view(seat)
            action = expert_bot(view, random.Random(seed), samples=12)
            assert action in r.legal_actions(seat)
            asked += any(a["type"] == "give_back" for a in view["legal_actions"])
            r = r.apply(seat, action)
    assert asked >= 10
