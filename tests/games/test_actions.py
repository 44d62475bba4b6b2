"""Acting at the table: legal moves apply, everything else is refused and changes nothing."""

import html
import json

import pytest

from games import engine
from games.models import Action, Game
from tests.helpers import form_for, legal, play_until, waiting_humans

pytestmark = pytest.mark.django_db


def _humans_turn_in_play(game: Game):
    """Play on until a human is to play in the play phase; return that human's seat."""

    def humans_turn(g):
        return g.engine_state().round.phase == "play" and bool(waiting_humans(g))

    game = play_until(game, humans_turn)
    assert humans_turn(game)
    return waiting_humans(game)[0]


def _snapshot(game: Game):
    game.refresh_from_db()
    return game.version, game.state, Action.objects.filter(game=game).count()


def test_a_legal_play_is_applied_and_recorded(client, game):
    seat = _humans_turn_in_play(game)
    action = legal(game, seat)[-1]
    client.force_login(seat.user)
    before = game.seq
    turn = game.awaiting[str(seat.player)][0]
    response = client.post(f"/t/{game.pk}/act/", form_for(action, turn))
    assert response.status_code == 302
    game.refresh_from_db()
    record = Action.objects.get(game=game, seq=before + 1)
    assert record.player == seat.player and record.payload == action
    assert record.by == "player" and record.by_user == seat.user


