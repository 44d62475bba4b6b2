"""Standings arithmetic against seasons worked out by hand.

Players A, B, C, D (people) and bots. Positions list player indices from Great Dalmuti to
Greater Peon; a round scores one point per player finishing below.

Season 1
  G1 (A B C D), finished:  R1 pos A B C D, finish B A D C -> B3 A2 D1 C0
                           R2 pos B A D C, finish B C A D -> B3 C2 A1 D0   (B wins: 6)
  G2 (A B C bot), finished: R1 pos C bot A B, finish A C bot B -> A3 C2 bot1 B0 (A wins)
  G4 (A B C D), ended early: R1 pos A B C D, finish C D B A -> C3 D2 B1 A0
                             R2 unfinished: nothing counts
Season 2
  G3 (A B C D), finished: R1 pos A B C D with a Great Revolution (so D is Great
                          Dalmuti, A Greater Peon), finish D A B C -> D3 A2 B1 C0 (D wins)
  G5 (A B C D; D replaced by a bot from round 2), finished:
                          R1 pos A B C D, finish A B C D -> A3 B2 C1 D0
                          R2 pos A B C D, finish D A B C -> bot3 A2 B1 C0   (A wins: 5)

Season 1 by hand
  A: games 3, rounds 4, points 2+1+3+0 = 6, places 2+3+1+4 = 10 (2.50),
     Great Dalmuti in G1R1 and G4R1 = 2, Greater Peon 0, won G2 = 1
  B: games 3, rounds 4, points 3+3+0+1 = 7, places 1+1+4+3 = 9 (2.25), GD 1, GP 1, won 1
  C: games 3, rounds 4, points 0+2+2+3 = 7, places 4+2+2+1 = 9 (2.25), GD 1, GP 1, won 0
  D: games 2, rounds 3, points 1+0+2 = 3, places 3+4+2 = 9 (3.00), GD 0, GP 2, won 0
  B and C are equal on points and points per round: B's game won puts B first.
Season 2 by hand
  A: games 2, rounds 3, points 2+3+2 = 7, places 2+1+2 = 5, GD 2 (G5 R1, R2), GP 1, won 1
  B: games 2, rounds 3, points 1+2+1 = 4, places 3+2+3 = 8, GD 0, GP 0, won 0
  C: games 2, rounds 3, points 0+1+0 = 1, places 4+3+4 = 11, GD 0, GP 0, won 0
  D: games 2, rounds 2, points 3+0 = 3, places 1+4 = 5, GD 1, GP 1, won 1
"""

import datetime
from fractions import Fraction

import pytest

from games.models import Game
from leagues.models import Replacement
from leagues.standings import league_standings, standings_by_season

from .helpers import make_league, make_season, make_user, record_game

pytestmark = pytest.mark.django_db

A, B, C, D = 0, 1, 2, 3


@pytest.fixture
def people():
    return [make_user(n) for n in ("anna", "bert", "cleo", "dirk")]


@pytest.fixture
def league(people):
    return make_league(members=people)


@pytest.fixture
def seasons(league):
    s1 = make_season(league, "Spring", datetime.date(2025, 3, 1), datetime.date(2025, 5, 31))
    s2 = make_season(league, "Summer", datetime.date(2025, 6, 1), datetime.date(2025, 8, 31))
    return s1, s2


@pytest.fixture
def played(people, league, seasons):
    a, b, c, d = people
    s1, s2 = seasons
    record_game([a, b, c, d], [([A, B, C, D], [B, A, D, C]), ([B, A, D, C], [B, C, A, D])],
                league, s1, name="G1")
    record_game([a, b, c, None], [([C, 3, A, B], [A, C, 3, B])], league, s1, name="G2")
    record_game([a, b, c, d], [([A, B, C, D], [D, A, B, C], "great")], league, s2, name="G3")
    record_game([a, b, c, d], [([A, B, C, D], [C, D, B, A]), ([C, D, B, A], None)],
                league, s1, status=Game.Status.ABANDONED, name="G4")
    g5 = record_game([a, b, c, None], [([A, B, C, D], [A, B, C, D]),
                                       ([A, B, C, D], [D, A, B, C])], league, s2, name="G5")
    Replacement.objects.create(game=g5, player=D, user=d, round_number=2, bot_level="basic",
                               bot_name="Bot 3")
    # Not counted: a game of another league, and a game of this league still in play.
    other = make_league(name="Other", slug="other", members=people)
    record_game([a, b, c, d], [([A, B, C, D], [D, C, B, A])], other, name="elsewhere")
    record_game([a, b, c, d], [([A, B, C, D], [D, C, B, A]), ([D, C, B, A], None)], league,
                s1, status=Game.Status.PLAYING, name="in play")
    return people


