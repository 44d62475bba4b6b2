"""Two leagues with their organisers, and games in play in both and in none: the ground
the admin's scoping and secrecy tests walk."""

import copy
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import Group
from django.db import transaction

from games import commands
from games.models import Game
from leagues.models import LeagueGame
from tests.helpers import start_table

from .helpers import make_league, make_season, make_user, play_until, start_game


def has_private_lines(game: Game) -> bool:
    return any(
        e.get("visible_to") is not None for a in game.actions.all() for e in a.events
    )


def in_play_with_private_lines(host, others, name, seed) -> Game:
    """A game in play whose record already holds private lines (the give-backs of
    round 2's taxes), its deal made from `seed`."""
    game = start_table(host, others, bots=4 - len(others), options={"rounds": 3},
                       seed=seed, name=name)
    game = play_until(game, lambda g: g.round_number == 2 and has_private_lines(g))
    assert game.is_playing
    return game


@dataclass
class Ground:
    olga: object       # organises Mondays, seated at a Monday table
    fred: object       # organises Fridays
    mondays: object
    fridays: object
    monday_game: Game
    friday_game: Game
    loose_game: Game   # in no league
    monday_finished: Game
    monday_lobby: Game


def make_organiser(username):
    """A staff account in the "league organiser" group (of no league yet)."""
    user = make_user(username, is_staff=True)
    user.groups.add(Group.objects.get(name="league organiser"))
    return user


@pytest.fixture
def organiser(db):
    """Olga, a league organiser of no league yet."""
    return make_organiser("olga")


@pytest.fixture(scope="module")
def _ground_once(django_db_setup, django_db_blocker):
    """The ground, built once for a module's tests (its four games take seconds each to
    play), in a transaction undone when the module is done; each test runs in a savepoint
    of it (pytest-django's `db`), so that what a test changes is undone after it."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield _build_ground()
        transaction.set_rollback(True)


@pytest.fixture
def ground(_ground_once, db):
    """The ground, a copy of its objects of this test's own."""
    return copy.deepcopy(_ground_once)


def _build_ground() -> Ground:
    olga, fred = make_organiser("olga"), make_organiser("fred")
    anna, bert, cleo, dirk, erik = (make_user(n) for n in ("anna", "bert", "cleo", "dirk",
                                                           "erik"))
    mondays = make_league("Mondays", "mondays", members=[olga, anna, bert])
    fridays = make_league("Fridays", "fridays", members=[fred, cleo, dirk])
    mondays.organisers.add(olga)
    fridays.organisers.add(fred)
    make_season(mondays, "Monday spring", "2026-01-01", "2026-12-31")
    friday_spring = make_season(fridays, "Friday spring", "2026-01-01", "2026-12-31")
    monday_game = in_play_with_private_lines(olga, [anna], "Monday table", 7111222333444)
    friday_game = in_play_with_private_lines(cleo, [dirk], "Friday table", 7555666777888)
    loose_game = in_play_with_private_lines(erik, [], "Loose table", 7999000111222)
    LeagueGame.objects.create(game=monday_game, league=mondays)
    LeagueGame.objects.create(game=friday_game, league=fridays, season=friday_spring)
    finished = play_until(start_game(anna, [bert], bots=2, name="Monday finished"),
                          lambda g: g.is_over)
    LeagueGame.objects.create(game=finished, league=mondays)
    lobby = commands.create_table(bert, "Monday lobby", 5, {})
    LeagueGame.objects.create(game=lobby, league=mondays)
    return Ground(olga, fred, mondays, fridays, monday_game, friday_game, loose_game,
                  finished, lobby)
