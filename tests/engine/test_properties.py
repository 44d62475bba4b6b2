"""Property tests over many random rounds (seeded simulation, plus hypothesis), and whole
games under every combination of the table options.

``ENGINE_SIM_GAMES=5000`` runs a bigger simulation than the default;
``ENGINE_ALL_OPTIONS=1`` plays the full product of the options (thousands of games)."""

import itertools
import json
import os
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    JESTER,
    Game,
    GiveBack,
    IllegalMove,
    Options,
    Pass,
    Play,
    Revolution,
    Round,
    Trade,
    TradeCard,
    action_from_json,
    action_to_json,
    choose_action,
    deal,
)
from tests.engine.helpers import give_both_jesters

SIM_GAMES = int(os.environ.get("ENGINE_SIM_GAMES", "120"))


def random_options(rng: random.Random) -> Options:
    scoring = rng.random() < 0.8
    return Options(
        reduced_deck=rng.random() < 0.4,
        first_round_taxes=rng.random() < 0.5,
        tribute_return=rng.choice(["choice", "worst"]),
        merchant_trade=rng.choice(["off", "chosen", "random"]),
        master_rule=rng.random() < 0.5,
        philanthropic=rng.choice(["off", "off", "per_position", "flat"]) if scoring else "off",
        great_revolution=rng.choice(["declared", "at_once"]),
        scoring=scoring,
        merchant_trade_from=rng.choice([6, 7]),
    )


def random_deal(rng: random.Random, n: int, options: Options, seed: int) -> list[list[int]]:
    """A deal; often both jesters are moved into one hand, to exercise revolutions."""
    hands = deal(n, options, seed)
    if rng.random() < 0.4:
        holder = rng.choice([n - 1, rng.randrange(n)])
        hands = give_both_jesters(hands, holder)
    return hands


def random_action(rng: random.Random, n: int):
    kind = rng.randrange(6)
    if kind == 0:
        rank = rng.randint(0, 14)
        cards = [rank] * rng.randint(0, 4) + [JESTER] * rng.randint(0, 2)
        if rng.random() < 0.2:
            cards.append(rng.randint(1, 13))
        return Play(tuple(cards))
    if kind == 1:
        return Pass()
    if kind == 2:
        return GiveBack(tuple(rng.randint(1, 13) for _ in range(rng.randint(0, 3))))
    if kind == 3:
        return Revolution(rng.random() < 0.5)
    if kind == 4:
        return Trade(rng.choice([None, rng.randint(-1, n)]))
    return TradeCard(rng.randint(0, 14))


def shuffle_hidden(r: Round, seat: int, rng: random.Random) -> Round:
    """The same round with the cards of every other seat redistributed (same counts)."""
    data = r.to_json()
    others = [s for s in range(r.n_players) if s != seat]
    pool = [c for s in others for c in data["hands"][s]]
    rng.shuffle(pool)
    i = 0
    for s in others:
        k = len(data["hands"][s])
        data["hands"][s] = sorted(pool[i : i + k])
        i += k
    return Round.from_json(data)


