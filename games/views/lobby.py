from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers

from chat import services as chat
from chat.panel import panel_context
from dalmuti_site.converters import id_from
from games.core.turns import awaits_person, room_for_newcomers
from games.read.access import finished_seat_for_user, seat_for_user
from games.read.my_games import describe_turns, urgency_first
from games.read.replay import game_results
from leagues.standings import finished_rounds

from .. import commands
from ..forms import NOT_UNDERSTOOD, BotForm, NewTableForm
from ..models import OPEN_TABLE_DAYS, Game, Invitation, OnTime, Seat
from ..tasks import sweep_in_process
from .drawn import day_ends
from .invitations import invitations_of, invite_context, invitees

# Names a new table is offered, in turn, so that a host's tables are told apart.
TABLE_NAMES = [
    gettext_lazy("The Dalmuti's court"),
    gettext_lazy("The Peons' tavern"),
    gettext_lazy("The Merchants' guild"),
    gettext_lazy("The Jesters' hall"),
    gettext_lazy("The Archbishop's table"),
    gettext_lazy("The Knights' mess"),
    gettext_lazy("The Shepherdess's barn"),
    gettext_lazy("The Stonecutters' yard"),
]


def default_table_name(user) -> str:
    hosted = Game.objects.filter(host=user).count()
    return str(TABLE_NAMES[hosted % len(TABLE_NAMES)])


# My games' lists alone answer the same address: a cache tells the two apart.
@vary_on_headers("HX-Request")
def home(request):
    if not request.user.is_authenticated:
        if request.htmx:
            # My games, open in a tab signed out since: the page reloads as the site's door.
            return HttpResponse(status=204, headers={"HX-Refresh": "true"})
        return render(request, "games/home.html")
    return my_games(request)


@never_cache
@require_GET
def awaiting(request):
    """The header's count of tables awaiting the player, for a page left open that asks
    for it anew (static/js/dalmuti.js): every minute while in view and when the tab comes
    back (a table's page has it with its own part when the reader's turn there comes or
    goes). Someone logged out: nothing (their pages show no count)."""
    if not request.user.is_authenticated:
        return HttpResponse(status=204)
    return render(request, "_awaiting_count.html")


def my_games(request):
    user = request.user
    seats = list(
        Seat.objects.filter(user=user)
        .select_related("game", "game__host")
        .annotate(chat_unread=chat.unread_count())
        .order_by("-game__updated")
    )
    my_turn, waiting, open_tables, finished = [], [], [], []
    for seat in seats:
        game = seat.game
        entry = {"game": game, "seat": seat}
        if game.is_over:
            finished.append(entry)
        elif game.is_open:
            open_tables.append(entry)
        else:
            (my_turn if awaits_person(seat) else waiting).append(entry)
    my_turn = urgency_first(my_turn)
    describe_turns(my_turn + waiting)
    if finished:
        results = game_results(finished_rounds(game__in=[e["game"] for e in finished]))
        for entry in finished:
            standing = results.get(entry["game"].pk, [])
            mine = next((row for row in standing if row["player"] == entry["seat"].player),
                        None)
            entry["place"] = mine["rank"] if mine else None
            entry["points"] = mine["score"] if mine else 0
            entry["players"] = len(standing)
    # A table closed before its start was never played: listed apart.
    closed = [entry for entry in finished if entry["game"].started is None]
    finished = [entry for entry in finished if entry["game"].started is not None]
    sweep_in_process()
    # Only where a seat can still be taken: not a full table, nor a game in its last round.
    # Each table once, though its host invited them both by name and by address.
    invitations = list({
        invitation.game_id: invitation for invitation in Invitation.objects.for_user(user)
        .filter(game__status__in=[Game.Status.OPEN, Game.Status.PLAYING])
        .select_related("game", "invited_by").order_by("-created", "-pk")
        if room_for_newcomers(invitation.game)
    }.values())
    # The lists alone for the page that draws them again.
    lists = request.htmx.target == "my-games"
    return render(request, "games/my_games.html#lists" if lists else "games/my_games.html", {
        "my_turn": my_turn, "waiting": waiting, "open_tables": open_tables,
        "finished": finished, "closed": closed, "invitations": invitations,
        "lists_alone": lists,
        # Somebody new is offered a guided first game.
        "no_games": not seats,
        # An absence set in the profile, with the way back from it.
        "away_until": user.away_until if user.is_away() else None,
    })


