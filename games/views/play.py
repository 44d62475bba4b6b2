"""Playing at the table: a move, the poll that keeps an open page up to date (from Redis
alone when nothing changed), and the whole game's log."""

from datetime import datetime

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import caches
from django.db import DatabaseError, connection
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from accounts.middleware import activate_user_language, answers_without_user
from chat import services as chat
from games.core import live
from games.core.clock import some_deadline_passed
from games.read.access import no_seat, seat_for_user, seat_to_act
from games.read.narration import lines_of_game

from .. import commands
from ..commands.absence import SEEN_SECONDS
from ..forms import MoveForm
from ..models import Game, Seat
from ..tasks import sweep_in_process
from . import updates
from .drawn import int_param, page_behind
from .invitations import invitations_changed
from .lobby import lobby_news
from .page import after_change, keep_up, not_understood, refusals_answered, render_table


@require_POST
@login_required
@refusals_answered("move")
def act(request, game_id: int):
    me = seat_to_act(request, game_id)
    form = MoveForm(request.POST)
    if not form.is_valid():
        raise not_understood()
    action, turn = form.action_and_turn()
    # The other pages of the table hear of the move once its answer is drawn, and with it
    # the update they share (games.views.updates), drawn here in this page's language.
    with live.holding() as held:
        try:
            played = commands.act(game_id, request.user, action, turn)
        except DatabaseError:
            # The connection failed while the move was being made: whether it was
            # committed is in the record, read on a fresh connection.
            connection.close()
            if commands.already_recorded(Game.objects.get(pk=game_id), request.user, action,
                                         turn):
                return _recorded(request, game_id)
            raise commands.Rejected(_("That did not go through — please try again."),
                                    503) from None
        steps = held.steps(game_id)
        try:
            if not (steps and updates.sharing(request)):
                return after_change(request, game_id, me)
            # The table as the move left it: the update the other pages share is drawn
            # from it before the answer, which is drawn from that update too. Drawing it
            # reads the round's record: a connection lost after the commit shows there.
            seats = played.seats_after or played.seats_with_users()
            # The mover's header's count, asked with the next player's (their own part
            # comes with the update): one query for both.
            counted: dict[int, int | None] = {request.user.pk: None}
            request.shared_update = updates.prepare(
                game_id, steps[-1], get_language(), timezone.get_current_timezone_name(),
                played=(played, seats), counted=counted)
            request.awaiting_counted = counted[request.user.pk]
            return after_change(request, game_id, me, game=played, seats=seats)
        except DatabaseError:
            # The move is committed; only showing the table afterwards failed.
            connection.close()
            return _recorded(request, game_id)


def _recorded(request, game_id: int):
    """The move is in the record but the table could not be shown: say so and reload."""
    messages.success(request, _("Your move was recorded."))
    if request.htmx:
        return HttpResponse(_("Your move was recorded."), headers={"HX-Refresh": "true"})
    return redirect("game", game_id)


@answers_without_user
@never_cache
@require_GET
def poll(request, game_id: int):
    """Cheap when nothing changed: an empty 204 answer from Redis alone when it knows the
    table, else from one database query."""
    # Without a broker the periodic sweep (due emails, timeouts) rides on requests: the
    # open pages' polls keep it on time.
    sweep_in_process()
    if not request.GET.get("lobby"):
        known = _known_by_redis(request, game_id)
        if known is not None:
            return known
    activate_user_language(request)
    return _poll(request, game_id)



