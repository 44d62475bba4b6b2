"""Everything that changes a table, in one place: views, bots and tasks all come here.

Each change runs in one transaction holding the table's row lock, validates through the
engine, appends to the Action record and saves the new engine state, so two concurrent
submissions for the same turn can never both win, and a rejected one changes nothing.
"""

import logging
import time
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from . import engine, notifications
from .labels import illegal_move_message
from .models import Action, Game, Invitation, Round, Seat

log = logging.getLogger(__name__)

BOT_NAMES = [
    "Ada", "Bram", "Cato", "Dido", "Ezra", "Fien", "Gus", "Hedda", "Ivo", "Juno", "Kees",
    "Lotte", "Mats", "Nora", "Otto", "Pim", "Quin", "Roos", "Sem", "Tess",
]
# Seat keys of engine events that name round seats (mapped to stable player indices).
SEAT_KEYS = ("seat", "from", "to", "leader")
SEAT_LIST_KEYS = ("visible_to", "finish_order", "next_order")
TIMEOUTS_BEFORE_STAND_IN = 3
VACATION_DAYS = 7
# Engine refusals that mean "the table moved on" (409) rather than "not allowed" (422).
CONFLICT_CODES = {"already_chosen", "not_your_turn", "not_awaited", "wrong_phase", "round_over",
                  "game_over"}


class Rejected(Exception):
    """A request that changes nothing, with the message for the player and an HTTP status."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status


# -- reading the state --


def engine_state(game: Game) -> engine.Game:
    return engine.Game.from_json(game.state)


def engine_options(game: Game) -> engine.Options:
    return engine.Options.from_json(game.options)


# -- before the start --


def create_table(host, name: str, seats: int, options: dict, turn_limit: int = 0) -> Game:
    engine.Options.from_json(options)  # validate
    with transaction.atomic():
        game = Game.objects.create(name=name, host=host, seats_wanted=seats, options=options,
                                   turn_limit=turn_limit)
        Seat.objects.create(game=game, user=host)
    return game


def _lock_open(game_id: int) -> Game:
    game = Game.objects.select_for_update().get(pk=game_id)
    if not game.is_open:
        raise Rejected(_("The game has already started."), 409)
    return game


def join(game_id: int, user) -> Seat:
    with transaction.atomic():
        game = _lock_open(game_id)
        seat = game.seats.filter(user=user).first()
        if seat:
            return seat
        if game.seats.count() >= game.seats_wanted:
            raise Rejected(_("This table is full."), 409)
        seat = Seat.objects.create(game=game, user=user)
        Invitation.objects.filter(game=game, user=user).delete()
        game.save(update_fields=["updated"])
    return seat


def add_bot(game_id: int, level: str) -> Seat:
    with transaction.atomic():
        game = _lock_open(game_id)
        taken = list(game.seats.all())
        if len(taken) >= game.seats_wanted:
            raise Rejected(_("This table is full."), 409)
        used = {s.bot_name for s in taken}
        name = next(n for n in BOT_NAMES if n not in used)  # 20 names for at most 9 bots
        seat = Seat.objects.create(game=game, bot_level=level, bot_name=name)
        game.save(update_fields=["updated"])
    return seat


def remove_seat(game_id: int, seat_id: int) -> None:
    with transaction.atomic():
        game = _lock_open(game_id)
        seat = game.seats.filter(pk=seat_id).first()
        if seat is None:
            raise Rejected(_("There is no such seat at this table."), 404)
        if seat.user_id == game.host_id:
            raise Rejected(_("The host cannot be removed from their own table."), 409)
        seat.delete()
        game.save(update_fields=["updated"])


def start(game_id: int) -> Game:
    """Draw for seats (RULES 3), deal round 1 and record the start."""
    with transaction.atomic():
        game = _lock_open(game_id)
        seats = list(game.seats.order_by("joined", "pk"))
        if len(seats) < 4:
            raise Rejected(_("A game needs at least 4 players."), 409)
        for index, seat in enumerate(seats):
            seat.player = index
            seat.save(update_fields=["player"])
        from .history import rematch_lineup  # history imports leagues, which imports us

        lineup = rematch_lineup(game, seats)
        payload = {"players": len(seats), "seed": game.seed}
        if lineup is not None:
            payload["lineup"] = lineup
        state = engine.Game.new(len(seats), engine_options(game), game.seed, lineup=lineup)
        game.status = Game.Status.PLAYING
        game.started = timezone.now()
        _begin_round(game, state, "start", payload)
        _save_state(game, state)
        notifications.for_everyone(game, notifications.Kind.STARTED)
    _after_commit(game)
    return game


# -- playing --


def parse_action(data) -> tuple[engine.Action, int]:
    """The engine action and turn token of a submitted form; Rejected if malformed."""
    kind = data.get("action", "")
    try:
        turn = int(data.get("turn", ""))
        if kind == "play":
            cards = data.get("cards", "")
            action = engine.Play(tuple(int(c) for c in cards.split(",") if c))
        elif kind == "pass":
            action = engine.Pass()
        elif kind == "give_back":
            action = engine.GiveBack(tuple(int(c) for c in data.getlist("card")))
        elif kind == "revolution":
            declare = data.get("declare")
            if declare not in ("yes", "no"):
                raise ValueError(declare)
            action = engine.Revolution(declare == "yes")
        elif kind == "trade":
            partner = data.get("partner", "")
            action = engine.Trade(None if partner == "none" else int(partner))
        elif kind == "trade_card":
            action = engine.TradeCard(int(data.get("card", "")))
        else:
            raise ValueError(kind)
    except (TypeError, ValueError):
        raise Rejected(
            _("That request was not understood. Reload the page and try again.")
        ) from None
    return action, turn


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
        _apply(game, seat, action, by="player", by_user=user)
    _after_commit(game)
    return game


def play_bot_move(game_id: int) -> bool:
    """Let one bot that the table waits for (a bot seat, or a bot standing in for an
    absent player) make its move; False if no bot is awaited.

    Safe to run any number of times: the move is taken under the row lock, from the state
    as it is then."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or not game.is_playing:
            return False
        state = engine_state(game)
        bots = {s.player: s for s in game.seats.all() if s.played_by_bot}
        waiting = [p for p in state.awaiting_players if p in bots]
        if not waiting:
            return False
        seat = bots[min(waiting)]
        view = state.view(seat.player)
        seed = engine.derive_seed(game.seed, "bot", game.version, seat.player)
        level = seat.bot_to_play if seat.bot_to_play in engine.BOTS else "basic"
        action = engine.choose_action(level, view, seed)
        _apply(game, seat, action, by="bot" if seat.is_bot else "stand_in", by_user=None,
               state=state)
    _after_commit(game, enqueue_bots=False)
    return True


