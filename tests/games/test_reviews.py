"""The review of a finished game, computed from the record (games.commands.reviews)."""

import pytest

from games.commands import reviews
from games.models import Review, ReviewedDecision, ReviewSummary
from tests.helpers import play_out, start_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(alice, settings):
    settings.DALMUTI_REVIEW_SAMPLES = 3
    settings.DALMUTI_EXPERT_SAMPLES = 2
    return play_out(start_table(alice, bots=3, options={"rounds": 1}))


def _verdicts(game):
    return list(ReviewedDecision.objects.filter(review__game=game).order_by("seq")
                .values_list("seq", "player", "loss", "kind", "verdict"))


def test_a_finished_game_is_reviewed_for_its_peoples_decisions_and_summed_up(finished, alice):
    assert reviews.judge_some(finished.pk) is True
    review = Review.objects.get(game=finished)
    assert review.is_done and review.total == review.judged > 0
    seat = finished.seats.get(user=alice)
    assert set(review.decisions.values_list("player", flat=True)) == {seat.player}
    assert not review.decisions.filter(judged__isnull=True).exists()
    summary = ReviewSummary.objects.get(review=review)
    assert (summary.user, summary.player, summary.decisions) == (alice, seat.player,
                                                                  review.total)
    losses = [d.loss for d in review.decisions.all()]
    assert summary.places_lost == pytest.approx(sum(losses) / len(losses))
    assert 0 <= summary.accuracy <= 100
    kinds = [d.kind for d in review.decisions.all()]
    assert (summary.inaccuracies, summary.mistakes, summary.blunders) == (
        kinds.count("inaccuracy"), kinds.count("mistake"), kinds.count("blunder"))
    # Done is done: asking again changes nothing.
    before = _verdicts(finished)
    assert reviews.judge_some(finished.pk) is True
    assert _verdicts(finished) == before


def test_the_same_record_and_seed_give_the_same_review(finished):
    reviews.judge_some(finished.pk)
    first = _verdicts(finished)
    Review.objects.filter(game=finished).delete()
    reviews.judge_some(finished.pk)
    assert _verdicts(finished) == first


def test_a_review_goes_on_where_it_stopped_and_judges_nothing_twice(finished):
    assert reviews.judge_some(finished.pk, seconds=0) is False  # one decision, then stop
    review = Review.objects.get(game=finished)
    judged = dict(review.decisions.exclude(judged=None).values_list("seq", "judged"))
    assert len(judged) == 1
    assert reviews.judge_some(finished.pk) is True
    again = dict(review.decisions.values_list("seq", "judged"))
    assert all(again[seq] == at for seq, at in judged.items())
    review.refresh_from_db()
    assert review.judged == review.total
