from datetime import datetime, timedelta

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.decorators import login_required
from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError, connection
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers

from accounts.middleware import activate_user_language
from chat import services as chat
from chat.models import Message as ChatMessage
from chat.panel import panel_context
from games.core import live
from games.core.clock import VACATION_DAYS, deadlines_may_have_passed, some_deadline_passed
from games.core.words import moment
from games.read.access import game_to_watch, seat_for_user
from games.read.table import last_trick, log_lines, since, since_you_looked, table_context

from .. import commands, engine
from ..commands.absence import SEEN_SECONDS
from ..models import Action, Game, Seat
from ..tasks import sweep_in_process
from .invitations import invite_context
from .lobby import lobby_page


@never_cache
@login_required
@vary_on_headers("HX-Request")
def game_page(request, game_id: int, error: str = "", status: int = 200, form: str = ""):
    game, me = seat_for_user(request, game_id)
    if game.is_open:
        return lobby_page(request, game, me)
    if game.state is None:
        # Closed before it started (cancelled, or nobody started it): nothing to show.
        return render(request, "games/closed.html", {"game": game}, status=410)
    looked = me.last_seen
    game, me = _keep_up(game, me)
    return _render_game(request, game, me, "games/game.html", error, status, looked=looked,
                        form=form)


def _keep_up(game: Game, me: Seat) -> tuple[Game, Seat]:
    """Before showing a table: apply any timeouts that are due (deadlines are enforced
    lazily here as well as by the periodic sweep) and note that the player is here."""
    sweep_in_process()
    if deadlines_may_have_passed(game) and commands.enforce_deadlines(game.pk):
        game, me = Game.objects.get(pk=game.pk), Seat.objects.select_related("user").get(pk=me.pk)
    commands.seen(me)
    return game, me


def _render_game(request, game, me, template, error="", status=200, me_seen="", looked=None,
                 form="", orders_saved=False):
    seats = list(game.seats.select_related("user"))
    context = table_context(game, me, seats)
    names = {s.player: s.name for s in seats}
    actions = list(
        Action.objects.filter(game=game, round_number=game.round_number).order_by("seq")
    )
    log = log_lines(actions, me, names)
    new_lines, away = _unseen_lines(request, game, me, names, log, looked)
    _mark_arrivals(context, new_lines)
    context.update({
        "game": game, "me": me, "error": error, "log": log,
        # The form the error belongs to, shown again with it (else the error stands alone).
        "error_in_form": form if error else "",
        "last_trick": last_trick(log, names),
        "summary": since_you_looked(new_lines, me.player if me else None, names),
        "away": away,
        "poll_seconds": settings.GAME_POLL_SECONDS, "since": since(game, context["view"]),
        # A poll leaves my hand and actions alone when they did not change, so a
        # half-made choice (ticked cards, an opened rank) survives other players' moves.
        "send_me": context["me_key"] != me_seen or orders_saved,
        "orders_saved": orders_saved,
        "oob": template.endswith("#update"),
        # Pages served by an ASGI server with Redis are told of changes at once.
        "stream": me is not None and live.enabled() and isinstance(request, ASGIRequest),
        "poll_url": reverse("poll", args=[game.pk]) if me is not None
        else reverse("watch_poll", args=[game.watch_token]),
        "log_url": reverse("game_log", args=[game.pk]) if me is not None
        else reverse("watch_log", args=[game.watch_token]),
    })
    if me is not None and not context["oob"] and game.is_playing:
        context.update(invite_context(request, game))
    if me is not None or game.watchers_talk:
        # The table talk panel, with the titles of this same view.
        titles = {p.player: p.title_key for p in context["players"]}
        context.update(panel_context(request, game, me, titles, context["oob"]))
    return render(request, template, context, status=status)


# -- watching by link: the public view only, no seat, counted nowhere --

@never_cache
def watch(request, token: str):
    game = game_to_watch(token)
    if request.user.is_authenticated and game.seats.filter(user=request.user).exists():
        return redirect(game)
    if deadlines_may_have_passed(game) and commands.enforce_deadlines(game.pk):
        game = Game.objects.get(pk=game.pk)
    return _render_game(request, game, None, "games/game.html")


