import pytest
from django.core.cache import cache

from chat import services as chat
from games import services
from games.models import Game


@pytest.fixture(autouse=True)
def _fast_hashing_and_an_empty_cache(db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()


@pytest.fixture
def make_user(django_user_model):
    def make(name: str):
        return django_user_model.objects.create_user(
            name, f"{name}@example.com", "correct-horse-battery", display_name=name.title()
        )

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def mallory(make_user):
    return make_user("mallory")


def start_table(host, others=(), bots=0) -> Game:
    game = services.create_table(host, "Test table", 1 + len(others) + bots, {"rounds": 1})
    for user in others:
        services.join(game.pk, user)
    for _ in range(bots):
        services.add_bot(game.pk, "basic")
    services.start(game.pk)
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def game(alice, bob):
    """A game in play: Alice (the host), Bob and two bots."""
    return start_table(alice, [bob], bots=2)


@pytest.fixture
def lobby(alice, bob):
    """A table still filling up."""
    game = services.create_table(alice, "Open table", 5, {"rounds": 1})
    services.join(game.pk, bob)
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
