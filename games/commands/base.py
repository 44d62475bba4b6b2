"""What the commands share: the refusal they raise, appending to the record, and saving a
new engine state with who it now waits for."""

from dataclasses import replace

from django.utils import timezone

from games.commands import group_channel, notifications
from games.core import background, live
from games.core.clock import deadline, pauses_of, settle_banks
from games.core.standing import winner
from players import services as players

from .. import engine
from ..models import TOKEN_STEPS, Action, Game, NeverDealtIn, Round, Seat, Wait

# Seat keys of engine events that name round seats (mapped to stable player indices).
SEAT_KEYS = ("seat", "from", "to", "leader")
SEAT_LIST_KEYS = ("visible_to", "finish_order", "next_order")


class Settled(str):
    """The message of a refusal that is good news: what was asked is done already (a move
    sent again after its answer was lost). Said as a status, not as an error."""


class Rejected(Exception):
    """A request that changes nothing, with the message for the player and an HTTP status."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status


def player_events(state: engine.Game, events: list[dict]) -> list[dict]:
    """Engine events with round seats replaced by stable player indices."""
    seats = state.seats
    out = []
    for event in events:
        event = dict(event)
        if "seat" in event:
            event["player"] = seats[event.pop("seat")]
        for key in SEAT_KEYS[1:]:
            if key in event and isinstance(event[key], int):
                event[key] = seats[event[key]]
        for key in SEAT_LIST_KEYS:
            if key in event:
                event[key] = [seats[s] for s in event[key]]
        if "exchanges" in event:
            event["exchanges"] = [{**e, "from": seats[e["from"]], "to": seats[e["to"]]}
                                  for e in event["exchanges"]]
        if event["type"] == "out" and event["place"] == len(seats):
            # Left holding cards when the others are out: the log must not say "out of
            # cards" beside a seat that still shows some.
            event["last"] = True
        out.append(event)
    return out


def record(game: Game, player, kind, payload, events, by, by_user=None, turn=None,
           round_number: int | None = None) -> Action:
    """Append an action to the record, in the log of the round in play unless another
    `round_number` is given."""
    game.seq += 1
    return Action.objects.create(
        game=game, seq=game.seq,
        round_number=game.round_number if round_number is None else round_number,
        player=player,
        kind=kind, payload=payload, events=events, by=by, by_user=by_user, turn=turn,
    )


def begin_round(game: Game, state: engine.Game, kind: str, payload: dict) -> None:
    """Record the system action that dealt a round (the start, or the next round)."""
    game.round_number = state.round_number
    rnd = state.round
    dealer = state.seats[rnd.order[-1]]
    events = [{"type": "round_starts", "round": state.round_number, "dealer": dealer}]
    events += player_events(state, rnd.last_events)
    record(game, None, kind, payload, events, "system")
    Round.objects.create(
        game=game, number=state.round_number, positions=list(state.seats),
        hands=[rnd.hand(s) for s in range(rnd.n_players)],
    )


def finish_round(game: Game, state: engine.Game) -> None:
    result = state.results[-1]
    revolution = result["revolution"]
    Round.objects.filter(game=game, number=result["round"]).update(
        finish_order=result["finish_order"],
        points={str(p["player"]): p["points"] for p in result["players"]},
        revolution=("great" if revolution["great"] else "revolution") if revolution else "",
        finished=timezone.now(),
    )
    group_channel.for_round(game, state)


def finish_game(game: Game, state: engine.Game) -> None:
    game.status = Game.Status.FINISHED
    # Before the ratings, which rank whoever left at the shared last place.
    out_with_the_game(game)
    # The ratings wait for any other game ending with the same players; the end is
    # stamped after that wait, so the order of the end times is the order of the ratings.
    players.rate_game(game, state)
    game.finished = timezone.now()
    last = Action.objects.filter(game=game, seq=game.seq).first()
    gone = set(state.left) | set(game.seats.filter(left=True).values_list("player", flat=True))
    last.events = last.events + [{"type": "game_over",
                                  "winner": winner(state.standings, gone)}]
    last.save(update_fields=["events"])
    # Whoever was waiting for the next round to sit down will never be seated: told so,
    # and their link to the table says it.
    for newcomer in game.seats.filter(joining=True, user__isnull=False).select_related("user"):
        never = NeverDealtIn.objects.get_or_create(game=game, user=newcomer.user)[0]
        notifications.for_never_dealt_in(game, newcomer.user, never.pk)
    game.seats.filter(joining=True).delete()
    notifications.for_everyone(game, notifications.Kind.OVER)
    group_channel.for_over(game)
    # The expert's review of the players' decisions, in the background (commands.reviews).
    background.after_commit("review_game", game.pk)


def save_state(game: Game, state: engine.Game, actor: int | None = None,
               seats: list[Seat] | None = None) -> None:
    """Store the new state and who it waits for.

    The public version steps only when the spectator's view of the game changes, so a
    private decision is invisible to everybody else. A new wait gets a new turn token (the
    page's proof that it is not stale); a player who took a private step and must still
    decide (a Dalmuti who declined a revolution) keeps the wait's start and clock but gets
    the next token, so a resubmitted page is refused as stale.

    `seats`: the table's seats with their users as they are now, if the caller has them.
    """
    state_before = game.engine_state() if game.state is not None else None
    before = state_before.view(None) if state_before is not None else None
    public_change = before != state.view(None)
    if public_change:
        game.version += 1
    now = timezone.now()
    if seats is None and game.is_playing:
        seats = game.seats_with_users()
    seats = {s.player: s for s in seats} if game.is_playing else {}
    waits: dict[int, Wait] = {}
    new_waits = []
    running = game.waits()
    # A deal may ask somebody in private (a decision on a revolution). The request that
    # deals does the same work whoever that is, or whether anybody is: every person's
    # pauses are read, and the private waits' notices are recorded after the commit, by
    # work sent at every deal (`for_private_waits`); the player whose move dealt could
    # otherwise time their own request.
    dealt = game.is_playing and (state_before is None
                                 or state_before.round_number != state.round_number)
    people = [s for s in seats.values() if not s.played_by_bot] if dealt else []
    pauses = pauses_of(game, people, now) if people else {}
    for player in state.awaiting_players if game.is_playing else ():
        kept = running.get(player)
        if kept and player == actor:
            kept = replace(kept, token=kept.token + 1) if not public_change else None
        if kept:
            waits[player] = kept
    if game.is_playing:
        # The waits that ended settle their players' banks before any new wait of
        # theirs is given its deadline.
        settle_banks(game, {p: w for p, w in running.items() if p not in waits}, seats, now,
                     state_before)
    public = state.publicly_awaited if game.is_playing else frozenset()
    for player in state.awaiting_players if game.is_playing else ():
        if player in waits:
            continue
        secret = player not in public
        seat = seats.get(player)
        waits[player] = Wait(game.version * TOKEN_STEPS, now,
                             deadline(game, seat, now, pauses.get(seat.user_id) if dealt
                                      else None, secret=secret)
                             if seat is not None else None, secret)
        new_waits.append(player)
    game.keep_state(state)
    game.set_waits({p: waits[p] for p in state.awaiting_players if p in waits})
    fields = ["state", "awaiting", "banks", "seq", "version", "round_number", "status",
              "started", "finished"]
    # `updated` orders "My games": it too may only move with what everybody can see.
    game.save(update_fields=fields + ["updated"] if public_change else fields)
    live.table_changed(game, announce=public_change, actor=actor)
    notifications.for_new_turns(game, [p for p in new_waits if not waits[p].secret], seats)
    if people:
        background.after_commit("private_notices", game.pk)
    if public_change:
        # The group channel hears only of what every spectator just saw.
        group_channel.for_public_turn(game, state)


def refresh_deadlines(game: Game) -> None:
    """Recompute the stored deadlines of the running waits (a pause began, ended or
    moved), by the clock's one rule."""
    waits = game.waits()
    if not waits:
        return
    seats = {s.player: s for s in game.seats_with_users()}
    earliest = min(wait.since for wait in waits.values())
    pauses = pauses_of(game, seats.values(), earliest)
    game.set_waits({
        player: replace(wait, deadline=deadline(game, seat, wait.since,
                                                pauses.get(seat.user_id, []), wait.secret)
                        if (seat := seats.get(player)) else None)
        for player, wait in waits.items()
    })
    game.save(update_fields=["awaiting"])
    live.table_forgotten(game.pk)
    notifications.reminders_moved(game, seats)


def give_turn_to_bot(game: Game, seat: Seat) -> None:
    """A person's seat goes to a bot for good in the middle of their turn: their bank
    pays for the time they let run, as when the stand-in finishes a turn, and the turn
    goes on without a deadline. The caller saves the seat."""
    wait = game.wait_for(seat.player) if game.is_playing else None
    if wait is None or seat.user_id is None:
        return
    seat.stand_in = True  # the bot finishes the turn: it may only take from the bank
    settle_banks(game, {seat.player: wait}, {seat.player: seat}, timezone.now(),
                 game.engine_state())
    waits = game.waits()
    waits[seat.player] = replace(wait, deadline=None)
    game.set_waits(waits)
    game.save(update_fields=["banks", "awaiting"])
    live.table_forgotten(game.pk)


def out_with_the_game(game: Game) -> None:
    """Whoever is still leaving as the game ends (they said so in the round that ended
    it, or before an organiser ended it) left it, as whoever leaves in any other round:
    the bot played their cards out, and they share the last place with anyone else who
    left, as the leave dialog told them."""
    game.seats.filter(leaving=True).update(leaving=False, left=True)


def table_touched(game: Game) -> None:
    """Something every page of the table shows changed outside the engine's state (a
    newcomer waiting for the next round, a player leaving, a vote): a new public version,
    so that the open pages show it at their next poll rather than after the next move."""
    game.version += 1
    game.save(update_fields=["version", "updated"])
    live.table_changed(game)


def apply_seat_changes(game: Game, state: engine.Game) -> engine.Game:
    """Between a round's result and the next deal: the leavers go, then the newcomers
    sit down, each recorded so that the game can be rebuilt from its record.

    Leaves that alone would take the table below four players (the end of the game) wait
    for the newcomers to sit down first; once the game is over nothing more changes, and
    whoever still leaves is out with it (a seat change on a finished game would be
    refused by the engine, and the round could never end).

    The changes are told in the log of the round they lead to, above its deal: the page
    shows the log of the round in play, and the round just played is no longer it once
    the next is dealt. Changes that end the game are told in the round that ended, where
    its end is."""
    leavers = list(game.seats.filter(leaving=True).order_by("pk"))
    newcomers = list(game.seats.filter(joining=True).order_by("joined", "pk"))
    changes: list[tuple] = []  # what `record` takes of each, in order

    def leave(state: engine.Game, seat: Seat) -> engine.Game:
        state = state.leave(seat.player)
        changes.append((seat.player, "leave", {"player": seat.player},
                        [{"type": "left", "player": seat.player}], "player", seat.user))
        return state

    def join(state: engine.Game, seat: Seat) -> engine.Game:
        if len(state.lineup) >= engine.MAX_PLAYERS:
            return state
        places = state.join_places()
        place = places[0] if len(places) == 1 or seat.join_choice == "upper" else places[-1]
        state, player = state.join(place)
        seat.player, seat.joining = player, False
        seat.save(update_fields=["player", "joining"])
        changes.append((player, "join", {"place": place},
                        [{"type": "joined", "player": player, "place": place}], "player",
                        seat.user))
        return state

    steps = [(leave, s) for s in leavers] + [(join, s) for s in newcomers]
    if len(state.lineup) - len(leavers) < engine.MIN_PLAYERS:
        steps = [(join, s) for s in newcomers] + [(leave, s) for s in leavers]
    for step, seat in steps:
        if state.is_over:
            break
        state = step(state, seat)
    told_in = game.round_number if state.is_over else state.round_number + 1
    for change in changes:
        record(game, *change, round_number=told_in)
    for seat in leavers:
        seat.leaving, seat.left = False, True
        seat.save(update_fields=["leaving", "left"])
    return state
