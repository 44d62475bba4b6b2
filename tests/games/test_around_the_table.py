"""The small things around the table: My games speaking to me as "you" and showing my
place, the host's confirmation before removing a friend, the favicon, the email links
following the port `make run` serves on."""

import os
import subprocess
import sys

import pytest
from django.conf import settings

from games import commands
from games.models import Game
from tests.helpers import play_until, start_table
from tests.leagues.helpers import play_game

pytestmark = pytest.mark.django_db


def seat_of(game, user):
    return game.seats.get(user=user)


def test_my_games_says_waiting_for_you_not_my_own_name(client, alice, bob):
    game = start_table(alice, [bob], bots=2)
    me = seat_of(game, alice)
    game = play_until(game, lambda g: str(me.player) in g.awaiting)
    client.force_login(alice)
    content = client.get("/").content.decode()
    assert "waiting for you" in content
    assert "waiting for Alice" not in content


def test_finished_games_show_my_place(client, alice, bob):
    game = play_game(alice, [bob], bots=2)
    client.force_login(bob)
    response = client.get("/")
    entry = response.context["finished"][0]
    assert entry["game"] == game and entry["players"] == 4
    assert f"you finished in place {entry['place']} of 4" in response.content.decode()
    assert 1 <= entry["place"] <= 4


def test_the_host_removes_a_friend_only_after_confirming(client, alice, bob):
    game = commands.create_table(alice, "T", 5, {"rounds": 1})
    bob_seat = commands.join(game.pk, bob)
    client.force_login(alice)
    url = f"/t/{game.pk}/seats/{bob_seat.pk}/remove/"
    lobby = client.get(game.get_absolute_url()).content.decode()
    assert f'<a href="{url}">' in lobby
    confirm = client.get(url)
    assert confirm.status_code == 200
    assert b"Remove Bob from the table?" in confirm.content
    assert game.seats.filter(user=bob).exists()
    client.post(url)
    assert not game.seats.filter(user=bob).exists()


def test_a_bot_goes_with_one_tap_and_the_host_has_no_confirm_page(client, alice):
    game = commands.create_table(alice, "T", 5, {"rounds": 1})
    bot = commands.add_bot(game.pk, "basic")
    client.force_login(alice)
    host_seat = seat_of(game, alice)
    assert client.get(f"/t/{game.pk}/seats/{host_seat.pk}/remove/").status_code == 404
    client.post(f"/t/{game.pk}/seats/{bot.pk}/remove/")
    assert not game.seats.filter(user=None).exists()
    assert Game.objects.get(pk=game.pk).is_open


def test_favicon_ico_leads_to_the_site_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith("favicon.svg")


def _site_url(**env) -> str:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("SITE_URL", "HOST", "PORT", "DJANGO_SETTINGS_MODULE")}
    out = subprocess.run(
        [sys.executable, "-c",
         "from django.conf import settings; print(settings.SITE_URL)"],
        env={**clean, "DJANGO_SETTINGS_MODULE": "dalmuti_site.settings", **env},
        capture_output=True, text=True, check=True, cwd=settings.BASE_DIR,
    )
    return out.stdout.strip()


def test_email_links_follow_the_port_unless_site_url_is_set():
    assert _site_url() == "http://127.0.0.1:8000"
    assert _site_url(PORT="8123") == "http://127.0.0.1:8123"
    assert _site_url(HOST="0.0.0.0", PORT="8123") == "http://127.0.0.1:8123"
    assert _site_url(PORT="8123", SITE_URL="https://dalmuti.example/") == (
        "https://dalmuti.example"
    )
