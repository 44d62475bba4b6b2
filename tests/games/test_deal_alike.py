"""The move that deals a round does the same work whoever holds both jesters: a person
asked in private has their wait's notices recorded off the request (games.tasks.
private_notices, sent at every deal), and every person's pauses are read at every deal
alike. Timed by the player whose move ends a round, the request would otherwise tell
whether somebody decides in private."""

import dataclasses
import re
from datetime import timedelta

import pytest
import time_machine
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import commands, engine, tasks
from games.commands.base import save_state
from games.commands.moves import run_automatic
from games.models import Notification
from tests.engine.helpers import give_both_jesters, one_jester_each
from tests.helpers import make_user, start_table

pytestmark = pytest.mark.django_db

WORD = re.compile(r'^(\w+)(?:.*?\b(?:FROM|INTO|UPDATE)\s+"(\w+)")?', re.S)


def _deal(holder: int | None, dalmutis: str, turn_limit: int, world: str):
    """Five seats, people at positions 2-4 (and 0-1 if `dalmutis` is "people"), a round
    dealt with both jesters at `holder` (None: one each with the Dalmutis), as a move
    deals it: the statements it made, the work it left for after the commit (not done),
    and the game."""
    people = [make_user(f"{name}{world}") for name in ("ana", "bo", "cy", "di", "ed")]
    humans = 5 if dalmutis == "people" else 3
    game = start_table(people[0], people[1:humans], bots=5 - humans, turn_limit=turn_limit)
    state = game.engine_state()
    seats = {s.user_id: s.player for s in game.seats.all() if s.user_id}
    bots = [s.player for s in game.seats.all() if not s.user_id]
    order = bots + [seats[u.pk] for u in people[:humans]]
    hands = engine.deal(5, state.options, 11)
    hands = one_jester_each(hands, 0, 1) if holder is None else give_both_jesters(hands, holder)
    rnd = engine.Round.start([sorted(h) for h in hands], state.options, first_round=False,
                             seed=3)
    game.awaiting = {}
    game.save(update_fields=["awaiting"])
    with transaction.atomic():
        dealt = dataclasses.replace(state, seats=tuple(order), round=rnd, round_number=2)
        with CaptureQueriesContext(connection) as queries:
            with pytest.MonkeyPatch.context() as patch:
                sent = []
                patch.setattr(transaction, "on_commit",
                              lambda func, using=None, robust=False: sent.append(func))
                save_state(game, run_automatic(game, dealt))
                commands.wake_bots(game)
    shapes = [WORD.match(q["sql"]).groups() for q in queries.captured_queries]
    return shapes, sent, game


@pytest.mark.parametrize("turn_limit", [0, 86400])
@pytest.mark.parametrize("dalmutis", ["bots", "people"])
def test_the_deal_does_the_same_work_whoever_holds_both_jesters(dalmutis, turn_limit):
    nobody = _deal(None, dalmutis, turn_limit, f"n{dalmutis}{turn_limit}")
    merchant = _deal(2, dalmutis, turn_limit, f"m{dalmutis}{turn_limit}")
    assert merchant[0] == nobody[0]
    assert len(merchant[1]) == len(nobody[1])


def test_the_holder_is_still_told_once_the_deal_is_saved(eager_tasks):
    _shapes, sent, game = _deal(2, "bots", 0, "told")
    holder = game.seats.get(player=game.engine_state().seats[2])
    key = f"turn:{game.pk}:{game.wait_for(holder.player).public_token}:{holder.player}"
    assert not Notification.objects.filter(key=key).exists()
    for work in sent:  # as the commit would
        work()
    assert Notification.objects.filter(key=key, user=holder.user).exists()


def test_the_sweep_records_a_private_notice_whose_work_was_lost():
    _shapes, _sent, game = _deal(2, "bots", 0, "lost")  # the work after the commit: lost
    holder = game.seats.get(player=game.engine_state().seats[2])
    key = f"turn:{game.pk}:{game.wait_for(holder.player).public_token}:{holder.player}"
    before = set(Notification.objects.values_list("pk", flat=True))
    assert not Notification.objects.filter(key=key).exists()
    with time_machine.travel(timezone.now() + timedelta(minutes=2), tick=False):
        tasks.sweep()
    added = Notification.objects.exclude(pk__in=before)
    assert {(n.user_id, n.key) for n in added} == {(holder.user_id, key)}
