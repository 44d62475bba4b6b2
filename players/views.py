"""Player pages, the ratings list, and a finished game's record to download."""

import json

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET

from games.core.usual_group import blocked_by
from games.core.words import card_name
from games.models import Seat
from games.read.access import record_reader
from games.read.reviews import accuracy_history, percent, places

from . import charts, records, reliability, services, stats
from .models import PlayerProfile, Rating


class VisibilityForm(forms.Form):
    visibility = forms.ChoiceField(
        label=gettext_lazy("Who can see this page"), choices=PlayerProfile.Visibility.choices,
        widget=forms.RadioSelect,
    )


def _player_or_404(request, username: str):
    """The player whose page this is, if the reader may see it; 404 otherwise, the same
    answer as for a name nobody has."""
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None or not stats.can_see(request.user, user):
        raise Http404(_("There is no player page here for you."))
    return user


@cache_control(private=True, no_cache=True)  # no secret: back/forward cache allowed
@login_required
def player_page(request, username: str):
    player = _player_or_404(request, username)
    own = player.pk == request.user.pk
    form = VisibilityForm(initial={"visibility": stats.visibility(player)}) if own else None
    if request.method == "POST":
        if not own:
            raise Http404(_("There is no player page here for you."))
        form = VisibilityForm(request.POST)
        if form.is_valid():
            services.set_visibility(player, form.cleaned_data["visibility"])
            messages.success(request, _("Saved: who can see your player page."))
            return redirect("player", player.username)
    facts = stats.player_stats(player)
    rating = stats.rating_of(player)
    history = stats.rating_history(rating)
    visible = _visible_ids(request.user, [h.user for h in facts.head_to_head])
    reviewed = accuracy_history(player)
    return render(request, "players/player.html", {
        "player": player, "own": own, "form": form, "stats": facts,
        "blocks_them": not own and player.pk in blocked_by(request.user),
        "rating": rating, "rating_history": history,
        "rating_chart": charts.rating_chart(history),
        "reviewed": [{"summary": s, "accuracy": percent(s.accuracy),
                      "places_lost": places(s.places_lost)} for s in reviewed],
        "accuracy_chart": charts.accuracy_chart(reviewed),
        "recent": [{**game, "chart": charts.place_chart(game["rounds"])}
                   for game in facts.recent],
        "max_rounds": max((len(g["rounds"]) for g in facts.recent), default=0),
        "taxes": [{**row, "name": card_name(row["rank"])} for row in facts.taxes],
        "head_to_head": [{"h2h": h, "linked": h.user.pk in visible}
                         for h in facts.head_to_head],
        # A game the two left alike: counted together, in neither column (said below it).
        "head_to_head_level": any(h.level for h in facts.head_to_head),
        "reliability": reliability.reliability(player),
        "min_turns": reliability.RELIABILITY_MIN_TURNS,
    }, status=200 if form is None or not form.errors else 400)


def _visible_ids(viewer, users) -> set[int]:
    """Which of these players' pages the viewer may open (every one of them shared a table
    with the page's player, not necessarily with the viewer)."""
    ids = {u.pk for u in users}
    together = set(Seat.objects.filter(
        user_id__in=ids, user__is_active=True,
        game__in=Seat.objects.filter(user=viewer).values("game"),
    ).values_list("user_id", flat=True))
    public = set(PlayerProfile.objects.filter(
        user_id__in=ids, user__is_active=True, visibility=PlayerProfile.Visibility.EVERYONE
    ).values_list("user_id", flat=True))
    return together | public | {viewer.pk}


@cache_control(private=True, no_cache=True)
@login_required
def ratings(request):
    """The reader's rating beside those of the people they have played with, and each
    bot level's (how strong the bots are)."""
    others = Seat.objects.filter(
        game__in=Seat.objects.filter(user=request.user).values("game"), user__isnull=False
    ).values("user")
    people = list(
        Rating.objects.filter(Q(user=request.user) | Q(user__in=others), user__is_active=True)
        .select_related("user").order_by("-mu", "user__username")
    )
    return render(request, "players/ratings.html", {
        "people": people, "bots": stats.bot_ratings(),
    })


def _filename(game, suffix: str) -> str:
    return f"{slugify(game.name) or 'game'}-{game.pk}.{suffix}"


@require_GET
@never_cache
@login_required
def record_json(request, game_id: int):
    game, me, _replaced = record_reader(request, game_id)
    response = HttpResponse(
        json.dumps(records.record_json(game, me), ensure_ascii=False, indent=1),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="{_filename(game, "json")}"'
    return response


@require_GET
@never_cache
@login_required
def record_text(request, game_id: int):
    game, _me, _replaced = record_reader(request, game_id)
    response = HttpResponse(records.record_text(game), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_filename(game, "txt")}"'
    return response