def simulate(seed: int, check_everything: bool = True) -> Round:
    rng = random.Random(seed)
    n = rng.randint(4, 10)
    options = random_options(rng)
    first_round = rng.random() < 0.4
    hands = random_deal(rng, n, options, seed)
    r = Round.start(hands, options, first_round=first_round, seed=seed)
    deck = Counter(c for h in hands for c in h)
    assert sum(deck.values()) in (57, 68, 80) or n > 5
    if n <= 5 and options.reduced_deck:
        assert sum(deck.values()) == {4: 57, 5: 68}[n]
    else:
        assert sum(deck.values()) == 80

    if r.phase == "taxes" and not (first_round and not options.first_round_taxes):
        seat = rng.randrange(n)
        others = [s for s in range(n) if s != seat]
        pool = [c for s in others for c in hands[s]]
        rng.shuffle(pool)
        moved = [list(h) for h in hands]
        i = 0
        for s in others:
            moved[s] = sorted(pool[i : i + len(hands[s])])
            i += len(hands[s])
        other = Round.start(moved, options, first_round=first_round, seed=seed)
        # (a Great Revolution made at once is public: it is no secret that none happened)
        if other.revolution is None:
            assert other.view(seat) == r.view(seat), "the tax phase must not depend on others"

    played: Counter = Counter()
    steps = 0
    while r.phase != "over":
        steps += 1
        assert steps < 5000
        in_hands = Counter()
        for s in range(n):
            in_hands.update(r.hand(s))
        assert in_hands + played == deck
        assert sum(len(r.hand(s)) for s in range(n)) + sum(played.values()) == sum(deck.values())

        awaiting = r.awaiting
        assert awaiting
        for s in range(n):
            if s not in awaiting:
                assert r.legal_actions(s) == []
        seat = rng.choice(awaiting)
        legal = r.legal_actions(seat)
        assert legal, f"seat {seat} is awaited but has nothing to do"
        assert len(set(legal)) == len(legal)
        for action in legal:
            if isinstance(action, Play | GiveBack):
                assert list(action.cards) == sorted(action.cards)
            if check_everything:
                r.apply(seat, action)  # accepted
        if check_everything:
            before = r.to_json()
            for _ in range(4):
                s = rng.randrange(n)
                action = random_action(rng, n)
                if action in r.legal_actions(s):
                    continue
                try:
                    r.apply(s, action)
                except IllegalMove:
                    pass
                else:
                    raise AssertionError(f"unlisted {action} accepted from seat {s}")
            assert r.to_json() == before
            if rng.random() < 0.25:
                data = json.loads(json.dumps(r.to_json()))
                again = Round.from_json(data)
                assert again == r and again.to_json() == r.to_json()
                assert again.view(seat) == r.view(seat)
            if rng.random() < 0.15:
                s = rng.randrange(n)
                view = r.view(s)
                assert json.loads(json.dumps(view)) == view
                assert shuffle_hidden(r, s, rng).view(s) == view
                assert [action_from_json(a) for a in view["legal_actions"]] == r.legal_actions(s)

        # Passing is one choice among many; lean towards plays so rounds stay short.
        plays = [a for a in legal if not isinstance(a, Pass)]
        action = rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(legal)
        assert json.loads(json.dumps(action_to_json(action))) == action_to_json(action)
        assert action_from_json(action_to_json(action)) == action
        r = r.apply(seat, action)
        if isinstance(action, Play):
            played.update(action.cards)

    assert sorted(r.finish_order) == list(range(n))
    assert sorted(r.next_order) == list(range(n))
    assert sum(len(r.hand(s)) for s in range(n)) + sum(played.values()) == sum(deck.values())
    standard = sum(range(n))
    if options.great_revolution == "at_once" and JESTER in hands[n - 1]:
        assert (r.revolution == {"seat": n - 1, "great": True}) == (hands[n - 1].count(JESTER) == 2)
    if n < options.merchant_trade_from:
        assert r.view(None)["trade"]["status"] == "none"
    if not options.scoring:
        assert r.points == (0,) * n
    elif options.philanthropic == "off":
        assert sum(r.points) == standard
    else:
        assert sum(r.points) >= standard
    if options.master_rule:
        old = {s: i for i, s in enumerate(r.order)}
        assert all(old[s] - i <= 1 for i, s in enumerate(r.next_order))
    else:
        assert r.next_order == r.finish_order
    data = json.loads(json.dumps(r.to_json()))
    assert Round.from_json(data) == r
    return r


def test_random_rounds_keep_every_rule_invariant():
    outcomes = Counter()
    for seed in range(SIM_GAMES):
        r = simulate(seed)
        outcomes[r.revolution["great"] if r.revolution else None] += 1
        outcomes[r.view(0)["trade"]["status"]] += 1
    # The simulation reaches the rare branches too.
    assert outcomes[True] and outcomes[False] and outcomes["done"] and outcomes["declined"]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=10**6, max_value=2**40))