def bots_awaited(game: Game, seats: list[Seat] | None = None) -> bool:
    if not game.is_playing:
        return False
    seats = seats if seats is not None else list(game.seats.all())
    bot_players = {str(s.player) for s in seats if s.played_by_bot}
    return any(p in bot_players for p in game.awaiting)


def _apply(game: Game, seat: Seat, action, by: str, by_user, state=None) -> None:
    """Apply one action, then whatever standing orders it sets off, and save."""
    state = _apply_one(game, seat.player, action, by, by_user, state or engine_state(game))
    state = _run_standing_orders(game, state)
    _save_state(game, state, actor=seat.player)


def _apply_one(game: Game, player: int, action, by: str, by_user, state: engine.Game):
    try:
        state = state.apply(player, action)
    except engine.IllegalMove as exc:
        status = 409 if exc.code in CONFLICT_CODES else 422
        raise Rejected(illegal_move_message(exc), status) from exc
    events = _events(state, state.round.last_events)
    _record(game, player, engine.action_to_json(action)["type"],
            engine.action_to_json(action), events, by, by_user)
    if state.round.phase == "over":
        _finish_round(game, state)
        if state.is_over:
            _finish_game(game, state)
        else:
            state = state.next_round()
            _begin_round(game, state, "next_round", {})
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
        worst = engine.timeout_action({**view, "legal_actions": gives})
        return worst
    return None


def _run_standing_orders(game: Game, state: engine.Game) -> engine.Game:
    """Let standing orders act, through the same path as a player's own action, for as
    long as one applies (each pass can bring the turn to the next player with one)."""
    if not game.is_playing:
        return state
    seats = {s.player: s for s in game.seats.all() if not s.played_by_bot}
    for _step in range(len(seats) * 4 + 8):
        for player in state.awaiting_players:
            seat = seats.get(player)
            if seat is None:
                continue
            action = standing_order_action(seat, state.view(player))
            if action is not None:
                state = _apply_one(game, player, action, "standing_order", seat.user, state)
                break
        else:
            return state
        if not game.is_playing:
            return state
    return state


