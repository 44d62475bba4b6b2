import pytest
from django.core.cache import cache

from chat import services as chat
from games import commands
from games.models import Game
from tests import helpers


@pytest.fixture(autouse=True)
def _an_empty_cache(db):
    cache.clear()


def start_table(host, others=(), bots=0) -> Game:
    return helpers.start_table(host, others, bots, {"rounds": 1})


@pytest.fixture
def game(alice, bob):
    """A game in play: Alice (the host), Bob and two bots."""
    return start_table(alice, [bob], bots=2)


@pytest.fixture
def lobby(alice, bob):
    """A table still filling up."""
    game = commands.create_table(alice, "Open table", 5, {"rounds": 1})
    commands.join(game.pk, bob)
    return Game.objects.get(pk=game.pk)


def seat_of(game: Game, user):
    return game.seats.select_related("user").get(user=user)


def title_of(game: Game, user) -> str:
    seat = seat_of(game, user)
    return chat.titles(game, seat)[seat.player]


def say(game: Game, user, text: str = "", flourish: str = ""):
    return chat.post(game, seat_of(game, user), text, flourish)


HTMX = {"HTTP_HX_REQUEST": "true"}


# The real browser of the end-to-end tests (skips without Chromium and Playwright).
from tests.e2e.conftest import browser  # noqa: E402, F401
