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
    for message in told:
        body = message.body
        # The reason first, then the standings of the round played.
        assert "The game at “Test table” was ended early: Alice moved abroad." in body
        assert body.index("ended early") < body.index("Final standings:") < body.index("1. ")


def test_a_game_ended_before_any_round_was_finished_ranks_nobody(client):
    """Nobody is placed where no round was played: the emails, the table's page, its
    record and the group's channel say so instead of ranking everyone at 0 points."""
    from games.away.channels import notice_message
    from games.models import ChannelNotice

    alice, bob = make_user("alice"), make_user("bob")
    game = start_game(alice, [bob], bots=2, options={"rounds": 3})
    mail.outbox.clear()
    end_game(game.pk, "Nobody came back.")
    deliver_due()
    told = [m for m in mail.outbox if "is over" in m.subject]
    assert len(told) == 2
    for message in told:
        for text in (message.body, message.alternatives[0][0]):
            assert "No round was finished." in text
            assert "Final standings" not in text and "0 points" not in text
    client.force_login(alice)
    page = client.get(f"/t/{game.pk}/", follow=True).content.decode()
    assert "No round was finished." in page and 'class="standings"' not in page
    record = client.get(f"/history/{game.pk}/").content.decode()
    assert "No round was finished." in record
    notice = ChannelNotice(game=game, kind=ChannelNotice.Kind.OVER, key="over", payload={})
    assert "No round was finished." in notice_message(notice).body
