"""A player who leaves a game is treated as the leave dialog says, the same everywhere:
their points stay on the scoreboard, and in the table's final standings, the game record
and the ratings they share the last place with anyone else who left."""

import re

import pytest
from django.core import mail

from games.models import Game
from players.models import RatingChange
from tests.helpers import make_user, play_until, start_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_with_a_leaver(client):
    users = [make_user(n, display_name=n) for n in ("ana", "ben", "cas", "dia", "eli")]
    game = start_table(users[0], users[1:], options={"rounds": 2})
    leaver = users[4]
    client.force_login(leaver)
    dialog = client.get(f"/t/{game.pk}/").content.decode()
    assert client.post(f"/t/{game.pk}/leave-game/").status_code == 302
    game = play_until(game, lambda g: g.is_over)
    assert game.status == Game.Status.FINISHED
    return game, users, leaver, dialog


def _rank_of(html: str, name: str) -> int:
    row = re.search(rf"<tr[^>]*><td>(\d+)</td><td>{name}\b", html)
    return int(row.group(1))


def test_the_dialog_standings_record_and_rating_agree_on_the_leavers_place(
        client, finished_with_a_leaver):
    game, users, leaver, dialog = finished_with_a_leaver
    assert "you share the last place with anyone else who left" in dialog
    assert "you are not ranked" not in dialog
    stayer = users[0]
    client.force_login(stayer)
    for language, tag in (("en", "left"), ("nl", "vertrokken")):
        stayer.language = language
        stayer.save()
        table = client.get(f"/t/{game.pk}/").content.decode()
        final = table.split('id="final-heading"', 1)[1].split("</ol>", 1)[0]
        # On the table's own final standings, after the four who played it out.
        assert re.search(rf'<li value="5"[^>]*><span class="st-name"><bdi>{leaver.name}</bdi> '
                         rf'<span class="tag">{tag}</span>', final)
        record = client.get(f"/history/{game.pk}/").content.decode()
        assert _rank_of(record, leaver.name) == 5
        assert f'{leaver.name} <span class="tag">{tag}</span>' in record
        assert sorted(_rank_of(record, u.name) for u in users[:4]) == [1, 2, 3, 4]
    assert RatingChange.objects.get(game=game, rating__user=leaver).place == 5
    stayer.language = "en"
    stayer.save()
    text = client.get(f"/history/{game.pk}/record.txt").content.decode()
    assert f"5. {leaver.name} (left)" in text


def test_my_games_says_that_i_leave_and_then_that_i_left(client):
    from games import commands

    users = [make_user(f"ml{i}") for i in range(5)]
    game = start_table(users[0], users[1:], options={"rounds": 3})
    leaver = users[4]
    commands.leave_game(game.pk, leaver)
    client.force_login(leaver)
    page = client.get("/").content.decode()
    assert "you leave when this round ends" in page
    game = play_until(game, lambda g: g.round_number == 2)
    page = client.get("/").content.decode()
    assert "you left this game" in page and "you leave when this round ends" not in page


def test_a_leaving_seat_says_leaving_alone(client):
    """The bot that plays a leaver's cards to the round's end is what "leaving" means:
    the seat says that, not also that a bot stands in (two tags crowd a phone's seat)."""
    from games import commands

    users = [make_user(f"sl{i}") for i in range(4)]
    game = start_table(users[0], users[1:], options={"rounds": 3})
    commands.leave_game(game.pk, users[3])
    client.force_login(users[0])
    page = client.get(f"/t/{game.pk}/").content.decode()
    seat = page[page.index("<bdi>Sl3</bdi>"):]
    seat = seat[:seat.index("</li>")].replace("\u00ad", "")  # the tags' soft hyphens
    assert "leaving" in seat and "a bot stands in" not in seat


def test_the_end_email_and_the_group_channel_rank_the_leaver_as_the_table_does(
        finished_with_a_leaver):
    """The email that tells the end, to those who played it out and to the one who left,
    and the group channel's last word, list the leaver at the shared last place, as the
    table's final standings do."""
    from games.away import channels as channel_sender
    from games.away import emails
    from games.models import ChannelNotice, Notification

    game, users, leaver, _dialog = finished_with_a_leaver
    points = game.engine_state().scores[game.seats.get(user=leaver).player]
    for reader in (users[0], leaver):
        mail.outbox.clear()
        over = Notification.objects.get(game=game, kind="over", user=reader)
        assert emails.deliver(over.pk) == "sent"
        body = mail.outbox[0].body
        standings = [line for line in body.splitlines() if line[:1].isdigit()]
        assert len(standings) == 5, body
        mine = " (you, left)" if reader == leaver else " (left)"
        assert standings[-1].startswith(f"5. {leaver.name}{mine} — {points} point")
    notice = ChannelNotice(game=game, kind="over", payload={})
    text = channel_sender.notice_message(notice).body
    assert f"5. {leaver.name} ({points})" in text


