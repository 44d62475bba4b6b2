"""Complete 10-round games at 4, 5, 8 and 10 players with every option of the books
(taxes, revolutions, Great Revolutions, merchant trade, joins and leaves between rounds),
every seat played by each level in turn, through the arena's ``play_game``: no bot ever
fails and every game ends. (The same games through the web's task path:
tests/games/test_bots_full_games.py.)"""

import pytest

from tools.arena import play_game

from .helpers import BOOK_GAMES, revolution_seed

# The expert with a fixed, small number of sampled deals: the same search, fast enough.
SAMPLES = 2


@pytest.mark.parametrize("level", ["basic", "skilled", "expert"])
@pytest.mark.parametrize("n", sorted(BOOK_GAMES))
def test_a_whole_game_with_every_option(level, n):
    options, changes = BOOK_GAMES[n]
    seed = revolution_seed(n, options)
    game, played = play_game(lambda _p: level, n, options, seed, samples=SAMPLES,
                             changes=changes)
    assert game.is_over and game.round_number == 10 and len(game.results) == 10
    assert (played.joins, played.leaves) == (1, 1)
    assert len(game.scores) == n + 1 and len(game.lineup) == n
    assert played.great_revolutions >= (1 if options.great_revolution == "at_once" else 0)
    assert played.asked.get("revolution", 0) >= (0 if options.great_revolution == "at_once"
                                                  else 1)
    if level == "basic":  # it declares as a Peon: a revolution, and the Great one
        assert played.revolutions - played.great_revolutions >= 1
        assert played.great_revolutions >= 1
    if options.tribute_return == "choice":
        assert played.asked.get("give_back", 0) >= 9  # the taxes of rounds 2 to 10
    if options.merchant_trade != "off":
        assert played.asked.get("trade", 0) >= 1
