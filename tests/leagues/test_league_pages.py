import csv
import datetime
import io

import pytest
from django.urls import reverse

from games.models import Game

from .helpers import make_league, make_season, make_user, record_game, this_year_season

pytestmark = pytest.mark.django_db

A, B, C, D = 0, 1, 2, 3


@pytest.fixture
def people():
    return [make_user(n) for n in ("anna", "bert", "cleo", "dirk")]


@pytest.fixture
def league(people):
    return make_league(members=people, description="Fridays at Anna's.")


@pytest.fixture
def season(league):
    return this_year_season(league)


def play_rounds(people, league, season, times=1):
    for _i in range(times):
        record_game(people, [([A, B, C, D], [B, A, D, C]), ([B, A, D, C], [B, C, A, D])],
                    league, season)


def test_a_member_sees_the_standings_of_the_running_season(client, people, league, season):
    play_rounds(people, league, season)
    client.force_login(people[0])
    response = client.get(reverse("league", args=["friday"]))
    assert response.status_code == 200
    assert response.context["season"] == season
    rows = response.context["rows"]
    assert [(r.rank, r.user.username, r.points) for r in rows] == [
        (1, "bert", 6), (2, "anna", 3), (3, "cleo", 2), (4, "dirk", 1)
    ]
    assert b"Fridays at Anna" in response.content
    assert b"Times Great Dalmuti" in response.content


def test_it_shows_all_time_and_other_seasons_on_request(client, people, league, season):
    old = make_season(league, "Last year", datetime.date(2020, 1, 1), datetime.date(2020, 12, 31))
    play_rounds(people, league, season)
    record_game(people, [([A, B, C, D], [D, C, B, A])], league, old)
    client.force_login(people[0])
    url = reverse("league", args=["friday"])
    assert [r.user.username for r in client.get(url, {"season": old.pk}).context["rows"]] == [
        "dirk", "cleo", "bert", "anna"
    ]
    all_time = client.get(url, {"season": "all"}).context["rows"]
    # dirk and cleo have 4 points in 3 rounds each: dirk won a game.
    assert [(r.rank, r.user.username, r.points) for r in all_time] == [
        (1, "bert", 7), (2, "dirk", 4), (3, "cleo", 4), (4, "anna", 3)
    ]
    assert client.get(url, {"season": "999999"}).status_code == 404


def test_a_player_outside_the_league_gets_a_404(client, league):
    client.force_login(make_user("mallory"))
    assert client.get(reverse("league", args=["friday"])).status_code == 404
    assert client.get(reverse("league_standings_csv", args=["friday"])).status_code == 404


def test_visitors_must_log_in(client, league):
    response = client.get(reverse("league", args=["friday"]))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_the_leagues_page_lists_my_leagues_only(client, people, league):
    make_league(name="Secret Society", slug="secret")
    client.force_login(people[0])
    response = client.get(reverse("leagues"))
    assert b"Friday Club" in response.content
    assert b"Secret Society" not in response.content


def test_an_organiser_finds_the_leagues_she_runs_and_no_other(client, people, league):
    from django.contrib.auth.models import Group

    olga = make_user("olga", is_staff=True)
    olga.groups.add(Group.objects.get(name="league organiser"))
    league.organisers.add(olga)
    make_league(name="Secret Society", slug="secret")
    client.force_login(olga)
    page = client.get(reverse("leagues")).content.decode()
    assert "Leagues you run" in page
    assert league.get_absolute_url() in page
    assert reverse("admin:leagues_league_change", args=[league.pk]) in page
    assert "Secret Society" not in page


def test_a_league_one_plays_and_runs_is_listed_once_with_its_way_to_the_admin(
        client, people, league):
    from django.contrib.auth.models import Group

    anna = people[0]
    anna.is_staff = True
    anna.save()
    anna.groups.add(Group.objects.get(name="league organiser"))
    league.organisers.add(anna)
    client.force_login(anna)
    page = client.get(reverse("leagues")).content.decode()
    assert page.count(league.get_absolute_url()) == 1
    assert reverse("admin:leagues_league_change", args=[league.pk]) in page
    assert "you run" not in page


def test_the_standings_page_makes_as_many_queries_for_many_games_as_for_one(
    client, people, league, season, django_assert_num_queries, without_redis
):
    client.force_login(people[0])
    url = reverse("league", args=["friday"])
    play_rounds(people, league, season)
    # session, user, league, membership, seasons; rounds, seats, replacements; the
    # league's tables, their seats, my invitations; the header's count of tables awaiting me
    with django_assert_num_queries(13):
        one = client.get(url)
    play_rounds(people, league, season, times=9)
    with django_assert_num_queries(13):
        many = client.get(url)
    assert one.context["rows"][0].games == 1
    assert many.context["rows"][0].games == 10


def test_the_standings_export_as_csv(client, people, league, season):
    play_rounds(people, league, season)
    client.force_login(people[1])
    response = client.get(reverse("league_standings_csv", args=["friday"]),
                          {"season": season.pk})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:4] == ["League", "Season", "Rank", "Player"]
    assert rows[1] == ["Friday Club", "This year", "1", "Bert", "1", "2", "6", "3.00", "1.00",
                       "1", "0", "1"]
    assert len(rows) == 5


