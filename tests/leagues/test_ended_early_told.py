"""The people at a game an organiser ended early are told by their usual channels, with
the reason, as at the end of any game."""

import pytest
from django.core import mail

from games.models import Notification
from leagues.services import end_game
from tests.helpers import deliver_due
from tests.leagues.helpers import make_user, play_until, start_game

pytestmark = pytest.mark.django_db


def test_the_players_are_told_the_game_ended_early_and_why():
    alice, bob = make_user("alice"), make_user("bob")
    game = start_game(alice, [bob], bots=2, options={"rounds": 3})
    game = play_until(game, lambda g: g.round_number == 2)
    mail.outbox.clear()
    end_game(game.pk, "Alice moved abroad.")
    assert set(Notification.objects.filter(game=game, kind=Notification.Kind.OVER)
               .values_list("user__username", flat=True)) == {"alice", "bob"}
    deliver_due()
    told = [m for m in mail.outbox if "is over" in m.subject]
    assert len(told) == 2
    assert all("Ended early: Alice moved abroad." in m.body for m in told)
