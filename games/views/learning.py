"""Learning the game: "Learn by playing" opens a guided table, a tip is dismissed, a hint
is asked for."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from games.read.access import seat_for_user
from games.read.hints import hint_line
from games.read.tips import TIP_KEYS

from .. import commands
from ..commands import hints, learning
from .page import after_change, refusals_answered, refused


@login_required
def learn(request):
    """What a guided game is, and (posted) one with bots, started at once (or the one
    already in play)."""
    if request.method == "POST":
        return redirect(learning.start_guided_game(request.user))
    return render(request, "games/learn.html", {
        "bots": learning.GUIDED_BOTS, "rounds": learning.GUIDED_ROUNDS,
    })


@require_POST
@login_required
@refusals_answered()
def dismiss_tip(request, game_id: int, key: str):
    _game, me = seat_for_user(request, game_id)
    learning.dismiss_tip(request.user, key, TIP_KEYS)
    return after_change(request, game_id, me)



@require_POST
@login_required
def hint(request, game_id: int):
    """The hint for my decision: the line alone for htmx, else the table showing it. A
    refusal (no hints at this table, nothing to decide) changes nothing; htmx reloads the
    page, which shows why."""
    game, _me = seat_for_user(request, game_id)
    try:
        me = hints.give_hint(game.pk, request.user)
    except commands.Rejected as rejected:
        if request.htmx:
            return HttpResponse(rejected.message, status=rejected.status,
                                headers={"HX-Refresh": "true"})
        return refused(request, game_id, rejected)
    if not request.htmx:
        return redirect(game)
    seats = {s.player: s.name for s in game.seats_with_users()}
    view = game.engine_state().view(me.player)
    return render(request, "games/table/_advice.html", {
        "hint_line": hint_line(me.hint, lambda seat: seats.get(view["seats"][seat], "?")),
    })