def test_whoever_left_reads_that_they_left_not_an_empty_hand(client):
    users = [make_user(n, display_name=n) for n in ("gus", "hal", "ivy", "jon", "kim")]
    game = start_table(users[0], users[1:], options={"rounds": 3})
    leaver = users[4]
    client.force_login(leaver)
    assert client.post(f"/t/{game.pk}/leave-game/").status_code == 302
    game = play_until(game, lambda g: g.round_number == 2)
    page = client.get(f"/t/{game.pk}/").content.decode()
    me = page.split('id="me"', 1)[1].split("</section>", 1)[0]
    assert "You left this game" in me
    assert "No cards left" not in me and "Your hand" not in me
    assert "Standing orders and your clock" not in page
    assert "when the table needs you" not in page
    # The others' pages go on as before.
    client.force_login(users[0])
    assert "You left this game" not in client.get(f"/t/{game.pk}/").content.decode()


def test_whoever_leaves_in_the_last_round_shares_the_last_place_too(client):
    """The leave dialog's word holds in the game's last round as in any other: the round
    that ends the game ends the leave with it."""
    from games import commands
    from players.reliability import reliability
    from players.stats import player_stats

    users = [make_user(n, display_name=n) for n in ("lia", "max", "noa", "oto", "pia")]
    game = start_table(users[0], users[1:], options={"rounds": 2})
    game = play_until(game, lambda g: g.round_number == 2)
    leaver = users[4]
    commands.leave_game(game.pk, leaver)
    game = play_until(game, lambda g: g.is_over)
    assert game.status == Game.Status.FINISHED
    seat = game.seats.get(user=leaver)
    assert seat.left and not seat.leaving
    assert RatingChange.objects.get(game=game, rating__user=leaver).place == 5
    client.force_login(users[0])
    assert _rank_of(client.get(f"/history/{game.pk}/").content.decode(), leaver.name) == 5
    # Their page counts the game once, as left, as their record of keeping turns does.
    stats = player_stats(leaver)
    assert (stats.games_played, stats.games_finished, stats.games_left) == (1, 0, 1)
    assert reliability(leaver).left == 1


def test_whoever_is_leaving_when_an_organiser_ends_the_game_left_it():
    from games import commands
    from leagues.services import end_game

    users = [make_user(n) for n in ("qin", "ria", "sol", "tom", "uma")]
    game = start_table(users[0], users[1:], options={"rounds": 3})
    commands.leave_game(game.pk, users[4])
    end_game(game.pk, "Stalled for a week.")
    seat = game.seats.get(user=users[4])
    assert seat.left and not seat.leaving


def test_nobody_won_a_game_everybody_left(client):
    """Four who all leave in one round end the game together, sharing its last place (the
    fourth, never the first): none of them won it, in their history as in a league."""
    from games import commands

    users = [make_user(n) for n in ("vic", "wes", "xia", "yul")]
    game = start_table(users[0], users[1:], options={"rounds": 3})
    for user in users:
        commands.leave_game(game.pk, user)
    game = play_until(game, lambda g: g.is_over)
    assert game.status == Game.Status.FINISHED
    client.force_login(users[0])
    entries = list(client.get("/history/").context["page"])
    assert [(e["me"]["left"], e["me"]["rank"], e["won"]) for e in entries] == [(True, 4, False)]
    assert not list(client.get("/history/?outcome=won").context["page"])


@pytest.fixture
def left_in_the_last_round(client):
    """A one-round game of four that one player leaves while it is played: the bot that
    plays their cards wins the round (so the engine's order alone would make them the
    winner), and another finishes it last."""
    from games import commands

    users = [make_user(n, display_name=n) for n in ("ana", "ben", "cas", "dia")]
    game = start_table(users[0], users[1:], options={"rounds": 1})
    for user in users[:3]:
        client.force_login(user)
        client.get(f"/t/{game.pk}/")
    leaver = users[3]
    commands.leave_game(game.pk, leaver)
    game = play_until(game, lambda g: g.is_over)
    assert game.status == Game.Status.FINISHED
    view = game.engine_state().view(None)
    leaver_player = game.seats.get(user=leaver).player
    assert view["seats"][view["finish_order"][0]] == leaver_player
    return game, users, leaver


