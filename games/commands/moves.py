"""Playing: a player's own action, a bot's move, and the standing orders that act for a
player, all through one path that validates with the engine and records the result."""

import json
import logging
import time
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.core import background
from games.core.clock import (
    dalmutis_hold_may_have_ended,
    dalmutis_hold_until,
    hold_began,
    revolution_window,
)
from games.core.turns import trick_key
from games.core.words import illegal_move_message

from .. import engine
from ..models import Game, Seat
from .base import (
    Rejected,
    Settled,
    apply_seat_changes,
    begin_round,
    finish_game,
    finish_round,
    player_events,
    record,
    save_state,
    table_touched,
)

log = logging.getLogger("games.bots")

# Engine refusals that mean "the table moved on" (409) rather than "not allowed" (422).
CONFLICT_CODES = {"already_chosen", "not_your_turn", "not_awaited", "wrong_phase", "round_over",
                  "game_over"}


def act(game_id: int, user, action: engine.Action, turn: int) -> Game:
    """A human's action for their own seat. `turn` is the token the page was rendered
    with: the version at which this player's current decision began."""
    with transaction.atomic():
        game = Game.locked(game_id)
        # The seats, read once for the whole move (see `apply`).
        seats = game.seats_with_users(by_pk=True)
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            raise Rejected(_("You have no seat at this table."), 403)
        if not game.is_playing:
            raise Rejected(_("This game is not in play."), 409)
        waiting = game.wait_for(seat.player)
        if waiting is None or waiting.token != turn:
            if already_recorded(game, user, action, turn):
                raise Rejected(Settled(_("Your move was already recorded; nothing more "
                                         "was changed.")), 409)
            if isinstance(action, engine.Revolution) and _decision_closed(game, seat):
                # Said to the holder alone: nobody else sent a decision on a revolution.
                raise Rejected(_("Too late: the Dalmutis had chosen the cards they give "
                                 "back, and the round goes on without a revolution."), 409)
        if waiting is None:
            raise Rejected(_("It is not your turn; nothing was changed."), 409)
        if waiting.token != turn:
            raise Rejected(
                _("The table has moved on since your page was shown; nothing was changed."),
                409,
            )
        version = game.version
        seats = apply(game, seat, action, by="player", by_user=user, turn=turn, seats=seats)
        seat.last_seen = timezone.now()
        fields = ["last_seen"]
        if not waiting.secret and game.version != version:
            # A turn everybody saw taken: the player is back. Not a private step (a
            # revolution declined), which the others must not see end a run of missed
            # turns, nor the votes on a stand-in that count until the player acts.
            seat.last_acted = seat.last_seen
            seat.timeouts_in_row = 0
            fields += ["last_acted", "timeouts_in_row"]
        seat.save(update_fields=fields)
        deal_seen(game, seat)  # the answer shows the player the table as the move left it
        wake_bots(game, seats)
    # The seats as the move left them (None after the end of a round, where seats change),
    # for whoever shows the table next.
    game.seats_after = seats
    return game


def _decision_closed(game: Game, seat: Seat) -> bool:
    """Whether this round's decision on a revolution was closed on the seat's player by
    the Dalmutis' choices (see `run_automatic`)."""
    return game.actions.filter(round_number=game.round_number, player=seat.player,
                               kind="revolution", by="closed").exists()


def already_recorded(game: Game, user, action: engine.Action, turn: int) -> bool:
    """Whether this very move, sent from the page with this turn token, is in the record
    (a resent form, or a retry after the answer was lost)."""
    payload = engine.action_to_json(action)
    return any(
        recorded.payload == payload
        for recorded in game.actions.filter(by_user=user, by="player", turn=turn)
    )


class BotsStuck(Exception):
    """No bot the table waits for could make its move (each failure was logged)."""


