"""A player's own settings at a table in play: standing orders, vacation, taking the seat
back, ending after this round, nudging and voting on a stand-in, choosing a newcomer's
place, and leaving. Each refusal goes through `page.refused`."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.core.clock import VACATION_DAYS
from games.core.words import moment
from games.read.access import seat_for_user

from .. import commands
from ..models import Seat
from .page import after_change, not_understood, refusals_answered


def _posted_int(request, name: str) -> int:
    """A whole number the form sent; refused as not understood if it is none."""
    try:
        return int(request.POST.get(name, ""))
    except ValueError:
        raise not_understood() from None


@require_POST
@login_required
@refusals_answered("orders")
def standing_orders(request, game_id: int):
    game, me = seat_for_user(request, game_id)
    commands.set_standing_orders(
        game.pk, request.user, auto_pass=request.POST.get("auto_pass") == "on",
        auto_tax_worst=request.POST.get("auto_tax_worst") == "on",
        auto_revolution=request.POST.get("auto_revolution") == "on",
        pass_trick=request.POST.get("pass_trick") == "on",
    )
    if request.htmx:
        # Said where the player pressed the button: the panel stays open with it.
        return after_change(request, game.pk, Seat.objects.get(pk=me.pk), orders_saved=True)
    messages.success(request, _("Your standing orders are saved."))
    return redirect(game)


@require_POST
@login_required
@refusals_answered()
def talk_notices(request, game_id: int):
    """Hear, or no longer hear, of being named in this table's talk."""
    game, _me = seat_for_user(request, game_id)
    on = request.POST.get("talk_notices") == "on"
    commands.set_talk_notices(game.pk, request.user, on)
    messages.success(request, _("You will hear when someone names you in this table's talk.")
                     if on else _("You will no longer hear of this table's talk away from it."))
    return redirect(game)


@require_POST
@login_required
@refusals_answered("vacation")
def vacation(request, game_id: int):
    game, _me = seat_for_user(request, game_id)
    if request.POST.get("end"):
        commands.end_vacation(game.pk, request.user)
        messages.success(request, _("Welcome back: your clock runs again."))
        return redirect(game)
    try:
        days = int(request.POST.get("days", ""))
    except ValueError:
        days = 0
    if not 1 <= days <= VACATION_DAYS:
        raise commands.Rejected(_("Choose between 1 and 7 days."))
    seat = commands.start_vacation(game.pk, request.user, days)
    messages.success(request, _("Your clock is paused until %(when)s.") % {
        "when": moment(seat.vacation_until)})
    return redirect(game)


@require_POST
@login_required
@refusals_answered()
def take_back(request, game_id: int):
    game, _me = seat_for_user(request, game_id)
    commands.take_seat_back(game.pk, request.user)
    messages.success(request, _("You have your seat back: the bot stands aside."))
    return redirect(game)


@require_POST
@login_required
@refusals_answered()
def end_after_this_round(request, game_id: int):
    game, _me = seat_for_user(request, game_id)
    if request.POST.get("end") not in ("yes", "no"):
        raise not_understood()
    end = request.POST["end"] == "yes"
    commands.end_after_this_round(game.pk, request.user, end)
    messages.success(request, _("The game ends after this round.") if end
                     else _("The game goes on after this round."))
    return redirect(game)


@require_POST
@login_required
@refusals_answered()
def propose_end(request, game_id: int):
    game, _me = seat_for_user(request, game_id)
    commands.propose_end(game.pk, request.user)
    game.refresh_from_db()
    if game.engine_state().ending:
        messages.success(request, _("The game ends after this round."))
    else:
        messages.success(request, _("Your proposal is on the table: the others are told."))
    return redirect(game)


@require_POST
@login_required
@refusals_answered()
def answer_end(request, game_id: int):
    """A player's yes or no to the open proposal their page showed (`proposal`): a page
    left open since that proposal closed is refused, not counted for another one."""
    game, _me = seat_for_user(request, game_id)
    answer = request.POST.get("agree")
    if answer not in ("yes", "no"):
        raise not_understood()
    outcome = commands.vote_end(game.pk, request.user, _posted_int(request, "proposal"),
                                answer == "yes")
    if outcome == "agreed":
        messages.success(request, _("Most players agree: the game ends after this round."))
    elif outcome == "declined":
        messages.success(request, _("Too few players can still agree: the game goes on."))
    else:
        messages.success(request, _("Your answer is counted."))
    return redirect(game)


@require_POST
@login_required
def who_may_join(request, game_id: int):
    """The host's choice of who may still take a seat (the lobby's table settings)."""
    game, _me = seat_for_user(request, game_id)
    try:
        minimum = int(request.POST.get("min_on_time", ""))
        commands.set_min_on_time(game.pk, request.user, minimum)
    except ValueError:
        messages.error(request, str(not_understood().message))
    except commands.Rejected as rejected:
        messages.error(request, rejected.message)
    else:
        messages.success(request, _("Saved: who may take a seat."))
    return redirect(game)


@require_POST
@login_required
@refusals_answered()
def nudge(request, game_id: int):
    game, _me = seat_for_user(request, game_id)
    player = _posted_int(request, "player")
    reached = commands.nudge(game.pk, request.user, player)
    name = game.seats.select_related("user").get(player=player).name
    if reached:
        messages.success(request, _("Nudged: %(name)s is told that the table waits for them.")
                         % {"name": name})
    else:
        messages.info(request, _("%(name)s gets no notifications from the site: your nudge "
                                 "cannot reach them.") % {"name": name})
    return redirect(game)


@require_POST
@login_required
@refusals_answered()
def vote_stand_in(request, game_id: int):
    game, _me = seat_for_user(request, game_id)
    player = _posted_int(request, "player")
    if commands.vote_stand_in(game.pk, request.user, player):
        name = game.seats.select_related("user").get(player=player).name
        messages.success(request, _(
            "Most players agree: the stand-in bot plays for %(name)s until they take "
            "their seat back.") % {"name": name})
    else:
        messages.success(request, _("Your vote is counted."))
    return redirect(game)


@require_POST
@login_required
@refusals_answered()
def join_place(request, game_id: int):
    game, _me = seat_for_user(request, game_id)
    seat_id = _posted_int(request, "seat")
    if request.POST.get("place") not in ("upper", "lower"):
        raise not_understood()
    commands.choose_join_place(game.pk, request.user, seat_id,
                               request.POST.get("place") == "upper")
    return redirect(game)


@require_POST
@login_required
@refusals_answered()
def leave_game(request, game_id: int):
    """Leaving a game in play (or giving up a place that waits for the next round)."""
    game, me = seat_for_user(request, game_id)
    commands.leave_game(game.pk, request.user)
    if me.joining:
        messages.success(request, _("You gave up your place at %(table)s.")
                         % {"table": game.name})
    else:
        messages.success(request, _("You have left the game. Thank you for playing!"))
    return redirect("home")
