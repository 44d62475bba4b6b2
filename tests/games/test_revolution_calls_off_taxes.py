"""A revolution calls the round's taxes off: the page says so in the round's log and has
no folded "Taxes" panel with nothing in it."""

import pytest

from games.models import Game
from tests.helpers import act_as, deal_a_merchant_both_jesters, make_user, start_table

pytestmark = pytest.mark.django_db


def _merchant_with_both_jesters(user) -> Game:
    return deal_a_merchant_both_jesters(start_table(user, bots=4, seed=11), user)


@pytest.mark.parametrize("declare", [True, False])
def test_the_taxes_panel_shows_only_where_there_are_taxes(client, declare):
    ana = make_user("ana", display_name="Ana")
    game = _merchant_with_both_jesters(ana)
    act_as(game, game.seats.get(user=ana), {"type": "revolution", "declare": declare})
    game.refresh_from_db()
    client.force_login(ana)
    page = client.get(f"/t/{game.pk}/").content.decode()
    folded = '<details class="panel"><summary>Taxes</summary>'
    assert (folded in page) == (not declare and game.engine_state().round.phase != "taxes")
    if declare:
        assert "Taxes" not in page.split('id="panels"')[1].split("</section>")[0]


def test_at_a_table_without_a_clock_an_undecided_revolution_is_kept_quiet_after_two_days(
        client):
    """Nothing else ends a secret decision there (no clock, and a vote on a stand-in would
    name the holder): after two days it is kept quiet, as at a timed table when the turn's
    time runs out, and it counts as no missed turn."""
    from datetime import timedelta

    import time_machine

    from games import commands

    ana = make_user("ana", display_name="Ana")
    game = _merchant_with_both_jesters(ana)
    assert game.turn_limit == 0
    seat = game.seats.get(user=ana)
    wait = game.wait_for(seat.player)
    assert wait.secret and wait.deadline == wait.since + timedelta(days=2)
    with time_machine.travel(wait.since + timedelta(days=1, hours=23)):
        assert commands.enforce_deadlines(game.pk) == 0
    with time_machine.travel(wait.since + timedelta(days=2, minutes=1)):
        assert commands.enforce_deadlines(game.pk) == 1
    game.refresh_from_db()
    seat.refresh_from_db()
    assert game.wait_for(seat.player) is None or not game.wait_for(seat.player).secret
    assert not game.engine_state().round.records.revolution
    assert seat.timeouts_in_row == 0 and not seat.stand_in
    # No seat shows a clock at this table: the deadline was the holder's alone.
    client.force_login(ana)
    assert 'class="clock"' not in client.get(f"/t/{game.pk}/").content.decode()
