"""Ending a game by agreement: any person at the table proposes to end the game after the
round in play, the people seated answer, and a majority of them ends it through the
same path as the host's "end after this round" (an "ending" in the record, so the game
finishes, and is rated, at the end of the round like any other). A proposal lapses after
END_PROPOSAL_LASTS; one is open at a time. Every step goes into the Action record (the
proposal and the votes change no state: games.core.record.NOTE_KINDS)."""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.commands import notifications
from games.core.turns import (
    end_proposals_changed,
    end_tally,
    may_vote_on_ending,
    no_next_round,
    open_end_proposal,
)

from ..models import END_PROPOSAL_LASTS, EndProposal, EndVote, Game, Seat
from .base import Rejected, record, save_state, table_touched
from .moves import wake_bots

Outcome = EndProposal.Outcome


def _lock_playing(game_id: int) -> Game:
    game = Game.locked(game_id)
    if not game.is_playing:
        raise Rejected(_("This game is not in play."), 409)
    return game


def _voter(game: Game, user) -> Seat:
    seat = game.seats.select_related("user").filter(user=user).first()
    if seat is None or seat.player is None or seat.joining or seat.leaving or seat.left:
        raise Rejected(_("Only the players at the table decide whether the game ends."), 403)
    if seat.stand_in:
        raise Rejected(_("A bot is playing your seat: take it back to have your say."), 403)
    return seat


def _close(game: Game, proposal: EndProposal, outcome: str, event: dict,
           now: datetime) -> None:
    proposal.outcome = outcome
    proposal.closed = now
    proposal.save(update_fields=["outcome", "closed"])
    if outcome != Outcome.AGREED:
        record(game, None, "end_closed", {"outcome": outcome}, [event], "system")


def _lapse_if_due(game: Game, now: datetime) -> EndProposal | None:
    """The open proposal, after closing it if it has lapsed (then None)."""
    proposal = open_end_proposal(game)
    if proposal is not None and proposal.expires <= now:
        _close(game, proposal, Outcome.LAPSED, {"type": "end_lapsed"}, now)
        return None
    return proposal


def _settle(game: Game, proposal: EndProposal, now: datetime) -> str:
    """Close the proposal once its outcome is certain: a majority agreed (the game ends
    after this round), or too few could still agree. Returns the outcome ("" while
    open)."""
    tally = end_tally(proposal, game.seats.all())
    if tally["yes"] >= tally["needed"]:
        _close(game, proposal, Outcome.AGREED, {}, now)
        state = game.engine_state().end_after_this_round(True)
        record(game, None, "ending", {"end": True},
               [{"type": "end_agreed", "yes": tally["yes"], "needed": tally["needed"]}],
               "agreement")
        save_state(game, state)
        return Outcome.AGREED
    if tally["yes"] + tally["open"] < tally["needed"]:
        _close(game, proposal, Outcome.DECLINED, {"type": "end_declined"}, now)
        return Outcome.DECLINED
    return Outcome.OPEN


def _told(game: Game) -> None:
    """Every page of the table shows the change; the bots' pending work named the
    record as it was, so it is sent again."""
    end_proposals_changed(game)
    game.save(update_fields=["seq"])
    table_touched(game)
    wake_bots(game)


def propose_end(game_id: int, user, now: datetime | None = None) -> EndProposal:
    """`user` proposes to end the game after the round in play (their own vote is yes).
    The other people seated are told, those away from the table by their channels."""
    now = now or timezone.now()
    with transaction.atomic():
        game = _lock_playing(game_id)
        seat = _voter(game, user)
        if no_next_round(game.engine_state()):
            raise Rejected(_("This round is already the game's last."), 409)
        if _lapse_if_due(game, now) is not None:
            raise Rejected(_("A proposal to end the game is already open: answer it."), 409)
        proposal = EndProposal.objects.create(game=game, proposer=seat, created=now,
                                              expires=now + END_PROPOSAL_LASTS)
        EndVote.objects.create(proposal=proposal, seat=seat, agree=True, created=now)
        record(game, seat.player, "end_proposal", {"expires": proposal.expires.isoformat()},
               [{"type": "end_proposed", "player": seat.player}], "player", user)
        if _settle(game, proposal, now) == Outcome.OPEN:
            for other in game.seats.select_related("user").exclude(pk=seat.pk):
                if may_vote_on_ending(other):
                    notifications.for_end_proposal(game, other, proposal)
        _told(game)
    return proposal


def vote_end(game_id: int, user, proposal_id: int, agree: bool,
             now: datetime | None = None) -> str:
    """`user` answers the open proposal `proposal_id` (the one their page showed).
    Returns the outcome: "" while it stays open, else "agreed" or "declined"."""
    now = now or timezone.now()
    with transaction.atomic():
        game = _lock_playing(game_id)
        seat = _voter(game, user)
        if game.engine_state().ending:
            raise Rejected(_("The game already ends after this round."), 409)
        proposal = _lapse_if_due(game, now)
        if proposal is None or proposal.pk != proposal_id:
            raise Rejected(_("That proposal to end the game is no longer open."), 409)
        if proposal.votes.filter(seat=seat).exists():
            raise Rejected(_("You have already answered this proposal."), 409)
        EndVote.objects.create(proposal=proposal, seat=seat, agree=agree, created=now)
        record(game, seat.player, "end_vote", {"agree": agree},
               [{"type": "end_vote", "player": seat.player, "agree": agree}], "player", user)
        outcome = _settle(game, proposal, now)
        _told(game)
    return outcome


def lapse_end_proposals(now: datetime | None = None) -> int:
    """Close the proposals that lapsed at tables in play, telling the table (the sweep
    runs it; a command meeting one closes it too). Returns how many."""
    now = now or timezone.now()
    lapsed = 0
    for game_id in EndProposal.objects.filter(
        outcome=Outcome.OPEN, expires__lte=now, game__status=Game.Status.PLAYING,
    ).values_list("game_id", flat=True):
        with transaction.atomic():
            game = Game.locked(game_id)
            proposal = open_end_proposal(game)
            if not game.is_playing or proposal is None or proposal.expires > now:
                continue
            _lapse_if_due(game, now)
            _told(game)
            lapsed += 1
    return lapsed
