from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from chat import services as chat
from chat.panel import panel_context
from games.read.access import seat_for_user
from games.read.my_games import describe_turns
from games.read.replay import game_results
from leagues.standings import finished_rounds

from .. import commands
from ..forms import BotForm, TableForm
from ..models import OPEN_TABLE_DAYS, Game, Invitation, Seat
from ..tasks import sweep_in_process
from .invitations import invite_context

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


def home(request):
    if not request.user.is_authenticated:
        return render(request, "games/home.html")
    return my_games(request)


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
            (my_turn if str(seat.player) in game.awaiting else waiting).append(entry)
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
    sweep_in_process()
    invitations = (
        Invitation.objects.for_user(user)
        .filter(game__status__in=[Game.Status.OPEN, Game.Status.PLAYING])
        .select_related("game", "invited_by")
    )
    return render(request, "games/my_games.html", {
        "my_turn": my_turn, "waiting": waiting, "open_tables": open_tables,
        "finished": finished, "invitations": invitations,
        # Somebody new is offered a guided first game.
        "no_games": not seats,
    })


@login_required
def new_table(request):
    if request.method == "POST":
        form = TableForm(request.POST)
        if form.is_valid():
            game = commands.create_table(
                request.user, form.cleaned_data["name"], form.cleaned_data["seats"],
                form.engine_options(), form.cleaned_data["turn_limit"],
                form.cleaned_data["leaver_bot"], form.cleaned_data["hints_allowed"],
            )
            return redirect(game)
    else:
        form = TableForm(initial={"name": default_table_name(request.user)})
        if request.GET.get("standard"):
            # "New table (standard rules)": one more tap to be sure, showing what it opens.
            return render(request, "games/new_table_confirm.html", {"form": form})
    return render(request, "games/new_table.html", {"form": form})


def lobby_page(request, game: Game, me: Seat):
    """The table before the start: seats, invitations, bots, and its table talk."""
    # Whoever is looking at the table when it starts sees it start: no email about it.
    commands.seen(me)
    return render(request, "games/lobby.html", {
        **panel_context(request, game, me, {}),
        **invite_context(request, game),
        "game": game, "me": me, "seats": list(game.seats.select_related("user")),
        "bot_form": BotForm(),
        "is_host": game.host_id == request.user.pk,
        "poll_seconds": settings.GAME_POLL_SECONDS,
        "closes": game.created + timedelta(days=OPEN_TABLE_DAYS),
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
        messages.error(request, _("Choose a bot level."))
        return redirect(game)
    try:
        commands.add_bot(game.pk, form.cleaned_data["level"])
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
        commands.remove_seat(game.pk, me.pk)
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
