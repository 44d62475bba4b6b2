"""A player downloads what the site keeps about them, as one JSON file: their account and
settings, leagues, devices, the games they sat at with their settings and results, the
invitations they received and sent, their absences and vacations, and what they said;
nothing of any other player's but the addresses they typed themselves."""

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from chat import services as chat
from games import commands
from games.models import (
    DismissedTip,
    Game,
    InvitationBlock,
    Review,
    ReviewSummary,
    Seat,
    TurnLimit,
)
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


def test_each_tables_own_settings_and_the_review_of_their_decisions(client, alice,
                                                                     alices_world):
    over, playing = alices_world
    Seat.objects.filter(game=playing, user=alice).update(auto_pass=False, talk_muted=True)
    review = Review.objects.create(game=over, seed=1, samples=8, status=Review.Status.DONE)
    ReviewSummary.objects.create(review=review, player=over.seats.get(user=alice).player,
                                 user=alice, decisions=40, mistakes=2, blunders=1,
                                 places_lost=0.05, accuracy=91.5)
    client.force_login(alice)
    _, data = _download(client)
    settings = {g["table"]: g["settings"] for g in data["games"]}
    assert settings[playing.pk] == {
        "pass_when_i_cannot_beat": False, "give_back_my_worst_cards": False,
        "call_a_revolution_as_a_peon": False, "no_notices_of_table_talk": True}
    assert settings[over.pk]["pass_when_i_cannot_beat"] is True
    assert data["reviews"] == [{"table": over.pk, "decisions": 40, "inaccuracies": 0,
                                "mistakes": 2, "blunders": 1,
                                "places_lost_per_decision": 0.05, "accuracy": 91.5}]


def test_the_invitations_waiting_and_refused(client, alice, alices_world):
    client.force_login(alice)
    _, data = _download(client)
    assert [(i["name"], i["from"]) for i in data["invitations"]] == [("Next week", "Bob")]
    assert [b["player"] for b in data["invitations_refused_from"]] == ["Carol"]


def test_the_invitations_they_sent_name_whom_or_the_address_they_typed(client, alice, bob):
    table = commands.create_table(alice, "Friday", 6, {"rounds": 2})
    commands.invite(table, alice, user=bob)
    commands.invite(table, alice, email="Friend@Example.org")
    # Bob's address, typed: the file says what she typed, never whose it is.
    commands.invite(table, alice, user=bob, email="bob@example.com")
    client.force_login(alice)
    _, data = _download(client)
    assert [(i["table"], i["name"], i["to"]) for i in data["invitations_sent"]] == [
        (table.pk, "Friday", "Bob"), (table.pk, "Friday", "friend@example.org"),
        (table.pk, "Friday", "bob@example.com")]
    assert all(i["sent"] for i in data["invitations_sent"])
    assert data["invitations"] == []


def test_the_invitations_they_received_by_name_and_at_their_address(client, alice, bob, carol):
    """By name and at the address they confirmed, to a table not started or to a game in
    play (from its next round): every invitation waiting for them."""
    table = commands.create_table(bob, "Next week", 5, {"rounds": 2})
    commands.invite(table, bob, email="alice@example.com")
    playing = start_table(carol, bots=3, options={"rounds": 3}, name="Under way")
    commands.invite(playing, carol, user=alice)
    client.force_login(alice)
    _, data = _download(client)
    assert [(i["table"], i["from"], i["to_address"]) for i in data["invitations"]] == [
        (table.pk, "Bob", "alice@example.com"), (playing.pk, "Carol", None)]
    # An address not confirmed is nobody's yet: what was sent to it stays out.
    type(alice).objects.filter(pk=alice.pk).update(email_verified=False)
    _, data = _download(client)
    assert [i["table"] for i in data["invitations"]] == [playing.pk]


def test_the_absences_and_vacations_and_no_absence_once_back(client, alice, bob):
    game = start_table(alice, [bob], bots=2, options={"rounds": 3}, turn_limit=TurnLimit.DAY)
    client.force_login(alice)
    commands.start_vacation(game.pk, alice, 2)
    tomorrow = timezone.localdate() + timedelta(days=1)
    data = {"display_name": alice.display_name, "email": alice.email, "notify": alice.notify,
            "notify_by": alice.notify_by, "language": "", "time_zone": "",
            "away_until": tomorrow.isoformat()}
    assert client.post(reverse("profile"), data).status_code == 302
    _, away = _download(client)
    assert away["account"]["away_until"] is not None
    assert [p["table"] for p in away["away_and_vacations"]] == [game.pk, None]
    assert client.post(reverse("profile"), {"back": "1"}).status_code == 302
    _, back = _download(client)
    assert back["account"]["away_until"] is None
    # The absence stays as the time it lasted, no longer a date ahead.
    absence = back["away_and_vacations"][1]
    assert absence["from"] == away["away_and_vacations"][1]["from"]
    assert absence["until"] < away["account"]["away_until"]


def test_the_tables_they_were_taken_off_the_leagues_they_run_and_the_tips_they_read(
        client, alice, bob):
    table = commands.create_table(bob, "Bob's", 5, {"rounds": 2})
    commands.join(table.pk, alice)
    commands.remove_seat(table.pk, table.seats.get(user=alice).pk)
    League.objects.create(name="Club du lundi", slug="monday").organisers.add(alice)
    DismissedTip.objects.create(user=alice, key="first_lead")
    client.force_login(alice)
    # Her pages are in her browser's French: so would her emails be.
    data = json.loads(client.get(URL, HTTP_ACCEPT_LANGUAGE="fr").content)
    assert [(r["table"], r["name"]) for r in data["taken_off_tables"]] == [(table.pk, "Bob's")]
    assert data["leagues_organised"] == ["Club du lundi"]
    assert [t["tip"] for t in data["tips_dismissed"]] == ["first_lead"]
    assert data["account"]["page_language"] == "fr"


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
