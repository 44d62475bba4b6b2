"""The expert bot: its deals of the unseen cards fit what the seat knows; it searches."""

import random

from games.engine import JESTER, Options, Play, Round
from games.engine.bots_expert import Sampler, Values, expert_bot
from games.engine.bots_skilled import counts
from games.engine.sim import Sim

from .helpers import open_round, run
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