def _final_ranks(page: str) -> dict[str, int]:
    final = page.split('id="final-heading"', 1)[1].split("</ol>", 1)[0]
    return {name: int(rank) for rank, name in
            re.findall(r'<li value="(\d+)"[^>]*><span class="st-name"><bdi>(\w+)</bdi>', final)}


def test_whoever_leaves_in_the_last_round_shares_the_last_place_and_never_wins(
        client, left_in_the_last_round):
    from games.away import emails
    from games.models import Notification

    game, users, leaver = left_in_the_last_round
    client.force_login(users[0])
    page = client.get(f"/t/{game.pk}/").content.decode()
    ranks = _final_ranks(page)
    assert ranks[leaver.name] == 4 and sorted(ranks.values()) == [1, 2, 3, 4]
    assert re.search(rf'<bdi>{leaver.name}</bdi> <span class="tag">left</span>', page)
    winner = next(user for user in users if ranks[user.name] == 1)
    client.force_login(next(user for user in users if ranks[user.name] == 2))
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert f"The game is over. {winner.name} wins!" in page
    assert f"{leaver.name} wins!" not in page
    # The round is over and the game with it: nobody is still about to leave.
    assert "leaves the table when this round ends" not in page
    assert f"The game is over: {winner.name} wins!" in client.get(
        f"/t/{game.pk}/log/").content.decode()
    record = client.get(f"/history/{game.pk}/").content.decode()
    assert _rank_of(record, leaver.name) == 4
    assert RatingChange.objects.get(game=game, rating__user=leaver).place == 4
    mail.outbox.clear()
    over = Notification.objects.get(game=game, kind="over", user=users[0])
    assert emails.deliver(over.pk) == "sent"
    assert f"4. {leaver.name} (left)" in mail.outbox[0].body


# How each language says that a player finished last (in a round or in the game).
FINISHED_LAST = {"en": "finished last", "nl": "als laatste", "de": "letzten Platz",
                 "fr": "dernière place"}


@pytest.mark.parametrize("language", ["en", "nl", "de", "fr"])
def test_the_summary_of_the_end_gives_each_reader_their_place_in_the_final_standings(
        client, left_in_the_last_round, language):
    """Back at the table after the end, each player reads where they finished the game,
    the place the final standings right under it give them: not their place in the last
    round (last there, they may be third in the game, behind everybody but the leaver)."""
    import time_machine
    from django.utils import timezone

    game, users, leaver = left_in_the_last_round
    view = game.engine_state().view(None)
    last_in_the_round = view["seats"][view["finish_order"][-1]]
    # Each was last at the table as the game began (else only what came after their own
    # last move would be news to them: nothing, to whoever made the last).
    game.seats.update(last_seen=game.started)
    told = set()
    with time_machine.travel(timezone.now() + timezone.timedelta(hours=3), tick=False):
        for user in users[:3]:
            user.language = language
            user.save()
            client.force_login(user)
            page = client.get(f"/t/{game.pk}/").content.decode()
            rank = _final_ranks(page)[user.name]
            summary = page.split('class="since"', 1)[1].split("</p>", 1)[0]
            summary = " ".join(re.sub(r"<[^>]+>", " ", summary).split())
            assert FINISHED_LAST[language] not in summary, summary
            if language == "en":
                assert summary.endswith("the game is over: you won" if rank == 1 else
                                        f"the game is over: you finished in place {rank}")
            if game.seats.get(user=user).player == last_in_the_round:
                told.add(rank)
    assert told == {3}


@pytest.fixture
def everybody_left(client):
    """Four at a table where a bot takes the seat of whoever leaves, and every one of them
    leaves (one in the first round, the others in the second): the bots play the game out
    to its end, and one of their seats scores the most."""
    from games import commands

    users = [make_user(n, display_name=n) for n in ("ana", "ben", "cas", "dia")]
    game = start_table(users[0], users[1:], options={"rounds": 3})
    Game.objects.filter(pk=game.pk).update(leaver_bot=True)
    commands.leave_game(game.pk, users[3])
    game = play_until(game, lambda g: g.round_number == 2)
    for user in users[:3]:
        commands.leave_game(game.pk, user)
    game = play_until(game, lambda g: g.is_over)
    assert game.status == Game.Status.FINISHED
    assert all(seat.left for seat in game.seats.all())
    return game, users


