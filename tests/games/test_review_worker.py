"""A review survives a worker killed midway: real worker processes, a real SIGKILL."""

import os
import signal
import sys
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games.commands.reviews import REVIEW_STALL_SECONDS
from games.models import Review, ReviewedDecision
from games.tasks import REVIEW_QUEUE, review_game, sweep
from tests.helpers import play_out, start_table, wait_for
from tools import server as harness

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.celery_worker,
              pytest.mark.reviews, pytest.mark.django_db(transaction=True)]


def _worker(env, name: str):
    return harness.start([
        sys.executable, "-m", "celery", "-A", "dalmuti_site", "worker", "--pool", "solo",
        "--hostname", f"{name}@%h", "--without-gossip", "--without-mingle",
        "--loglevel", "WARNING", "-Q", REVIEW_QUEUE], env)


def test_a_review_killed_midway_is_finished_by_the_next_worker_without_repeating(alice,
                                                                                 settings):
    from dalmuti_site.celery import app

    settings.DALMUTI_REVIEWS = False  # the review is sent by hand below
    settings.DALMUTI_EXPERT_SAMPLES = 2
    game = play_out(start_table(alice, bots=3, options={"rounds": 1}))
    app.control.purge()
    settings.DALMUTI_REVIEWS = True
    # Enough deals per decision that the first worker is surely killed before the end.
    env = harness.environment(DALMUTI_REVIEW_SAMPLES="24", REVIEW_CHUNK_SECONDS="600")
    first = _worker(env, "first")
    second = None
    try:
        review_game.apply_async((game.pk,), queue=REVIEW_QUEUE)
        judged = ReviewedDecision.objects.filter(review__game=game, judged__isnull=False)
        assert wait_for(lambda: judged.exists(), timeout=180)
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(30)
        review = Review.objects.get(game=game)
        before = dict(judged.values_list("seq", "judged"))
        assert 0 < len(before) < review.total, "the worker was not killed midway"
        assert not review.is_done
        # A new worker; the sweep finds the review stalled and sends it again.
        second = _worker(env, "second")
        with time_machine.travel(timezone.now() + timedelta(seconds=REVIEW_STALL_SECONDS + 5)):
            assert sweep()["reviews"] == 1
        assert wait_for(lambda: Review.objects.get(game=game).is_done, timeout=300)
    finally:
        harness.stop(first, *([second] if second else []))
    review.refresh_from_db()
    after = dict(ReviewedDecision.objects.filter(review=review).values_list("seq", "judged"))
    assert all(after[seq] == at for seq, at in before.items()), "a decision was judged twice"
    assert None not in after.values() and review.judged == review.total == len(after)
    assert review.summaries.count() == 1