@never_cache
@require_GET
def watch_poll(request, token: str):
    game = game_to_watch(token)
    chat_seen = _int_param(request, "c")
    new_talk = game.watchers_talk and chat_seen is not None and chat_seen < (
        ChatMessage.objects.filter(game=game).order_by("-pk").values_list("pk", flat=True)
        .first() or 0)
    if _int_param(request, "v") == game.version and not new_talk:
        return HttpResponse(status=204)
    return _render_game(request, game, None, "games/game.html#update",
                        status=286 if game.is_over else 200)


@never_cache
def watch_log(request, token: str):
    game = game_to_watch(token)
    names = {s.player: s.name for s in game.seats.select_related("user")}
    actions = list(Action.objects.filter(game=game).order_by("seq"))
    return render(request, "games/log.html", {
        "game": game, "me": None, "log": log_lines(actions, None, names),
        "back_url": reverse("watch", args=[token]),
    })


@require_POST
@login_required
def watch_chat(request, token: str):
    """A watcher says something, where the host lets watchers talk."""
    game = game_to_watch(token)
    error, status = "", 200
    try:
        chat.post_as_watcher(game, request.user, request.POST.get("text", ""))
    except chat.Rejected as rejected:
        error, status = rejected.message, rejected.status
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("watch", token)
    seats = list(game.seats.select_related("user"))
    titles = {p.player: p.title_key for p in table_context(game, None, seats)["players"]}
    return render(request, "chat/_chat.html", {
        "game": game, "oob": True, **panel_context(
            request, game, None, titles, oob=True, send_log=True, send_tools=False,
            send_error=True, error=error),
    }, status=status)


@require_POST
@login_required
def watchable(request, game_id: int):
    game, _me = seat_for_user(request, game_id)
    try:
        commands.set_watchable(game.pk, request.user, request.POST.get("watch") == "yes",
                               talk=request.POST.get("talk") == "on")
    except commands.Rejected as rejected:
        return _refused(request, game, rejected)
    return redirect(game)


def _refused(request, game, rejected):
    """A table form that was refused: the table as it is now with the reason, under the
    status that says why."""
    return game_page(request, game.pk, rejected.message, rejected.status)


def _form_refused(request, game, message: str, status: int, form: str = ""):
    """A refused form of the table: without htmx, the table again with the form and its
    error, under a 4xx status; with htmx, the message over the table it goes back to."""
    if request.htmx:
        messages.error(request, message)
        return redirect(game)
    return game_page(request, game.pk, message, status, form=form)


def _not_understood():
    return commands.Rejected(_("That request was not understood. Reload the page and try "
                               "again."))


# A page left alone this long says "While you were away" over what happened meanwhile.
AWAY = timedelta(minutes=10)
# How many earlier rounds a page's summary reaches back (a page open for days).
SUMMARY_ROUNDS = 2


def _unseen_lines(request, game, me, names, log, looked) -> tuple[list[dict], bool]:
    """The log lines this page has not shown yet, and whether its player was away.

    An answer to a poll or an action knows what the page showed: the round and how many
    of its log lines (`r`, `n`: counted in this player's own log, so they tell nothing
    another player could not see). A full page goes by when its player was last here."""
    data = request.POST if request.method == "POST" else request.GET
    try:
        seen_round, seen_lines = int(data.get("r", "")), int(data.get("n", ""))
    except ValueError:
        seen_round = seen_lines = None
    if seen_round is not None and 0 < seen_round <= game.round_number:
        if seen_round == game.round_number:
            return log[seen_lines:], False
        first = max(seen_round, game.round_number - SUMMARY_ROUNDS)
        earlier = list(Action.objects.filter(
            game=game, round_number__gte=first, round_number__lt=game.round_number,
        ).order_by("seq"))
        lines = log_lines(earlier, me, names)
        if first == seen_round:
            # The lines of the round the page was in, less those it showed.
            shown = [line for line in lines if line["round"] == seen_round][:seen_lines]
            lines = lines[len(shown):]
        return lines + log, False
    if looked is not None and timezone.now() - looked > AWAY:
        return [line for line in log if line["time"] > looked], True
    return [], False


