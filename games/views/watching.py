"""Watching a table by its link: the public view only, no seat, counted nowhere; and the
host's switch that lets people watch (and talk)."""

import functools

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from chat import services as chat
from chat.models import Message as ChatMessage
from chat.panel import panel_context
from games.models import Game
from games.read.access import game_to_watch, seat_for_user
from games.read.narration import lines_of_game

from .. import commands
from .drawn import int_param, page_behind
from .page import catch_up, refusals_answered, render_table


def by_watch_link(view):
    """The view of a table by its watch link, given the game; while the host does not
    share it (any more), a page that says so (404), the same for a link never shared, so
    that it tells nobody whether a table was there; an open page's request is answered by
    reloading it to that page."""
    @functools.wraps(view)
    def wrapped(request, token: str):
        try:
            game = game_to_watch(token)
        except Http404:
            if request.htmx:
                return HttpResponse(status=204, headers={"HX-Refresh": "true"})
            return render(request, "games/not_watchable.html", status=404)
        return view(request, token, game)
    return wrapped


@never_cache
@by_watch_link
def watch(request, token: str, game: Game):
    if request.user.is_authenticated and game.seats.filter(user=request.user).exists():
        return redirect(game)
    if game.ended_early:
        return render(request, "games/closed.html", {"game": game}, status=410)
    return render_table(request, catch_up(game), None, "games/game.html")


@never_cache
@require_GET
@by_watch_link
def watch_poll(request, token: str, game: Game):
    # The newest message is read only for a page that shows the watchers' talk.
    newest = (ChatMessage.objects.filter(game=game).order_by("-pk")
              .values_list("pk", flat=True).first()
              if game.watchers_talk and int_param(request, "c") is not None else None)
    if int_param(request, "v") == game.version and not page_behind(request, newest):
        return HttpResponse(status=204)
    if game.ended_early:
        return HttpResponse(status=204, headers={"HX-Refresh": "true"})
    game = catch_up(game)
    return render_table(request, game, None, "games/game.html#update",
                        status=286 if game.is_over else 200)


@never_cache
@by_watch_link
def watch_log(request, token: str, game: Game):
    names = {s.player: s.name for s in game.seats_with_users()}
    return render(request, "games/log.html", {
        "game": game, "me": None, "log": lines_of_game(game, None, names),
        "back_url": reverse("watch", args=[token]),
    })


@never_cache
@require_GET
@by_watch_link
def watch_talk(request, token: str, game: Game):
    """The whole table talk, for watchers where the host lets them talk (the panel on the
    watch page shows the newest messages)."""
    if not game.watchers_talk:
        raise Http404(_("Watchers do not take part in this table's talk."))
    return render(request, "chat/page.html", {
        "game": game, "back_url": reverse("watch", args=[token]), **panel_context(
            request, game, None, chat.titles(game, None), limit=None),
    })


@require_POST
@login_required
@by_watch_link
def watch_chat(request, token: str, game: Game):
    """A watcher says something, where the host lets watchers talk."""
    error, status = "", 200
    try:
        chat.post_as_watcher(game, request.user, request.POST.get("text", ""),
                             request.POST.get("token", ""))
    except chat.Rejected as rejected:
        error, status = rejected.message, rejected.status
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("watch", token)
    return render(request, "chat/_chat.html", {
        "game": game, "oob": True, **panel_context(
            request, game, None, chat.titles(game, None), oob=True, send_log=True, send_tools=False,
            send_error=True, error=error),
    }, status=status)


@require_POST
@login_required
@refusals_answered()
def watchable(request, game_id: int):
    game, _me = seat_for_user(request, game_id)
    game = commands.set_watchable(game.pk, request.user, request.POST.get("watch") == "yes",
                                  talk=request.POST.get("talk") == "on")
    messages.success(request, _("Anyone with the link can watch the game now.")
                     if game.watch_token else _("The watch link no longer works."))
    return redirect(f"{game.get_absolute_url()}?host=1#host-panel")
