"""The expert's review of a finished game, computed in the background.

``begin_review`` lists the decisions to judge: every action a person made (not a bot, a
stand-in or the clock) where that player had more than one legal action. ``judge_some``
judges the decisions still open, one at a time: each is claimed in a short transaction
(its row locked, other workers skipping it, and marked ``claimed``), judged from the
player's own view rebuilt from the record (games.engine.review.judge) outside any
transaction, and its verdict saved in another. No lock is held while the engine samples
(with SQLite, a transaction holds the whole database: every move and form of the site
waited out each judgement). Other workers leave a claimed decision to its worker for
``CLAIM_SECONDS``; a worker that dies midway loses only the decision it claimed, which
the next worker judges once the claim has lapsed, or once the sweep has found the review
stalled and freed it. A decision judged twice (a claim that lapsed under a slow
judgement) is saved once, and both verdicts are the same.
Once every decision is judged, ``finish_review`` writes each player's summary, of the
decisions that mattered (``judge`` gives no verdict where no move could cost a mistake:
such a decision is judged, with no loss, and not counted).

The same record, seed and number of samples give the same review: the seed of each
decision is derived from the review's seed and the decision's place in the record.
"""

from __future__ import annotations

import time
from collections import defaultdict
from datetime import timedelta
from statistics import fmean

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from games import engine
from games.core.record import SYSTEM_KINDS, apply_recorded
from games.engine.bots import Effort
from games.engine.game import derive_seed
from games.engine.review import REVIEW_SAMPLES, decision_accuracy, judge
from games.models import Action, Game, Review, ReviewedDecision, ReviewSummary, Seat

# Reviews stalled this long (no decision judged) are sent to the workers again by the sweep.
REVIEW_STALL_SECONDS = 180
# How long other workers leave a decision claimed by a worker (a judgement takes a tenth
# of a second or so): shorter than a stall, so that the review sent again by the sweep
# finds the decision of a worker that died free to judge.
CLAIM_SECONDS = 60


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
    """Judge the review's open decisions, for about ``seconds`` (None: all); True once
    nothing is left for this worker: the review is done (its summaries written), or what
    remains is claimed by other workers (the one that judges the last decision finishes
    the review; if it dies, the sweep finds the review stalled, frees its claim and sends
    the review again)."""
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
    still_open = review.decisions.filter(judged__isnull=True)
    if not still_open.exists():
        return finish_review(review.pk)
    return not still_open.filter(_claimable(timezone.now())).exists()


def _claimable(now) -> Q:
    """Open decisions no other worker holds: never claimed, or claimed too long ago."""
    return Q(claimed__isnull=True) | Q(claimed__lt=now - timedelta(seconds=CLAIM_SECONDS))


def _judge_one(review: Review, action: Action, before: engine.Game, effort: Effort) -> None:
    now = timezone.now()
    with transaction.atomic():
        row = (ReviewedDecision.objects.select_for_update(skip_locked=True)
               .filter(_claimable(now), review=review, seq=action.seq, judged__isnull=True)
               .first())
        if row is None:  # judged already, or another worker has it
            return
        row.claimed = now
        row.save(update_fields=["claimed"])
    seat = before.seat_of(action.player)
    view = before.round.view(seat)
    start = time.process_time()
    verdict = judge(view, action.payload, derive_seed(review.seed, action.seq), effort)
    spent = time.process_time() - start
    now = timezone.now()
    with transaction.atomic():
        saved = ReviewedDecision.objects.filter(pk=row.pk, judged__isnull=True).update(
            judged=now, **({"loss": verdict.loss, "kind": verdict.kind,
                            "verdict": verdict.to_json()} if verdict is not None else {}))
        if saved:
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
    no review yet. The decisions claimed in a stalled review are freed: no verdict came
    for longer than any judgement takes, so whoever claimed them is gone."""
    stall = now - timezone.timedelta(seconds=REVIEW_STALL_SECONDS)
    stalled = Review.objects.filter(status=Review.Status.RUNNING, updated__lt=stall)
    ReviewedDecision.objects.filter(review__in=stalled, judged__isnull=True,
                                    claimed__isnull=False).update(claimed=None)
    ids = list(stalled.values_list("game_id", flat=True))
    recent = now - timezone.timedelta(days=1)
    ids += list(Game.objects.filter(status=Game.Status.FINISHED, finished__gte=recent,
                                    finished__lt=stall, review__isnull=True,
                                    actions__by="player")
                .distinct().values_list("pk", flat=True))
    return ids
