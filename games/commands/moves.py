"""Playing: a player's own action, a bot's move, and the standing orders that act for a
player, all through one path that validates with the engine and records the result."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import background, engine
from ..labels import illegal_move_message
from ..models import Game, Seat
from .base import (
    Rejected,
    apply_seat_changes,
    begin_round,
    finish_game,
    finish_round,
    player_events,
    record,
    save_state,
)

# Engine refusals that mean "the table moved on" (409) rather than "not allowed" (422).
CONFLICT_CODES = {"already_chosen", "not_your_turn", "not_awaited", "wrong_phase", "round_over",
                  "game_over"}


def act(game_id: int, user, action: engine.Action, turn: int) -> Game:
    """A human's action for their own seat. `turn` is the token the page was rendered
    with: the version at which this player's current decision began."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise Rejected(_("You have no seat at this table."), 403)
        if not game.is_playing:
            raise Rejected(_("This game is not in play."), 409)
        waiting = game.awaiting.get(str(seat.player))
        if waiting is None or waiting[0] != turn:
            if already_recorded(game, user, action, turn):
                raise Rejected(_("Your move was already recorded; nothing more was changed."),
                               409)
        if waiting is None:
            raise Rejected(_("It is not your turn; nothing was changed."), 409)
        if waiting[0] != turn:
            raise Rejected(
                _("The table has moved on since your page was shown; nothing was changed."),
                409,
            )
        now = timezone.now()
        seat.last_seen = seat.last_acted = now
        seat.timeouts_in_row = 0
        seat.save(update_fields=["last_seen", "last_acted", "timeouts_in_row"])
        apply(game, seat, action, by="player", by_user=user, turn=turn)
        wake_bots(game)
    return game


def already_recorded(game: Game, user, action: engine.Action, turn: int) -> bool:
    """Whether this very move, sent from the page with this turn token, is in the record
    (a resent form, or a retry after the answer was lost)."""
    payload = engine.action_to_json(action)
    return any(
        recorded.payload == payload
        for recorded in game.actions.filter(by_user=user, by="player", turn=turn)
    )


def play_bot_move(game_id: int) -> bool:
    """Let one bot that the table waits for (a bot seat, or a bot standing in for an
    absent player) make its move; False if no bot is awaited.

    Safe to run any number of times: the move is taken under the row lock, from the state
    as it is then."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or not game.is_playing:
            return False
        state = game.engine_state()
        move = bot_move(game, state, list(game.seats.all()))
        if move is None:
            return False
        seat, action = move
        apply(game, seat, action, by="bot" if seat.is_bot else "stand_in", by_user=None,
              state=state)
    return True


def _bot_view(state: engine.Game, player: int) -> dict | None:
    """What a bot may decide now, as its view with the legal actions it may take now; None
    if nothing.

    A bot holding both jesters decides on the revolution only once it is the last thing
    the table waits for, exactly when the taxes would otherwise be made: deciding at the
    deal would give away who holds them through when the bot's move happens.
    """
    view = state.view(player)
    legal = view["legal_actions"]
    if not any(a["type"] == "revolution" for a in legal):
        return view if legal else None
    others = [p for p in state.awaiting_players if p != player]
    other_kinds = [a for a in legal if a["type"] != "revolution"]
    if others or other_kinds:
        return {**view, "legal_actions": other_kinds} if other_kinds else None
    return view


def _bot_to_move(state: engine.Game, seats: list[Seat]) -> tuple[Seat, dict] | None:
    bots = {s.player: s for s in seats if s.played_by_bot}
    for player in sorted(p for p in state.awaiting_players if p in bots):
        view = _bot_view(state, player)
        if view is not None:
            return bots[player], view
    return None


def bot_move(game: Game, state: engine.Game, seats: list[Seat]):
    """(seat, action) of the first bot with something to decide now, or None."""
    found = _bot_to_move(state, seats)
    if found is None:
        return None
    seat, view = found
    seed = engine.derive_seed(game.seed, "bot", game.seq, seat.player)
    level = seat.bot_to_play if seat.bot_to_play in engine.BOTS else "basic"
    return seat, engine.choose_action(level, view, seed)


def bots_awaited(game: Game, seats: list[Seat] | None = None) -> bool:
    """Whether a bot has something to decide now."""
    if not game.is_playing:
        return False
    seats = seats if seats is not None else list(game.seats.all())
    bot_players = {str(s.player) for s in seats if s.played_by_bot}
    if not any(p in bot_players for p in game.awaiting):
        return False
    return _bot_to_move(game.engine_state(), seats) is not None


def wake_bots(game: Game) -> None:
    """If a bot has something to decide, have the workers play it once this commits."""
    if bots_awaited(game):
        background.after_commit("play_bots", game.pk)


def apply(game: Game, seat: Seat, action, by: str, by_user, state=None, turn=None) -> None:
    """Apply one action, then whatever standing orders it sets off, and save."""
    state = apply_one(game, seat.player, action, by, by_user, state or game.engine_state(),
                      turn=turn)
    state = run_automatic(game, state)
    save_state(game, state, actor=seat.player)


def apply_one(game: Game, player: int, action, by: str, by_user, state: engine.Game,
              turn: int | None = None):
    """Validate one action with the engine and append it to the record; a finished round
    is scored and the next one dealt. Nothing is saved yet."""
    try:
        state = state.apply(player, action)
    except engine.IllegalMove as exc:
        status = 409 if exc.code in CONFLICT_CODES else 422
        raise Rejected(illegal_move_message(exc), status) from exc
    events = player_events(state, state.round.last_events)
    payload = engine.action_to_json(action)
    record(game, player, payload["type"], payload, events, by, by_user, turn)
    if state.round.phase == "over":
        finish_round(game, state)
        if not state.is_over:
            state = apply_seat_changes(game, state)
        if state.is_over:
            finish_game(game, state)
        else:
            state = state.next_round()
            begin_round(game, state, "next_round", {})
    return state



# -- standing orders --


def trick_key(view: dict) -> str:
    """Names the trick in play: the round and how many cards were played before it."""
    played = sum(view["played"][1:])
    in_trick = sum(len(p["cards"]) for p in view["trick"]["plays"])
    return f"{view['game']['round_number']}:{played - in_trick}"


def standing_order_action(seat: Seat, view: dict):
    """The action the player's standing orders take in this view, or None."""
    legal = view["legal_actions"]
    if not legal:
        return None
    kinds = {a["type"] for a in legal}
    if view["phase"] == "play" and "pass" in kinds:
        if seat.pass_trick and seat.pass_trick == trick_key(view):
            return engine.Pass()
        if seat.auto_pass and kinds == {"pass"}:
            return engine.Pass()
    if view["phase"] == "taxes" and seat.auto_tax_worst and "give_back" in kinds:
        gives = [a for a in legal if a["type"] == "give_back"]
        return engine.timeout_action({**view, "legal_actions": gives})
    return None