def test_an_htmx_action_answers_with_the_fresh_fragments(client, game):
    seat = _humans_turn_in_play(game)
    client.force_login(seat.user)
    response = client.post(
        f"/t/{game.pk}/act/", form_for(legal(game, seat)[0], game.awaiting[str(seat.player)][0]),
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="poller"' in body and 'id="table"' in body and 'hx-swap-oob="true"' in body
    assert "<html" not in body


def test_an_illegal_play_is_refused_with_the_reason_and_changes_nothing(client, game):
    seat = _humans_turn_in_play(game)
    state = game.engine_state()
    view = state.view(seat.player)
    hand = view["hand"]
    ranks = sorted({c for c in hand if c != engine.JESTER})
    # Two different ranks together are never a legal set; a card not held never either.
    illegal = (ranks[0], ranks[-1]) if len(ranks) > 1 else (next(
        r for r in range(1, 13) if r not in hand),)
    assert {"type": "play", "cards": list(illegal)} not in view["legal_actions"]
    before = _snapshot(game)
    client.force_login(seat.user)
    response = client.post(f"/t/{game.pk}/act/", {
        "action": "play", "cards": ",".join(map(str, illegal)),
        "turn": game.awaiting[str(seat.player)][0],
    })
    assert response.status_code == 422
    assert b'class="error action-error"' in response.content
    assert _snapshot(game) == before


def test_acting_out_of_turn_is_refused(client, game):
    seat = _humans_turn_in_play(game)
    other = game.seats.exclude(pk=seat.pk).exclude(user=None).get()
    before = _snapshot(game)
    client.force_login(other.user)
    response = client.post(f"/t/{game.pk}/act/", {"action": "pass", "turn": game.version})
    assert response.status_code == 409
    assert b"It is not your turn" in response.content
    assert _snapshot(game) == before


def test_a_stale_page_is_refused(client, game):
    seat = _humans_turn_in_play(game)
    action = legal(game, seat)[0]
    client.force_login(seat.user)
    before = _snapshot(game)
    stale_turn = game.awaiting[str(seat.player)][0] - 1
    response = client.post(f"/t/{game.pk}/act/", form_for(action, stale_turn))
    assert response.status_code == 409
    assert b"moved on" in response.content
    assert _snapshot(game) == before


def test_a_double_submit_applies_once(client, game):
    seat = _humans_turn_in_play(game)
    data = form_for(legal(game, seat)[0], game.awaiting[str(seat.player)][0])
    client.force_login(seat.user)
    first = client.post(f"/t/{game.pk}/act/", data)
    after_first = _snapshot(game)
    second = client.post(f"/t/{game.pk}/act/", data)
    assert first.status_code == 302
    assert second.status_code == 409
    assert _snapshot(game) == after_first


@pytest.mark.parametrize("data", [
    {},
    {"action": "play", "cards": "x,y", "turn": "1"},
    {"action": "play", "cards": "6", "turn": "soon"},
    {"action": "teleport", "turn": "1"},
    {"action": "revolution", "declare": "maybe", "turn": "1"},
    {"action": "trade", "partner": "you", "turn": "1"},
])
def test_a_malformed_post_gets_a_clear_400_and_changes_nothing(client, game, data):
    seat = _humans_turn_in_play(game)
    before = _snapshot(game)
    client.force_login(seat.user)
    response = client.post(f"/t/{game.pk}/act/", data)
    assert response.status_code == 400
    assert b"not understood" in response.content
    assert _snapshot(game) == before


def test_nobody_can_act_for_another_seat(client, game, mallory):
    seat = _humans_turn_in_play(game)
    data = form_for(legal(game, seat)[0], game.awaiting[str(seat.player)][0])
    other = game.seats.exclude(pk=seat.pk).exclude(user=None).get()
    before = _snapshot(game)
    client.force_login(other.user)
    assert client.post(f"/t/{game.pk}/act/", data).status_code == 409
    client.force_login(mallory)
    assert client.post(f"/t/{game.pk}/act/", data).status_code == 404
    assert _snapshot(game) == before


def test_actions_need_a_post(client, game, alice):
    client.force_login(alice)
    assert client.get(f"/t/{game.pk}/act/").status_code == 405


def test_the_page_offers_exactly_the_legal_plays(client, game):
    seat = _humans_turn_in_play(game)
    client.force_login(seat.user)
    page = client.get(f"/t/{game.pk}/").content.decode()
    legal_attr = page.split('data-legal="', 1)[1].split('"', 1)[0]
    offered = set(json.loads(html.unescape(legal_attr)))
    expected = {",".join(map(str, sorted(a["cards"]))) for a in legal(game, seat)
                if a["type"] == "play"}
    assert offered == expected
    assert ('value="pass"' in page) == any(a["type"] == "pass" for a in legal(game, seat))


def test_the_page_offers_no_actions_when_it_is_not_my_turn(client, game):
    seat = _humans_turn_in_play(game)
    other = game.seats.exclude(pk=seat.pk).exclude(user=None).get()
    client.force_login(other.user)
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert "data-legal" not in page and 'value="pass"' not in page and 'value="play"' not in page


def test_acting_at_a_table_still_in_its_lobby_is_refused_clearly(client, alice, bob):
    from games import commands

    game = commands.create_table(alice, "Not yet", 4, {"rounds": 1})
    commands.join(game.pk, bob)
    client.force_login(bob)
    data = {"action": "pass", "turn": "0"}
    plain = client.post(f"/t/{game.pk}/act/", data)
    htmx = client.post(f"/t/{game.pk}/act/", data, headers={"HX-Request": "true"})
    assert plain.status_code == htmx.status_code == 409
    assert b"not in play" in plain.content and b"not in play" in htmx.content
    game.refresh_from_db()
    assert game.is_open and not Action.objects.filter(game=game).exists()


def test_a_retried_move_that_was_recorded_says_so(client, game):
    seat = _humans_turn_in_play(game)
    data = form_for(legal(game, seat)[0], game.awaiting[str(seat.player)][0])
    client.force_login(seat.user)
    client.post(f"/t/{game.pk}/act/", data)
    after_first = _snapshot(game)
    again = client.post(f"/t/{game.pk}/act/", data, headers={"HX-Request": "true"})
    assert again.status_code == 409
    assert b"Your move was already recorded" in again.content
    assert _snapshot(game) == after_first
    # Good news, said calmly: not in the colours and the role of an error.
    said = again.content.decode()
    line = said[said.rindex("<p", 0, said.index("Your move was already recorded")):]
    assert line.startswith('<p class="settled" role="status">'), line[:80]
