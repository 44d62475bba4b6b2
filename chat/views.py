from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers

from games.read.access import seat_for_user

from . import services
from .panel import panel_context


@never_cache
@require_POST
@login_required
def post(request, game_id: int):
    """Say something at the table. HTMX gets the fresh log (and any error) out of band;
    a plain form goes back to the table, or on an error to the chat page."""
    game, me = seat_for_user(request, game_id)
    text = request.POST.get("text", "")
    error, status = "", 200
    try:
        services.post(game, me, text, request.POST.get("flourish", ""),
                      token=request.POST.get("token", ""))
    except services.Rejected as rejected:
        error, status = rejected.message, rejected.status
    else:
        text = ""
        if not request.htmx:
            return redirect(f"{game.get_absolute_url()}?chat=open#chat")
    titles = services.titles(game, me)
    if request.htmx:
        return render(request, "chat/_chat.html", {
            "game": game, "oob": True, **panel_context(
                request, game, me, titles, oob=True, send_log=True, send_tools=False,
                send_error=True, error=error),
        }, status=status)
    return render(request, "chat/page.html", {
        "game": game, **panel_context(request, game, me, titles, error=error, text=text,
                                      limit=None),
    }, status=status)


@never_cache
@require_GET
@login_required
@vary_on_headers("HX-Request")
def conversation(request, game_id: int):
    """The whole conversation at a table; for HTMX, the panel's log swapped in."""
    game, me = seat_for_user(request, game_id)
    titles = services.titles(game, me)
    if request.htmx:
        return render(request, "chat/_chat.html", {
            "game": game, "oob": True, **panel_context(
                request, game, me, titles, oob=True, send_log=True, send_tools=False),
        })
    return render(request, "chat/page.html", {
        "game": game, **panel_context(request, game, me, titles, limit=None),
    })
