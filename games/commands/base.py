"""What the commands share: the refusal they raise, appending to the record, and saving a
new engine state with who it now waits for."""

from django.utils import timezone

from .. import background, engine, notifications
from ..models import Action, Game, Round, Seat

# Seat keys of engine events that name round seats (mapped to stable player indices).
SEAT_KEYS = ("seat", "from", "to", "leader")
SEAT_LIST_KEYS = ("visible_to", "finish_order", "next_order")


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
        out.append(event)
    return out


def record(game: Game, player, kind, payload, events, by, by_user=None) -> Action:
    game.version += 1
    return Action.objects.create(
        game=game, seq=game.version, round_number=game.round_number, player=player,
        kind=kind, payload=payload, events=events, by=by, by_user=by_user,
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


def finish_game(game: Game, state: engine.Game) -> None:
    game.status = Game.Status.FINISHED
    game.finished = timezone.now()
    last = Action.objects.filter(game=game, seq=game.version).first()
    last.events = last.events + [{"type": "game_over", "winner": state.winner}]
    last.save(update_fields=["events"])
    notifications.for_everyone(game, notifications.Kind.OVER)


def save_state(game: Game, state: engine.Game, actor: int | None = None) -> None:
    """Store the new state and who it waits for. Each wait keeps the version at which it
    began (the turn token pages submit with) unless the player just acted: a player who
    still has something to decide (a Dalmuti holding both jesters) gets a new token, so a
    resubmitted page is refused as stale."""
    now = timezone.now().isoformat()
    awaiting = {}
    if game.is_playing:
        for player in state.awaiting_players:
            key = str(player)
            kept = game.awaiting.get(key) if player != actor else None
            awaiting[key] = kept or [game.version, now]
    game.state = state.to_json()
    new_waits = [int(p) for p, wait in awaiting.items() if wait[0] == game.version]
    game.awaiting = awaiting
    game.save()
    notifications.for_new_turns(game, new_waits)


def bots_awaited(game: Game, seats: list[Seat] | None = None) -> bool:
    if not game.is_playing:
        return False
    seats = seats if seats is not None else list(game.seats.all())
    bot_players = {str(s.player) for s in seats if s.played_by_bot}
    return any(p in bot_players for p in game.awaiting)


def wake_bots(game: Game) -> None:
    """If the table waits for a bot, have the workers play it once this commits."""
    if bots_awaited(game):
        background.after_commit("play_bots", game.pk)