def table(rows):
    return [
        (r.rank, r.user.username, r.games, r.rounds, r.points, r.points_per_round,
         r.average_place, r.great_dalmuti, r.greater_peon, r.wins)
        for r in rows
    ]


def test_it_adds_up_the_first_season(league, seasons, played):
    assert table(league_standings(league, seasons[0])) == [
        (1, "bert", 3, 4, 7, Fraction(7, 4), Fraction(9, 4), 1, 1, 1),
        (2, "cleo", 3, 4, 7, Fraction(7, 4), Fraction(9, 4), 1, 1, 0),
        (3, "anna", 3, 4, 6, Fraction(6, 4), Fraction(10, 4), 2, 0, 1),
        (4, "dirk", 2, 3, 3, Fraction(1), Fraction(3), 0, 2, 0),
    ]


def test_it_adds_up_the_second_season_with_a_great_revolution_and_a_replacement(
    league, seasons, played
):
    assert table(league_standings(league, seasons[1])) == [
        (1, "anna", 2, 3, 7, Fraction(7, 3), Fraction(5, 3), 2, 1, 1),
        (2, "bert", 2, 3, 4, Fraction(4, 3), Fraction(8, 3), 0, 0, 0),
        (3, "dirk", 2, 2, 3, Fraction(3, 2), Fraction(5, 2), 1, 1, 1),
        (4, "cleo", 2, 3, 1, Fraction(1, 3), Fraction(11, 3), 0, 0, 0),
    ]


def test_it_adds_up_all_time(league, played):
    assert table(league_standings(league)) == [
        (1, "anna", 5, 7, 13, Fraction(13, 7), Fraction(15, 7), 4, 1, 2),
        (2, "bert", 5, 7, 11, Fraction(11, 7), Fraction(17, 7), 1, 1, 1),
        (3, "cleo", 5, 7, 8, Fraction(8, 7), Fraction(20, 7), 1, 1, 0),
        (4, "dirk", 4, 5, 6, Fraction(6, 5), Fraction(14, 5), 1, 3, 1),
    ]


def test_the_seasons_from_one_load_match_the_seasons_one_by_one(league, seasons, played):
    all_time, by_season, _rounds, _occupants = standings_by_season(league)
    assert table(all_time) == table(league_standings(league))
    for season in seasons:
        assert table(by_season[season.pk]) == table(league_standings(league, season))


def test_players_equal_on_every_count_share_a_rank(league, people):
    a, b, c, d = people
    # Each game: anna and bert score 3+2 = 5, and the one first in the last round wins.
    record_game([a, b, c, d], [([A, B, C, D], [A, B, C, D]), ([A, B, C, D], [B, A, D, C])],
                league)
    record_game([a, b, c, d], [([A, B, C, D], [B, A, C, D]), ([B, A, C, D], [A, B, D, C])],
                league)
    rows = league_standings(league)
    assert [(r.rank, r.user.username, r.points, r.wins) for r in rows] == [
        (1, "anna", 10, 1), (1, "bert", 10, 1), (3, "cleo", 2, 0), (3, "dirk", 2, 0)
    ]


def test_a_league_without_games_has_empty_standings(league):
    assert league_standings(league) == []


def test_a_player_who_left_a_game_has_not_won_it(league, people):
    """A leaver shares the last place (the table's standings, the record, the ratings):
    most points or not, the game's win is the best of those who played it out."""
    a, b, c, d = people
    e = make_user("emma")
    game = record_game([a, b, c, d, e], [([A, B, C, D, 4], [B, A, C, D, 4]),
                                         ([B, A, C, D, 4], [B, A, C, D, 4])], league)
    game.seats.filter(user=b).update(left=True)
    rows = {row.user: row for row in league_standings(league)}
    assert rows[b].points == 8 and rows[a].points == 6
    assert (rows[a].wins, rows[b].wins) == (1, 0)


def test_the_rounds_a_bot_played_after_a_player_left_are_not_theirs(people, league):
    """At a table where a bot takes the seat of whoever leaves, Anna says she leaves in
    round 2: her league figures keep round 1 alone (3 points, first place), the bot's
    rounds after are nobody's in the table, as an organiser's bot's are."""
    from games.models import Action, Seat

    a, b, c, d = people
    game = record_game(people, [([A, B, C, D], [A, B, C, D]), ([A, B, C, D], [A, B, C, D])],
                       league)
    Seat.objects.filter(game=game, user=a).update(left=True)
    Action.objects.create(game=game, seq=1, round_number=2, kind="leaving", player=A,
                          events=[{"type": "leaving", "player": A, "bot": True}])
    rows = {row.user.username: row for row in league_standings(league)}
    anna = rows["anna"]
    assert (anna.games, anna.rounds, anna.points, anna.place_sum, anna.great_dalmuti) == (
        1, 1, 3, 1, 1)
    assert (rows["bert"].rounds, rows["bert"].points, rows["bert"].wins) == (2, 4, 1)