def play_bot_move(game_id: int, seq: int | None = None) -> bool:
    """Let one bot that the table waits for (a bot seat, or a bot standing in for an
    absent player) make its move, and hand the next one to the workers; False if no bot
    is awaited.

    With ``seq`` only while the table is where the work was sent for (its record's last
    number): whoever moved the table on since sent work of their own, so a resent task or
    a second copy does nothing. The bot decides from the table as it is read, outside any
    transaction: a decision may take seconds (the expert searches for half a second), and
    the table's row lock (with SQLite, the whole database's) stays free meanwhile for the
    people at the table. The move is then taken under the row lock only if the table is
    still where the bot decided: else it decides again from where the table is now (or,
    with ``seq``, does nothing). Safe to run any number of times, at once too. A seat whose
    move fails (its decision never does: ``engine.decide`` falls back to simpler bots) is
    logged and skipped, so that it never blocks another seat's decision; if no bot could
    move, ``BotsStuck``."""
    failed: set[int] = set()  # seats whose move failed at this point of the record
    failure = None
    while True:
        game = Game.objects.filter(pk=game_id).first()
        if game is None or not game.is_playing or (seq is not None and game.seq != seq):
            return False
        state, seats = game.engine_state(), list(game.seats.all())
        candidates = [(seat, view) for seat, view in
                      _bots_to_move(state, seats, _held(game, state, seats))
                      if seat.pk not in failed]
        if not candidates:
            if failed:
                raise BotsStuck(f"no bot at table {game_id} could move") from failure
            return False
        seat, view = candidates[0]
        try:
            decision = _decide(game, seat, view)
        except Exception as exc:
            failure = exc
            failed.add(seat.pk)
            _seat_failed(game, seat, view)
            continue
        with transaction.atomic():
            locked = Game.locked_if_there(game_id)
            if locked is None or locked.seq != game.seq:
                if seq is not None:
                    return False
                failed.clear()  # the record moved on: every seat may try again
                continue
            state = locked.engine_state()
            # The same record, and still this bot's to decide (a person may have come back
            # to their seat, or gone on vacation, meanwhile).
            seats = list(locked.seats.all())
            still = next((s for s, v in _bots_to_move(state, seats, _held(locked, state, seats))
                          if s.pk == seat.pk and s.bot_to_play == seat.bot_to_play
                          and v == view), None)
            if still is None:
                continue
            try:
                with transaction.atomic():
                    _count_stand_in(still, view, decision)
                    apply(locked, still, decision.action,
                          by="bot" if still.is_bot else "stand_in", by_user=None, state=state)
            except Exception as exc:
                failure = exc
                failed.add(seat.pk)
                _seat_failed(locked, still, view)
                continue
            wake_bots(locked)
            return True


def _seat_failed(game: Game, seat: Seat, view: dict) -> None:
    """Log a seat whose move failed outside its bot: with a traceback the first time in
    an hour for this seat, one line after (the others' moves try it again each time)."""
    key = f"bot-seat-failed:{game.pk}:{seat.player}"
    first = cache.add(key, 1, timeout=3600)
    (log.exception if first else log.warning)(
        "the move of %s's bot at table %s (player %s) failed at record %s; view %s",
        seat.name, game.pk, seat.player, game.seq, json.dumps(view),
    )


def _decide(game: Game, seat: Seat, view: dict, level: str | None = None
            ) -> engine.Decision:
    """The bot's decision for this view (never fails, see ``engine.decide``), at its own
    level unless `level` says. A failing level is logged with the seed and view that
    reproduce it (``engine.choose_action(level, view, seed, effort)``)."""
    seed = engine.derive_seed(game.seed, "bot", game.seq, seat.player)
    level = level or seat.bot_to_play
    start = time.perf_counter()
    effort = engine.Effort(budget=settings.DALMUTI_EXPERT_BUDGET,
                           samples=settings.DALMUTI_EXPERT_SAMPLES)
    decision = engine.decide(level, view, seed, limit=settings.BOT_DECISION_SECONDS,
                             effort=effort)
    for failure in decision.failures:
        log.warning(
            "bot level %s failed for %s at table %s (player %s, record %s): %s; the %s level "
            "decided instead (%.2f s in all); seed %s; view %s%s",
            failure.level, seat.name, game.pk, seat.player, game.seq, failure.reason,
            decision.level, time.perf_counter() - start, seed, json.dumps(view),
            "\n" + failure.trace if failure.trace else "",
        )
    return decision


def _count_stand_in(seat: Seat, view: dict, decision: engine.Decision) -> None:
    """A decision its level could not make is counted on the seat for the host; not a
    revolution decision, whose very existence is secret."""
    secret = any(a["type"] == "revolution" for a in view["legal_actions"])
    if decision.stood_in and not secret:
        seat.bot_stand_ins += 1
        seat.bot_stand_in_level = decision.level
        seat.save(update_fields=["bot_stand_ins", "bot_stand_in_level"])


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


def _bots_to_move(state: engine.Game, seats: list[Seat], held: bool = False
                  ) -> list[tuple[Seat, dict]]:
    """Every bot with something to decide now, with its view, in seat order. `held`: the
    Dalmutis' choice of what to give back waits (`_held`)."""
    bots = {s.player: s for s in seats if s.played_by_bot}
    found = []
    for player in sorted(p for p in state.awaiting_players if p in bots):
        view = _bot_view(state, player)
        if view is not None and not (
                held and any(a["type"] == "give_back" for a in view["legal_actions"])):
            found.append((bots[player], view))
    return found


