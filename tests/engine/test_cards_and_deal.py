from collections import Counter

import pytest

from games.engine import JESTER, Options, deal, deck_for, full_deck


def test_the_deck_has_r_cards_of_rank_r_and_two_jesters():
    counts = Counter(full_deck())
    assert len(full_deck()) == 80
    assert all(counts[r] == r for r in range(1, 13))
    assert counts[JESTER] == 2


@pytest.mark.parametrize(
    ("n_players", "reduced", "size", "removed"),
    [
        (4, False, 80, set()),
        (4, True, 57, {11, 12}),
        (5, True, 68, {12}),
        (5, False, 80, set()),
        (6, True, 80, set()),
        (10, True, 80, set()),
    ],
)
def test_the_reduced_deck_drops_peasants_and_stonecutters_only_at_small_tables(
    n_players, reduced, size, removed
):
    deck = deck_for(n_players, reduced)
    assert len(deck) == size
    assert not removed & set(deck)


@pytest.mark.parametrize("n_players", range(4, 11))
def test_a_deal_gives_every_card_and_the_extra_cards_to_the_best_positions(n_players):
    hands = deal(n_players, Options(), seed=7)
    sizes = [len(h) for h in hands]
    assert sum(sizes) == 80
    assert sizes == sorted(sizes, reverse=True)
    assert max(sizes) - min(sizes) <= 1
    assert Counter(c for h in hands for c in h) == Counter(full_deck())
    assert all(h == sorted(h) for h in hands)


def test_a_deal_is_the_same_for_the_same_seed_and_differs_for_another():
    assert deal(5, Options(), 1) == deal(5, Options(), 1)
    assert deal(5, Options(), 1) != deal(5, Options(), 2)


def test_the_deal_goes_round_one_card_at_a_time_starting_with_the_great_dalmuti():
    hands = deal(6, Options(), seed=3)
    assert [len(h) for h in hands] == [14, 14, 13, 13, 13, 13]


def test_a_reduced_deal_for_four_players_has_no_elevens_or_twelves():
    hands = deal(4, Options(reduced_deck=True), seed=3)
    cards = [c for h in hands for c in h]
    assert len(cards) == 57 and 11 not in cards and 12 not in cards


@pytest.mark.parametrize("n_players", [3, 11, 0])
def test_a_table_has_four_to_ten_players(n_players):
    with pytest.raises(ValueError):
        deal(n_players, Options(), 1)
