"""An organiser gives an absent player's seat to a bot: the bot takes the seat as a bot
seat, with nothing of the person left on it (their vacation, their missed turns), and
every open page of the table learns of it at its next poll."""

import pytest

from games import commands
from games.models import Game
from games.read.seat import table_context
from leagues.services import replace_by_bot
from tests.helpers import start_table
from tests.leagues.helpers import make_user

pytestmark = pytest.mark.django_db


def test_the_bot_that_replaces_a_player_on_vacation_is_not_on_vacation(client):
    alice, bob = make_user("alice"), make_user("bob")
    game = start_table(alice, [bob], bots=2, options={"rounds": 3}, turn_limit=86400)
    commands.start_vacation(game.pk, bob, 3)
    seat = game.seats.get(user=bob)
    seat.timeouts_in_row = 2
    seat.save(update_fields=["timeouts_in_row"])
    game.refresh_from_db()
    shown = game.version
    replace_by_bot(game.pk, seat.pk, "basic", "Bob is away for weeks.")
    game = Game.objects.get(pk=game.pk)
    seat.refresh_from_db()
    assert seat.is_bot and seat.vacation_until is None and seat.timeouts_in_row == 0
    context = table_context(game, game.seats.get(user=alice), game.seats_with_users())
    rows = {row.player: row for row in context["players"]}
    assert rows[seat.player].is_bot and not rows[seat.player].on_vacation
    # Open pages learn of the bot at their next poll.
    assert game.version > shown
    client.force_login(alice)
    assert client.get(f"/t/{game.pk}/poll/?v={shown}&me=").status_code == 200
