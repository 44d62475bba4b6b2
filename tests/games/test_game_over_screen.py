"""What the table and the record say once a game is over: no banner of the last round's
revolution (it spoke of that round's taxes), each seat its player's place in the final
standings (while a round is played, its place in the round), and a game the table agreed
to end early said to have ended so."""

import dataclasses
import re

import pytest

from games import commands, engine
from games.commands.base import save_state
from tests.engine.helpers import give_both_jesters
from tests.helpers import make_user, play_out, play_until, poll_path, shed_worst, start_table

pytestmark = pytest.mark.django_db
# A game in which the last round's finishing order is not the final standings.
SEED = 1


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


def _seat_states(page: str) -> dict[str, str]:
    """Each seat's player and what its state line says, as drawn round the felt (read
    without the soft hyphens it may break at)."""
    seats = re.findall(r'<li class="seat .*?<bdi>(.*?)</bdi>'
                       r'.*?<span class="seat-state">(.*?)</span>\s*</li>', page, re.S)
    return {name: " ".join(re.sub(r"<[^>]+>", " ", state).replace("\u00ad", "").split())
            for name, state in seats}


def test_once_the_game_is_over_each_seat_says_its_place_in_the_final_standings(client):
    """The seats no longer speak of the last round's finishing order (a "place 1" beside
    another player's win): each says where its player ended the game, as the standings."""
    users = [make_user(f"lp{i}", display_name=f"Player {i}") for i in range(5)]
    game = play_out(start_table(users[0], users[1:], options={"rounds": 2}, seed=SEED),
                    shed_worst)
    assert game.is_over
    view = game.engine_state().view(None)
    ranked = [p["player"] for p in view["game"]["standings"]]
    last_round = view["finish_order"]
    # This game is one where a round's place and the game's differ (else it proves nothing).
    assert [view["seats"][s] for s in last_round] != ranked
    names = {s.player: s.user.display_name for s in game.seats.select_related("user")}
    client.force_login(users[0])
    states = _seat_states(client.get(f"/t/{game.pk}/").content.decode())
    assert states == {names[player]: "winner" if rank == 1 else f"final place {rank}"
                      for rank, player in enumerate(ranked, 1)}


def test_in_play_a_player_who_went_out_says_their_place_in_the_round(client):
    users = [make_user(f"lq{i}", display_name=f"Player {i}") for i in range(4)]
    game = play_until(start_table(users[0], users[1:], options={"rounds": 2}),
                      lambda g: g.engine_state().view(None)["finish_order"])
    view = game.engine_state().view(None)
    first_out = view["seats"][view["finish_order"][0]]
    name = next(s.user.display_name for s in game.seats.select_related("user")
                if s.player == first_out)
    client.force_login(users[0])
    states = _seat_states(client.get(f"/t/{game.pk}/").content.decode())
    assert states[name] == "out · place 1"
    assert not any("final" in state or state == "winner" for state in states.values())


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


def test_the_scoreboard_keeps_a_player_who_left_with_their_points(client):
    """A leaver keeps their points (and the standings list them): the scoreboard too, with
    the rounds they played, marked as having left."""
    users = [make_user(f"sb{i}", display_name=f"Scorer {i}") for i in range(5)]
    game = start_table(users[0], users[1:], options={"rounds": 2})
    commands.leave_game(game.pk, users[4])
    game = play_out(game)
    assert game.is_over
    client.force_login(users[0])
    page = client.get(f"/t/{game.pk}/").content.decode()
    board = page[page.index('class="panel scoreboard"'):]
    board = board[:board.index("</details>")]
    row = re.search(r"<tr[^>]*>\s*<th scope=\"row\"><bdi>Scorer 4</bdi>(.*?)</tr>", board, re.S)
    assert row, "the leaver's row"
    assert "left" in row[1]
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row[1], re.S)
    assert cells[1] == "–"  # not at the table in round 2


def test_a_game_ended_by_too_few_players_says_why_before_its_last_round(client):
    users = [make_user(f"tf{i}") for i in range(4)]
    game = start_table(users[0], users[1:], options={"rounds": 3})
    commands.leave_game(game.pk, users[3])
    game = play_out(game)
    assert game.is_over and game.round_number == 1
    client.force_login(users[0])
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert "Round 1 of 3" in page
    assert "It ended early: too few players were left to play on." in page


def test_a_game_played_to_its_last_round_gives_no_reason(client):
    users = [make_user(f"nr{i}") for i in range(4)]
    game = play_out(start_table(users[0], users[1:], options={"rounds": 1}))
    client.force_login(users[0])
    assert "It ended early" not in client.get(f"/t/{game.pk}/").content.decode()


def test_the_final_standings_give_the_places_by_round_only_when_there_were_rounds(client):
    """After one round each player's only place is their rank: "places by round: 1"
    beside the first says nothing. After two, the places say how the game went."""
    users = [make_user(f"pr{i}") for i in range(4)]
    client.force_login(users[0])
    one = play_out(start_table(users[0], users[1:], options={"rounds": 1}))
    final = client.get(f"/t/{one.pk}/").content.decode().split('id="final"')[1]
    assert "Final standings" in final and "places by round" not in final
    two = play_out(start_table(users[0], users[1:], options={"rounds": 2}))
    final = client.get(f"/t/{two.pk}/").content.decode().split('id="final"')[1]
    assert final.count("places by round:") == 4


def test_once_the_game_is_over_no_hand_is_shown_on_the_page_or_its_open_copies(client):
    """The hand is for playing: after the last round nobody reads "Your hand · 0 cards"
    (nor the cards a last player still held), on a page loaded then or on one left open
    while the game ended, which its next answer brings up to date."""
    users = [make_user(f"oh{i}", display_name=f"Player {i}") for i in range(4)]
    game = play_until(start_table(users[0], users[1:], options={"rounds": 1}),
                      lambda g: g.engine_state().view(None)["finish_order"])
    view = game.engine_state().view(None)
    out = view["seats"][view["finish_order"][0]]
    reader = game.seats.get(player=out).user
    client.force_login(reader)
    open_page = client.get(f"/t/{game.pk}/").content
    assert b"No cards left." in open_page
    game = play_out(game)
    assert game.is_over
    answer = client.get(poll_path(open_page), HTTP_HX_REQUEST="true").content.decode()
    assert 'id="me"' in answer
    assert "Your hand" not in _my_place(answer) and "No cards left." not in _my_place(answer)
    # Whoever still held cards when the round ended is shown none either.
    for user in users:
        client.force_login(user)
        assert "Your hand" not in _my_place(client.get(f"/t/{game.pk}/").content.decode())


def _my_place(page: str) -> str:
    return page.split('id="me"', 1)[1].split("</section>", 1)[0]