def _held(game: Game, state: engine.Game, seats: list[Seat], now=None) -> bool:
    """Whether the Dalmutis' automatic choices of what to give back (bots', standing
    orders') are still held, so that a person dealt both jesters has time to call a
    revolution (clock.revolution_window). `state` may be the one the change being made
    has just dealt (the game's stored one is still the last round's)."""
    dealt_now = game.state is None or game.engine_state().round_number != state.round_number
    until = dalmutis_hold_until(game, state, seats, dealt_now)
    return until is not None and until > (now or timezone.now())


def bots_awaited(game: Game, seats: list[Seat] | None = None, now=None) -> bool:
    """Whether a bot has something to decide now."""
    if not game.is_playing:
        return False
    seats = seats if seats is not None else list(game.seats.all())
    bot_players = {str(s.player) for s in seats if s.played_by_bot}
    if not any(p in bot_players for p in game.awaiting):
        return False
    state = game.engine_state()
    return bool(_bots_to_move(state, seats, _held(game, state, seats, now)))


def wake_bots(game: Game, seats: list[Seat] | None = None) -> None:
    """If a bot has something to decide, have the workers play it once this commits: as a
    reply (the workers' own queue, never behind other tables' bot-only stretches) where a
    person plays at the table, else as bot-only play; while the Dalmutis' automatic
    choices are held (`_held`), have the workers end the hold when it ends. Call it last
    in the transaction: the work names the table's record as it is now. `seats`: the
    table's seats as they are now, if the caller has them."""
    seats = seats if seats is not None else list(game.seats.all())
    if bots_awaited(game, seats):
        background.after_commit(bot_work(seats), game.pk, game.seq)
    elif game.is_playing and (until := dalmutis_hold_until(game, game.engine_state(), seats)):
        # Without a broker the open pages ask at that time (seat.changes_with_time) and
        # the page ends it (`end_of_hold`); the sweep is the safety net of both.
        background.after_commit_at(until, "end_of_hold", game.pk)


def deal_seen(game: Game, seat: Seat) -> None:
    """The player has the table in front of them: if the table holds the Dalmutis'
    automatic choices after a deal this player had not seen yet, note that they have now.
    Once every person at the table has, the hold ends soon after (`dalmutis_hold_until`):
    the work is sent for that time (the pages ask then too). Written once per deal."""
    if seat.played_by_bot or seat.player is None or not game.is_playing:
        return
    state = game.engine_state()
    window = revolution_window(game)
    if state.round.phase != "taxes" or not window:
        return
    began = hold_began(game, state)
    if began is None or (seat.deal_seen is not None and seat.deal_seen >= began):
        return
    seat.deal_seen = timezone.now()
    Seat.objects.filter(pk=seat.pk).update(deal_seen=seat.deal_seen)
    seats = [seat if s.pk == seat.pk else s for s in game.seats.all()]
    until = dalmutis_hold_until(game, state, seats)
    if until is not None and until < began + window:
        background.after_commit_at(until, "end_of_hold", game.pk)
        # The bots' seats count down to the new end on every page: the pages drawn
        # before (the whole hold) are told, as of any change to what the table shows.
        with transaction.atomic():
            locked = Game.locked(game.pk)
            table_touched(locked)
            game.version = locked.version


def end_of_hold(game_id: int) -> bool:
    """The Dalmutis' automatic choices were held after the deal (`_held`), and the hold is
    over: the standing orders held till then act, and the bots are sent. Does nothing
    before the end of the hold or once nothing is held: safe to run any number of times.
    Whether anything was done or sent."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not _due_after_hold(game, list(game.seats.all())):
        return False
    with transaction.atomic():
        game = Game.locked(game_id)
        seats = game.seats_with_users()
        if not _due_after_hold(game, seats):
            return False
        state = game.engine_state()
        after = run_automatic(game, state, seats)
        if after is not state:
            save_state(game, after, seats=seats if game.is_playing else None)
        wake_bots(game)
    return True


def _due_after_hold(game: Game, seats: list[Seat]) -> bool:
    """Whether a choice held after the deal may be made now: a bot's, or a standing
    order's (never before the hold ends)."""
    if not game.is_playing:
        return False
    state = game.engine_state()
    if _held(game, state, seats):
        return False
    if _bots_to_move(state, seats):  # not held, as just found
        return True
    people = {s.player: s for s in seats if not s.played_by_bot}
    return any(standing_order_action(people[p], state.view(p)) is not None
               for p in state.awaiting_players if p in people)


