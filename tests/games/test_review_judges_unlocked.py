"""A review judges each decision without holding the database: the judgement (a tenth of
a second or more of the engine's sampling) runs between a short transaction that claims
the decision for a while and one that saves its verdict. With SQLite, where a transaction
holds the whole database, every move and form of the site waited out each judgement. In
real concurrent transactions, on PostgreSQL as on SQLite: while a decision is judged, the
database takes another write and the decision's own row at once; another worker meanwhile
leaves the claimed decision to its worker and judges the others, none twice; a claim whose
worker died lapses (or the sweep frees it, finding the review stalled), and the next worker
judges the decision."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from games.commands import reviews
from games.models import Game, Review, ReviewedDecision
from tests.helpers import meanwhile, play_out, start_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def finished(alice, settings):
    settings.DALMUTI_REVIEW_SAMPLES = 3
    settings.DALMUTI_EXPERT_SAMPLES = 2
    game = play_out(start_table(alice, bots=3, options={"rounds": 1}))
    reviews.begin_review(game.pk)
    return game


def test_while_a_decision_is_judged_the_database_takes_other_writes(monkeypatch, finished):
    first = ReviewedDecision.objects.filter(review__game=finished).order_by("seq").first()

    def write():
        with transaction.atomic():
            Game.objects.filter(pk=finished.pk).update(name="Renamed meanwhile")
            row = ReviewedDecision.objects.select_for_update().get(pk=first.pk)
            return row.judged is None and row.claimed is not None

    outcomes, _judged = meanwhile(monkeypatch, reviews, "judge", write)
    assert reviews.judge_some(finished.pk, seconds=0) is False  # one decision, then stop
    assert outcomes == [True]
    first.refresh_from_db()
    assert first.judged is not None
    assert Game.objects.get(pk=finished.pk).name == "Renamed meanwhile"


def test_another_worker_leaves_the_claimed_decision_and_judges_the_others_once(
        monkeypatch, finished):
    review = Review.objects.get(game=finished)
    assert review.total >= 3
    outcomes, judged = meanwhile(
        monkeypatch, reviews, "judge", lambda: reviews.judge_some(finished.pk)
    )
    # The other worker judged all but the decision held here: the review is in this
    # worker's hands (it says so: nothing to send again), and this one finishes it.
    assert reviews.judge_some(finished.pk) is True
    assert outcomes == [True]
    assert len(judged) == review.total
    review.refresh_from_db()
    assert review.is_done and review.judged == review.total
    assert not review.decisions.filter(judged__isnull=True).exists()


def test_a_claim_whose_worker_died_lapses(finished):
    review = Review.objects.get(game=finished)
    seqs = list(review.decisions.order_by("seq").values_list("seq", flat=True))
    now = timezone.now()
    lapsed = now - timedelta(seconds=2 * reviews.CLAIM_SECONDS)
    review.decisions.filter(seq=seqs[0]).update(claimed=lapsed)
    review.decisions.filter(seq=seqs[1]).update(claimed=now)
    # A worker judges all it may: the decision claimed a moment ago waits for its worker.
    assert reviews.judge_some(finished.pk) is True
    open_seqs = list(review.decisions.filter(judged__isnull=True).values_list("seq", flat=True))
    assert open_seqs == [seqs[1]]
    review.refresh_from_db()
    assert not review.is_done
    # Its worker died: the sweep sends the review again once it stalls, the claim has
    # lapsed by then, and the next worker judges it and finishes the review.
    review.decisions.filter(seq=seqs[1]).update(claimed=lapsed)
    assert reviews.judge_some(finished.pk) is True
    review.refresh_from_db()
    assert review.is_done and review.judged == review.total
    assert reviews.CLAIM_SECONDS < reviews.REVIEW_STALL_SECONDS


def test_the_sweep_frees_the_claims_of_a_stalled_review(finished):
    review = Review.objects.get(game=finished)
    now = timezone.now()
    review.decisions.update(claimed=now)
    # A review that moves on keeps its claims: their workers are at work.
    assert finished.pk not in reviews.stalled_reviews(now)
    assert not review.decisions.filter(claimed__isnull=True).exists()
    # No verdict for longer than a stall: the workers are gone, their decisions free.
    later = now + timedelta(seconds=reviews.REVIEW_STALL_SECONDS + 5)
    assert reviews.stalled_reviews(later) == [finished.pk]
    assert not review.decisions.filter(claimed__isnull=False).exists()
    assert reviews.judge_some(finished.pk) is True
    review.refresh_from_db()
    assert review.is_done and review.judged == review.total