def run_automatic(game: Game, state: engine.Game) -> engine.Game:
    """Let standing orders act, and bots decide a revolution that has become due, through
    the same path as a player's own action, for as long as one applies (each pass can
    bring the turn to the next player with one). Both happen in the transaction of the
    move that set them off, so nobody sees a moment in between."""
    if not game.is_playing:
        return state
    seats = list(game.seats.all())
    humans = {s.player: s for s in seats if not s.played_by_bot}
    bots = {s.player: s for s in seats if s.played_by_bot}
    for _step in range(len(seats) * 4 + 8):
        for player in state.awaiting_players:
            if player in humans:
                action = standing_order_action(humans[player], state.view(player))
                if action is not None:
                    state = apply_one(game, player, action, "standing_order",
                                      humans[player].user, state)
                    break
            elif player in bots and _revolution_due(state, player):
                seat = bots[player]
                _seat, action = bot_move(game, state, [seat])
                state = apply_one(game, player, action, "bot" if seat.is_bot else "stand_in",
                                  None, state)
                break
        else:
            return state
        if not game.is_playing:
            return state
    return state


def _revolution_due(state: engine.Game, player: int) -> bool:
    view = _bot_view(state, player)
    return view is not None and {a["type"] for a in view["legal_actions"]} == {"revolution"}


def set_standing_orders(game_id: int, user, auto_pass: bool, auto_tax_worst: bool,
                        pass_trick: bool | None) -> None:
    """The player's standing orders at one table; `pass_trick` None leaves "pass for the
    rest of this trick" as it is."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        seat = game.seats.get(user=user)
        seat.auto_pass = auto_pass
        seat.auto_tax_worst = auto_tax_worst
        if game.is_playing and pass_trick is not None:
            view = game.engine_state().view(seat.player)
            seat.pass_trick = trick_key(view) if pass_trick and view["phase"] == "play" else ""
        seat.save(update_fields=["auto_pass", "auto_tax_worst", "pass_trick"])
        if game.is_playing and str(seat.player) in game.awaiting:
            state = run_automatic(game, game.engine_state())
            if state.to_json() != game.state:
                save_state(game, state)
        wake_bots(game)


def set_profile_standing_orders(user, auto_pass: bool, auto_tax_worst: bool) -> None:
    """The standing orders of the player's profile: for every table they will sit at, and
    every table not over where they sit now."""
    type(user).objects.filter(pk=user.pk).update(auto_pass=auto_pass,
                                                 auto_tax_worst=auto_tax_worst)
    user.auto_pass, user.auto_tax_worst = auto_pass, auto_tax_worst
    for game_id in Seat.objects.filter(
        user=user, game__status__in=[Game.Status.OPEN, Game.Status.PLAYING],
    ).order_by("game_id").values_list("game_id", flat=True):
        set_standing_orders(game_id, user, auto_pass, auto_tax_worst, pass_trick=None)


def end_after_this_round(game_id: int, user, end: bool = True) -> Game:
    """The host marks the game to end once the round in play is over (how an open-ended
    game ends; any game may end early this way), or takes the mark back."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.host_id != user.pk:
            raise Rejected(_("Only the host can end the game."), 403)
        if not game.is_playing:
            raise Rejected(_("This game is not in play."), 409)
        state = game.engine_state()
        if state.ending == end:
            return game
        state = state.end_after_this_round(end)
        host = game.seats.filter(user=user).first()
        player = host.player if host is not None else None
        event = {"type": "game_ending" if end else "game_continues", "player": player}
        record(game, player, "ending", {"end": end}, [event], "player", user)
        save_state(game, state)
    return game
