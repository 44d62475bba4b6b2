"""Player pages: who may see them (a hidden page is a 404, like a name nobody has), what
they show (never a hand of a game in play), the owner's choice, the ratings list, place
and points on My games and History, and a season's games exported from the admin."""

import csv
import io
import json
import re

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from games import commands
from games.models import Action, Game
from players.models import PlayerProfile, Rating
from tests.helpers import play_out, play_until, start_table
from tests.leagues.helpers import make_league, record_game, this_year_season

pytestmark = pytest.mark.django_db


def page(client, user):
    return client.get(reverse("player", args=[user.username]))


def test_strangers_get_a_404_until_they_share_a_table_or_the_player_opens_the_page(
        client, alice, bob, mallory):
    client.force_login(mallory)
    assert page(client, alice).status_code == 404
    assert client.get(reverse("player", args=["nobody-at-all"])).status_code == 404
    # Sharing any table is enough, even one not started yet.
    game = commands.create_table(bob, "Waiting", 5, {})
    commands.join(game.pk, alice)
    client.force_login(bob)
    assert page(client, alice).status_code == 200
    # Alice lets everyone see her page.
    client.force_login(alice)
    response = client.post(reverse("player", args=["alice"]), {"visibility": "everyone"})
    assert response.status_code == 302
    assert PlayerProfile.objects.get(user=alice).visibility == "everyone"
    client.force_login(mallory)
    assert page(client, alice).status_code == 200
    # ... and hides it again.
    client.force_login(alice)
    client.post(reverse("player", args=["alice"]), {"visibility": "played_with"})
    client.force_login(mallory)
    assert page(client, alice).status_code == 404


def test_only_the_owner_changes_who_sees_the_page(client, alice, bob):
    commands.join(commands.create_table(alice, "Waiting", 5, {}).pk, bob)
    client.force_login(bob)
    response = client.post(reverse("player", args=["alice"]), {"visibility": "everyone"})
    assert response.status_code == 404
    assert not PlayerProfile.objects.filter(user=alice).exists()
    client.force_login(alice)
    response = client.post(reverse("player", args=["alice"]), {"visibility": "the moon"})
    assert response.status_code == 400
    assert not PlayerProfile.objects.filter(user=alice).exists()
    assert b"Who can see this page" in response.content


def test_visitors_must_log_in(client, alice):
    PlayerProfile.objects.create(user=alice, visibility="everyone")
    assert page(client, alice).status_code == 302
    assert client.get(reverse("ratings")).status_code == 302


def test_the_page_shows_rating_statistics_and_pictures(client, alice, bob):
    play_out(start_table(alice, [bob], bots=2, options={"rounds": 3}))
    client.force_login(bob)
    response = page(client, alice)
    assert response.status_code == 200
    content = response.content.decode()
    rating = Rating.objects.get(user=alice)
    assert rating.shown in content and "provisional" in content
    assert content.count('<svg class="chart') == 2
    assert "style=" not in content and "<script>" not in content
    # The pictures' numbers as a table, for screen readers.
    assert "round 3:" in content and "The same as a table" in content
    stats = response.context["stats"]
    assert (stats.games_played, stats.games_finished, stats.rounds) == (1, 1, 3)
    # Bob's own page has the visibility form; Alice's page, seen by Bob, does not.
    assert 'name="visibility"' not in content
    assert 'name="visibility"' in page(client, bob).content.decode()


def test_a_page_never_shows_cards_of_a_game_in_play(client, alice, bob):
    game = start_table(alice, [bob], bots=2, options={"rounds": 3})
    game = play_until(game, lambda g: g.round_number >= 2)
    assert not game.is_over
    client.force_login(bob)
    response = page(client, alice)
    stats = response.context["stats"]
    assert (stats.games_played, stats.games_in_play, stats.rounds) == (1, 1, 0)
    assert not stats.taxes_paid and not stats.taxes_received
    assert not response.context["recent"]
    # No card of any hand dealt or exchanged in this game reaches the page.
    tax_cards = [e["cards"] for a in Action.objects.filter(game=game) for e in a.events
                 if e.get("type") == "tax_exchange"]
    assert tax_cards  # there were taxes to hide
    assert "Paid as a Peon" not in response.content.decode()
    # Nor its rules among the favourite ones: it is not played to its end yet.
    assert not stats.favourite_options
    assert "No game finished yet." in response.content.decode()


