"""After the game: the list of a player's finished games, a game's full record, the replay
that steps through every action showing all hands, and the rematch.

Everything here is for the players who sat at the table, and only once it is over: the
replay reveals every hand, so a game in play must never reach it.
"""

from collections import defaultdict

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers

from games import engine
from games.core.standing import winner_of
from games.core.words import title_name
from games.read import reviews
from games.read.access import finished_seat_for_user, record_reader, rematch_for
from games.read.replay import (
    ROUND_BEGINS,
    SeatNames,
    game_results,
    record_log,
    record_sentence,
    replay_context,
    replay_neighbours,
    replay_script,
)
from leagues.models import League, Replacement
from leagues.standings import finished_rounds

from .. import commands
from ..models import Game, Seat

GAMES_PER_PAGE = 25


class HistoryFilter(forms.Form):
    status = forms.ChoiceField(
        label=gettext_lazy("Status"), required=False,
        choices=[("", gettext_lazy("All")), (Game.Status.FINISHED, gettext_lazy("Finished")),
                 (Game.Status.ABANDONED, gettext_lazy("Ended early"))],
    )
    league = forms.ModelChoiceField(
        label=gettext_lazy("League"), queryset=League.objects.none(), required=False,
        empty_label=gettext_lazy("Any"), to_field_name="slug",
    )
    outcome = forms.ChoiceField(
        label=gettext_lazy("Result"), required=False,
        choices=[("", gettext_lazy("All")), ("won", gettext_lazy("Games I won")),
                 ("lost", gettext_lazy("Games I did not win"))],
    )
    q = forms.CharField(label=gettext_lazy("Table or player"), required=False, max_length=80)

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["league"].queryset = League.objects.filter(
            Q(league_games__game__seats__user=user)
            | Q(league_games__game__replacements__user=user)
        ).distinct()


@login_required
def history(request):
    user = request.user
    form = HistoryFilter(request.GET or None, user=user)
    # The games they sat at, and those where an organiser gave their seat to a bot: they
    # played rounds of it, which still count in its league.
    games = Game.objects.filter(
        Q(pk__in=Seat.objects.filter(user=user).values("game_id"))
        | Q(pk__in=Replacement.objects.filter(user=user).values("game_id")),
        status__in=(Game.Status.FINISHED, Game.Status.ABANDONED),
        started__isnull=False,  # a table closed before its game began: nothing played
    )
    outcome = ""
    if form.is_valid():
        data = form.cleaned_data
        if data["status"]:
            games = games.filter(status=data["status"])
        if data["league"]:
            games = games.filter(league_link__league=data["league"])
        if data["q"]:
            q = data["q"]
            games = games.filter(
                Q(name__icontains=q)
                | Q(pk__in=Seat.objects.filter(
                    Q(user__username__icontains=q) | Q(user__display_name__icontains=q)
                    | Q(bot_name__icontains=q)
                ).values("game_id"))
            )
        outcome = data["outcome"]
    ids = games.values("pk")
    results = game_results(finished_rounds(game__in=ids))
    seats = defaultdict(dict)
    for seat in Seat.objects.filter(game__in=ids, player__isnull=False).select_related("user"):
        seats[seat.game_id][seat.player] = seat
    replaced = {r.game_id: r for r in Replacement.objects.filter(user=user, game__in=ids)}
    games = list(
        games.select_related("league_link__league").defer("state", "awaiting")
        .order_by("-finished", "-pk")
    )
    entries = []
    for game in games:
        names = seats[game.pk]
        me = next((s for s in names.values() if s.user_id == user.pk), None)
        standing = [
            {**row, "name": names[row["player"]].name if row["player"] in names else "?",
             "is_me": me is not None and row["player"] == me.player}
            for row in results.get(game.pk, [])
        ]
        my_row = next((row for row in standing if row["is_me"]), None)
        # Never whoever left: a game everybody left has no winner (as
        # leagues.standings.winners counts the wins).
        won = (game.status == Game.Status.FINISHED and bool(my_row)
               and winner_of(results.get(game.pk, [])) == my_row["player"])
        if (outcome == "won" and not won) or (outcome == "lost" and won):
            continue
        entries.append({"game": game, "standing": standing, "me": my_row, "won": won,
                        "replaced": replaced.get(game.pk) if me is None else None})
    page = Paginator(entries, GAMES_PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "games/history/list.html", {
        "form": form, "page": page, "query": query.urlencode(),
    })


