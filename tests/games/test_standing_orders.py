"""Standing orders act the moment the turn reaches the player, as a normal action."""

import pytest

from games import commands, engine
from games.models import Action
from tests.helpers import legal, play_until, start_table, waiting_humans

pytestmark = pytest.mark.django_db


def _advance_to_play(game):
    play_until(game, lambda g: g.engine_state().round.phase == "play")


def test_auto_pass_is_on_by_default_and_passes_when_nothing_beats_the_table(alice):
    game = start_table(alice, bots=3, options={"rounds": 5})
    seat = game.seats.get(user=alice)
    assert seat.auto_pass
    # Play through the game; every standing-order action must be a pass made when it
    # was the only legal action.
    for _ in range(3000):
        game.refresh_from_db()
        if not game.is_playing:
            break
        if waiting_humans(game):
            actions = legal(game, seat)
            assert actions != [{"type": "pass"}], "auto-pass should have acted"
            commands.act(game.pk, alice, engine.action_from_json(actions[0]),
                         game.awaiting[str(seat.player)][0])
        else:
            commands.play_bot_move(game.pk)
    auto = Action.objects.filter(game=game, by="standing_order")
    assert auto.exists()
    assert {a.kind for a in auto} == {"pass"}
    assert all(a.player == seat.player for a in auto)


def test_with_auto_pass_off_the_player_decides(alice):
    game = start_table(alice, bots=3)
    game.seats.filter(user=alice).update(auto_pass=False)
    _advance_to_play(game)
    for _ in range(500):
        game.refresh_from_db()
        if waiting_humans(game) and legal(game, game.seats.get(user=alice)) == [{"type": "pass"}]:
            break
        seat = game.seats.get(user=alice)
        if waiting_humans(game):
            commands.act(game.pk, alice, engine.action_from_json(legal(game, seat)[0]),
                         game.awaiting[str(seat.player)][0])
        else:
            commands.play_bot_move(game.pk)
    assert legal(game, game.seats.get(user=alice)) == [{"type": "pass"}]
    assert not Action.objects.filter(game=game, by="standing_order").exists()


def test_pass_for_the_rest_of_this_trick(client, alice):
    game = start_table(alice, bots=3, options={"rounds": 5})
    game.seats.filter(user=alice).update(auto_pass=False)
    for _ in range(1000):
        _advance_to_play(game)
        game.refresh_from_db()
        seat = game.seats.get(user=alice)
        view = game.engine_state().view(seat.player)
        if view["to_act"] == view["seat"] and view["trick"]["plays"] and len(
            view["legal_actions"]) > 1:
            break
        if waiting_humans(game):
            commands.act(game.pk, alice, engine.action_from_json(legal(game, seat)[0]),
                         game.awaiting[str(seat.player)][0])
        else:
            commands.play_bot_move(game.pk)
    client.force_login(alice)
    before = game.seq
    client.post(f"/t/{game.pk}/orders/", {"auto_pass": "", "pass_trick": "on"})
    first = Action.objects.get(game=game, seq=before + 1)
    assert first.by == "standing_order" and first.kind == "pass"
    assert first.player == seat.player


def test_return_my_worst_cards_in_taxes(alice, bob):
    game = start_table(alice, [bob], bots=2, options={"rounds": 3})
    game.seats.update(auto_tax_worst=True)
    # Play round 1 out; in round 2's taxes the Dalmutis among alice and bob give back
    # their worst cards by themselves.
    play_until(game, lambda g: g.round_number == 2)
    gives = Action.objects.filter(game=game, kind="give_back", round_number=2)
    humans = {s.player for s in game.seats.exclude(user=None)}
    for give in gives:
        if give.player in humans:
            assert give.by == "standing_order"


def test_a_finished_games_standing_orders_are_not_changed(client, alice):
    """They would act on nothing: a form left open on a finished table is told so."""
    from tests.helpers import play_out

    game = play_out(start_table(alice, bots=3, options={"rounds": 1}))
    client.force_login(alice)
    answer = client.post(f"/t/{game.pk}/orders/", {"auto_pass": "", "auto_tax_worst": "on"},
                         headers={"HX-Request": "true"})
    assert answer.status_code == 409 and "This game is over." in answer.content.decode()
    seat = game.seats.get(user=alice)
    assert seat.auto_pass and not seat.auto_tax_worst
