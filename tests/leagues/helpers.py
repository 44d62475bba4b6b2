"""Making players, leagues and games for the league and history tests.

`play_game` plays a real game through games.services (bots, and the host taking the first
legal action); `record_game` writes a game's rounds by hand, for standings arithmetic.
"""

import datetime

from django.utils import timezone

from games.models import Game, Round, Seat
from leagues.models import League, LeagueGame, Membership, Season
from tests.helpers import make_user, play_until, start_table

__all__ = ["make_user", "play_until"]

def make_league(name="Friday Club", slug="friday", members=(), options=None, **extra):
    league = League.objects.create(
        name=name, slug=slug, default_options=options or {}, **extra
    )
    for user in members:
        Membership.objects.create(league=league, user=user)
    return league


def make_season(league, name, start, end):
    return Season.objects.create(league=league, name=name, start=start, end=end)


def this_year_season(league, name="This year"):
    today = timezone.localdate()
    return make_season(
        league, name, today - datetime.timedelta(days=100), today + datetime.timedelta(days=100)
    )


def start_game(host, others=(), bots=3, options=None, name="Test table") -> Game:
    """A started one-round game (unless `options` say otherwise), three bots by default."""
    return start_table(host, others, bots, {"rounds": 1, **(options or {})}, name=name)


def play_game(host, others=(), bots=3, options=None, league=None, season=None,
              name="Test table") -> Game:
    """A finished game (one round unless `options` say otherwise)."""
    game = start_game(host, others, bots, options, name)
    if league is not None:
        LeagueGame.objects.create(game=game, league=league, season=season)
    game = play_until(game, lambda g: g.is_over)
    assert game.status == Game.Status.FINISHED
    return game


def record_game(players, rounds, league=None, season=None, status=Game.Status.FINISHED,
                name="Recorded table") -> Game:
    """A game written by hand. `players[i]` is a user or None (a bot) for player index i;
    each round is (positions, finish_order) or (positions, finish_order, revolution), with
    finish_order None for a round still in play. Points: one per player finishing below."""
    host = next(p for p in players if p is not None)
    now = timezone.now()
    game = Game.objects.create(
        name=name, host=host, seats_wanted=len(players), status=status,
        round_number=len(rounds), started=now,
        finished=now if status in (Game.Status.FINISHED, Game.Status.ABANDONED) else None,
    )
    for index, user in enumerate(players):
        if user is None:
            Seat.objects.create(game=game, player=index, bot_level="basic",
                                bot_name=f"Bot {index}")
        else:
            Seat.objects.create(game=game, player=index, user=user)
    n = len(players)
    for number, spec in enumerate(rounds, start=1):
        positions, finish = spec[0], spec[1]
        revolution = spec[2] if len(spec) > 2 else ""
        Round.objects.create(
            game=game, number=number, positions=positions, revolution=revolution,
            finish_order=finish or [],
            points={str(p): n - 1 - i for i, p in enumerate(finish)} if finish else {},
            finished=now if finish else None,
        )
    if league is not None:
        LeagueGame.objects.create(game=game, league=league, season=season)
    return game
