"""The table's page, the answers that show it again after a change, and the one way a
refused request is answered."""

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.vary import vary_on_headers

from accounts.middleware import activate_user_language
from chat.panel import panel_context
from games.core import live
from games.core.clock import dalmutis_hold_may_have_ended, deadlines_may_have_passed
from games.read.access import replacement_context, seat_for_user
from games.read.narration import lines_of_round, unseen_lines
from games.read.seat import table_context

from .. import commands
from ..forms import NOT_UNDERSTOOD
from ..models import Game, Seat
from ..tasks import sweep_in_process
from . import updates
from .drawn import fill_table
from .invitations import invitation_panel
from .lobby import lobby_page

# The forms whose answer is the table's fragments (they swap the poller), not a new page.
SWAPPING_FORMS = ("move", "orders")


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
    if game.ended_early:
        # Its round in play will never end: the record tells the game, and why it ended.
        return redirect("game_record", game.pk)
    looked = me.last_seen
    game, me = keep_up(game, me)
    return render_table(request, game, me, "games/game.html", error, status, looked=looked,
                        form=form)


def seat_given_to_bot(request, replacement) -> HttpResponse:
    """The answer to a player whose seat an organiser gave to a bot."""
    return _seat_gone(request, _("An organiser gave your seat at this table to a bot."),
                      "games/replaced.html", replacement_context(replacement))


def taken_off_table(request, game: Game) -> HttpResponse:
    """The answer to a friend the host took off their table before it started."""
    return _seat_gone(request, commands.taken_off(), "games/taken_off.html", {"game": game})


def never_dealt_in(request, game: Game) -> HttpResponse:
    """The answer to a newcomer whose first round never came: the game ended first."""
    return _seat_gone(request, _("This game ended before the round you were to join."),
                      "games/never_dealt_in.html", {"game": game})


def _seat_gone(request, refusal: str, template: str, context: dict) -> HttpResponse:
    """A seat that is gone: the page says what happened (410); an open page reloads to
    show it, and a form sent from it is refused with `refusal`, changing nothing."""
    if request.htmx:
        if request.method in ("GET", "HEAD"):
            return HttpResponse(status=204, headers={"HX-Refresh": "true"})
        return HttpResponse(refusal, status=410, headers={"HX-Refresh": "true"})
    activate_user_language(request)
    return render(request, template, context, status=410)


def keep_up(game: Game, me: Seat) -> tuple[Game, Seat]:
    """Before showing a table: do what time alone has made due (`catch_up`) and note
    that the player is here."""
    sweep_in_process()
    caught_up = catch_up(game)
    if caught_up is not game:
        game, me = caught_up, Seat.objects.select_related("user").get(pk=me.pk)
    commands.seen(me)
    commands.deal_seen(game, me)
    return game, me


def catch_up(game: Game) -> Game:
    """What time alone has made due at the table, done before anybody is shown it: the
    turns whose time ran out (deadlines are enforced lazily here as well as by the
    periodic sweep), and the Dalmutis' automatic choices (bots', standing orders') once
    they have been held long enough (without a broker nothing else would make them on
    time). The table read again if that moved it."""
    moved = deadlines_may_have_passed(game) and commands.enforce_deadlines(game.pk)
    if game.is_playing and dalmutis_hold_may_have_ended(game, game.engine_state()):
        moved = commands.end_of_hold(game.pk) or moved
    return Game.objects.get(pk=game.pk) if moved else game