def test_the_games_figures_add_up_a_game_left_counting_as_left(client, alice, bob, carol,
                                                               dave):
    people = [alice, bob, carol, dave]
    record_game(people, [([0, 1, 2, 3], [0, 1, 2, 3])], name="Played out")
    left = record_game(people, [([0, 1, 2, 3], [1, 0, 2, 3])], name="Left")
    left.seats.filter(user=alice).update(left=True)
    record_game(people, [([0, 1, 2, 3], [0, 1, 2, 3])], status=Game.Status.ABANDONED,
                name="Ended early")
    record_game(people, [([0, 1, 2, 3], None)], status=Game.Status.PLAYING, name="In play")
    client.force_login(alice)
    games = page(client, alice).content.decode().split('id="games-heading"', 1)[1]
    figures = dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]+)</dd>", games.split("</dl>")[0]))
    assert figures == {"Games played": "4", "Games finished": "1", "Left before the end": "1",
                       "Ended early": "1", "In play now": "1", "Average final place": "2.50"}


def test_the_ratings_list_shows_people_played_with_and_the_bots(client, alice, bob, mallory):
    play_out(start_table(alice, [bob], bots=2, options={"rounds": 1}))
    play_out(start_table(mallory, bots=3, options={"rounds": 1}))
    client.force_login(alice)
    response = client.get(reverse("ratings"))
    names = [r.user.username for r in response.context["people"]]
    assert sorted(names) == ["alice", "bob"]
    bots = response.context["bots"]
    assert [b.bot_level for b in bots] == ["basic"] and bots[0].games == 2
    assert "Basic bot" in response.content.decode()


def test_my_games_and_history_show_my_place_and_points(client, alice, bob):
    game = play_out(start_table(alice, [bob], bots=2, options={"rounds": 2}))
    state = game.engine_state()
    me = game.seats.get(user=bob).player
    row = next(r for r in state.standings if r["player"] == me)
    client.force_login(bob)
    home = client.get("/").content.decode()
    assert re.search(rf"you finished in place {row['rank']} of 4 with {row['score']} points?", home)
    history = client.get(reverse("history")).content.decode()
    assert re.search(rf"Place {row['rank']} · {row['score']} points?", history)