def set_standing_orders(game_id: int, user, auto_pass: bool, auto_tax_worst: bool,
                        pass_trick: bool) -> None:
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        seat = game.seats.get(user=user)
        seat.auto_pass = auto_pass
        seat.auto_tax_worst = auto_tax_worst
        if game.is_playing:
            view = engine_state(game).view(seat.player)
            seat.pass_trick = trick_key(view) if pass_trick and view["phase"] == "play" else ""
        seat.save(update_fields=["auto_pass", "auto_tax_worst", "pass_trick"])
        if game.is_playing and str(seat.player) in game.awaiting:
            state = _run_standing_orders(game, engine_state(game))
            if state.to_json() != game.state:
                _save_state(game, state)
    _after_commit(game)


# -- absent players --


def deadline(game: Game, seat: Seat, since: datetime) -> datetime | None:
    """When the player's current turn times out: the table's limit after the wait began,
    with the clock paused while they are on vacation."""
    if not game.turn_limit or seat.played_by_bot:
        return None
    start = since
    if seat.vacation_until and seat.vacation_until > start:
        start = seat.vacation_until
    return start + timedelta(seconds=game.turn_limit)


def deadlines_may_have_passed(game: Game, now: datetime | None = None) -> bool:
    """A cheap check on the row alone, for the lazy enforcement on page loads."""
    return game.is_playing and some_deadline_passed(game.turn_limit, game.awaiting, now)


def some_deadline_passed(turn_limit: int, awaiting: dict, now: datetime | None = None) -> bool:
    """Whether the oldest wait is older than the turn limit (vacations may still excuse
    it: enforce_deadlines decides)."""
    if not turn_limit or not awaiting:
        return False
    now = now or timezone.now()
    earliest = min(datetime.fromisoformat(wait[1]) for wait in awaiting.values())
    return earliest + timedelta(seconds=turn_limit) <= now


def enforce_deadlines(game_id: int, now: datetime | None = None) -> int:
    """Apply the timeout action for every player whose turn has expired; after three in a
    row a bot stands in for them. Returns how many timeouts were applied."""
    now = now or timezone.now()
    applied = 0
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or not deadlines_may_have_passed(game, now):
            return 0
        seats = {s.player: s for s in game.seats.select_related("user")}
        for _step in range(len(seats) * 2):
            expired = [
                seats[int(p)] for p, wait in sorted(game.awaiting.items())
                if (limit := deadline(game, seats[int(p)], datetime.fromisoformat(wait[1])))
                and limit <= now
            ]
            if not expired:
                break
            seat = expired[0]
            state = engine_state(game)
            action = engine.timeout_action(state.view(seat.player))
            seat.timeouts_in_row += 1
            seat.stand_in = seat.stand_in or seat.timeouts_in_row >= TIMEOUTS_BEFORE_STAND_IN
            seat.pass_trick = ""
            seat.save(update_fields=["timeouts_in_row", "stand_in", "pass_trick"])
            state = _apply_one(game, seat.player, action, "timeout", None, state)
            state = _run_standing_orders(game, state)
            _save_state(game, state, actor=seat.player)
            applied += 1
    if applied:
        _after_commit(game)
    return applied


def take_seat_back(game_id: int, user) -> None:
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        seat = game.seats.get(user=user)
        seat.stand_in = False
        seat.timeouts_in_row = 0
        seat.last_seen = timezone.now()
        seat.save(update_fields=["stand_in", "timeouts_in_row", "last_seen"])
        if game.is_playing:
            # The player's running waits start afresh now that they are back.
            _save_state(game, engine_state(game), actor=seat.player)


def seen(seat: Seat) -> None:
    """Note that the player is at the table now (written at most once a minute)."""
    seat.last_seen = seen_at(seat.pk, seat.last_seen)


def seen_at(seat_pk: int, last_seen: datetime | None) -> datetime:
    now = timezone.now()
    if last_seen is not None and last_seen > now - timedelta(seconds=60):
        return last_seen
    Seat.objects.filter(pk=seat_pk).update(last_seen=now)
    return now


