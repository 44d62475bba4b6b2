"""A player joining or leaving a game in progress is told in the table's log where the
table's page shows it: a newcomer taking their place, and a leaver, at the top of the
round they change, before its deal; a player saying they leave, at once. Whoever was away
reads it in the page's summary and in their turn email; nothing more than the table saw."""

import re

import pytest
import time_machine
from django.utils import timezone

from games import commands
from games.away.content import game_context
from games.models import Game
from games.read.replay import rebuild_state
from tests.helpers import make_user, play_until, start_table

pytestmark = pytest.mark.django_db


def _next_round(game: Game) -> Game:
    number = game.round_number
    return play_until(game, lambda g: g.round_number != number)


def _log(page: str) -> list[str]:
    """The round's log lines on the table's page, newest first, without their times."""
    lines = page.split('id="log-lines"', 1)[1].split("</ol>", 1)[0]
    return [" ".join(re.sub(r"<[^>]+>", " ", item.split("</time>", 1)[1]).split())
            for item in lines.split("<li")[1:]]


def _summary(page: str) -> str:
    since = page.split('class="since"', 1)[1].split("</p>", 1)[0]
    return " ".join(re.sub(r"<[^>]+>", " ", since).split())


@pytest.fixture
def five(db):
    users = [make_user(n, display_name=n.title()) for n in ("ana", "ben", "cas", "dia", "eve")]
    return start_table(users[0], users[1:], options={"rounds": 3}), users


def test_a_newcomer_and_a_leaver_head_the_log_of_the_round_they_change(client, five):
    game, users = five
    dana = make_user("dana", display_name="Dana")
    commands.join_in_progress(game.pk, dana)
    commands.leave_game(game.pk, users[4])
    game = _next_round(game)
    assert game.is_playing and game.round_number == 2
    client.force_login(users[0])
    log = _log(client.get(f"/t/{game.pk}/").content.decode())
    dealt = next(i for i, line in enumerate(log) if line.startswith("Round 2 is dealt"))
    # Newest first: the deal, then who sat down, then who went.
    assert log[dealt + 1:dealt + 3] == [
        "Dana joins the table in place 3",
        "Eve leaves the table; their points stay on the scoreboard"]
    assert rebuild_state(game).to_json() == game.state


def test_the_place_the_great_dalmuti_chose_is_the_one_the_log_gives(client, five):
    game, users = five
    dana = make_user("dana", display_name="Dana")
    newcomer = commands.join_in_progress(game.pk, dana)
    state = game.engine_state()
    great = game.seats.get(player=state.seats[state.round.order[0]])
    commands.choose_join_place(game.pk, great.user, newcomer.pk, upper=True)
    game = _next_round(game)
    client.force_login(dana)
    assert "Dana joins the table in place 3" in _log(client.get(f"/t/{game.pk}/").content.decode())


def test_a_player_saying_they_leave_is_in_the_log_at_once(client, five):
    game, users = five
    client.force_login(users[4])
    assert client.post(f"/t/{game.pk}/leave-game/").status_code == 302
    client.force_login(users[0])
    log = _log(client.get(f"/t/{game.pk}/").content.decode())
    assert log[0] == ("Eve will leave the table when this round ends; a bot plays their "
                      "cards until then")


def test_where_a_bot_takes_the_seat_the_log_says_so_once(client):
    users = [make_user(n, display_name=n.title()) for n in ("fay", "hal")]
    game = commands.create_table(users[0], "Bots stay", 4, {"rounds": 3}, leaver_bot=True)
    commands.join(game.pk, users[1])
    for _ in range(2):
        commands.add_bot(game.pk, "basic")
    commands.start(game.pk)
    commands.leave_game(game.pk, users[1])
    client.force_login(users[0])
    told = "Hal leaves the table; a bot plays their seat for the rest of the game"
    assert _log(client.get(f"/t/{game.pk}/").content.decode())[0] == told
    game = _next_round(Game.objects.get(pk=game.pk))
    # Nobody leaves between the rounds: the bot goes on playing the seat.
    whole = client.get(f"/t/{game.pk}/log/").content.decode()
    assert whole.count(told) == 1 and "Hal leaves the table; their points" not in whole


def test_whoever_was_away_is_told_who_came_and_who_goes(client, five):
    game, users = five
    for user in users[:2]:
        client.force_login(user)
        client.get(f"/t/{game.pk}/")
    with time_machine.travel(timezone.now() + timezone.timedelta(hours=3), tick=False):
        commands.leave_game(game.pk, users[4])
        commands.join_in_progress(game.pk, make_user("dana", display_name="Dana"))
        client.force_login(users[0])
        summary = _summary(client.get(f"/t/{game.pk}/").content.decode())
        assert summary.endswith("Eve will leave the table when this round ends")
    with time_machine.travel(timezone.now() + timezone.timedelta(hours=6), tick=False):
        game = _next_round(game)
        # Back for the first time since the game began (their moves left aside).
        game.seats.filter(user=users[1]).update(last_seen=game.started)
        client.force_login(users[1])
        summary = _summary(client.get(f"/t/{game.pk}/").content.decode())
        assert "Eve left the table; Dana joined the table in place 3; round 2 was dealt" \
            in summary
        # The turn email says it too, since the player's last move.
        ana = game.seats.get(user=users[0])
        ana.last_acted = None
        ana.save()
        assert "Eve left the table; Dana joined the table in place 3" in game_context(
            game, users[0])["since_your_move"]
