"""The record of reliability, against a history built by hand: the turns the table
waited for, those the clock played ("time ran out"), the stand-in taking the seat, games
left before the end, over the last 90 days; and a table that asks for players who keep
their turns."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Action, Game, OnTime, Seat
from players.reliability import reliability
from tests.helpers import make_user

pytestmark = pytest.mark.django_db

NOW = timezone.now()


def _game(host, status=Game.Status.FINISHED, finished_days_ago=5):
    finished = NOW - timedelta(days=finished_days_ago) if status == Game.Status.FINISHED \
        else None
    return Game.objects.create(name="Past", host=host, status=status, finished=finished)


def _acts(game, player, by, count, days_ago=3, kind="play"):
    last = game.actions.order_by("-seq").first()
    seq = last.seq if last else 0
    for i in range(count):
        action = Action.objects.create(game=game, seq=seq + i + 1, player=player, kind=kind,
                                       by=by)
        # `created` is set on insert: moved into the past afterwards.
        Action.objects.filter(pk=action.pk).update(created=NOW - timedelta(days=days_ago))


@pytest.fixture
def history(alice, bob):
    """Alice's last months, and Bob's moves beside hers (never hers)."""
    one = _game(alice)
    Seat.objects.create(game=one, user=alice, player=0)
    Seat.objects.create(game=one, user=bob, player=1)
    _acts(one, 0, "player", 10)
    _acts(one, 0, "timeout", 2, kind="pass")
    _acts(one, 0, "standing_order", 3, kind="pass")  # nobody waited: not counted
    _acts(one, None, "system", 1, kind="next_round")
    _acts(one, 0, "system", 1, kind="stand_in")  # the stand-in took her seat once...
    _acts(one, 0, "stand_in", 4)  # ...and played for her: not her turns
    _acts(one, 0, "player", 1, kind="ending")  # not a turn
    _acts(one, 1, "timeout", 7, kind="pass")  # Bob's
    # A game she left, with a timeout too old to count.
    two = _game(alice, finished_days_ago=20)
    Seat.objects.create(game=two, user=alice, player=2, left=True)
    _acts(two, 2, "player", 3)
    _acts(two, 2, "timeout", 1, days_ago=100, kind="pass")
    # A game she left long ago.
    three = _game(alice, finished_days_ago=120)
    Seat.objects.create(game=three, user=alice, player=0, left=True)
    _acts(three, 0, "timeout", 5, days_ago=121, kind="pass")
    return one


def test_the_figures_of_a_hand_built_history(history, alice, django_assert_max_num_queries):
    with django_assert_max_num_queries(2):
        record = reliability(alice, NOW)
    assert (record.turns, record.on_time, record.timeouts, record.stand_ins, record.games,
            record.left) == (15, 13, 2, 1, 2, 1)
    assert record.share == 86  # 13 of 15 is 86.7%, rounded down
    assert record.too_few  # under 20 turns


def test_the_player_page_shows_them_with_their_basis(history, alice, bob, client):
    client.force_login(bob)
    page = client.get("/players/alice/").content.decode()
    assert "Turns played on time</dt><dd>86%" in page
    assert "Over the last 90 days, based on 15 turns in 2 games." in page
    assert "too few to tell" in page


def test_a_table_for_players_who_keep_their_turns(history, alice, bob, client):
    # Five more timeouts: 13 of 20 on time, 65%, now enough turns to tell.
    _acts(history, 0, "timeout", 5, kind="pass")
    assert reliability(alice).share == 65
    client.force_login(bob)  # the host asks for it on the new-table form
    assert "Who may take a seat" in client.get("/tables/new/").content.decode()
    client.post("/tables/new/", {
        "name": "Punctual", "seats": 4, "end": "rounds", "rounds": 2,
        "first_round_taxes": "on", "tribute_return": "choice", "merchant_trade": "off",
        "philanthropic": "off", "min_on_time": OnTime.EIGHTY,
    })
    table = Game.objects.get(name="Punctual")
    assert table.min_on_time == 80
    client.force_login(alice)
    page = client.get(f"/join/{table.invite_token}/").content.decode()
    assert "Players who keep at least 80% of their turns on time" in page
    assert "you kept 65% (13 of 20 turns)" in page and "Take a seat" not in page
    answer = client.post(f"/join/{table.invite_token}/")
    assert answer.status_code == 403
    assert "you kept 65%" in answer.content.decode()
    assert not table.seats.filter(user=alice).exists()
    # A newcomer with too few turns is welcome, and told why.
    newcomer = make_user("newcomer")
    client.force_login(newcomer)
    page = client.get(f"/join/{table.invite_token}/").content.decode()
    assert "too few to tell, so you are welcome" in page
    assert client.post(f"/join/{table.invite_token}/").status_code == 302
    assert table.seats.filter(user=newcomer).exists()
    # The host lowers the bar: Alice may sit down.
    client.force_login(bob)
    client.post(f"/t/{table.pk}/who-may-join/", {"min_on_time": "0"})
    client.force_login(alice)
    assert client.post(f"/join/{table.invite_token}/").status_code == 302


def test_a_newcomers_page_says_no_turn_yet_rather_than_counting_zeros(alice, client):
    client.force_login(alice)
    page = client.get("/players/alice/").content.decode()
    assert "No turn played in the last 90 days." in page
    assert "based on 0 turns" not in page