def _mark_arrivals(context: dict, new_lines: list[dict]) -> None:
    """The plays of the current trick that arrived since the page last looked, numbered
    in order, so that the stylesheet can let them land one after another."""
    arrived = 0
    for line in new_lines:
        kind = line["event"]["type"]
        if kind == "play":
            arrived += 1
        elif kind in ("trick_won", "round_starts"):
            arrived = 0
    plays = context["trick_plays"]
    fresh = plays[len(plays) - min(arrived, len(plays), ARRIVALS):]
    for number, play in enumerate(fresh, start=1):
        play["arrive"] = number


# The most plays that land one after another (the stylesheet has a delay for each).
ARRIVALS = 9


def parse_action(data) -> tuple[engine.Action, int]:
    """The engine action and turn token of a submitted form; Rejected if malformed."""
    kind = data.get("action", "")
    try:
        turn = int(data.get("turn", ""))
        if kind == "play":
            # Tapped cards come as one `card` each; a `cards` list ("7,7,13") also works.
            if "cards" in data:
                cards = [int(c) for c in data.get("cards", "").split(",") if c]
            else:
                cards = [int(c) for c in data.getlist("card")]
            action = engine.Play(tuple(sorted(cards)))
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
        raise commands.Rejected(
            _("That request was not understood. Reload the page and try again.")
        ) from None
    return action, turn


@require_POST
@login_required
def act(request, game_id: int):
    game, me = seat_for_user(request, game_id)
    try:
        action, turn = parse_action(request.POST)
        commands.act(game.pk, request.user, action, turn)
    except commands.Rejected as rejected:
        return _action_answer(request, game.pk, me, rejected.message, rejected.status)
    except DatabaseError:
        # The connection failed while the move was being made: whether it was committed
        # is in the record, read on a fresh connection.
        connection.close()
        if commands.already_recorded(Game.objects.get(pk=game.pk), request.user, action, turn):
            return _recorded(request, game)
        message = _("That did not go through — please try again.")
        return _action_answer(request, game.pk, me, message, 503)
    try:
        return _action_answer(request, game.pk, me)
    except DatabaseError:
        # The move is committed; only showing the table afterwards failed.
        connection.close()
        return _recorded(request, game)


def _recorded(request, game):
    """The move is in the record but the table could not be shown: say so and reload."""
    messages.success(request, _("Your move was recorded."))
    if request.htmx:
        return HttpResponse(_("Your move was recorded."), headers={"HX-Refresh": "true"})
    return redirect(game)


def _action_answer(request, game_id, me, error="", status=200, orders_saved=False):
    """After an action: the fresh fragments for HTMX, else the page (a redirect on success
    so that reloading never resubmits). A table not in play has no fragments to send."""
    game = Game.objects.get(pk=game_id)
    me.game = game
    if game.is_open:
        if request.htmx:
            return HttpResponse(error, status=status, headers={"HX-Refresh": "true"})
        return render(request, "games/refused.html", {"game": game, "error": error},
                      status=status)
    if request.htmx:
        return _render_game(request, game, me, "games/game.html#update", error, status,
                            orders_saved=orders_saved)
    if not error:
        return redirect(game)
    return _render_game(request, game, me, "games/game.html", error, status)


@never_cache
@require_GET
def poll(request, game_id: int):
    """Cheap when nothing changed: an empty 204 answer from Redis alone when it knows the
    table, else from one database query."""
    # Without a broker the periodic sweep (due emails, timeouts) rides on requests: the
    # open pages' polls keep it on time.
    sweep_in_process()
    if not request.GET.get("lobby"):
        unchanged = _unchanged_by_redis(request, game_id)
        if unchanged is not None:
            return unchanged
    activate_user_language(request)
    return _poll(request, game_id)


poll.answers_without_user = True


def _int_param(request, name: str) -> int | None:
    try:
        return int(request.GET.get(name, ""))
    except ValueError:
        return None


def _unchanged_by_redis(request, game_id: int) -> HttpResponse | None:
    """204 if Redis knows this player's seat and the table, and nothing changed that the
    page shows; None to ask the database. The user comes from the session alone: a 204
    tells nothing, and anything else goes through the full checks."""
    found = live.lookup(game_id, request.session.get(SESSION_KEY))
    if found is None:
        return None
    seat_pk, entry = found
    chat_seen = _int_param(request, "c")
    now = timezone.now()
    if (
        entry["status"] != Game.Status.PLAYING
        or _int_param(request, "v") != entry["v"]
        or (chat_seen is not None and chat_seen < entry["chat"])
        or (entry["deadline"] and datetime.fromisoformat(entry["deadline"]) <= now)
    ):
        return None
    if live.first_sighting(seat_pk, SEEN_SECONDS):
        Seat.objects.filter(pk=seat_pk).update(last_seen=now)
    return HttpResponse(status=204)