def _known_by_redis(request, game_id: int) -> HttpResponse | None:
    """The answer when Redis knows this player's seat and the table in play: 204 if
    nothing changed that the page shows, else the change (what a page asks for when its
    stream tells it of one), without first asking the database whether there is one.
    None to ask the database. The seat is known by the session's key while the session
    lives, and the session is not loaded: a 204 tells nothing, and a change goes through
    the full checks."""
    session = request.session
    # Sessions kept in the database with a copy in the cache (as the site runs with
    # Redis): the copy's presence says the session lives.
    if not live.enabled() or session.session_key is None or not hasattr(session, "cache_key"):
        return None
    cached_at = caches[settings.SESSION_CACHE_ALIAS].make_and_validate_key(session.cache_key)
    found = live.lookup(game_id, session.session_key, cached_at, SEEN_SECONDS)
    if found is None:
        return None
    seat_pk, entry, first_sighting = found
    now = timezone.now()
    if entry["status"] != Game.Status.PLAYING or (
        entry["deadline"] and datetime.fromisoformat(entry["deadline"]) <= now
    ):
        return None
    if int_param(request, "v") != entry["v"] or page_behind(request, entry["chat"]):
        activate_user_language(request)
        return _changed(request, game_id, entry["chat"])
    if first_sighting:
        Seat.objects.filter(pk=seat_pk).update(last_seen=now)
    return HttpResponse(status=204)


@login_required
def _poll(request, game_id: int):
    # The few columns an unchanged table needs to say so, as plain values: most polls end
    # here, and loading the seat, its table (with the stored state) and user as objects
    # doubled their cost. A changed table is read whole below.
    row = (
        Seat.objects.filter(game_id=game_id, user=request.user)
        .annotate(chat_last=chat.last_message_id())
        .values_list("pk", "last_seen", "game__version", "game__status", "game__updated",
                     "game__awaiting", "chat_last")
        .first()
    )
    if row is None:
        if request.GET.get("lobby") and request.htmx:
            # An open table's page whose reader has no seat there (any more: the host
            # removed them, or they left in another tab): reloaded, it says so, rather
            # than seem to wait for them. Alike for any table: it tells nobody one exists.
            return HttpResponse(status=204, headers={"HX-Refresh": "true"})
        no_seat(request.user, game_id)
    seat_pk, last_seen, version, status, updated, awaiting, chat_last = row
    if request.GET.get("lobby"):
        # A table that started or closed: the page itself says which.
        if status != Game.Status.OPEN:
            return HttpResponse(status=204, headers={"HX-Refresh": "true"})
        commands.seen_at(seat_pk, last_seen)
        seats_changed = request.GET.get("u") != str(updated.timestamp())
        talk = page_behind(request, chat_last)
        invited = invitations_changed(request, game_id)
        if seats_changed or talk or invited:
            return lobby_news(request, game_id, seats_changed=seats_changed, talk=talk,
                              invited=invited)
        return HttpResponse(status=204)
    key = request.session.session_key
    live.remember(game_id, key, seat_pk, version, status, awaiting, chat_last)
    live.first_sighting(game_id, key, SEEN_SECONDS)  # seen_at below writes it if due
    seen = int_param(request, "v")
    unchanged = seen == version and not page_behind(request, chat_last)
    if unchanged and some_deadline_passed(awaiting):
        # Enforce what is due, then answer as if nothing was: a timeout may be a private
        # decision (a revolution left undecided) that must not show in the answer.
        commands.enforce_deadlines(game_id)
        unchanged = Game.objects.filter(pk=game_id, version=seen).exists()
    if unchanged:
        commands.seen_at(seat_pk, last_seen)
        return HttpResponse(status=204)
    return _changed(request, game_id, chat_last)


@login_required
def _changed(request, game_id: int, chat_last: int | None):
    """The table changed since the page was drawn: what it shows, drawn again."""
    game, me = seat_for_user(request, game_id)
    if game.is_open or game.state is None or game.ended_early:
        # Started meanwhile, closed before it started or ended early: the page itself
        # says which.
        return HttpResponse(status=204, headers={"HX-Refresh": "true"})
    game, me = keep_up(game, me)
    # 286 tells htmx to stop polling: a finished game changes no more.
    return render_table(
        request, game, me, "games/game.html#update", status=286 if game.is_over else 200,
        me_seen=request.GET.get("me", ""), chat_last=chat_last or 0,
    )


@never_cache
@login_required
def game_log(request, game_id: int):
    game, me = seat_for_user(request, game_id)
    names = {s.player: s.name for s in game.seats_with_users()}
    return render(request, "games/log.html", {
        "game": game, "me": me, "log": lines_of_game(game, me, names),
    })
