"""A player whose seat an organiser gave to a bot reads the game's record once it is
over, as every player who sat at it does: the standings, the log, the replay from their
seat, the downloads and the review of their own decisions. The rounds from the
replacement on are the bot's: the record says so and calls no result theirs. While the
game is in play it stays closed to them (it shows every hand), and its rematch is not
theirs to open."""

import pytest

from games.models import Game
from leagues.models import LeagueGame
from leagues.services import replace_by_bot
from tests.helpers import names
from tests.leagues.helpers import make_league, make_user, play_until, start_game

pytestmark = pytest.mark.django_db


def _replaced():
    alice = make_user("alice")
    bob = make_user("bob")
    game = start_game(alice, [bob], bots=2, options={"rounds": 3}, name="Friday table")
    LeagueGame.objects.create(game=game, league=make_league(members=[alice, bob]))
    game = play_until(game, lambda g: g.round_number == 2)
    seat = game.seats.get(user=bob)
    replace_by_bot(game.pk, seat.pk, "basic", "Bob is away for weeks.")
    return game, bob, seat.player


def test_while_the_game_is_in_play_its_record_stays_closed(client):
    game, bob, _player = _replaced()
    client.force_login(bob)
    for path in ("", "replay/", "review/", "record.json", "record.txt"):
        answer = client.get(f"/history/{game.pk}/{path}")
        assert answer.status_code == 410, path
        assert b"gave your seat" in answer.content


def test_once_over_they_read_the_record_with_the_bots_rounds_called_the_bots(client):
    game, bob, player = _replaced()
    game = play_until(Game.objects.get(pk=game.pk), lambda g: g.is_over)
    client.force_login(bob)
    record = client.get(f"/history/{game.pk}/")
    assert record.status_code == 200
    page = record.content.decode()
    assert "An organiser gave your seat at this table to a bot" in page
    assert "from round 2 on." in page
    assert 'class="is-me"' not in page  # the seat's final standing is the bot's
    assert f"/history/{game.pk}/rematch/" not in page
    assert client.get(f"/history/{game.pk}/review/").status_code == 200


def test_they_replay_it_from_their_seat(client):
    game, bob, player = _replaced()
    game = play_until(Game.objects.get(pk=game.pk), lambda g: g.is_over)
    client.force_login(bob)
    replay = client.get(f"/history/{game.pk}/replay/?step=3")
    assert replay.status_code == 200
    # Their seat at the bottom, as they sat: the replay's own seat is theirs.
    assert replay.context["me"] == player


def test_they_download_it(client):
    game, bob, _player = _replaced()
    game = play_until(Game.objects.get(pk=game.pk), lambda g: g.is_over)
    client.force_login(bob)
    for path in ("record.json", "record.txt"):
        answer = client.get(f"/history/{game.pk}/{path}")
        assert answer.status_code == 200, path
        assert "attachment" in answer["Content-Disposition"]


def test_the_rematch_is_not_theirs_to_open(client):
    game, bob, _player = _replaced()
    game = play_until(Game.objects.get(pk=game.pk), lambda g: g.is_over)
    client.force_login(bob)
    before = Game.objects.count()
    answer = client.post(f"/history/{game.pk}/rematch/")
    assert answer.status_code == 410
    assert Game.objects.count() == before


def test_the_tables_link_leads_to_the_record_once_over(client):
    game, bob, _player = _replaced()
    client.force_login(bob)
    assert f'href="/history/{game.pk}/"' not in client.get(f"/t/{game.pk}/").content.decode()
    game = play_until(Game.objects.get(pk=game.pk), lambda g: g.is_over)
    page = client.get(f"/t/{game.pk}/")
    assert page.status_code == 410
    assert f'href="/history/{game.pk}/"' in page.content.decode()


def test_the_record_names_the_seat_by_who_played_each_round(client):
    """The seat was Bob's in round 1 and the bot's from round 2: the record's log, its
    rounds and the replay say so, for every reader; the review of Bob's decisions is his."""
    game, bob, player = _replaced()
    game = play_until(Game.objects.get(pk=game.pk), lambda g: g.is_over)
    bot = game.seats.get(player=player).name
    client.force_login(game.host)
    record = client.get(f"/history/{game.pk}/?round=1")
    rounds = {r["number"]: r for r in record.context["rounds"]}
    names_in = {n: {c["name"] for c in r["cells"]} for n, r in rounds.items()}
    assert "Bob" in names_in[1] and bot not in names_in[1]
    assert bot in names_in[2] and "Bob" not in names_in[2]
    [first, *_rest] = record.context["log_rounds"]
    assert any("Bob" in line["text"] for line in first["lines"])
    assert not any(bot in line["text"] for line in first["lines"])
    later = [line["text"] for r in record.context["log_rounds"][1:] for line in r["lines"]]
    assert not any("Bob" in text for text in later)
    # The final standing is the bot's, who finished the game.
    assert {row["name"] for row in record.context["standing"]} >= {bot}
    # The replay, in round 1 and in round 2.
    step_in_round_2 = next(s["step"] for s in client.get(
        f"/history/{game.pk}/replay/").context["round_starts"] if s["number"] == 2)
    early = client.get(f"/history/{game.pk}/replay/?step=2").content.decode()
    assert "Bob" in early
    late = client.get(f"/history/{game.pk}/replay/?step={step_in_round_2 + 1}")
    assert not names(late.content.decode(), "Bob")
    # The downloads name them alike.
    [seat] = [s for s in client.get(f"/history/{game.pk}/record.json").json()["seating"]
              if s["player"] == player]
    assert seat["name"] == bot and seat["in_place_of"] == {"name": "Bob", "from_round": 2}
    text = client.get(f"/history/{game.pk}/record.txt").content.decode()
    assert f"{bot} (basic bot) · in place of Bob from round 2" in text
    round_1, after = text.split("\nRound 1\n", 1)[1].split("\nRound 2\n", 1)
    assert "Bob" in round_1 and bot not in round_1
    assert "Bob" not in after
