import pytest
from django.urls import reverse

from games.models import Game
from games.read.narration import log_lines
from leagues.services import end_game
from tests.leagues.helpers import (
    make_league,
    make_user,
    play_game,
    play_until,
    record_game,
    start_game,
)

pytestmark = pytest.mark.django_db

HISTORY = reverse("history")


def names_listed(response):
    return [e["game"].name for e in response.context["page"].object_list]


def test_it_lists_my_finished_games_and_nothing_else(client, alice, bob):
    play_game(alice, name="Done and dusted")
    start_game(alice, name="Still playing")
    play_game(bob, name="Bob's own game")
    client.force_login(alice)
    response = client.get(HISTORY)
    assert response.status_code == 200
    assert names_listed(response) == ["Done and dusted"]
    entry = response.context["page"].object_list[0]
    assert [row["score"] for row in entry["standing"]] == [3, 2, 1, 0]
    assert sum(row["is_me"] for row in entry["standing"]) == 1


def test_a_table_closed_before_its_game_started_has_no_record(client, alice, bob):
    """Nothing was played at it: it is not in the history, and its record, replay,
    downloads and rematch answer that there is none."""
    from games import commands

    closed = commands.create_table(alice, "Never dealt", 5, {"rounds": 2})
    commands.join(closed.pk, bob)
    commands.cancel_table(closed.pk, alice)
    play_game(alice, name="Done and dusted")
    for reader in (alice, bob):
        client.force_login(reader)
        assert "Never dealt" not in names_listed(client.get(HISTORY))
        for path in ("", "replay/", "review/", "record.json", "record.txt"):
            answer = client.get(f"/history/{closed.pk}/{path}")
            assert answer.status_code == 404, path
        assert client.post(f"/history/{closed.pk}/rematch/").status_code == 404
    assert names_listed(client.get(HISTORY)) == []  # Bob played nothing


def test_it_filters_by_status_league_result_and_name(client, alice, bob):
    people = [alice, bob, make_user("cleo"), make_user("dirk")]
    league = make_league(members=people)
    record_game(people, [([0, 1, 2, 3], [0, 1, 2, 3])], league, name="Alice wins")
    record_game(people, [([0, 1, 2, 3], [1, 0, 2, 3])], name="Bob wins")
    record_game(people, [([0, 1, 2, 3], [0, 1, 2, 3]), ([0, 1, 2, 3], None)],
                status=Game.Status.ABANDONED, name="Stalled")
    client.force_login(alice)
    assert set(names_listed(client.get(HISTORY))) == {"Alice wins", "Bob wins", "Stalled"}
    assert names_listed(client.get(HISTORY, {"status": "abandoned"})) == ["Stalled"]
    assert names_listed(client.get(HISTORY, {"league": "friday"})) == ["Alice wins"]
    assert names_listed(client.get(HISTORY, {"outcome": "won"})) == ["Alice wins"]
    assert set(names_listed(client.get(HISTORY, {"outcome": "lost"}))) == {"Bob wins", "Stalled"}
    assert names_listed(client.get(HISTORY, {"q": "bob w"})) == ["Bob wins"]
    assert len(names_listed(client.get(HISTORY, {"q": "Dirk"}))) == 3


def test_an_empty_history_says_why_as_an_empty_filter_does(client, alice, bob):
    """Somebody who has played nothing is not told that no game matches a filter they
    never set; a filter that finds nothing says so. Nor does the ratings page say that
    nobody is rated, when it lists only the reader and the people they played with."""
    client.force_login(make_user("newcomer"))
    page = client.get(HISTORY).content.decode()
    assert "No games yet: every game you play in is listed here" in page
    assert "No finished games match." not in page
    assert "No finished games match." in client.get(HISTORY + "?q=nothing").content.decode()
    ratings = client.get(reverse("ratings")).content.decode()
    assert "Neither you nor anyone you have played with is rated yet" in ratings


def test_visitors_must_log_in(client):
    response = client.get(HISTORY)
    assert response.status_code == 302


def test_the_record_shows_standings_rounds_and_the_full_log(client, alice, bob):
    game = play_game(alice, [bob], bots=3, options={"rounds": 2})
    client.force_login(alice)
    response = client.get(reverse("game_record", args=[game.pk]))
    assert response.status_code == 200
    standing = response.context["standing"]
    assert [row["rank"] for row in standing] == [1, 2, 3, 4, 5]
    assert [r["number"] for r in response.context["rounds"]] == [1, 2]
    # The full log, events private to others included, now that the game is over.
    seats = list(game.seats.select_related("user"))
    names = {s.player: s.name for s in seats}
    actions = list(game.actions.order_by("seq"))
    mine = log_lines(actions, game.seats.get(user=alice), names)
    full = [line for r in response.context["log_rounds"] for line in r["lines"]]
    hidden = [e for a in actions for e in a.events
              if "visible_to" in e and game.seats.get(user=alice).player not in e["visible_to"]]
    assert len(full) == len(mine) + len(hidden)
    assert b"The game is over" in response.content
    assert reverse("replay", args=[game.pk]).encode() in response.content


def test_the_record_folds_the_log_by_round_with_one_round_open(client, alice, bob):
    game = play_game(alice, [bob], bots=3, options={"rounds": 2})
    client.force_login(alice)
    url = reverse("game_record", args=[game.pk])
    response = client.get(url)
    assert [r["number"] for r in response.context["log_rounds"]] == [1, 2]
    content = response.content.decode()
    assert content.count('<details name="log-round"') == 2
    assert content.count(" open>") == 1
    assert '<details name="log-round" class="log-round" id="log-round-1" open>' in content
    second = client.get(url, {"round": "2"}).content.decode()
    assert '<details name="log-round" class="log-round" id="log-round-2" open>' in second
    assert '<details name="log-round" class="log-round" id="log-round-1">' in second


def test_the_record_opens_only_once_the_game_is_over(client, alice, bob):
    game = start_game(alice, [bob])
    client.force_login(bob)
    assert client.get(reverse("game_record", args=[game.pk])).status_code == 403
    game = play_until(game, lambda g: g.is_over)
    assert client.get(reverse("game_record", args=[game.pk])).status_code == 200
    client.force_login(make_user("mallory"))
    assert client.get(reverse("game_record", args=[game.pk])).status_code == 404


def test_a_game_ended_early_shows_why_and_scores_only_finished_rounds(client, alice):
    game = start_game(alice, options={"rounds": 3})
    game = play_until(game, lambda g: g.round_number == 2)
    end_game(game.pk, "Alice moved abroad.")
    client.force_login(alice)
    response = client.get(reverse("game_record", args=[game.pk]))
    assert b"Alice moved abroad." in response.content
    assert [r["number"] for r in response.context["rounds"]] == [1]
    assert sorted(row["score"] for row in response.context["standing"]) == [0, 1, 2, 3]