def test_the_admin_exports_a_seasons_games_as_csv_and_json(admin_client, alice, bob, carol,
                                                           dave):
    league = make_league(members=[alice, bob, carol, dave])
    season = this_year_season(league, "Spring")
    record_game([alice, bob, carol, dave], [([0, 1, 2, 3], [3, 2, 1, 0])], league, season,
                name="Opening night")
    record_game([alice, bob, carol, dave], [([0, 1, 2, 3], [0, 1, 2, 3])], league,
                name="Outside the season")
    url = reverse("admin:leagues_season_changelist")
    response = admin_client.post(url, {"action": "export_games_csv",
                                       "_selected_action": [season.pk], "index": "0"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [(r["table"], r["player"], r["rank"], r["points"]) for r in rows] == [
        ("Opening night", "Dave", "1", "3"), ("Opening night", "Carol", "2", "2"),
        ("Opening night", "Bob", "3", "1"), ("Opening night", "Alice", "4", "0")]
    response = admin_client.post(url, {"action": "export_games_json",
                                       "_selected_action": [season.pk], "index": "0"})
    data = json.loads(response.content)["seasons"][0]
    assert (data["league"], data["season"]) == ("Friday Club", "Spring")
    assert [g["name"] for g in data["games"]] == ["Opening night"]
    assert [s["player"] for s in data["standings"]] == ["Dave", "Carol", "Bob", "Alice"]


def test_the_export_names_a_replaced_player_for_their_rounds_and_the_bot_for_its_own(
        admin_client, alice, bob, carol, dave):
    """Dave played round 1, the organiser's bot round 2: Dave's row has his round and his
    points, ranked with the leavers (as the ratings and the standings count him); the
    bot's row its round, unranked; the others are ranked among themselves."""
    from leagues.models import Replacement

    league = make_league(members=[alice, bob, carol, dave])
    season = this_year_season(league, "Spring")
    game = record_game([alice, bob, carol, None],
                       [([0, 1, 2, 3], [3, 0, 1, 2]), ([3, 0, 1, 2], [0, 3, 1, 2])],
                       league, season, name="Opening night")
    Replacement.objects.create(game=game, player=3, user=dave, round_number=2,
                               bot_level="basic", bot_name="Bot 3")
    url = reverse("admin:leagues_season_changelist")
    response = admin_client.post(url, {"action": "export_games_csv",
                                       "_selected_action": [season.pk], "index": "0"})
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [(r["player"], r["bot_level"], r["rank"], r["points"], r["rounds"])
            for r in rows] == [
        ("Alice", "", "1", "5", "2"), ("Bob", "", "2", "2", "2"), ("Carol", "", "3", "0", "2"),
        ("Dave", "", "4", "3", "1"), ("Bot 3", "basic", "", "2", "1")]
    league_page = admin_client.get(reverse("league", args=[league.slug])).content.decode()
    assert re.search(r"<bdi>Dave</bdi> <span class=\"tag\">left</span>, <bdi>Bot 3</bdi>",
                     league_page)


def test_the_export_gives_the_rounds_a_stand_in_played_after_a_player_left_to_it(
        admin_client, alice, bob, carol, dave):
    """Dave said he leaves in round 2 at a table where a bot takes the seat: his row has
    round 1 alone, ranked at the game's last place; the stand-in's row round 2."""
    league = make_league(members=[alice, bob, carol, dave])
    season = this_year_season(league, "Spring")
    game = record_game([alice, bob, carol, dave],
                       [([0, 1, 2, 3], [3, 0, 1, 2]), ([3, 0, 1, 2], [3, 0, 1, 2])],
                       league, season, name="Opening night")
    game.seats.filter(user=dave).update(left=True)
    Action.objects.create(game=game, seq=1, round_number=2, kind="leaving", player=3,
                          events=[{"type": "leaving", "player": 3, "bot": True}])
    url = reverse("admin:leagues_season_changelist")
    response = admin_client.post(url, {"action": "export_games_csv",
                                       "_selected_action": [season.pk], "index": "0"})
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [(r["player"], r["bot_level"], r["rank"], r["points"], r["rounds"])
            for r in rows] == [
        ("Alice", "", "1", "4", "2"), ("Bob", "", "2", "2", "2"), ("Carol", "", "3", "0", "2"),
        ("Dave", "", "4", "3", "1"), ("stand-in bot, Skilled bot", "skilled", "", "3", "1")]


def test_the_page_costs_the_same_number_of_queries_however_many_games(
        client, alice, bob, django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    # The clock stands still: what is done at most once a while (a throttled write, a
    # retry come due) would count against the second load on a slow machine.
    with time_machine.travel(timezone.now(), tick=False):
        play_out(start_table(alice, [bob], bots=2, options={"rounds": 2}, seed=1))
        client.force_login(bob)
        with CaptureQueriesContext(connection) as one_game:
            assert page(client, alice).status_code == 200
        for seed in (2, 3, 4):
            play_out(start_table(alice, [bob], bots=2, options={"rounds": 2}, seed=seed))
        with django_assert_max_num_queries(len(one_game)):
            assert page(client, alice).status_code == 200


def test_the_menus_my_page_opens_a_page_titled_my_page_and_anothers_by_their_name(
        client, alice, bob):
    commands.join(commands.create_table(alice, "Waiting", 5, {}).pk, bob)
    client.force_login(alice)
    own = page(client, alice).content.decode()
    assert re.search(r"<title>\s*My page · ", own), own[:400]
    # The menu's entry for it is marked as the page the reader is on.
    assert re.search(r'<a href="/players/alice/"[^>]*aria-current="page"[^>]*>My page</a>', own)
    theirs = page(client, bob).content.decode()
    assert re.search(rf"<title>\s*{bob.name} · Player page · ", theirs), theirs[:400]


def test_the_rounds_say_they_count_the_games_that_are_over(client, alice, bob):
    """A player whose first game is in its second round reads 0 rounds played, and why."""
    game = start_table(alice, [bob], bots=2, options={"rounds": 3})
    play_until(game, lambda g: g.round_number == 2)
    note = "Counted from the games that are over: a game in play counts once it ends."
    client.force_login(alice)
    assert note in page(client, alice).content.decode()
    play_until(game, lambda g: g.is_over)
    assert note not in page(client, alice).content.decode()