def test_hypothesis_rounds_keep_every_rule_invariant(seed):
    simulate(seed, check_everything=seed % 2 == 0)


@given(
    st.one_of(
        st.builds(Play, st.lists(st.integers(1, 13), max_size=5).map(tuple)),
        st.builds(GiveBack, st.lists(st.integers(1, 13), max_size=3).map(tuple)),
        st.builds(Revolution, st.booleans()),
        st.builds(Trade, st.one_of(st.none(), st.integers(0, 9))),
        st.builds(TradeCard, st.integers(1, 13)),
        st.just(Pass()),
    )
)
def test_actions_round_trip_through_json(action):
    assert action_from_json(json.loads(json.dumps(action_to_json(action)))) == action


# -- whole games under every combination of the table options ------------------------------

# Each entry: an option and the values a table may choose.
OPTION_VALUES = {
    "seating_ties": ["tied_redraw", "until_unique"],
    "great_revolution": ["declared", "at_once"],
    "length": ["rounds", "target", "open"],
    "scoring": [True, False],
    "merchant_trade_from": [6, 7],
    "reduced_deck": [False, True],
    "first_round_taxes": [True, False],
    "tribute_return": ["choice", "worst"],
    "merchant_trade": ["off", "chosen", "random"],
    "master_rule": [False, True],
    "philanthropic": ["off", "per_position", "flat"],
}
# The first five are the newest options: by default every combination of those is played,
# each with the older options drawn at random; ENGINE_ALL_OPTIONS=1 plays the full product.
ALL_OPTIONS = os.environ.get("ENGINE_ALL_OPTIONS") == "1"


def option_combinations():
    names = list(OPTION_VALUES)
    if ALL_OPTIONS:
        grid = itertools.product(*OPTION_VALUES.values())
        combos = [dict(zip(names, values, strict=True)) for values in grid]
    else:
        rng = random.Random(20)
        head = names[:5]
        combos = []
        for values in itertools.product(*(OPTION_VALUES[k] for k in head)):
            combo = dict(zip(head, values, strict=True))
            combo.update({k: rng.choice(OPTION_VALUES[k]) for k in names[5:]})
            if not combo["scoring"]:
                combo["philanthropic"] = "off"
            combos.append(combo)
    # scoring off excludes a target score and philanthropic scoring
    return [
        c for c in combos
        if c["scoring"] or (c["length"] != "target" and c["philanthropic"] == "off")
    ]


def test_games_with_every_combination_of_options_finish():
    combos = option_combinations()
    assert len(combos) == (4224 if ALL_OPTIONS else 40)
    for i, combo in enumerate(combos):
        rng = random.Random(i)
        n = rng.randint(4, 10)
        length = combo.pop("length")
        rounds = {"rounds": rng.randint(1, 3), "target": None, "open": None}[length]
        target = 2 * n if length == "target" else None
        options = Options(rounds=rounds, target_score=target, **combo)
        game = Game.new(n, options, seed=i)
        end_at = rng.randint(1, 3)
        steps = 0
        while True:
            if length == "open" and game.round_number == end_at and not game.ending:
                game = game.end_after_this_round()
            while game.round.phase != "over":
                steps += 1
                assert steps < 20000, f"{options} does not finish"
                player = game.awaiting_players[0]
                game = game.apply(player, choose_action("basic", game.view(player), steps))
            if game.is_over:
                break
            game = game.next_round()
        assert game.winner == game.standings[0]["player"]
        if length == "rounds":
            assert game.round_number == rounds
        if length == "open":
            assert game.round_number == end_at
        if length == "target":
            assert max(game.scores) >= target
        if not options.scoring:
            assert set(game.scores) == {0}
            assert [s["player"] for s in game.standings] == game.results[-1]["next_order"]
        if options.seating_ties == "until_unique":
            assert len(game.seating_draws) == n
        assert Game.from_json(json.loads(json.dumps(game.to_json()))) == game