def hold_due(game: Game, now=None) -> bool:
    """For the sweep: whether a table's held choices are due and not made (the work sent
    for the end of the hold was lost, and no page asked)."""
    if not game.is_playing or not game.awaiting:
        return False
    if not dalmutis_hold_may_have_ended(game, game.engine_state(), now):
        return False
    return _due_after_hold(game, list(game.seats.all()))


def bot_work(seats: list[Seat]) -> str:
    """"bot_reply" where somebody at the table waits for the bots, else "play_bots"."""
    people = any(s.user_id and not s.stand_in and not s.left for s in seats)
    return "bot_reply" if people else "play_bots"


# -- when bots fail: back off, and the sweep's safety net --

# A table whose bots failed is tried again after this, doubling with each failure at the
# same point of its record, up to the cap.
BOT_RETRY_FIRST = timedelta(minutes=1)
BOT_RETRY_CAP = timedelta(hours=6)


def _failing_key(game_id: int) -> str:
    return f"bots-failing:{game_id}"


def bots_failed(game_id: int) -> None:
    """The workers could not play this table's bots: log it (with the traceback the
    first time for this point of its record, one line after) and hold the sweep off for
    a while, longer after each failure. Call it from an exception handler."""
    seq = Game.objects.filter(pk=game_id).values_list("seq", flat=True).first()
    now = timezone.now()
    was = cache.get(_failing_key(game_id))
    count = was["count"] + 1 if was and was["seq"] == seq else 1
    wait = min(BOT_RETRY_FIRST * 2 ** (count - 1), BOT_RETRY_CAP)
    cache.set(_failing_key(game_id), {"seq": seq, "count": count, "retry": now + wait},
              timeout=int(BOT_RETRY_CAP.total_seconds()) * 2)
    if count == 1:
        log.exception("the bots of table %s failed at record %s; trying again in %s",
                      game_id, seq, wait)
    else:
        log.warning("the bots of table %s failed again at record %s (%s times); trying again "
                    "in %s", game_id, seq, count, wait)


def bots_due(game: Game, now=None) -> bool:
    """Whether the sweep should send this table's bots to the workers: a bot has waited
    longer than ``BOT_STALL`` for its move (a task for it would have made it within
    seconds: none is in flight), and no failure at this point of the record asks to wait
    longer."""
    now = now or timezone.now()
    seats = list(game.seats.all())
    bots = {s.player for s in seats if s.played_by_bot}
    waits = [wait for player, wait in game.waits().items() if player in bots]
    if not waits or min(wait.since for wait in waits) > now - BOT_STALL:
        return False
    if not bots_awaited(game, seats, now):
        return False
    failing = cache.get(_failing_key(game.pk))
    return not (failing and failing["seq"] == game.seq and failing["retry"] > now)


# How long a bot may wait for its move before the sweep sends it again.
BOT_STALL = timedelta(minutes=1)


def apply(game: Game, seat: Seat, action, by: str, by_user, state=None, turn=None,
          seats: list[Seat] | None = None) -> list[Seat] | None:
    """Apply one action, then whatever standing orders it sets off, and save.

    `seats`, the table's seats (with their users) read in this transaction, spare each
    step reading them again; they are read again after the end of a round, where seats
    change (leavers go, newcomers sit down). Returns them while they still hold, else
    None."""
    mark = (game.round_number, game.status)
    state = apply_one(game, seat.player, action, by, by_user, state or game.engine_state(),
                      turn=turn)
    seats = _seats_still(game, mark, seats)
    state = run_automatic(game, state, seats)
    seats = _seats_still(game, mark, seats)
    save_state(game, state, actor=seat.player, seats=seats)
    return seats


def _seats_still(game: Game, mark: tuple, seats: list[Seat] | None) -> list[Seat] | None:
    """The seats read before, unless a round ended since (or the game)."""
    return seats if (game.round_number, game.status) == mark else None


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
    if (view["phase"] == "taxes" and seat.auto_revolution
            and {"type": "revolution", "declare": True} in legal
            and view["titles"][view["seat"]] in ("lesser_peon", "greater_peon")):
        # At once: a revolution tells itself, so acting at the deal gives nothing away,
        # and the table need not wait for a decision made beforehand.
        return engine.Revolution(True)
    if view["phase"] == "taxes" and seat.auto_tax_worst and "give_back" in kinds:
        gives = [a for a in legal if a["type"] == "give_back"]
        return engine.timeout_action({**view, "legal_actions": gives})
    return None


