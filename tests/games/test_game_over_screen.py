"""What the table and the record say once a game is over: no banner of the last round's
revolution (it spoke of that round's taxes), the last player placed but not "out" while
still holding cards, and a game the table agreed to end early said to have ended so."""

import dataclasses

import pytest

from games import commands, engine
from games.commands.base import save_state
from tests.engine.helpers import give_both_jesters
from tests.helpers import make_user, play_out, start_table

pytestmark = pytest.mark.django_db


def test_the_last_rounds_revolution_is_not_announced_once_the_game_is_over(client):
    users = [make_user(f"rv{i}") for i in range(4)]
    game = start_table(users[0], users[1:], options={"rounds": 1})
    state = game.engine_state()
    hands = give_both_jesters(engine.deal(4, state.options, 7), 2)
    rnd = engine.Round.start(hands, state.options, first_round=False, seed=1)
    game.awaiting = {}
    save_state(game, dataclasses.replace(state, round=rnd))
    game.refresh_from_db()
    holder = next(s for s in game.seats.select_related("user")
                  if s.player == game.engine_state().seats[2])
    commands.act(game.pk, holder.user, engine.Revolution(True),
                 game.wait_for(holder.player).token)
    client.force_login(users[0])
    assert "Revolution!" in client.get(f"/t/{game.pk}/").content.decode()
    game = play_out(game)
    assert game.is_over
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert "Revolution!" not in page


def test_the_last_player_of_the_final_round_is_placed_not_out(client):
    users = [make_user(f"lp{i}") for i in range(4)]
    game = play_out(start_table(users[0], users[1:], options={"rounds": 1}))
    state = game.engine_state()
    counts = state.view(None)["counts"]
    last = state.view(None)["finish_order"][-1]
    assert counts[last] > 0  # the last player never played their last cards
    client.force_login(users[0])
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert page.count("out · place") == 3
    assert "place 4" in page


def test_a_game_ended_by_agreement_says_so_in_its_record(client):
    users = [make_user(f"ag{i}") for i in range(4)]
    game = start_table(users[0], users[1:], options={"rounds": 5})
    proposal = commands.propose_end(game.pk, users[0])
    for user in users[1:]:
        if commands.vote_end(game.pk, user, proposal.pk, True) == "agreed":
            break
    game = play_out(game)
    assert game.is_over and game.round_number == 1
    client.force_login(users[0])
    record = client.get(f"/history/{game.pk}/").content.decode()
    assert "The table agreed to end the game after round 1." in record
