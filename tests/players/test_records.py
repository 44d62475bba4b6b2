"""A finished game's record to download: the JSON replays with the engine alone to the
very state the site stored; the text tells the game; neither exists before the end, nor
for anyone without a seat."""

import json

import pytest
from django.urls import reverse

from games import commands
from players.records import replay_record
from tests.helpers import play_out, play_until, start_table

pytestmark = pytest.mark.django_db


def download(client, name, game):
    return client.get(reverse(name, args=[game.pk]))


@pytest.mark.parametrize("options", [
    {"rounds": 3},
    {"rounds": 2, "merchant_trade": "chosen", "tribute_return": "worst", "master_rule": True},
])
def test_the_json_record_replays_with_the_engine_to_the_stored_final_state(
        client, alice, bob, options):
    game = play_out(start_table(alice, [bob], bots=4, options=options))
    client.force_login(bob)
    response = download(client, "record_json", game)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    assert [p["name"] for p in data["seating"]] == [
        s.name for s in game.seats.order_by("player")]
    assert data["options"]["rounds"] == options["rounds"]
    # The engine, from the downloaded file alone.
    assert replay_record(data).to_json() == game.state
    assert data["standings"] == game.engine_state().standings


def test_a_record_with_a_newcomer_and_an_early_end_replays_too(client, alice, bob, carol):
    game = start_table(alice, [bob], bots=3, options={"rounds": None})
    commands.join_in_progress(game.pk, carol)
    game = play_until(game, lambda g: g.round_number >= 2)
    commands.end_after_this_round(game.pk, alice)
    game = play_out(game)
    client.force_login(carol)
    data = json.loads(download(client, "record_json", game).content)
    assert "join" in {a["kind"] for a in data["actions"]}
    assert replay_record(data).to_json() == game.state


def test_the_text_record_tells_players_rules_deals_and_results(client, alice, bob):
    game = play_out(start_table(alice, [bob], bots=2, options={"rounds": 2}))
    client.force_login(alice)
    response = download(client, "record_text", game)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    text = response.content.decode()
    rnd = game.rounds.get(number=1)
    names = {s.player: s.name for s in game.seats.all()}
    first_hand = " ".join(str(c) if c != 13 else "J" for c in sorted(rnd.hands[0]))
    assert f"{names[rnd.positions[0]]}: {first_hand}" in text
    assert "Round 2" in text and "2 rounds" in text
    assert "Final standings" in text and "&amp;" not in text
    winner = game.engine_state().standings[0]
    assert f"1. {names[winner['player']]} · {winner['score']} points" in text


def test_no_record_before_the_end_and_none_for_strangers(client, alice, bob, mallory):
    game = start_table(alice, [bob], bots=2, options={"rounds": 2})
    client.force_login(alice)
    for name in ("record_json", "record_text"):
        response = download(client, name, game)
        assert response.status_code == 403
        assert b'"cards"' not in response.content and b"Hands as dealt" not in response.content
    game = play_out(game)
    client.force_login(mallory)
    for name in ("record_json", "record_text"):
        assert download(client, name, game).status_code == 404
    client.logout()
    assert download(client, "record_json", game).status_code == 302


def test_the_record_page_links_both_downloads(client, alice):
    game = play_out(start_table(alice, bots=3, options={"rounds": 1}))
    client.force_login(alice)
    page = client.get(reverse("game_record", args=[game.pk])).content.decode()
    assert reverse("record_json", args=[game.pk]) in page
    assert reverse("record_text", args=[game.pk]) in page


def test_the_json_record_tells_a_player_of_their_own_standing_orders_alone(
        client, alice, bob):
    """What a standing order did is its owner's business, after the game too: to the
    others it was an ordinary move."""
    game = play_out(start_table(alice, [bob], bots=2, options={"rounds": 2}))
    by_order = {a.player for a in game.actions.filter(by="standing_order")}
    players = {s.user_id: s.player for s in game.seats.exclude(user=None)}
    assert by_order == set(players.values())  # both passed by their order at least once
    for user in (alice, bob):
        client.force_login(user)
        actions = json.loads(download(client, "record_json", game).content)["actions"]
        assert {a["player"] for a in actions if a["by"] == "standing_order"} == {
            players[user.pk]}
        assert replay_record({"format": "dalmuti-game-record", "version": 1,
                              "options": game.options, "actions": actions}) is not None
