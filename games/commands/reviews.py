"""The expert's review of a finished game, computed in the background.

``begin_review`` lists the decisions to judge: every action a person made (not a bot, a
stand-in or the clock) where that player had more than one legal action. ``judge_some``
judges the decisions still open, one per transaction: each is claimed with a row lock
that other workers skip (``skip_locked``), judged from the player's own view rebuilt from
the record (games.engine.review.judge) and saved at once. A worker that dies midway loses
only the decision it held; whichever worker comes next judges the rest and none twice.
Once every decision is judged, ``finish_review`` writes each player's summary, of the
decisions that mattered (``judge`` gives no verdict where no move could cost a mistake:
such a decision is judged, with no loss, and not counted).

The same record, seed and number of samples give the same review: the seed of each
decision is derived from the review's seed and the decision's place in the record.
"""

from __future__ import annotations

import time
from collections import defaultdict
from statistics import fmean

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games import engine
from games.core.record import SYSTEM_KINDS, apply_recorded
from games.engine.bots import Effort
from games.engine.game import derive_seed
from games.engine.review import REVIEW_SAMPLES, decision_accuracy, judge
from games.models import Action, Game, Review, ReviewedDecision, ReviewSummary, Seat

# Reviews stalled this long (no decision judged) are sent to the workers again by the sweep.
REVIEW_STALL_SECONDS = 180


def review_samples() -> int:
    return getattr(settings, "DALMUTI_REVIEW_SAMPLES", None) or REVIEW_SAMPLES


def wanted(game: Game) -> bool:
    """A finished game with at least one person's decision gets a review."""
    return game.is_over and Action.objects.filter(game=game, by="player").exists()


def _states_before(game: Game, seqs: set[int] | None = None):
    """(action, state before it) for the players' decisions of the record (those in
    ``seqs`` if given): the states rebuilt from the record alone."""
    options = engine.Options.from_json(game.options)
    state = None
    for action in Action.objects.filter(game=game).order_by("seq"):
        if (action.kind not in SYSTEM_KINDS and action.player is not None
                and (seqs is None or action.seq in seqs)):
            yield action, state
        state = apply_recorded(state, options, action.kind, action.player, action.payload)


def begin_review(game_id: int) -> Review | None:
    """The game's review, created with its list of decisions if it has none yet; None if
    the game is not over or no person decided anything in it."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not wanted(game):
        return None
    review = Review.objects.filter(game=game).first()
    if review is not None:
        return review
    rows = []
    for action, before in _states_before(game):
        if action.by != "player":
            continue
        seat = before.seat_of(action.player)
        if seat is None or len(before.round.legal_actions(seat)) < 2:
            continue
        rows.append(ReviewedDecision(seq=action.seq, round_number=action.round_number,
                                     player=action.player))
    with transaction.atomic():
        game = Game.locked(game_id)
        review, created = Review.objects.get_or_create(
            game=game,
            defaults={"seed": derive_seed(game.seed, "review"), "samples": review_samples(),
                      "total": len(rows)},
        )
        if created:
            for row in rows:
                row.review = review
            ReviewedDecision.objects.bulk_create(rows)
    return review


def judge_some(game_id: int, seconds: float | None = None) -> bool:
    """Judge the review's open decisions, for about ``seconds`` (None: all); True once the
    review is done (its summaries written)."""
    review = begin_review(game_id)
    if review is None:
        return True
    if review.is_done:
        return True
    deadline = None if seconds is None else time.monotonic() + seconds
    open_seqs = set(review.decisions.filter(judged__isnull=True).values_list("seq", flat=True))
    effort = Effort(samples=review.samples)
    if open_seqs:
        for action, before in _states_before(review.game, open_seqs):
            _judge_one(review, action, before, effort)
            if deadline is not None and time.monotonic() >= deadline:
                break
    if review.decisions.filter(judged__isnull=True).exists():
        return False
    return finish_review(review.pk)


def _judge_one(review: Review, action: Action, before: engine.Game, effort: Effort) -> None:
    with transaction.atomic():
        row = (ReviewedDecision.objects.select_for_update(skip_locked=True)
               .filter(review=review, seq=action.seq, judged__isnull=True).first())
        if row is None:  # judged already, or another worker is judging it
            return
        seat = before.seat_of(action.player)
        view = before.round.view(seat)
        start = time.process_time()
        verdict = judge(view, action.payload, derive_seed(review.seed, action.seq), effort)
        spent = time.process_time() - start
        now = timezone.now()
        row.judged = now
        if verdict is not None:
            row.loss = verdict.loss
            row.kind = verdict.kind
            row.verdict = verdict.to_json()
        row.save(update_fields=["judged", "loss", "kind", "verdict"])
        Review.objects.filter(pk=review.pk).update(
            judged=F("judged") + 1, cpu_seconds=F("cpu_seconds") + spent, updated=now)


def finish_review(review_id: int) -> bool:
    """Write each player's summary and mark the review done (once)."""
    with transaction.atomic():
        review = Review.objects.select_for_update().select_related("game").get(pk=review_id)
        if review.is_done:
            return True
        if review.decisions.filter(judged__isnull=True).exists():
            return False
        losses: dict[int, list[float]] = defaultdict(list)
        kinds: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for player, loss, kind in review.decisions.filter(loss__isnull=False).values_list(
                "player", "loss", "kind"):
            losses[player].append(loss)
            if kind:
                kinds[player][kind] += 1
        users = {s.player: s.user_id for s in Seat.objects.filter(game=review.game)
                 if s.player is not None}
        review.summaries.all().delete()
        ReviewSummary.objects.bulk_create([
            ReviewSummary(
                review=review, player=player, user_id=users.get(player),
                decisions=len(values), inaccuracies=kinds[player]["inaccuracy"],
                mistakes=kinds[player]["mistake"], blunders=kinds[player]["blunder"],
                places_lost=fmean(values),
                accuracy=fmean(decision_accuracy(v) for v in values),
                game_finished=review.game.finished,
            )
            for player, values in sorted(losses.items())
        ])
        review.status = Review.Status.DONE
        review.finished = timezone.now()
        review.judged = review.decisions.count()
        review.save(update_fields=["status", "finished", "judged"])
    return True


def stalled_reviews(now) -> list[int]:
    """Games whose review waits for a worker: running reviews with no decision judged for
    a while (their worker died, their task was lost), and games over in the last day with
    no review yet."""
    stall = now - timezone.timedelta(seconds=REVIEW_STALL_SECONDS)
    ids = list(Review.objects.filter(status=Review.Status.RUNNING, updated__lt=stall)
               .values_list("game_id", flat=True))
    recent = now - timezone.timedelta(days=1)
    ids += list(Game.objects.filter(status=Game.Status.FINISHED, finished__gte=recent,
                                    finished__lt=stall, review__isnull=True,
                                    actions__by="player")
                .distinct().values_list("pk", flat=True))
    return ids