@never_cache
@login_required
def game_record(request, game_id: int):
    game, me, replaced = record_reader(request, game_id)
    seat_names = SeatNames(game)
    names = seat_names.now
    rounds = finished_rounds(game=game)
    standing = game_results(rounds).get(game.pk, [])
    players = [row["player"] for row in standing] or sorted(names)
    table = []
    for r in rounds:
        in_round = seat_names.in_round(r.number)
        table.append({
            "number": r.number,
            "cells": [
                {"name": in_round.get(p, "?"), "place": r.places.get(p), "points": r.points.get(p),
                 "title": title_name(r.titles[p]) if p in r.titles else ""}
                for p in players
            ],
        })
    # The log folded by round, one round open at a time: a long game has over a thousand
    # lines, far too many for one page.
    log = record_log(game, seat_names)
    try:
        open_round = int(request.GET.get("round", ""))
    except ValueError:
        open_round = log.rounds[0]["number"] if log.rounds else None
    return render(request, "games/history/game.html", {
        "game": game, "me": me, "replaced": replaced,
        # A replaced player's seat finished with the bot: its result is not theirs.
        "standing": [{**row, "name": names.get(row["player"], "?"),
                      "in_place_of": seat_names.replaced().get(row["player"]),
                      "is_me": row["player"] == me and not replaced} for row in standing],
        # A seat an organiser gave to a bot: its first player, then the bot.
        "player_names": [f"{seat_names.deciders[p]} → {names[p]}"
                         if p in seat_names.replaced() else names.get(p, "?")
                         for p in players],
        "rounds": table,
        # Everybody left: the standings have no winner (games.core.standing.winner_of).
        "nobody_won": bool(standing) and winner_of(standing) is None,
        "log_rounds": log.rounds, "open_round": open_round,
        "league": League.objects.of_game(game),
        **rematch_for(game, request.user),
        "can_replay": log.can_replay,
        # A game its table agreed to end: after which round (the record of the agreement).
        "agreed_after": log.agreed_after,
        **reviews.review_context(game, seat_names.deciders, me),
    })


@never_cache
@login_required
def game_review(request, game_id: int):
    """The review's section of the game record, alone: what its progress bar asks for."""
    game, me, _replaced = record_reader(request, game_id)
    return render(request, "games/history/_review.html", {
        "game": game, **reviews.review_context(game, SeatNames(game).deciders, me),
    })


def _step(request, total: int) -> int:
    try:
        step = int(request.GET.get("step", "1"))
    except ValueError:
        step = 1
    return min(max(step, 1), total)


STEP_SIZES = ("action", "trick", "round")


@never_cache
@login_required
@vary_on_headers("HX-Request")
def replay_page(request, game_id: int):
    game, me, _replaced = record_reader(request, game_id)
    script = replay_script(game)
    actions = script.actions
    if not actions:
        raise Http404(_("This game was never dealt: there is nothing to replay."))
    total = len(actions)
    step = _step(request, total)
    by = request.GET.get("by")
    if by not in STEP_SIZES:
        by = "action"
    playing = request.GET.get("play") == "1"
    # The state before the step's action too: the review judged the decision from there.
    before, state = script.states_around(engine.Options.from_json(game.options), step)
    action = actions[step - 1]
    seat_names = SeatNames(game)
    names = seat_names.in_round(action.round_number)
    # A seat an organiser gave to a bot was its player's before.
    replaced = {player: from_round for player, (_name, from_round)
                in seat_names.replaced().items() if action.round_number < from_round}
    round_starts = [
        {"number": a.round_number, "step": i + 1}
        for i, a in enumerate(actions) if a.kind in ROUND_BEGINS
    ]
    previous, following = replay_neighbours(actions, step, by)
    context = {
        "game": game, "me": me, "step": step, "total": total, "by": by,
        "step_sizes": [
            ("action", _("by action")), ("trick", _("by trick")), ("round", _("by round")),
        ],
        "playing": playing and following is not None,
        "previous": previous, "next": following,
        "happened": [
            text for text in (record_sentence(e, names) for e in action.events) if text
        ],
        "actor": names.get(action.player, "") if action.player is not None else "",
        "round_starts": round_starts,
        **reviews.replay_mark(reviews.decision_marks(game), actions, step, before, names,
                              me),
        **replay_context(state, names, me,
                         frozenset(s.player for s in game.seats.all()
                                   if s.is_bot and s.player not in replaced)),
    }
    if step == total and game.status == Game.Status.ABANDONED:
        # Ended by an organiser in the middle of a round: its last step waits on nobody.
        context["ended_early"] = True
        context["to_act_name"] = ""
        for row in context["players"]:
            row["is_turn"] = False
    template = "games/history/replay.html"
    if request.htmx:
        template += "#replay"
    return render(request, template, context)


@require_POST
@login_required
def rematch(request, game_id: int):
    game, _me = finished_seat_for_user(request, game_id)
    try:
        new = commands.open_rematch(game.pk, request.user)
    except commands.Rejected as rejected:
        messages.error(request, rejected.message)
        return redirect("game_record", game.pk)
    if new.host_id != request.user.pk:
        # Another player opened it: this one took a seat there (or found it full).
        if new.seats.filter(user=request.user).exists():
            messages.success(request, _("You took your seat at the rematch."))
        return redirect(new)
    # What is left to do there: wait for the friends invited, fill the seats left free
    # (a friend who left, an account deleted), or both.
    said = [_("The rematch table is open; the other players are invited.")
            if new.invitations.exists() else _("The rematch table is open.")]
    free = new.seats_wanted - new.seats.count()
    if free:
        said.append(ngettext("%(count)d seat is free: invite a friend or add a bot.",
                             "%(count)d seats are free: invite friends or add bots.",
                             free) % {"count": free})
    messages.success(request, " ".join(said))
    return redirect(new)
