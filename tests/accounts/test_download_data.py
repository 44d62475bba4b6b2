"""A player downloads what the site keeps about them, as one JSON file: their account and
settings, leagues, devices, the games they sat at with their results, and what they said;
nothing of any other player's."""

import json

import pytest
from django.urls import reverse

from chat import services as chat
from games import commands
from games.models import Game, InvitationBlock, Seat
from leagues.models import League, LeagueGame, Membership
from leagues.services import replace_by_bot
from push.models import PushSubscription
from tests.helpers import make_user, play_out, play_until, start_table

URL = reverse("download_data")


@pytest.fixture
def alices_world(alice, bob):
    """Alice played a game out with Bob and two bots, talked at it, sits at another in
    play, belongs to a league and has a device; Bob talked too."""
    over = play_out(start_table(alice, others=[bob], bots=2, name="Over and done"))
    chat.post(over, Seat.objects.get(game=over, user=alice), "Well played, all")
    chat.post(over, Seat.objects.get(game=over, user=bob), "Bob's secret plan")
    playing = start_table(bob, others=[alice], bots=2, name="Still going")
    league = League.objects.create(name="Soirée du jeudi", slug="thursday")
    Membership.objects.create(league=league, user=alice)
    PushSubscription.objects.create(user=alice, endpoint="https://push.example/alice",
                                    p256dh="key", auth="secret", device="Firefox on Android")
    commands.invite(commands.create_table(bob, "Next week", 5, {"rounds": 2}), bob, alice)
    InvitationBlock.objects.create(user=alice, blocked=make_user("carol"))
    return over, playing


def _download(client):
    response = client.get(URL)
    assert response.status_code == 200
    return response, json.loads(response.content)


def test_the_file_holds_the_account_and_its_settings(client, alice, alices_world):
    client.force_login(alice)
    response, data = _download(client)
    assert response["Content-Type"].startswith("application/json")
    assert "attachment" in response["Content-Disposition"]
    assert "alice" in response["Content-Disposition"]
    assert response["Cache-Control"].startswith("max-age=0")
    account = data["account"]
    assert account["username"] == "alice"
    assert account["email"] == "alice@example.com"
    assert account["display_name"] == "Alice"
    assert "password" not in json.dumps(data)
    assert "Soirée du jeudi" in response.content.decode()  # readable, not \u00e9
    assert data["leagues"] == [{"league": "Soirée du jeudi", "joined": str(
        Membership.objects.get(user=alice).joined)}]
    assert data["devices"][0]["device"] == "Firefox on Android"
    assert "secret" not in json.dumps(data["devices"])  # the device's key stays on the server


def test_the_games_come_with_the_seat_and_the_result(client, alice, alices_world):
    over, playing = alices_world
    client.force_login(alice)
    _, data = _download(client)
    games = {g["table"]: g for g in data["games"]}
    assert set(games) == {over.pk, playing.pk}
    mine = Seat.objects.get(game=over, user=alice)
    done = games[over.pk]
    assert done["name"] == "Over and done" and done["status"] == "finished"
    assert done["seat"] == mine.player + 1  # counted from 1, as the record counts
    assert done["hosted"] and not games[playing.pk]["hosted"]  # Bob hosts that one
    assert isinstance(done["place"], int) and 1 <= done["place"] <= 4
    assert isinstance(done["points"], int)
    assert games[playing.pk]["status"] == "playing"
    assert games[playing.pk]["place"] is None
    [rated] = data["rating"]["changes"]
    assert rated["table"] == over.pk and rated["place"] == done["place"]
    assert data["rating"]["rated_games"] == 1


def test_the_invitations_waiting_and_refused(client, alice, alices_world):
    client.force_login(alice)
    _, data = _download(client)
    assert [(i["name"], i["from"]) for i in data["invitations"]] == [("Next week", "Bob")]
    assert [b["player"] for b in data["invitations_refused_from"]] == ["Carol"]


def test_the_talk_is_theirs_alone(client, alice, alices_world):
    client.force_login(alice)
    response, data = _download(client)
    assert [m["text"] for m in data["messages"]] == ["Well played, all"]
    text = response.content.decode()
    assert "Bob's secret plan" not in text
    assert "bob@example.com" not in text
    # No cards at all: a hand in play is nobody else's, and the records hold the rest.
    assert '"hand"' not in text and '"cards"' not in text


def test_only_a_signed_in_player_downloads_by_get(client, alice):
    assert client.get(URL).status_code == 302
    client.force_login(alice)
    assert client.post(URL).status_code == 405


def test_the_profile_links_to_it(client, alice):
    client.force_login(alice)
    assert URL in client.get(reverse("profile")).content.decode()


def test_a_seat_given_to_a_bot_keeps_the_game_without_the_bots_result(client, alice, bob):
    """The standings of a seat a bot finished are the bot's: the file says from which
    round, and claims no place for the player."""
    game = start_table(alice, others=[bob], bots=2, options={"rounds": 3})
    LeagueGame.objects.create(game=game, league=League.objects.create(name="Club",
                                                                       slug="club"))
    game = play_until(game, lambda g: g.round_number == 2)
    player = game.seats.get(user=bob).player
    replace_by_bot(game.pk, game.seats.get(user=bob).pk, "basic", "Away for weeks.")
    play_out(Game.objects.get(pk=game.pk))
    client.force_login(bob)
    _, data = _download(client)
    [kept] = data["games"]
    assert kept["table"] == game.pk and kept["seat"] == player + 1
    assert kept["status"] == "finished"
    assert kept["replaced_by_a_bot_from_round"] == 2
    assert kept["place"] is None and kept["points"] is None


def test_the_way_to_delete_an_account_offers_it_first(client, alice):
    client.force_login(alice)
    assert URL in client.get(reverse("delete_account")).content.decode()
