import pytest

from games import engine, services
from games.models import Game


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def eager_tasks():
    """Run Celery tasks in-process, as without a broker, even where one is configured."""
    from dalmuti_site.celery import app

    was = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = was


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
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def dave(make_user):
    return make_user("dave")


@pytest.fixture
def mallory(make_user):
    return make_user("mallory")


def start_table(host, others=(), bots=0, options=None, seats=None, turn_limit=0,
                seed=20261122) -> Game:
    """A started game: the host, the other users, then `bots` basic bots; the shuffles
    come from `seed`, so a test plays the same game every run."""
    options = {"rounds": 2, **(options or {})}
    n = 1 + len(others) + bots
    game = services.create_table(host, "Test table", seats or n, options, turn_limit)
    Game.objects.filter(pk=game.pk).update(seed=seed)
    for user in others:
        services.join(game.pk, user)
    for _ in range(bots):
        services.add_bot(game.pk, "basic")
    services.start(game.pk)
    return Game.objects.get(pk=game.pk)


def seat_of(game: Game, user):
    return game.seats.get(user=user)


def form_for(action: dict, turn: int) -> dict:
    """The POST data a page's form sends for an engine action (JSON form)."""
    data = {"turn": turn, "action": action["type"]}
    if action["type"] == "play":
        data["cards"] = ",".join(map(str, action["cards"]))
    elif action["type"] == "give_back":
        data["card"] = [str(c) for c in action["cards"]]
    elif action["type"] == "revolution":
        data["declare"] = "yes" if action["declare"] else "no"
    elif action["type"] == "trade":
        data["partner"] = "none" if action["partner"] is None else str(action["partner"])
    elif action["type"] == "trade_card":
        data["card"] = str(action["card"])
    return data


def waiting_humans(game: Game) -> list:
    """The seats of human players the game waits for now."""
    game.refresh_from_db()
    return [s for s in game.seats.select_related("user") if not s.is_bot
            and str(s.player) in game.awaiting]


def legal(game: Game, seat) -> list[dict]:
    return services.engine_state(game).view(seat.player)["legal_actions"]


def play_out(game: Game, choose=lambda actions: actions[0], max_steps=5000) -> Game:
    """Play a game to its end through the services, humans taking `choose`'s action."""
    for _ in range(max_steps):
        game.refresh_from_db()
        if game.is_over:
            return game
        humans = waiting_humans(game)
        if not humans:
            assert services.play_bot_move(game.pk), "the game waits for nobody"
            continue
        seat = humans[0]
        action = engine.action_from_json(choose(legal(game, seat)))
        services.act(game.pk, seat.user, action, game.awaiting[str(seat.player)][0])
    raise AssertionError("the game did not end")
