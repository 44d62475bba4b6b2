import pytest

from games import commands, engine
from games.models import Action
from tests.helpers import form_for, start_table

pytestmark = pytest.mark.django_db


def test_one_human_and_three_bots_play_a_whole_game(
    client, alice, django_capture_on_commit_callbacks, eager_tasks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = start_table(alice, bots=3, options={"rounds": 3})
    client.force_login(alice)
    for _ in range(2000):
        game.refresh_from_db()
        if game.is_over:
            break
        seat = game.seats.get(user=alice)
        # Whenever the page is looked at, the bots have already played up to alice.
        assert str(seat.player) in game.awaiting
        action = game.engine_state().view(seat.player)["legal_actions"][0]
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(f"/t/{game.pk}/act/",
                                   form_for(action, game.awaiting[str(seat.player)][0]))
        assert response.status_code == 302
    assert game.is_over
    assert Action.objects.filter(game=game, by="bot").count() > 0
    assert game.state["round_number"] == 3


def test_a_bot_move_goes_through_the_engine_and_the_record(alice):
    game = start_table(alice, bots=3)
    moved = 0
    while commands.play_bot_move(game.pk):
        moved += 1
    game.refresh_from_db()
    assert moved > 0
    bots = {s.player for s in game.seats.all() if s.is_bot}
    assert not bots & {int(p) for p in game.awaiting}
    last = Action.objects.filter(game=game, by="bot").last()
    assert last.player in bots
    assert engine.action_from_json(last.payload)


def test_running_the_bot_task_when_no_bot_is_due_does_nothing(alice):
    from games.tasks import play_bots

    game = start_table(alice, bots=3)
    play_bots(game.pk)
    game.refresh_from_db()
    version = game.version
    assert play_bots(game.pk) == 0
    game.refresh_from_db()
    assert game.version == version
