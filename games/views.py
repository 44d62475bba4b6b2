from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.mail import send_mail
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers

from chat import services as chat  # chat (issue 9)
from chat.panel import panel_context  # chat (issue 9)

from . import services
from .forms import BotForm, InviteForm, TableForm
from .models import Action, Game, Invitation, Seat
from .table import log_lines, since, table_context


def _get_seat_for_user(request, game_id: int) -> tuple[Game, Seat]:
    """The table and the requesting user's seat at it: the one door to a game's private
    parts. Anyone without a seat gets a 404, whether or not the table exists."""
    seat = (
        Seat.objects.select_related("game", "user")
        .filter(game_id=game_id, user=request.user)
        .first()
    )
    if seat is None:
        raise Http404(_("You have no seat at this table."))
    return seat.game, seat


def home(request):
    if not request.user.is_authenticated:
        return render(request, "games/home.html")
    return my_games(request)


def my_games(request):
    user = request.user
    seats = list(
        Seat.objects.filter(user=user)
        .select_related("game", "game__host")
        .annotate(chat_unread=chat.unread_count())  # chat (issue 9): unread messages
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
    _describe_turns(my_turn + waiting)
    services.sweep_in_process()
    invitations = (
        _invitations_for(user).filter(game__status=Game.Status.OPEN)
        .select_related("game", "invited_by")
    )
    return render(request, "games/my_games.html", {
        "my_turn": my_turn, "waiting": waiting, "open_tables": open_tables,
        "finished": finished, "invitations": invitations, "table_form": TableForm(
            initial={"name": _("%(name)s's table") % {"name": user.name}}),
    })


def _invitations_for(user):
    """Invitations by username, and by email address to whoever now has that address."""
    mine = Q(user=user)
    if user.email:
        mine |= Q(user=None, email__iexact=user.email)
    return Invitation.objects.filter(mine)


def _describe_turns(entries: list[dict]) -> None:
    """Round, my title and whose turn it is (as far as I may know) for each game in play."""
    if not entries:
        return
    names = {}
    for seat in Seat.objects.filter(game__in=[e["game"] for e in entries]).select_related("user"):
        names[(seat.game_id, seat.player)] = seat.name
    for entry in entries:
        game, seat = entry["game"], entry["seat"]
        view = services.engine_state(game).view(seat.player)
        entry["my_title"] = view["titles"][view["seat"]]
        entry["waiting_for"] = [
            names.get((game.pk, view["seats"][s]), "?") for s in view["awaiting"]
        ]
        entry["since"] = since(game, view)


@login_required
def new_table(request):
    if request.method == "POST":
        form = TableForm(request.POST)
        if form.is_valid():
            game = services.create_table(
                request.user, form.cleaned_data["name"], form.cleaned_data["seats"],
                form.engine_options(), form.cleaned_data["turn_limit"],
            )
            return redirect(game)
    else:
        form = TableForm(initial={"name": _("%(name)s's table") % {"name": request.user.name}})
    return render(request, "games/new_table.html", {"form": form})


@never_cache
@login_required
@vary_on_headers("HX-Request")
def game_page(request, game_id: int, error: str = "", status: int = 200):
    game, me = _get_seat_for_user(request, game_id)
    if game.is_open:
        return _lobby(request, game, me)
    game, me = _keep_up(game, me)
    return _render_game(request, game, me, "games/game.html", error, status)


def _keep_up(game: Game, me: Seat) -> tuple[Game, Seat]:
    """Before showing a table: apply any timeouts that are due (deadlines are enforced
    lazily here as well as by the periodic sweep) and note that the player is here."""
    services.sweep_in_process()
    if services.deadlines_may_have_passed(game) and services.enforce_deadlines(game.pk):
        game, me = Game.objects.get(pk=game.pk), Seat.objects.select_related("user").get(pk=me.pk)
    services.seen(me)
    return game, me


def _render_game(request, game, me, template, error="", status=200, me_seen=""):
    seats = list(game.seats.select_related("user"))
    context = table_context(game, me, seats)
    names = {s.player: s.name for s in seats}
    actions = list(
        Action.objects.filter(game=game, round_number=game.round_number).order_by("seq")
    )
    context.update({
        "game": game, "me": me, "error": error, "log": log_lines(actions, me, names),
        "poll_seconds": settings.GAME_POLL_SECONDS, "since": since(game, context["view"]),
        # A poll leaves my hand and actions alone when they did not change, so a
        # half-made choice (ticked cards, an opened rank) survives other players' moves.
        "send_me": context["me_key"] != me_seen,
        "oob": template.endswith("#update"),
    })
    # chat (issue 9): the table talk panel, with the titles of this same view
    titles = {p.player: p.title_key for p in context["players"]}
    context.update(panel_context(request, game, me, titles, context["oob"]))
    return render(request, template, context, status=status)


def _lobby(request, game, me):
    # chat (issue 9): the lobby has its table talk too; nobody has a title yet
    return render(request, "games/lobby.html", {
        **panel_context(request, game, me, {}),
        "game": game, "me": me, "seats": list(game.seats.select_related("user")),
        "invite_url": request.build_absolute_uri(reverse("join", args=[game.invite_token])),
        "invite_form": InviteForm(), "bot_form": BotForm(),
        "invitations": game.invitations.select_related("user"),
        "is_host": game.host_id == request.user.pk,
        "poll_seconds": settings.GAME_POLL_SECONDS,
    })


@require_POST
@login_required
def act(request, game_id: int):
    game, me = _get_seat_for_user(request, game_id)
    try:
        action, turn = services.parse_action(request.POST)
        services.act(game.pk, request.user, action, turn)
    except services.Rejected as rejected:
        return _action_answer(request, game.pk, me, rejected.message, rejected.status)
    return _action_answer(request, game.pk, me)


def _action_answer(request, game_id, me, error="", status=200):
    """After an action: the fresh fragments for HTMX, else the page (a redirect on success
    so that reloading never resubmits)."""
    game = Game.objects.get(pk=game_id)
    me.game = game
    if request.htmx:
        return _render_game(request, game, me, "games/game.html#update", error, status)
    if not error:
        return redirect(game)
    return _render_game(request, game, me, "games/game.html", error, status)


@never_cache
@require_GET
@login_required
def poll(request, game_id: int):
    """Cheap when nothing changed: one query and an empty 204 answer."""
    row = (
        Seat.objects.filter(game_id=game_id, user=request.user)
        .annotate(chat_last=chat.last_message_id())  # chat (issue 9)
        .values_list("pk", "last_seen", "game__version", "game__status", "game__updated",
                     "game__turn_limit", "game__awaiting", "chat_last")
        .first()
    )
    if row is None:
        raise Http404
    seat_pk, last_seen, version, status, updated, turn_limit, awaiting, chat_last = row
    if request.GET.get("lobby"):
        # The lobby reloads itself when anything about the table changed (a seat taken,
        # the start).
        if status == Game.Status.OPEN and request.GET.get("u") == str(updated.timestamp()):
            return HttpResponse(status=204)
        return HttpResponse(status=204, headers={"HX-Refresh": "true"})
    try:
        seen = int(request.GET.get("v", ""))
    except ValueError:
        seen = -1
    # chat (issue 9): `c` is the newest message the page shows (absent: no chat panel).
    try:
        chat_seen = int(request.GET.get("c", ""))
    except ValueError:
        chat_seen = None
    unchanged = seen == version and (chat_seen is None or chat_seen >= (chat_last or 0))
    if unchanged and not services.some_deadline_passed(turn_limit, awaiting):
        services.seen_at(seat_pk, last_seen)
        return HttpResponse(status=204)
    game, me = _get_seat_for_user(request, game_id)
    if game.is_open:
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
    game, me = _get_seat_for_user(request, game_id)
    services.set_standing_orders(
        game.pk, request.user, auto_pass=request.POST.get("auto_pass") == "on",
        auto_tax_worst=request.POST.get("auto_tax_worst") == "on",
        pass_trick=request.POST.get("pass_trick") == "on",
    )
    if request.htmx:
        return _action_answer(request, game.pk, Seat.objects.get(pk=me.pk))
    messages.success(request, _("Your standing orders are saved."))
    return redirect(game)


@require_POST
@login_required
def vacation(request, game_id: int):
    game, me = _get_seat_for_user(request, game_id)
    try:
        if request.POST.get("end"):
            services.end_vacation(game.pk, request.user)
            messages.success(request, _("Welcome back: your clock runs again."))
        else:
            days = int(request.POST.get("days", ""))
            if not 1 <= days <= services.VACATION_DAYS:
                raise ValueError(days)
            seat = services.start_vacation(game.pk, request.user, days)
            messages.success(request, _("Your clock is paused until %(when)s.") % {
                "when": date_format(timezone.localtime(seat.vacation_until), "DATETIME_FORMAT")})
    except ValueError:
        messages.error(request, _("Choose between 1 and 7 days."))
    except services.Rejected as rejected:
        messages.error(request, rejected.message)
    return redirect(game)


@require_POST
@login_required
def take_back(request, game_id: int):
    game, _me = _get_seat_for_user(request, game_id)
    services.take_seat_back(game.pk, request.user)
    messages.success(request, _("You have your seat back: the bot stands aside."))
    return redirect(game)


@never_cache
@login_required
def game_log(request, game_id: int):
    game, me = _get_seat_for_user(request, game_id)
    seats = list(game.seats.select_related("user"))
    names = {s.player: s.name for s in seats}
    actions = list(Action.objects.filter(game=game).order_by("seq"))
    return render(request, "games/log.html", {
        "game": game, "me": me, "log": log_lines(actions, me, names),
    })


# -- the lobby --


def _host_only(request, game_id: int) -> Game:
    game, _me = _get_seat_for_user(request, game_id)
    if game.host_id != request.user.pk:
        raise Http404
    return game


def _lobby_answer(request, game, error: str = "", status: int = 409):
    if error:
        messages.error(request, error)
    return redirect(game)


@require_POST
@login_required
def invite(request, game_id: int):
    game, _me = _get_seat_for_user(request, game_id)
    form = InviteForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return redirect(game)
    user = form.user
    if user is not None and game.seats.filter(user=user).exists():
        messages.info(request, _("%(name)s already has a seat here.") % {"name": user.name})
        return redirect(game)
    invitation, created = Invitation.objects.get_or_create(
        game=game, user=user, email="" if user else form.email,
        defaults={"invited_by": request.user},
    )
    address = user.email if user else form.email
    if address:
        link = request.build_absolute_uri(reverse("join", args=[game.invite_token]))
        send_mail(
            _("%(name)s invites you to play The Great Dalmuti") % {"name": request.user.name},
            _("%(name)s has saved you a seat at the table “%(table)s”.\n\nTake it here: %(link)s")
            % {"name": request.user.name, "table": game.name, "link": link},
            None, [address],
        )
    messages.success(request, _("Invitation sent."))
    return redirect(game)


@require_POST
@login_required
def add_bot(request, game_id: int):
    game = _host_only(request, game_id)
    form = BotForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a bot level."))
        return redirect(game)
    try:
        services.add_bot(game.pk, form.cleaned_data["level"])
    except services.Rejected as rejected:
        messages.error(request, rejected.message)
    return redirect(game)


@require_POST
@login_required
def remove_seat(request, game_id: int, seat_id: int):
    game = _host_only(request, game_id)
    try:
        services.remove_seat(game.pk, seat_id)
    except services.Rejected as rejected:
        messages.error(request, rejected.message)
    return redirect(game)


@require_POST
@login_required
def leave(request, game_id: int):
    game, me = _get_seat_for_user(request, game_id)
    if game.host_id == request.user.pk:
        messages.error(request, _("The host cannot leave their own table."))
        return redirect(game)
    try:
        services.remove_seat(game.pk, me.pk)
    except services.Rejected as rejected:
        messages.error(request, rejected.message)
        return redirect(game)
    messages.success(request, _("You left the table."))
    return redirect("home")


@require_POST
@login_required
def start(request, game_id: int):
    game = _host_only(request, game_id)
    try:
        services.start(game.pk)
    except services.Rejected as rejected:
        messages.error(request, rejected.message)
    return redirect(game)


def join(request, token: str):
    game = get_object_or_404(Game, invite_token=token)
    if not request.user.is_authenticated:
        return render(request, "games/join.html", {"game": game, "token": token})
    if game.seats.filter(user=request.user).exists():
        return redirect(game)
    if request.method == "POST":
        try:
            services.join(game.pk, request.user)
        except services.Rejected as rejected:
            messages.error(request, rejected.message)
            return redirect("home")
        messages.success(request, _("You took a seat at %(table)s.") % {"table": game.name})
        return redirect(game)
    return render(request, "games/join.html", {
        "game": game, "token": token, "seats": list(game.seats.select_related("user")),
    })


@require_POST
@login_required
def decline_invitation(request, invitation_id: int):
    invitation = get_object_or_404(_invitations_for(request.user), pk=invitation_id)
    invitation.delete()
    messages.info(request, _("Invitation declined."))
    return redirect("home")


@csrf_exempt
def unsubscribe(request, token: str):
    """The link in every email. GET asks for one click (mail scanners follow links);
    POST unsubscribes, including mail clients' one-click List-Unsubscribe-Post. The signed
    token is the authority, so no login or CSRF token is needed."""
    from .emails import user_for_unsubscribe_token

    user = user_for_unsubscribe_token(token)
    if user is None:
        return render(request, "games/unsubscribe.html", {"invalid": True}, status=400)
    if request.method == "POST":
        user.notify = user.Notify.NEVER
        user.save(update_fields=["notify"])
        return render(request, "games/unsubscribe.html", {"done": True, "subscriber": user})
    return render(request, "games/unsubscribe.html", {"subscriber": user})