def start_vacation(game_id: int, user, days: int) -> Seat:
    """Pause the player's clock for up to `days` days (at most VACATION_DAYS per game)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        seat = game.seats.get(user=user)
        now = timezone.now()
        if seat.vacation_until and seat.vacation_until > now:
            raise Rejected(_("Your clock is already paused."), 409)
        left = timedelta(days=VACATION_DAYS) - seat.vacation_used
        length = min(timedelta(days=days), left)
        if length <= timedelta(0):
            raise Rejected(_("You have used all your vacation at this table."), 409)
        seat.vacation_until = now + length
        seat.vacation_used += length
        seat.save(update_fields=["vacation_until", "vacation_used"])
        game.save(update_fields=["updated"])
    return seat


def end_vacation(game_id: int, user) -> Seat:
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        seat = game.seats.get(user=user)
        now = timezone.now()
        if seat.vacation_until and seat.vacation_until > now:
            seat.vacation_used -= seat.vacation_until - now
            seat.vacation_until = now
            seat.save(update_fields=["vacation_until", "vacation_used"])
            game.save(update_fields=["updated"])
    return seat


def _events(state: engine.Game, events: list[dict]) -> list[dict]:
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


def _record(game, player, kind, payload, events, by, by_user=None) -> Action:
    game.version += 1
    return Action.objects.create(
        game=game, seq=game.version, round_number=game.round_number, player=player,
        kind=kind, payload=payload, events=events, by=by, by_user=by_user,
    )


def _begin_round(game: Game, state: engine.Game, kind: str, payload: dict) -> None:
    """Record the system action that dealt a round (the start, or the next round)."""
    game.round_number = state.round_number
    rnd = state.round
    dealer = state.seats[rnd.order[-1]]
    events = [{"type": "round_starts", "round": state.round_number, "dealer": dealer}]
    events += _events(state, rnd.last_events)
    _record(game, None, kind, payload, events, "system")
    Round.objects.create(
        game=game, number=state.round_number, positions=list(state.seats),
        hands=[rnd.hand(s) for s in range(rnd.n_players)],
    )


def _finish_round(game: Game, state: engine.Game) -> None:
    result = state.results[-1]
    revolution = result["revolution"]
    Round.objects.filter(game=game, number=result["round"]).update(
        finish_order=result["finish_order"],
        points={str(p["player"]): p["points"] for p in result["players"]},
        revolution=("great" if revolution["great"] else "revolution") if revolution else "",
        finished=timezone.now(),
    )


def _finish_game(game: Game, state: engine.Game) -> None:
    game.status = Game.Status.FINISHED
    game.finished = timezone.now()
    last = Action.objects.filter(game=game, seq=game.version).first()
    last.events = last.events + [{"type": "game_over", "winner": state.winner}]
    last.save(update_fields=["events"])
    notifications.for_everyone(game, notifications.Kind.OVER)


def _save_state(game: Game, state: engine.Game, actor: int | None = None) -> None:
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


# -- background work --


def _after_commit(game: Game, enqueue_bots: bool = True) -> None:
    if enqueue_bots and bots_awaited(game):
        from .tasks import play_bots

        enqueue(play_bots, game.pk)


_last_sweep_in_process = float("-inf")


def sweep_in_process() -> None:
    """Without a broker there is no Celery beat: run the periodic sweep from requests
    instead, at most once per SWEEP_SECONDS in each process (the sweep is idempotent, so
    several processes doing it costs nothing but the work)."""
    global _last_sweep_in_process
    from django.conf import settings

    now = time.monotonic()
    if settings.CELERY_TASK_ALWAYS_EAGER and now - _last_sweep_in_process >= settings.SWEEP_SECONDS:
        _last_sweep_in_process = now
        from .tasks import sweep

        transaction.on_commit(sweep.delay)


def enqueue(task, *args) -> None:
    """Send a task once the transaction commits. A broker that cannot be reached must not
    fail the player's request: the work stays derivable from the database."""

    def send():
        try:
            task.apply_async(args=args)
        except Exception:  # the broker is down or unreachable
            log.exception("could not enqueue %s%r", task.name, args)

    transaction.on_commit(send)


# -- the record --


def replay(game: Game, actions=None):
    """(action, state after it) for each action of the record, in order: the game's
    states rebuilt from the record alone."""
    options = engine.Options.from_json(game.options)
    state = None
    for action in actions if actions is not None else game.actions.order_by("seq"):
        if action.kind == "start":
            state = engine.Game.new(action.payload["players"], options, action.payload["seed"],
                                    lineup=action.payload.get("lineup"))
        elif action.kind == "next_round":
            state = state.next_round()
        else:
            state = state.apply(action.player, engine.action_from_json(action.payload))
        yield action, state


def rebuild_state(game: Game) -> engine.Game | None:
    """The engine state rebuilt from the Action record alone (nothing else is read)."""
    last = None
    for _action, last in replay(game):  # noqa: B007 - the last state is the result
        pass
    return last
