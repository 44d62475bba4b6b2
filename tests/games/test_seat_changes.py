"""Joining and leaving a game in progress, at the edges: leaves that end the game, a join
and a leave in the same round, no next round to join, the table told at once, only the
players at the table nudging and voting, and a rematch that keeps the clock. Through the
web where a player would act."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games import commands
from games.models import Game, Notification, TurnLimit
from games.read.replay import rebuild_state
from tests.helpers import make_user, play_out, play_until, start_table, waiting_humans

pytestmark = pytest.mark.django_db


@pytest.fixture
def four(db):
    users = [make_user(n) for n in ("ana", "ben", "cas", "dia")]
    return start_table(users[0], users[1:], options={"rounds": 5}), users


def _next_round(game):
    number = game.round_number
    return play_until(game, lambda g: g.round_number != number)


def _rebuilds(game):
    game.refresh_from_db()
    assert rebuild_state(game).to_json() == game.state


def test_two_leaving_a_table_of_four_end_the_game_with_the_round(client, four):
    game, users = four
    for user in users[2:]:
        client.force_login(user)
        assert client.post(f"/t/{game.pk}/leave-game/").status_code == 302
    game = _next_round(game)
    assert game.status == Game.Status.FINISHED and game.round_number == 1
    assert all(s.left for s in game.seats.filter(user__in=users[2:]))
    _rebuilds(game)


def test_a_leave_and_a_join_in_the_same_round_keep_the_game_going(client, four):
    game, users = four
    eve = make_user("eve")
    client.force_login(eve)
    client.post(f"/join/{game.invite_token}/")
    client.force_login(users[3])
    client.post(f"/t/{game.pk}/leave-game/")
    game = _next_round(game)
    assert game.is_playing and game.round_number == 2
    state = game.engine_state()
    newcomer = game.seats.get(user=eve)
    leaver = game.seats.get(user=users[3])
    assert newcomer.player in state.lineup and leaver.player not in state.lineup
    assert len(state.lineup) == 4
    _rebuilds(game)


def test_nobody_joins_when_there_is_no_next_round(client, make_user):
    host = make_user("host")
    game = start_table(host, [make_user("guest")], bots=2, options={"rounds": 1})
    late = make_user("late")
    client.force_login(late)
    page = client.get(f"/join/{game.invite_token}/").content.decode()
    assert "there is no next round to join" in page
    answer = client.post(f"/join/{game.invite_token}/")
    assert answer.status_code == 409
    assert "no next round to join" in answer.content.decode()
    assert not game.seats.filter(user=late).exists()


def test_a_newcomer_waiting_when_the_host_ends_the_game_is_not_left_hanging(client, four):
    game, users = four
    eve = make_user("eve")
    client.force_login(eve)
    client.post(f"/join/{game.invite_token}/")
    client.force_login(users[0])
    client.post(f"/t/{game.pk}/end/", {"end": "yes"})
    # Once the game ends after this round, nobody else may ask to join it.
    late = make_user("late")
    client.force_login(late)
    assert client.post(f"/join/{game.invite_token}/").status_code == 409
    game = play_out(game)
    assert game.is_over and not game.seats.filter(user=eve).exists()
    client.force_login(eve)
    assert "Test table" not in client.get("/").content.decode()


def test_the_table_sees_a_newcomer_and_a_leaver_at_its_next_poll(client, four):
    game, users = four
    client.force_login(users[0])
    poll = f"/t/{game.pk}/poll/?v={game.version}&me=x"
    assert client.get(poll).status_code == 204
    client.force_login(make_user("eve", display_name="Eve"))
    client.post(f"/join/{game.invite_token}/")
    client.force_login(users[0])
    answer = client.get(poll)
    assert answer.status_code == 200 and "Eve joins at round 2." in answer.content.decode()
    game.refresh_from_db()
    client.force_login(users[1])
    client.post(f"/t/{game.pk}/leave-game/")
    client.force_login(users[0])
    answer = client.get(f"/t/{game.pk}/poll/?v={game.version}&me=x")
    assert "Ben leaves the table when this round ends." in answer.content.decode()


def test_a_newcomer_not_yet_seated_neither_nudges_nor_votes(client, make_user):
    users = [make_user(n) for n in ("fay", "gus", "hal", "ivy")]
    game = start_table(users[0], users[1:], turn_limit=TurnLimit.DAY, options={"rounds": 5})
    waiting = waiting_humans(game)[0]
    waiting.timeouts_in_row = 2
    waiting.save(update_fields=["timeouts_in_row"])
    late = make_user("late")
    client.force_login(late)
    client.post(f"/join/{game.invite_token}/")
    with time_machine.travel(timezone.now() + timedelta(minutes=61)):
        page = client.get(f"/t/{game.pk}/").content.decode()
        assert "Nudge " not in page and "Vote yes" not in page
        client.post(f"/t/{game.pk}/nudge/", {"player": waiting.player})
        refused = client.post(f"/t/{game.pk}/vote/", {"player": waiting.player}, follow=True)
    assert not Notification.objects.filter(kind="nudge").exists()
    assert "Only the players at the table vote." in refused.content.decode()
    assert not waiting.votes_against.exists()
    # Those at the table still may.
    other = next(u for u in users if u != waiting.user)
    client.force_login(other)
    assert "Vote yes" in client.get(f"/t/{game.pk}/").content.decode()


def test_a_rematch_keeps_the_clock_and_the_leaving_rule(client, make_user):
    host = make_user("host")
    game = commands.create_table(host, "Timed", 4, {"rounds": 1}, TurnLimit.DAY,
                                 leaver_bot=True)
    for _ in range(3):
        commands.add_bot(game.pk, "basic")
    commands.start(game.pk)
    game = play_out(Game.objects.get(pk=game.pk))
    client.force_login(host)
    client.post(f"/history/{game.pk}/rematch/")
    rematch = Game.objects.exclude(pk=game.pk).get()
    assert rematch.turn_limit == TurnLimit.DAY and rematch.leaver_bot


def test_a_refused_seat_request_shows_the_table_with_the_reason_and_its_status(client, four):
    game, users = four
    eve = make_user("eve", display_name="Eve")
    client.force_login(eve)
    client.post(f"/join/{game.invite_token}/")
    newcomer = game.seats.get(user=eve)
    state = game.engine_state()
    great = game.seats.get(player=state.seats[state.round.order[0]])
    other = game.seats.exclude(pk=great.pk).exclude(user=eve).first()
    client.force_login(other.user)
    answer = client.post(f"/t/{game.pk}/join-place/", {"seat": newcomer.pk, "place": "upper"})
    assert answer.status_code == 403
    assert "Only the Great Dalmuti chooses where a newcomer sits." in answer.content.decode()
    assert 'id="table"' in answer.content.decode()  # the table, as it is now
    vote = client.post(f"/t/{game.pk}/vote/", {"player": great.player})
    # A table without a clock: the vote opens after two days' wait, not two missed turns.
    assert vote.status_code == 409 and "The table has not waited two days for" in (
        vote.content.decode())
    assert client.post(f"/t/{game.pk}/vote/", {"player": "x"}).status_code == 400
    client.force_login(great.user)
    assert client.post(f"/t/{game.pk}/join-place/",
                       {"seat": newcomer.pk, "place": "middle"}).status_code == 400
    newcomer.refresh_from_db()
    assert newcomer.join_choice == ""
    client.post(f"/t/{game.pk}/leave-game/")
    twice = client.post(f"/t/{game.pk}/leave-game/")
    assert twice.status_code == 409 and "already left" in twice.content.decode()