def run_automatic(game: Game, state: engine.Game, seats: list[Seat] | None = None
                  ) -> engine.Game:
    """Let standing orders act, and bots decide a revolution that has become due, through
    the same path as a player's own action, for as long as one applies (each pass can
    bring the turn to the next player with one). Both happen in the transaction of the
    move that set them off, so nobody sees a moment in between."""
    if not game.is_playing:
        return state
    seats = seats if seats is not None else list(game.seats.all())
    humans = {s.player: s for s in seats if not s.played_by_bot}
    bots = {s.player: s for s in seats if s.played_by_bot}
    for _step in range(len(seats) * 4 + 8):
        held = _held(game, state, seats)
        for player in state.awaiting_players:
            if player in humans:
                action = standing_order_action(humans[player], state.view(player))
                if action is not None and not (held and isinstance(action, engine.GiveBack)):
                    state = apply_one(game, player, action, "standing_order",
                                      humans[player].user, state)
                    break
                if _revolution_due(state, player) and player not in state.publicly_awaited:
                    # The Dalmutis have chosen and a person still decides in private: the
                    # time to call a revolution is over (the table never waits on that
                    # decision alone, which would tell everybody that somebody holds both
                    # jesters; a bot decides at this moment, see _bot_view).
                    state = apply_one(game, player, engine.Revolution(False), "closed", None,
                                      state)
                    break
            elif player in bots and _revolution_due(state, player):
                # Decided inside the move that set it off, whose answer anybody may time:
                # at the skilled level, at once, whatever the bot's own (the expert
                # samples deals for half a second, which would tell that a bot holds both
                # jesters).
                seat = bots[player]
                level = "skilled" if seat.bot_to_play == "expert" else seat.bot_to_play
                action = _decide(game, seat, _bot_view(state, player), level).action
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
                        auto_revolution: bool, pass_trick: bool | None) -> None:
    """The player's standing orders at one table; `pass_trick` None leaves "pass for the
    rest of this trick" as it is."""
    with transaction.atomic():
        game = Game.locked(game_id)
        if game.is_over:
            raise Rejected(_("This game is over."), 409)
        seat = game.seats.get(user=user)
        seat.auto_pass = auto_pass
        seat.auto_tax_worst = auto_tax_worst
        seat.auto_revolution = auto_revolution
        if game.is_playing and pass_trick is not None:
            view = game.engine_state().view(seat.player)
            seat.pass_trick = trick_key(view) if pass_trick and view["phase"] == "play" else ""
        seat.save(update_fields=["auto_pass", "auto_tax_worst", "auto_revolution",
                                 "pass_trick"])
        if game.is_playing and str(seat.player) in game.awaiting:
            state = run_automatic(game, game.engine_state())
            if state.to_json() != game.state:
                save_state(game, state)
        wake_bots(game)


def set_profile_standing_orders(user, auto_pass: bool, auto_tax_worst: bool,
                                auto_revolution: bool) -> None:
    """The standing orders of the player's profile: for every table they will sit at, and
    every table not over where they sit now."""
    type(user).objects.filter(pk=user.pk).update(auto_pass=auto_pass,
                                                 auto_tax_worst=auto_tax_worst,
                                                 auto_revolution=auto_revolution)
    user.auto_pass, user.auto_tax_worst = auto_pass, auto_tax_worst
    user.auto_revolution = auto_revolution
    for game_id in Seat.objects.filter(
        user=user, game__status__in=[Game.Status.OPEN, Game.Status.PLAYING],
    ).order_by("game_id").values_list("game_id", flat=True):
        try:
            set_standing_orders(game_id, user, auto_pass, auto_tax_worst, auto_revolution,
                                pass_trick=None)
        except Rejected:
            continue  # the game ended meanwhile: nothing to change there


def end_after_this_round(game_id: int, user, end: bool = True) -> Game:
    """The host marks the game to end once the round in play is over (how an open-ended
    game ends; any game may end early this way), or takes the mark back."""
    with transaction.atomic():
        game = Game.locked(game_id)
        if game.host_id != user.pk:
            raise Rejected(_("Only the host can end the game."), 403)
        if not game.is_playing:
            raise Rejected(_("This game is not in play."), 409)
        state = game.engine_state()
        if state.ending == end:
            return game
        last = game.actions.filter(kind="ending").order_by("-seq").first()
        if not end and last is not None and last.by == "agreement":
            # The players' majority is not the host's to overturn.
            raise Rejected(_("Most players agreed to end the game after this round."), 409)
        state = state.end_after_this_round(end)
        host = game.seats.filter(user=user).first()
        player = host.player if host is not None else None
        event = {"type": "game_ending" if end else "game_continues", "player": player}
        record(game, player, "ending", {"end": end}, [event], "player", user)
        save_state(game, state)
        wake_bots(game)  # the bots' work was sent for the record as it was
    return game
