"""The review of a finished game, computed from the record (games.commands.reviews)."""

import re
from types import SimpleNamespace

import pytest

from games.commands import reviews
from games.models import Review, ReviewedDecision, ReviewSummary
from games.read.reviews import replay_mark
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
    # Every decision was judged; those where no move could cost a mistake are not counted.
    losses = [d.loss for d in review.decisions.all() if d.loss is not None]
    assert (summary.user, summary.player, summary.decisions) == (alice, seat.player,
                                                                  len(losses))
    assert 0 < len(losses) <= review.total
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


def test_the_pages_show_the_review_to_whoever_may_see_the_record(finished, alice, bob, client):
    seat = finished.seats.get(user=alice)
    reviews.begin_review(finished.pk)
    client.force_login(alice)
    # While it runs: a progress bar that asks for itself again.
    page = client.get(f"/history/{finished.pk}/review/").content.decode()
    assert "<progress" in page and 'hx-trigger="every 3s"' in page
    reviews.judge_some(finished.pk)
    page = client.get(f"/history/{finished.pk}/").content.decode()
    assert "The expert's review" in page and "hx-trigger" not in page
    summary = ReviewSummary.objects.get(review__game=finished)
    assert f"{round(summary.accuracy)}%" in page
    # The replay marks each judged decision.
    decision = ReviewedDecision.objects.filter(review__game=finished).order_by("seq").first()
    page = client.get(f"/history/{finished.pk}/replay/?step={decision.seq}").content.decode()
    assert "Your choice:" in page
    serious = ReviewedDecision.objects.filter(review__game=finished,
                                              kind__in=["mistake", "blunder"]).first()
    if serious is not None:
        page = client.get(f"/history/{finished.pk}/replay/?step=1").content.decode()
        assert "Next mistake" in page
    page = client.get(f"/players/{alice.username}/").content.decode()
    assert "Accuracy in the last reviewed games" in page
    assert seat.player == summary.player
    # No seat, no review.
    client.force_login(bob)
    assert client.get(f"/history/{finished.pk}/review/").status_code == 404


def test_the_replay_leads_a_player_to_their_own_next_mistake_too():
    """At a table of friends every person's decisions are reviewed: besides the next
    mistake (anybody's), a player is led to their own next one."""
    actions = [SimpleNamespace(seq=seq, player=seq % 3) for seq in range(1, 10)]
    marks = {seq: ReviewedDecision(seq=seq, player=player, kind=kind) for seq, player, kind in (
        (3, 0, "inaccuracy"), (4, 1, "mistake"), (7, 2, "blunder"), (8, 1, "blunder"),
    )}
    mark = replay_mark(marks, actions, 1, None, {}, me=2)
    assert (mark["next_mistake"], mark["next_own_mistake"]) == (4, 7)
    # Theirs is the next anyway: one way there.
    assert replay_mark(marks, actions, 5, None, {}, me=2)["next_own_mistake"] is None
    assert replay_mark(marks, actions, 5, None, {}, me=2)["next_mistake"] == 7
    # None left of theirs, or nobody's own (a watcher's replay).
    assert replay_mark(marks, actions, 7, None, {}, me=2)["next_own_mistake"] is None
    assert replay_mark(marks, actions, 1, None, {}, me=None)["next_own_mistake"] is None


def test_the_replay_page_offers_the_players_own_next_mistake(finished, alice, client):
    """Drawn on the replay's page, named as theirs."""
    reviews.judge_some(finished.pk)
    seat = finished.seats.get(user=alice)
    own = ReviewedDecision.objects.filter(review__game=finished, player=seat.player)
    first, last = own.order_by("seq").first(), own.order_by("seq").last()
    # Another reader's mistake comes first, theirs later.
    ReviewedDecision.objects.filter(pk=last.pk).update(kind="blunder")
    ReviewedDecision.objects.filter(pk=first.pk).update(player=seat.player + 1,
                                                        kind="mistake")
    ReviewedDecision.objects.filter(review__game=finished).exclude(
        pk__in=[first.pk, last.pk]).update(kind="")
    client.force_login(alice)
    page = client.get(f"/history/{finished.pk}/replay/?step=1").content.decode()
    anybodys = re.search(r'href="\?step=(\d+)&amp;by=action"[^>]*data-replay-next-mistake>'
                         r"Next mistake<", page)
    own = re.search(r'href="\?step=(\d+)&amp;by=action"[^>]*data-replay-own-mistake>'
                    r"Your next mistake<", page)
    assert anybodys and own and int(anybodys[1]) < int(own[1])
    # The step it leads to is the reader's blunder.
    there = client.get(f"/history/{finished.pk}/replay/?step={own[1]}").content.decode()
    assert "Your choice:" in there and "Blunder" in there
