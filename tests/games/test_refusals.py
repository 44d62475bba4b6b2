"""Every refusal at the table is answered one way: under the refusal's status, with its
message on the table as it is now (or, for a form htmx sent, over the table it goes back
to); a move is read by a form before the engine judges it."""

import pytest
from django.http import QueryDict
from django.urls import reverse

from games import commands, engine
from games.forms import NOT_UNDERSTOOD, MoveForm
from tests.helpers import start_table, waiting_humans

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob):
    return start_table(alice, [bob], bots=2, options={"rounds": None, "target_score": None})


def _move(query: str):
    form = MoveForm(QueryDict(query))
    return form.action_and_turn() if form.is_valid() else None


def test_the_move_form_reads_every_kind_of_move():
    assert _move("action=play&card=7&card=3&turn=4") == (engine.Play((3, 7)), 4)
    assert _move("action=play&cards=13,7,7&turn=4") == (engine.Play((7, 7, 13)), 4)
    assert _move("action=pass&turn=2&card=x") == (engine.Pass(), 2)
    assert _move("action=give_back&card=12&card=1&turn=1") == (engine.GiveBack((12, 1)), 1)
    assert _move("action=revolution&declare=no&turn=1") == (engine.Revolution(False), 1)
    assert _move("action=trade&partner=none&turn=1") == (engine.Trade(None), 1)
    assert _move("action=trade&partner=2&turn=1") == (engine.Trade(2), 1)
    assert _move("action=trade_card&card=5&card=9&turn=1") == (engine.TradeCard(9), 1)


@pytest.mark.parametrize("query", [
    "", "action=play&card=7", "action=play&card=7&turn=1.0", "action=play&cards=7,x&turn=1",
    "action=jump&turn=1", "action=revolution&turn=1", "action=trade&partner=%20none&turn=1",
])
def test_the_move_form_refuses_what_it_cannot_read(query):
    form = MoveForm(QueryDict(query))
    assert not form.is_valid()
    assert str(NOT_UNDERSTOOD) in str(form.errors) or "action" in form.errors


def test_a_card_to_trade_sent_before_any_was_tapped_is_asked_for():
    form = MoveForm(QueryDict("action=trade_card&turn=1"))
    assert not form.is_valid()
    assert form.non_field_errors() == ["Choose the card you give first."]


def test_taking_back_a_seat_nobody_stands_in_for_shows_the_table_with_a_409(client, game, bob):
    client.force_login(bob)
    answer = client.post(f"/t/{game.pk}/back/")
    assert answer.status_code == 409
    page = answer.content.decode()
    assert "No bot is standing in for you" in page and 'id="table"' in page


def test_ending_a_game_one_does_not_host_shows_the_table_with_a_403(client, game, bob):
    client.force_login(bob)
    answer = client.post(f"/t/{game.pk}/end/", {"end": "yes"})
    assert answer.status_code == 403
    assert "Only the host can end the game." in answer.content.decode()


def test_a_refused_form_sent_by_htmx_goes_back_to_the_table_with_the_message(client, game, bob):
    client.force_login(bob)
    answer = client.post(f"/t/{game.pk}/vote/", {"player": "x"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 302 and answer.url == f"/t/{game.pk}/"
    assert str(NOT_UNDERSTOOD) in client.get(answer.url).content.decode()


def test_a_refused_move_sent_by_htmx_gets_the_fragments_with_the_message(client, game):
    seat = waiting_humans(game)[0]
    client.force_login(seat.user)
    answer = client.post(f"/t/{game.pk}/act/", {"action": "pass", "turn": "x"},
                         HTTP_HX_REQUEST="true")
    assert answer.status_code == 400
    page = answer.content.decode()
    assert str(NOT_UNDERSTOOD) in page and 'hx-swap-oob="true"' in page


def test_leaving_before_the_start_and_leaving_a_game_have_their_own_names(client, alice, bob):
    table = commands.create_table(alice, "Lobby", 4, {"rounds": 1})
    commands.join(table.pk, bob)
    assert reverse("leave_lobby", args=[table.pk]) == f"/t/{table.pk}/leave-lobby/"
    assert reverse("leave_game", args=[table.pk]) == f"/t/{table.pk}/leave-game/"
    client.force_login(bob)
    assert f'action="/t/{table.pk}/leave-lobby/"' in client.get(f"/t/{table.pk}/").content.decode()
    assert client.post(f"/t/{table.pk}/leave-lobby/").url == "/"
    assert not table.seats.filter(user=bob).exists()


def test_a_lobby_page_open_from_before_still_leaves_by_its_old_address(client, alice, bob):
    table = commands.create_table(alice, "Lobby", 4, {"rounds": 1})
    commands.join(table.pk, bob)
    client.force_login(bob)
    assert client.post(f"/t/{table.pk}/leave/").url == "/"
    assert not table.seats.filter(user=bob).exists()


@pytest.mark.parametrize("data", [{}, {"end": "x"}, {"end": ""}])
def test_ending_a_game_says_yes_or_no_or_is_not_understood(client, game, alice, data):
    """The form sends "yes" or "no": anything else changes nothing (it ended the game)."""
    client.force_login(alice)
    version = game.version
    answer = client.post(f"/t/{game.pk}/end/", data)
    assert answer.status_code == 400 and str(NOT_UNDERSTOOD) in answer.content.decode()
    game.refresh_from_db()
    assert game.version == version and not game.engine_state().ending


def test_a_clock_is_paused_only_where_a_clock_runs(client, alice, bob):
    """The vacation form is offered at a timed table in play: asked anywhere else (no
    clock, not started yet), it is refused and no day is spent."""
    from datetime import timedelta

    from games.models import Pause, Seat

    untimed = start_table(alice, [bob], bots=2)
    lobby = commands.create_table(alice, "Soon", 5, {"rounds": 3}, turn_limit=86400)
    client.force_login(alice)
    for table in (untimed, lobby):
        answer = client.post(f"/t/{table.pk}/vacation/", {"days": "7"}, follow=True)
        assert answer.status_code == 409, table
        assert "no clock to pause" in answer.content.decode()
    assert not Pause.objects.exists()
    assert not Seat.objects.filter(user=alice).exclude(vacation_used=timedelta(0)).exists()