def _earlier_game(request) -> Game | None:
    """The finished game a "new table with the same players" starts from, if any; only
    for someone who sat at it."""
    raw = request.POST.get("from") or request.GET.get("from")
    if not raw:
        return None
    game_id = id_from(raw)
    if game_id is None:
        raise Http404
    return finished_seat_for_user(request, game_id)[0]


@login_required
def new_table(request):
    earlier = _earlier_game(request)
    status = 200
    if request.method == "POST":
        form = NewTableForm(request.POST, host=request.user)
        if form.is_valid():
            data = form.cleaned_data
            try:
                game = commands.open_table_with(
                    request.user, data["name"], data["seats"], form.engine_options(),
                    data["turn_limit"], data["leaver_bot"], data["min_on_time"],
                    data["time_bank"], data["hints_allowed"],
                    guests=data["guests"],
                    bots_of=earlier,
                )
            except commands.Rejected as rejected:
                form.add_error(None, rejected.message)
                status = rejected.status
            else:
                if data["guests"]:
                    messages.success(request, ngettext(
                        "%(count)d invitation sent.", "%(count)d invitations sent.",
                        len(data["guests"])) % {"count": len(data["guests"])})
                return redirect(game)
        else:
            status = 400  # the form with its errors: nothing was opened
    else:
        initial = {"name": default_table_name(request.user)}
        if earlier is not None:
            initial.update(NewTableForm.initial_from(earlier))
            initial["name"] = earlier.name
            initial["guests"] = [s.user_id for s in earlier.seats.exclude(user=None)
                                 if s.user_id != request.user.pk]
        if request.GET.getlist("guests"):
            initial["guests"] = [g for g in request.GET.getlist("guests") if id_from(g) is not None]
        form = NewTableForm(initial=initial, host=request.user)
        if request.GET.get("standard"):
            # "New table (standard rules)": one more tap to be sure, showing what it opens.
            return render(request, "games/new_table_confirm.html", {"form": form})
    return render(request, "games/new_table.html", {
        "form": form, "earlier": earlier,
        "earlier_bots": earlier.seats.filter(user=None).count() if earlier else 0,
    }, status=status)


def lobby_page(request, game: Game, me: Seat):
    """The table before the start: seats, invitations, bots, and its table talk."""
    # Whoever is looking at the table when it starts sees it start: no email about it.
    commands.seen(me)
    seats = game.seats_with_users()
    invite = invite_context(request, game, seats)
    return render(request, "games/lobby.html", {
        **panel_context(request, game, me, {}, seats=seats),
        **invite,
        **_lobby_context(request, game, me, seats, room=invite["room_for_newcomers"]),
        "bot_form": BotForm(initial={"bots": sum(s.is_bot for s in seats)}),
        "on_time_choices": OnTime.choices,
    })


def _lobby_context(request, game: Game, me: Seat, seats: list[Seat],
                   room: bool | None = None) -> dict:
    """What the lobby's seats and its poller are drawn from. `room`: whether there is room
    for newcomers, if the caller knows."""
    return {
        "game": game, "me": me, "seats": seats,
        "is_host": game.host_id == request.user.pk,
        "closes": game.created + timedelta(days=OPEN_TABLE_DAYS),
        "room_for_newcomers": room_for_newcomers(game, seats) if room is None else room,
        "poll_seconds": settings.GAME_POLL_SECONDS, "day_ends": day_ends(),
    }