def _visible(html: str) -> str:
    """The words a reader sees: no tags, no soft hyphens, spaces as one (the non-breaking
    ones kept: French puts one before a colon)."""
    text = re.sub(r"<[^>]+>", " ", html.replace("\u00ad", ""))
    return re.sub(r"[ \t\r\n]+", " ", text).strip()


def test_nobody_wins_a_game_everybody_left_on_the_table_and_in_its_log(
        client, everybody_left):
    """The engine ranks the seats by their points, bots' rounds and all: the table must
    not crown the first of them. Nobody played the game out, so nobody won it, and every
    part of the page says so in words."""
    from games.models import Action

    game, users = everybody_left
    over = [event for action in Action.objects.filter(game=game)
            for event in action.events if event["type"] == "game_over"]
    assert over == [{"type": "game_over", "winner": None}]
    for user in (users[0], users[2]):
        client.force_login(user)
        page = client.get(f"/t/{game.pk}/").content.decode()
        seen = _visible(page)
        assert "The game is over. Everybody left: nobody wins." in seen
        assert " wins!" not in seen and "You win" not in seen
        # No seat says "winner": every one of them left.
        assert "winner" not in _visible(page.split('id="final"', 1)[0])
        final = page.split('id="final-heading"', 1)[1].split("</section>", 1)[0]
        assert sorted(_final_ranks(page).values()) == [4, 4, 4, 4]
        assert "Everybody left the game: nobody won it." in _visible(final)
        # Each of them reads what became of their seat: the bot played it to the end,
        # and nobody plays on.
        me = _visible(page.split('id="me"', 1)[1].split("</section>", 1)[0])
        assert "A bot played your seat to the end of the game." in me
        assert "play on without you" not in me
    client.force_login(users[0])
    log = _visible(client.get(f"/t/{game.pk}/log/").content.decode())
    assert "The game is over: everybody left, nobody wins." in log
    assert " wins!" not in log


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_summary_of_a_game_everybody_left_says_nobody_won(client, everybody_left,
                                                              language):
    import time_machine
    from django.utils import timezone

    game, users = everybody_left
    game.seats.update(last_seen=game.started)
    with time_machine.travel(timezone.now() + timezone.timedelta(hours=3), tick=False):
        user = users[1]
        user.language = language
        user.save()
        client.force_login(user)
        page = client.get(f"/t/{game.pk}/").content.decode()
    summary = _visible(page.split('class="since"', 1)[1].split("</p>", 1)[0])
    assert summary.endswith({"en": "the game is over: everybody left, nobody won",
                             "fr": "la partie est terminée\u00a0: tout le monde est "
                                   "parti, personne n’a gagné"}[language]), summary


def test_the_end_email_and_the_group_channel_say_nobody_won_a_game_everybody_left(
        everybody_left):
    from games.away import channels as channel_sender
    from games.away import emails
    from games.models import ChannelNotice, Notification

    game, users = everybody_left
    mail.outbox.clear()
    over = Notification.objects.get(game=game, kind="over", user=users[0])
    assert emails.deliver(over.pk) == "sent"
    body = mail.outbox[0].body
    assert "Everybody left the game: nobody won it." in body
    standings = [line for line in body.splitlines() if line[:1].isdigit()]
    assert [line[:3] for line in standings] == ["4. "] * 4, body
    html = mail.outbox[0].alternatives[0][0]
    assert "Everybody left the game: nobody won it." in html
    text = channel_sender.notice_message(ChannelNotice(game=game, kind="over",
                                                       payload={})).body
    assert text.startswith("The game is over. Everybody left: nobody won. "
                           "Final standings: 4. "), text


def test_a_game_everybody_left_counts_at_the_last_place_everywhere(client, everybody_left):
    """Its place is the last of the game for each of them: in the ratings, the record, the
    history and the player page; and none of them won it."""
    from players.stats import player_stats

    game, users = everybody_left
    assert sorted(RatingChange.objects.filter(game=game).values_list("place", flat=True)) \
        == [4, 4, 4, 4]
    client.force_login(users[0])
    record = client.get(f"/history/{game.pk}/").content.decode()
    assert [_rank_of(record, user.name) for user in users] == [4, 4, 4, 4]
    assert "Everybody left the game: nobody won it." in _visible(record)
    entries = list(client.get("/history/").context["page"])
    assert [(e["me"]["rank"], e["won"]) for e in entries] == [(4, False)]
    for user in users:
        stats = player_stats(user)
        assert [(p.players, p.games, p.average) for p in stats.places_by_size] == [(4, 1, 4)]
