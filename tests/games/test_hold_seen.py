"""The bots' choice of what to give back is held after the deal so that a person dealt
both jesters has time to call a revolution; at a slow table the hold is long (a quarter
of the time per turn, up to an hour), for a holder who is not there. Once every person at
the table has seen the deal, the hold ends REVOLUTION_WINDOW_SECONDS after the last of
them did: friends playing live do not watch the bots "decide" for a quarter of an hour.
Who has seen the deal is the same whoever holds the jesters, so the end of the hold tells
nobody anything about them."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games import commands
from games.commands.moves import hold_due
from games.core.clock import dalmutis_hold_until
from games.models import Game
from tests.helpers import act_as, legal, start_table

from .test_revolution_window import DEALT, _table

WINDOW = 20
SLOW = 3600  # an hour a turn: the full hold is a quarter of it


@pytest.fixture
def slow_table(settings):
    settings.REVOLUTION_WINDOW_SECONDS = WINDOW

    def made(holder, world=""):
        game, people = _table(holder, world=world)
        Game.objects.filter(pk=game.pk).update(turn_limit=SLOW)
        game.refresh_from_db()
        return game, people
    return made


def _look(client, game, user):
    client.force_login(user)
    assert client.get(f"/t/{game.pk}/").status_code == 200


def _hold(game):
    game.refresh_from_db()
    return dalmutis_hold_until(game, game.engine_state(), list(game.seats.all()))


@pytest.mark.django_db
def test_the_hold_ends_soon_after_everybody_has_seen_the_deal(client, slow_table):
    with time_machine.travel(DEALT, tick=False) as clock:
        game, people = slow_table(None)
        assert _hold(game) == DEALT + timedelta(minutes=15)
        for seconds, position in ((5, 2), (10, 3), (30, 4)):
            clock.move_to(DEALT + timedelta(seconds=seconds))
            _look(client, game, people[position])
        last_look = DEALT + timedelta(seconds=30)
        assert _hold(game) == last_look + timedelta(seconds=WINDOW)
        # Its page counts the bots' seats down to the new end.
        page = client.get(f"/t/{game.pk}/").content.decode()
        ends = (last_look + timedelta(seconds=WINDOW)).isoformat()
        assert page.count(f'<time class="clock" datetime="{ends}" data-left>') == 2

        clock.move_to(last_look + timedelta(seconds=WINDOW - 1))
        assert commands.play_bot_move(game.pk) is False and not hold_due(game)
        clock.move_to(last_look + timedelta(seconds=WINDOW))
        game.refresh_from_db()
        assert hold_due(game)  # the sweep sends the work, were it lost
        assert commands.play_bot_move(game.pk) is True


@pytest.mark.django_db
def test_the_pages_open_before_the_last_look_are_told_the_new_end(client, slow_table):
    """The first to look saw the bots' seats count down the whole hold; when the last
    person looks and the hold shortens, the table has news: their open page's next poll
    brings the new end (a page left saying "59 min" beside another's "<1 min" reads as a
    bot stalling). Looking again later changes nothing more."""
    with time_machine.travel(DEALT, tick=False) as clock:
        game, people = slow_table(None)
        _look(client, game, people[2])
        game.refresh_from_db()
        first_seen = game.version
        clock.move_to(DEALT + timedelta(seconds=10))
        _look(client, game, people[3])
        game.refresh_from_db()
        assert game.version == first_seen  # somebody has still not seen it
        clock.move_to(DEALT + timedelta(seconds=30))
        _look(client, game, people[4])
        game.refresh_from_db()
        assert game.version == first_seen + 1
        client.force_login(people[2])
        polled = client.get(f"/t/{game.pk}/poll/?v={first_seen}&me=x",
                            headers={"HX-Request": "true"}).content.decode()
        ends = (DEALT + timedelta(seconds=30 + WINDOW)).isoformat()
        assert polled.count(f'datetime="{ends}"') == 2
        _look(client, game, people[4])
        game.refresh_from_db()
        assert game.version == first_seen + 1


@pytest.mark.django_db
def test_while_somebody_has_not_seen_the_deal_the_hold_runs_its_length(client, slow_table):
    with time_machine.travel(DEALT, tick=False) as clock:
        game, people = slow_table(None)
        _look(client, game, people[2])
        _look(client, game, people[3])
        clock.move_to(DEALT + timedelta(minutes=14, seconds=59))
        _look(client, game, people[3])  # looking again changes nothing
        assert _hold(game) == DEALT + timedelta(minutes=15)
        assert commands.play_bot_move(game.pk) is False
        clock.move_to(DEALT + timedelta(minutes=15))
        assert commands.play_bot_move(game.pk) is True


@pytest.mark.django_db
def test_a_look_before_the_deal_is_not_a_look_at_it(client, slow_table):
    """Pages open when the round ended saw the last round: the deal is news to them."""
    with time_machine.travel(DEALT, tick=False) as clock:
        game, people = slow_table(None)
        for person in people.values():
            _look(client, game, person)
        clock.move_to(DEALT + timedelta(seconds=40))
        assert _hold(game) == DEALT + timedelta(seconds=WINDOW)  # all looked at once
        # The next deal: the same three looks, made before it, count for nothing.
        game.refresh_from_db()
        waits = {p: [w[0], (DEALT + timedelta(minutes=1)).isoformat(), *w[2:]]
                 for p, w in game.awaiting.items()}
        Game.objects.filter(pk=game.pk).update(awaiting=waits)
        assert _hold(game) == DEALT + timedelta(minutes=16)


@pytest.mark.django_db
def test_the_end_of_the_hold_is_the_same_whoever_holds_the_jesters(client, slow_table):
    ends = []
    for holder in (None, 2, 4):
        with time_machine.travel(DEALT, tick=False) as clock:
            game, people = slow_table(holder, world=str(holder))
            for seconds, position in ((5, 2), (10, 3), (30, 4)):
                clock.move_to(DEALT + timedelta(seconds=seconds))
                _look(client, game, people[position])
            ends.append(_hold(game))
    assert ends == [DEALT + timedelta(seconds=30 + WINDOW)] * 3


@pytest.mark.django_db
def test_whoever_deals_by_their_move_has_seen_the_deal(settings, alice):
    """The answer to the move that ends a round shows its player the new deal: they count
    as having seen it (their page, at that version, asks nothing more)."""
    settings.REVOLUTION_WINDOW_SECONDS = WINDOW
    game = start_table(alice, bots=3, turn_limit=SLOW, options={"rounds": 10})
    me = game.seats.get(user=alice)
    with time_machine.travel(DEALT, tick=False) as clock:
        for _ in range(5000):
            game.refresh_from_db()
            assert not game.is_over, "Alice's move never ended a round"
            if str(me.player) not in game.awaiting:
                if not commands.play_bot_move(game.pk):
                    clock.shift(SLOW)  # past a hold
                continue
            before = game.round_number
            act_as(game, me, legal(game, me)[0])
            game.refresh_from_db()
            if game.round_number > before and _hold(game) is not None:
                break
        me.refresh_from_db()
        assert me.deal_seen == timezone.now()
        assert _hold(game) == timezone.now() + timedelta(seconds=WINDOW)
