"""What the commands and the read side both ask about a table and the seats it waits on:
whether a seat is at the table, whether the round in play is the game's last and a
newcomer still fits, which games wait for a player, the trick a "pass for this trick"
order holds for, when the others may nudge, and the votes for a stand-in. Queries only
(and the shared cache of an answer every page asks for): every change is a command's."""

from collections.abc import Iterable
from datetime import datetime, timedelta
from functools import partial

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from dalmuti_site.compiled import CompiledQuery
from games import engine
from games.core.clock import UNTIMED_PATIENCE, promised_deadline, soonest_first
from games.models import EndProposal, Game, Seat, StandInVote

# Another player may nudge whoever the table has waited on this long, once per turn; on
# a short clock, after half of it (else the nudge would open when the time runs out).
NUDGE_AFTER = timedelta(hours=1)

# After this many timeouts in a row the other players may vote the stand-in bot in.
TIMEOUTS_BEFORE_VOTE = 2


def at_the_table(seat: Seat) -> bool:
    """Whether the seat plays in the round in play and the next: not a newcomer waiting
    for the next round, nor a player who is leaving or has left."""
    return seat.player is not None and not (seat.joining or seat.leaving or seat.left)


def awaits_person(seat: Seat) -> bool:
    """Whether the seat's game in play waits for the person in it, not for a bot making
    their moves (a stand-in, or the bot finishing a leaver's round): what My games, the
    header's count, the app's badge and the daily summary all go by. A table that waits
    only for a stand-in can stay so for hours when the workers fail and back off."""
    return (not seat.played_by_bot and at_the_table(seat)
            and str(seat.player) in seat.game.awaiting)


def games_waiting_for(user) -> list[Game]:
    """The games in play that wait for the player (`awaits_person`), as My games lists
    them: the one whose promised time runs out first on top, the others after."""
    seats = [seat for seat in Seat.objects.filter(user=user, game__status=Game.Status.PLAYING)
             .select_related("game").order_by("pk") if awaits_person(seat)]
    return [seat.game for seat in soonest_first(
        seats, lambda seat: promised_deadline(seat.game, seat))]


def tables_awaiting(user) -> int:
    """How many games in play wait for the player now (`awaits_person`), in one query: for
    the header, the tab title and the app's badge."""
    return tables_awaiting_each([user.pk])[user.pk]


def tables_awaiting_each(user_ids: Iterable[int]) -> dict[int, int]:
    """`tables_awaiting` for each of these players, two to a query: a move's answer
    brings the count to the mover and to the player whose turn it now is."""
    ids = list(dict.fromkeys(user_ids))
    counts = dict.fromkeys(ids, 0)
    for at in range(0, len(ids), 2):
        pair = ids[at:at + 2]
        for user_id, player, awaiting in _AWAITING(pair[0], pair[-1]):
            counts[user_id] += str(player) in awaiting
    return counts


# Asked for the header of nearly every page (compiled once). The filter is
# `awaits_person` in SQL: a person's own seat, in the round in play.
_AWAITING = CompiledQuery(
    lambda first, second: Seat.objects.filter(
        user_id__in=(first, second), game__status=Game.Status.PLAYING, stand_in=False,
        player__isnull=False, joining=False, leaving=False, left=False,
    ).values_list("user_id", "player", "game__awaiting"))


def trick_key(view: dict) -> str:
    """Names the trick in play: the round and how many cards were played before it."""
    played = sum(view["played"][1:])
    in_trick = sum(len(p["cards"]) for p in view["trick"]["plays"])
    return f"{view['game']['round_number']}:{played - in_trick}"


def no_next_round(state: engine.Game) -> bool:
    """Whether the round in play is known to be the game's last (a game ending at a
    target score may still end sooner)."""
    rounds = state.options.rounds
    return state.ending or (rounds is not None and state.round_number >= rounds)


def leaving_ends_game(game: Game, seats: list[Seat], state: engine.Game) -> bool:
    """Whether one more player leaving would end the game when this round does: no bot
    takes a leaver's seat at this table, a next round was to come, and with the others
    already leaving gone and the newcomers seated, fewer than four would be left to
    play it (`apply_seat_changes`)."""
    if game.leaver_bot or no_next_round(state):
        return False
    leaving = sum(1 for s in seats if s.leaving)
    joining = sum(1 for s in seats if s.joining)
    return len(state.lineup) - leaving - 1 + joining < engine.MIN_PLAYERS


def room_for_newcomers(game: Game, seats: list[Seat] | None = None) -> bool:
    """Whether someone could still take a seat: a free seat at an open table, or, in a
    game in progress, a next round to join at and room at the table. `seats`: the
    table's seats, if the caller read them (they are not counted again)."""
    if game.is_open:
        taken = len(seats) if seats is not None else game.seats.count()
        return taken < game.seats_wanted
    if not game.is_playing:
        return False
    state = game.engine_state()
    if no_next_round(state):
        return False
    joining = (sum(1 for seat in seats if seat.joining) if seats is not None
               else game.seats.filter(joining=True).count())
    return len(state.lineup) + joining < engine.MAX_PLAYERS


def nudge_after(game: Game) -> timedelta:
    """How long a turn lasts before the others may nudge: an hour, or half the time limit
    when that is sooner."""
    if game.turn_limit:
        return min(NUDGE_AFTER, timedelta(seconds=game.turn_limit / 2))
    return NUDGE_AFTER