@login_required
def _poll(request, game_id: int):
    row = (
        Seat.objects.filter(game_id=game_id, user=request.user)
        .annotate(chat_last=chat.last_message_id())
        .values_list("pk", "last_seen", "game__version", "game__status", "game__updated",
                     "game__awaiting", "chat_last")
        .first()
    )
    if row is None:
        raise Http404
    seat_pk, last_seen, version, status, updated, awaiting, chat_last = row
    if request.GET.get("lobby"):
        # The lobby reloads itself when anything about the table changed (a seat taken,
        # the start).
        if status == Game.Status.OPEN and request.GET.get("u") == str(updated.timestamp()):
            commands.seen_at(seat_pk, last_seen)
            return HttpResponse(status=204)
        return HttpResponse(status=204, headers={"HX-Refresh": "true"})
    live.remember(game_id, request.user.pk, seat_pk, version, status, awaiting, chat_last)
    live.first_sighting(seat_pk, SEEN_SECONDS)  # seen_at below writes it if due
    seen = _int_param(request, "v")
    # `c` is the newest chat message the page shows (absent: no chat panel).
    chat_seen = _int_param(request, "c")
    unchanged = seen == version and (chat_seen is None or chat_seen >= (chat_last or 0))
    if unchanged and some_deadline_passed(awaiting):
        # Enforce what is due, then answer as if nothing was: a timeout may be a private
        # decision (a revolution left undecided) that must not show in the answer.
        commands.enforce_deadlines(game_id)
        unchanged = Game.objects.filter(pk=game_id, version=seen).exists()
    if unchanged:
        commands.seen_at(seat_pk, last_seen)
        return HttpResponse(status=204)
    game, me = seat_for_user(request, game_id)
    if game.is_open or game.state is None:
        # Started meanwhile, or closed before it started: the page itself says which.
        return HttpResponse(status=204, headers={"HX-Refresh": "true"})
    game, me = _keep_up(game, me)
    # 286 tells htmx to stop polling: a finished game changes no more.
    return _render_game(
        request, game, me, "games/game.html#update", status=286 if game.is_over else 200,
        me_seen=request.GET.get("me", ""),
    )


@require_POST
@login_required
def standing_orders(request, game_id: int):
    game, me = seat_for_user(request, game_id)
    commands.set_standing_orders(
        game.pk, request.user, auto_pass=request.POST.get("auto_pass") == "on",
        auto_tax_worst=request.POST.get("auto_tax_worst") == "on",
        pass_trick=request.POST.get("pass_trick") == "on",
    )
    if request.htmx:
        # Said where the player pressed the button: the panel stays open with it.
        return _action_answer(request, game.pk, Seat.objects.get(pk=me.pk), orders_saved=True)
    messages.success(request, _("Your standing orders are saved."))
    return redirect(game)


@require_POST
@login_required
def vacation(request, game_id: int):
    game, me = seat_for_user(request, game_id)
    try:
        if request.POST.get("end"):
            commands.end_vacation(game.pk, request.user)
            messages.success(request, _("Welcome back: your clock runs again."))
        else:
            days = int(request.POST.get("days", ""))
            if not 1 <= days <= VACATION_DAYS:
                raise ValueError(days)
            seat = commands.start_vacation(game.pk, request.user, days)
            messages.success(request, _("Your clock is paused until %(when)s.") % {
                "when": moment(seat.vacation_until)})
    except ValueError:
        return _form_refused(request, game, _("Choose between 1 and 7 days."), 400, "vacation")
    except commands.Rejected as rejected:
        return _form_refused(request, game, rejected.message, rejected.status, "vacation")
    return redirect(game)