def lobby_news(request, game_id: int, *, seats_changed: bool, talk: bool,
               invited: bool = False) -> HttpResponse:
    """What an open lobby page lacks: its seats, when the table changed since it was
    drawn (a guest's with the rules, where the host may have changed who may take a
    seat); the invitations waiting for an answer, when one was sent, declined or taken
    up (`invited`, or a seat taken); its talk's log and newest line, when a message was
    said since or the page wrote the talk's times on a day that has ended. Swapped in
    out of band, with the page's poller anew; the page reloads instead when room for
    newcomers came or went (its invitation panel with it), or the table started or
    closed meanwhile."""
    game, me = seat_for_user(request, game_id)
    seats = game.seats_with_users()
    context = _lobby_context(request, game, me, seats)
    if not game.is_open or request.GET.get("r") != (
            "1" if context["room_for_newcomers"] else "0"):
        return HttpResponse(status=204, headers={"HX-Refresh": "true"})
    if talk:
        context.update(panel_context(request, game, me, {}, oob=True, send_log=True,
                                     send_tools=False, seats=seats))
    send_invited = context["room_for_newcomers"] and (invited or seats_changed)
    if context["room_for_newcomers"]:
        context.update(invitees(request, game, invitations_of(game)))
    return render(request, "games/_lobby_news.html", {
        **context, "oob": True, "send_seats": seats_changed, "send_talk": talk,
        "send_invited": send_invited,
    })


def _host_only(request, game_id: int) -> Game:
    game, _me = seat_for_user(request, game_id)
    if game.host_id != request.user.pk:
        raise Http404
    return game


@require_POST
@login_required
def add_bot(request, game_id: int):
    game = _host_only(request, game_id)
    form = BotForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a bot level.") if "level" in form.errors
                       else NOT_UNDERSTOOD)
        return redirect(game)
    try:
        commands.add_bot(game.pk, form.cleaned_data["level"], form.cleaned_data["bots"])
    except commands.Rejected as rejected:
        messages.error(request, rejected.message)
    return redirect(game)


@login_required
def remove_seat(request, game_id: int, seat_id: int):
    """A bot goes with one tap; a friend only once the host confirms, on this page."""
    game = _host_only(request, game_id)
    if request.method != "POST":
        seat = game.seats.select_related("user").filter(pk=seat_id).first()
        if seat is None or seat.user_id == game.host_id:
            raise Http404
        return render(request, "games/remove_seat.html", {"game": game, "seat": seat})
    try:
        commands.remove_seat(game.pk, seat_id)
    except commands.Rejected as rejected:
        messages.error(request, rejected.message)
    return redirect(game)


@require_POST
@login_required
def leave_lobby(request, game_id: int):
    """Leaving a table before its start: the seat goes, as if never taken."""
    game, me = seat_for_user(request, game_id)
    if game.host_id == request.user.pk:
        messages.error(request, _("The host cannot leave their own table."))
        return redirect(game)
    try:
        commands.remove_seat(game.pk, me.pk, by_host=False)
    except commands.Rejected as rejected:
        messages.error(request, rejected.message)
        return redirect(game)
    messages.success(request, _("You left the table."))
    return redirect("home")


@require_POST
@login_required
def start(request, game_id: int):
    game = _host_only(request, game_id)
    try:
        commands.start(game.pk, request.user)
    except commands.Rejected as rejected:
        messages.error(request, rejected.message)
    return redirect(game)


@require_POST
@login_required
def cancel(request, game_id: int):
    game = _host_only(request, game_id)
    try:
        commands.cancel_table(game.pk, request.user)
    except commands.Rejected as rejected:
        messages.error(request, rejected.message)
        return redirect(game)
    messages.success(request, _("The table “%(name)s” is cancelled.") % {"name": game.name})
    return redirect("home")