def nudge_open(game: Game, since: datetime, now: datetime) -> bool:
    """Whether a turn that began `since` has lasted long enough for the others to nudge."""
    return now - since >= nudge_after(game)


def stand_in_vote_open(seat: Seat, game: Game | None = None,
                       now: datetime | None = None) -> bool:
    """Whether the others may vote to let the stand-in bot play for this seat: a person at
    the table, playing their own seat, who missed their last turns in a row, or (with
    `game`) whom a table without a clock has waited for since UNTIMED_PATIENCE: no turn
    times out there, and one who vanished would stall it."""
    if seat.user_id is None or seat.stand_in or not at_the_table(seat):
        return False
    return seat.timeouts_in_row >= TIMEOUTS_BEFORE_VOTE or (
        game is not None and stalled_untimed(game, seat.player, now))


def stalled_untimed(game: Game, player: int, now: datetime | None = None) -> bool:
    """Whether a table without a clock has waited for this player since
    UNTIMED_PATIENCE. Never for a secret wait (Wait.secret): a vote would name who holds
    both jesters."""
    if game.turn_limit or not game.is_playing:
        return False
    wait = game.wait_for(player)
    return (wait is not None and not wait.secret
            and (now or timezone.now()) - wait.since >= UNTIMED_PATIENCE)


def stand_in_votes(game: Game, target: Seat) -> tuple[int, int]:
    """The votes for a stand-in for `target` since they last acted, and how many make a
    majority of the other human players."""
    votes = StandInVote.objects.filter(target=target).values_list("voter_id", "created")
    return stand_in_tally(target, list(game.seats.all()), votes)


def stand_in_tally(target: Seat, seats: Iterable[Seat],
                   votes: Iterable[tuple[int, datetime]]) -> tuple[int, int]:
    """`stand_in_votes` from the table's seats and the votes about `target` (voter seat
    id, when), for a caller that has them at hand: a vote counts if its voter is another
    human player at the table (no bot standing in for them) and it was cast since
    `target` last acted."""
    others = {s.pk for s in seats
              if s.user_id and s.pk != target.pk and not s.stand_in and at_the_table(s)}
    counted = sum(1 for voter, created in votes if voter in others
                  and (not target.last_acted or created > target.last_acted))
    return counted, len(others) // 2 + 1


def may_vote_on_ending(seat: Seat | None) -> bool:
    """Whether this seat has a say on ending the game by agreement: a person at the table
    playing their own seat (a bot standing in has none)."""
    return seat is not None and seat.user_id is not None and at_the_table(seat) \
        and not seat.stand_in


def open_end_proposal(game: Game) -> EndProposal | None:
    """The table's open proposal to end the game, lapsed or not (the commands close a
    lapsed one)."""
    return game.end_proposals.filter(outcome=EndProposal.Outcome.OPEN) \
        .select_related("proposer__user").first()


# How long the shared cache remembers whether a table has an open proposal.
PROPOSAL_SECONDS = 600


def _proposal_key(game_id: int) -> str:
    return f"end-proposal:{game_id}"


def shown_end_proposal(game: Game) -> EndProposal | None:
    """The open proposal a page of `game` shows, asking the database only when there is
    one. Every page of every open table asks after every move, and there is rarely one:
    whether there is is kept in the shared cache, which the commands that open and close
    proposals set when they commit (`end_proposals_changed`). A page that finds nothing
    kept asks the database and keeps the answer, unless a command set it meanwhile."""
    # Asked once per snapshot of the table: a move's answer draws the update and two
    # players' own parts from the same row, and opening, answering or closing a
    # proposal is recorded, so the record's number moves with it.
    asked = game.__dict__.get("_end_proposal_shown")
    if asked is not None and asked[0] == game.seq:
        return asked[1]
    key = _proposal_key(game.pk)
    known = cache.get(key)
    proposal = None if known == 0 else open_end_proposal(game)
    if known is None:
        cache.add(key, proposal.pk if proposal is not None else 0, PROPOSAL_SECONDS)
    game._end_proposal_shown = (game.seq, proposal)
    return proposal


def end_proposals_changed(game: Game) -> None:
    """A proposal to end `game` opened or closed: until the transaction commits, the pages
    ask the database (which tells them what was committed); then they know whether one is
    open without asking (`shown_end_proposal`)."""
    key = _proposal_key(game.pk)
    cache.delete(key)
    game.__dict__.pop("_end_proposal_shown", None)
    proposal = open_end_proposal(game)
    known = proposal.pk if proposal is not None else 0
    transaction.on_commit(partial(cache.set, key, known, PROPOSAL_SECONDS))


def end_tally(proposal: EndProposal, seats: Iterable[Seat]) -> dict:
    """The votes on ending the game: yes and no among the humans seated now, how many
    have not answered, and how many yes make a majority of them (an abstention counts as
    not agreeing)."""
    humans = {s.pk for s in seats if s.user_id is not None and at_the_table(s)}
    votes = {seat: agree for seat, agree in proposal.votes.values_list("seat_id", "agree")
             if seat in humans}
    yes = sum(1 for agree in votes.values() if agree)
    return {"yes": yes, "no": len(votes) - yes, "open": len(humans) - len(votes),
            "needed": len(humans) // 2 + 1, "voted": set(votes)}
