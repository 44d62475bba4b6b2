"""Learning the game: "Learn by playing" opens a guided table, a tip is dismissed, a hint
is asked for."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from games.read.access import seat_for_user
from games.read.tips import TIP_KEYS

from ..commands import learning
from .page import after_change, refusals_answered


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