def test_the_player_page_shows_games_titles_and_results(client, people, league, season):
    play_rounds(people, league, season)
    ended = record_game(people, [([B, A, D, C], [A, B, C, D]), ([A, B, C, D], None)], league,
                        season, status=Game.Status.ABANDONED, name="Stalled table")
    client.force_login(people[0])
    response = client.get(reverse("league_player", args=["friday", people[1].pk]))
    assert response.status_code == 200
    results = response.context["results"]
    assert results[0]["season"] is None and results[0]["row"].points == 6 + 2
    assert results[1]["season"] == season and results[1]["row"].rank == 1
    games = response.context["games"]
    assert {g["game"].name for g in games} == {"Stalled table", "Recorded table"}
    recorded = next(g for g in games if g["game"].name == "Recorded table")
    assert recorded["won"] is True
    assert [(t["number"], t["key"], t["place"]) for t in recorded["titles"]] == [
        (1, "lesser_dalmuti", 1), (2, "great_dalmuti", 1)
    ]
    stalled = next(g for g in games if g["game"] == ended)
    assert stalled["won"] is False and len(stalled["titles"]) == 1
    assert b"Great Dalmuti" in response.content


def test_the_player_page_is_for_members_only(client, people, league):
    outsider = make_user("mallory")
    client.force_login(outsider)
    assert client.get(
        reverse("league_player", args=["friday", people[0].pk])
    ).status_code == 404
    client.force_login(people[0])
    assert client.get(
        reverse("league_player", args=["friday", outsider.pk])
    ).status_code == 404


@pytest.mark.parametrize(("language", "words"), [
    ("en", ("Open tables", "You are invited: take your seat", "Ask anna for an invitation.",
            "In play", "Round 1", "Finished")),
    ("de", ("Offene Tische", "Du bist eingeladen: Nimm Platz",
            "Bitte anna um eine Einladung.", "Laufende Partien", "Runde 1", "Beendet")),
])
def test_the_league_page_lists_its_open_tables_and_its_games(
        client, people, league, season, language, words):
    from leagues.services import create_league_table
    from tests.helpers import start_table

    from .helpers import LeagueGame

    anna, bert, cleo, dirk = people
    for person in people:
        person.display_name = person.username
        person.language = language
        person.save()
    create_league_table(league, anna, [bert], "Open for Bert")
    playing = start_table(anna, [cleo], bots=2, name="Anna and Cleo")
    LeagueGame.objects.create(game=playing, league=league, season=season)
    finished = record_game(people, [([A, B, C, D], [B, A, D, C])], league, season,
                           name="Last Friday")
    client.force_login(bert)
    page = client.get(reverse("league", args=["friday"])).content.decode()
    tables = page.split('id="league-tables-heading"', 1)[1].split("</section>", 1)[0]
    for word in words[:1] + words[3:]:
        assert word in tables
    # Bert is invited to the open table; he has no seat at the game in play.
    assert words[1] in tables and "Open for Bert" in tables
    assert "Anna and Cleo" in tables and f'href="/t/{playing.pk}/"' not in tables
    assert f'href="/history/{finished.pk}/"' in tables
    client.force_login(dirk)
    page = client.get(reverse("league", args=["friday"])).content.decode()
    assert words[2] in page


def test_a_league_tables_record_names_its_league_and_another_names_none(client, people,
                                                                         league):
    from .helpers import play_game

    in_league = play_game(people[A], league=league, name="Club night")
    alone = play_game(people[A], name="Kitchen")
    client.force_login(people[A])
    link = f'<a href="{league.get_absolute_url()}">{league.name}</a>'
    assert link in client.get(f"/history/{in_league.pk}/").content.decode()
    assert league.name not in client.get(f"/history/{alone.pk}/").content.decode()


def test_a_finished_games_lists_name_whoever_left_it_as_having_left(client, people, league,
                                                                  season):
    """The league's list of finished games and the player's history name everybody who
    played, a leaver marked: their points count, and a name without a mark would read as
    a place they did not take."""
    a, b, c, d = people
    emma = make_user("emma")
    game = record_game([a, b, c, d, emma], [([A, B, C, D, 4], [B, A, C, D, 4]),
                                            ([B, A, C, D, 4], [B, A, C, D, 4])],
                       league, season)
    game.seats.filter(user=b).update(left=True)
    client.force_login(a)
    page = client.get(reverse("league", args=[league.slug])).content.decode()
    finished = page[page.index("Finished"):]
    assert '<bdi>Bert</bdi> <span class="tag">left</span>' in finished
    history = client.get("/history/").content.decode()
    assert 'Bert 8 <span class="tag">left</span>' in history


def test_the_player_page_in_french_says_where_it_leads_back_and_each_place(
        client, people, league, season):
    """French says "back to the league «…»" (a league's name may begin with an article:
    "Retour à Les Mardis" is no French), and a place without agreeing with the player."""
    play_rounds(people, league, season)
    league.name = "Les Mardis"
    league.save(update_fields=["name"])
    client.force_login(people[0])
    page = client.get(reverse("league_player", args=["friday", people[1].pk]),
                      HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Retour à la ligue «\u00a0Les Mardis\u00a0»" in page
    assert "place 1 à l’arrivée" in page and "terminé" not in page


def test_the_league_page_says_who_won_each_finished_game(client, people, league, season):
    """"Who won last Tuesday?" answered on the league page, for the season shown."""
    play_rounds(people, league, season)
    record_game(people, [([A, B, C, D], [D, C, B, A])], league, season, name="Dirk day")
    client.force_login(people[0])
    page = client.get(reverse("league", args=["friday"])).content.decode()
    entries = page.split('<li class="game-entry">')[1:]
    won = {next(n for n in ("Recorded table", "Dirk day") if n in e): e for e in entries}
    assert "Won by Bert" in won["Recorded table"] and "Won by Dirk" in won["Dirk day"]
    assert page.count("Won by") == 2