@require_POST
@login_required
def nudge(request, game_id: int):
    game, _me = seat_for_user(request, game_id)
    try:
        player = int(request.POST.get("player", ""))
        commands.nudge(game.pk, request.user, player)
    except ValueError:
        return _form_refused(request, game, _not_understood().message, 400)
    except commands.Rejected as rejected:
        return _form_refused(request, game, rejected.message, rejected.status)
    messages.success(request, _("Nudged: they get an email saying the table waits for them."))
    return redirect(game)


@require_POST
@login_required
def leave_game(request, game_id: int):
    game, me = seat_for_user(request, game_id)
    try:
        commands.leave_game(game.pk, request.user)
    except commands.Rejected as rejected:
        return _refused(request, game, rejected)
    if me.joining:
        messages.success(request, _("You gave up your place at %(table)s.")
                         % {"table": game.name})
    else:
        messages.success(request, _("You have left the game. Thank you for playing!"))
    return redirect("home")


@require_POST
@login_required
def join_place(request, game_id: int):
    game, _me = seat_for_user(request, game_id)
    try:
        seat_id = int(request.POST.get("seat", ""))
        if request.POST.get("place") not in ("upper", "lower"):
            raise ValueError(request.POST.get("place"))
        commands.choose_join_place(game.pk, request.user, seat_id,
                                   request.POST.get("place") == "upper")
    except ValueError:
        return _refused(request, game, _not_understood())
    except commands.Rejected as rejected:
        return _refused(request, game, rejected)
    return redirect(game)


@require_POST
@login_required
def vote_stand_in(request, game_id: int):
    game, _me = seat_for_user(request, game_id)
    try:
        player = int(request.POST.get("player", ""))
        decided = commands.vote_stand_in(game.pk, request.user, player)
    except ValueError:
        return _refused(request, game, _not_understood())
    except commands.Rejected as rejected:
        return _refused(request, game, rejected)
    else:
        if decided:
            name = game.seats.select_related("user").get(player=player).name
            messages.success(request, _(
                "Most players agree: the stand-in bot plays for %(name)s until they take "
                "their seat back.") % {"name": name})
        else:
            messages.success(request, _("Your vote is counted."))
    return redirect(game)


@require_POST
@login_required
def take_back(request, game_id: int):
    game, _me = seat_for_user(request, game_id)
    try:
        commands.take_seat_back(game.pk, request.user)
    except commands.Rejected as rejected:
        messages.info(request, rejected.message)
    else:
        messages.success(request, _("You have your seat back: the bot stands aside."))
    return redirect(game)


def _watcher(request, game_id: int) -> list:
    """The user's seat at the table as [player number], [None] before the seats are
    drawn, [] without a seat. The database connection goes back at once: a stream stays
    open for hours and must not hold one."""
    try:
        user = request.user
        if not user.is_authenticated:
            return []
        return list(Seat.objects.filter(game_id=game_id, user=user)
                    .values_list("player", flat=True)[:1])
    finally:
        if not connection.in_atomic_block:
            connection.close()


async def stream(request, game_id: int):
    """Server-sent events telling an open game page, at once, that the table changed.
    Only served by an ASGI server with Redis reachable; otherwise 204, which tells the
    browser not to reconnect (the page keeps polling)."""
    seat = await sync_to_async(_watcher)(request, game_id)
    if not seat:
        raise Http404
    if not live.enabled() or not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)
    if await live.hub() is None:
        return HttpResponse(status=204)  # Redis is down: the page polls
    key = request.session.session_key
    session = live.session_streams(key) if key else None
    return StreamingHttpResponse(
        live.events(game_id, seat[0], session), content_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


@require_POST
@login_required
def end_after_this_round(request, game_id: int):
    game, _me = seat_for_user(request, game_id)
    end = request.POST.get("end") != "no"
    try:
        commands.end_after_this_round(game.pk, request.user, end)
    except commands.Rejected as rejected:
        messages.error(request, rejected.message)
    else:
        messages.success(request, _("The game ends after this round.") if end
                         else _("The game goes on after this round."))
    return redirect(game)


@never_cache
@login_required
def game_log(request, game_id: int):
    game, me = seat_for_user(request, game_id)
    seats = list(game.seats.select_related("user"))
    names = {s.player: s.name for s in seats}
    actions = list(Action.objects.filter(game=game).order_by("seq"))
    return render(request, "games/log.html", {
        "game": game, "me": me, "log": log_lines(actions, me, names),
    })