def render_table(request, game, me, template, error="", status=200, me_seen="", looked=None,
                 form="", orders_saved=False, chat_last=None, seats=None):
    """The table for one seat (or, without one, for a watcher): the whole page, or with
    `#update` the fragments a poll or an action swaps: from the update the table's pages
    share, with the reader's own parts drawn for them alone, when the page shows the
    version that update starts from (games.views.updates). `seats`: the table's seats
    with their users, if the caller read them already."""
    if seats is None:
        seats = game.seats_with_users()
    if template.endswith("#update") and me is not None and not error:
        shared = updates.answer(request, game, me, seats, me_seen=me_seen,
                                orders_saved=orders_saved, chat_last=chat_last)
        if shared is not None:
            return HttpResponse(shared, status=status)
    context = table_context(game, me, seats)
    names = {s.player: s.name for s in seats}
    log = lines_of_round(game, me, names)
    shown = _shown(request)
    new_lines, away = unseen_lines(game, me, names, log, shown, looked)
    oob = template.endswith("#update")
    # An update to a page that shows this round's log and the same folded panels sends
    # the log's lines alone and leaves the other panels (and the chat's tools) alone.
    send_panels = not (
        oob and shown is not None and shown[0] == game.round_number
        and _param(request, "p") == context["panels_key"]
    )
    today = timezone.localdate().isoformat()
    # Such an update sends only the lines the page has not shown, added above the ones
    # it has: unless its lines' times were written on another day (a line of today
    # shows its time alone, an older one its date too), when the list is drawn again.
    appended = (
        not send_panels and shown[1] <= len(log) and _param(request, "d") == today
    )
    # The talk's times were written on another day too: its messages are sent again.
    talk_redrawn = oob and _param(request, "d") not in ("", today)
    fill_table(context, game, me, names, log, new_lines, away, oob=oob,
               send_panels=send_panels, log_news=log[shown[1]:] if appended else None,
               stream=me is not None and live.enabled() and isinstance(request, ASGIRequest))
    context.update({
        "error": error,
        "error_settled": isinstance(error, commands.Settled),
        # The form the error belongs to, shown again with it (else the error stands alone).
        "error_in_form": form if error else "",
        # A poll leaves my hand and actions alone when they did not change, so a
        # half-made choice (ticked cards, an opened rank) survives other players' moves.
        "send_me": context["me_key"] != me_seen or orders_saved,
        "orders_saved": orders_saved,
        # Back from one of the host's tools: their panel open, to see what it did.
        "host_open": not oob and request.GET.get("host") == "1",
    })
    if me is not None and not context["oob"] and game.is_playing:
        context.update(invitation_panel(request, game, seats))
    if me is not None or game.watchers_talk:
        # The table talk panel, with the titles of this same view.
        titles = {p.player: p.title_key for p in context["players"]}
        context.update(panel_context(request, game, me, titles, oob, send_tools=send_panels,
                                     send_log=True if talk_redrawn else None,
                                     seats=seats, newest_id=chat_last))
    return render(request, template, context, status=status)


def _param(request, name: str) -> str:
    """A value the page sent with a poll (query) or an action (form)."""
    return (request.POST if request.method == "POST" else request.GET).get(name, "")


def _shown(request) -> tuple[int, int] | None:
    """What the page that asked showed: its round and how many of that round's log lines
    (`r`, `n`, sent by a poll or an action); None from a page loaded whole."""
    try:
        return int(_param(request, "r")), int(_param(request, "n"))
    except ValueError:
        return None


def after_change(request, game_id: int, me: Seat, orders_saved: bool = False,
                 game: Game | None = None, seats: list[Seat] | None = None):
    """After a change at the table: the fresh fragments for HTMX (a table not in play has
    none: the page reloads), else a redirect to the page, so that reloading never submits
    again. Either way the table is read first (unless the caller has it as the change
    left it, and its seats: `game`, `seats`): a connection lost after the change was
    committed shows here, where the caller can still say the change was made."""
    if game is None:
        game = Game.objects.get(pk=game_id)
    if not request.htmx:
        return redirect(game)
    if game.is_open or game.state is None:
        return HttpResponse(headers={"HX-Refresh": "true"})
    me.game = game
    return render_table(request, game, me, "games/game.html#update", orders_saved=orders_saved,
                        seats=seats)


def not_understood() -> commands.Rejected:
    """The refusal of a request that cannot be read (a broken, forged or stale form)."""
    return commands.Rejected(str(NOT_UNDERSTOOD))


def refused(request, game_id: int, rejected: commands.Rejected, form: str = ""):
    """A refused request at the table, answered under the refusal's status with its
    message where the player looks:

    - a table not in play has nothing to swap: the message alone (htmx reloads the page);
    - the forms that swap the table's fragments (`SWAPPING_FORMS`) get them back with
      the message;
    - any other form sent by htmx goes back to the table, the message over it;
    - without htmx, the table again with the message, inside the named `form` if the page
      has a place for it there."""
    message, status = rejected.message, rejected.status
    game, me = seat_for_user(request, game_id)
    if game.is_open or game.state is None:
        if request.htmx:
            return HttpResponse(message, status=status, headers={"HX-Refresh": "true"})
        return render(request, "games/refused.html", {"game": game, "error": message},
                      status=status)
    if request.htmx and form in SWAPPING_FORMS:
        return render_table(request, game, me, "games/game.html#update", message, status)
    if request.htmx:
        messages.error(request, message)
        return redirect(game)
    if form in SWAPPING_FORMS:
        # The page this form was on, as it is now, the message by the move form.
        return render_table(request, game, me, "games/game.html", message, status)
    return game_page(request, game_id, message, status, form=form)


def refusals_answered(form: str = ""):
    """A table view that raises `commands.Rejected` for anything it refuses, answered by
    `refused` for the named form."""
    def decorate(view):
        @wraps(view)
        def answering(request, game_id: int, *args, **kwargs):
            try:
                return view(request, game_id, *args, **kwargs)
            except commands.Rejected as rejected:
                return refused(request, game_id, rejected, form)
        return answering
    return decorate
