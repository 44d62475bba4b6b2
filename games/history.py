"""After the game: the list of a player's finished games, a game's full record, the replay
that steps through every action showing all hands, and the rematch.

Everything here is for the players who sat at the table, and only once it is over: the
replay reveals every hand, so a game in play must never reach it.
"""

from collections import defaultdict
from itertools import islice

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import Q
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers

from leagues.models import League, LeagueGame, Rematch
from leagues.services import invite
from leagues.standings import finished_rounds

from . import engine, services
from .labels import cards_phrase, event_sentence, title_name
from .models import Action, Game, Seat
from .table import hand_groups
from .views import _get_seat_for_user

GAMES_PER_PAGE = 25


def _get_finished_seat(request, game_id: int) -> tuple[Game, Seat]:
    """The table and the user's seat at it, once the game is over. No seat: 404, as for
    the game itself; a seat at a game not yet over: 403."""
    game, seat = _get_seat_for_user(request, game_id)
    if not game.is_over:
        raise PermissionDenied(_("The record of a game opens once the game is over."))
    return game, seat


# -- the list --


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
            league_games__game__seats__user=user
        ).distinct()


def game_results(rounds) -> dict[int, list[dict]]:
    """Per game, the players by final standing: most points, then the better place in the
    last round (RULES.md section 7). `rounds` are leagues.standings RoundFacts."""
    totals: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    last: dict[int, dict[int, int]] = {}
    for r in rounds:
        for player, points in r.points.items():
            totals[r.game_id][player] += points
        last[r.game_id] = r.places
    out = {}
    for game_id, scores in totals.items():
        order = sorted(scores, key=lambda p: (-scores[p], last[game_id].get(p, 99)))
        out[game_id] = [{"player": p, "score": scores[p], "rank": i + 1}
                        for i, p in enumerate(order)]
    return out


@login_required
def history(request):
    user = request.user
    form = HistoryFilter(request.GET or None, user=user)
    games = Game.objects.filter(
        seats__user=user, status__in=(Game.Status.FINISHED, Game.Status.ABANDONED)
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
        won = game.status == Game.Status.FINISHED and bool(my_row) and my_row["rank"] == 1
        if (outcome == "won" and not won) or (outcome == "lost" and won):
            continue
        entries.append({"game": game, "standing": standing, "me": my_row, "won": won})
    page = Paginator(entries, GAMES_PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "games/history/list.html", {
        "form": form, "page": page, "query": query.urlencode(),
    })


# -- one game's record --


def _names(game: Game) -> dict[int, str]:
    return {s.player: s.name for s in game.seats.select_related("user") if s.player is not None}


def record_sentence(event: dict, names: dict[int, str]) -> str | None:
    """An event of the log as the record tells it, to everybody, once the game is over."""
    if event["type"] == "revolution_declined":
        # Told to the jester holder alone, as "you"; in the record, by name.
        return _("%(player)s held both Jesters and kept quiet: no revolution.") % {
            "player": names.get(event.get("player"), "?")}
    return event_sentence(event, lambda p: names.get(p, "?"))


def all_log_lines(actions, names: dict[int, str]) -> list[dict]:
    """Every line of the log, private ones included: only for games that are over."""
    lines = []
    for action in actions:
        for event in action.events:
            text = record_sentence(event, names)
            if text:
                lines.append({"time": action.created, "text": text, "seq": action.seq,
                              "private": event.get("visible_to") is not None})
    return lines


@never_cache
@login_required
def game_record(request, game_id: int):
    game, me = _get_finished_seat(request, game_id)
    names = _names(game)
    rounds = finished_rounds(game=game)
    standing = game_results(rounds).get(game.pk, [])
    players = [row["player"] for row in standing] or sorted(names)
    table = []
    for r in rounds:
        table.append({
            "number": r.number,
            "cells": [
                {"place": r.places.get(p), "points": r.points.get(p),
                 "title": title_name(r.titles[p]) if p in r.titles else ""}
                for p in players
            ],
        })
    actions = list(Action.objects.filter(game=game).order_by("seq"))
    return render(request, "games/history/game.html", {
        "game": game, "me": me,
        "standing": [{**row, "name": names.get(row["player"], "?"),
                      "is_me": row["player"] == me.player} for row in standing],
        "player_names": [names.get(p, "?") for p in players],
        "rounds": table,
        "log": all_log_lines(actions, names),
        "league_link": LeagueGame.objects.filter(game=game).select_related("league").first(),
        "rematch": Rematch.objects.filter(previous=game).select_related("game").first(),
        "can_replay": bool(actions),
    })


# -- the replay --


def _step(request, total: int) -> int:
    try:
        step = int(request.GET.get("step", "1"))
    except ValueError:
        step = 1
    return min(max(step, 1), total)


def replay_context(state: engine.Game, names: dict[int, str]) -> dict:
    """The table at one step with every hand shown (the game is over)."""
    rnd = state.round
    view = state.view(None)
    g = view["game"]
    finish = {s: i + 1 for i, s in enumerate(view["finish_order"])}
    awaiting = set(rnd.awaiting) if rnd.phase != "over" else set()
    passed = set(view["trick"]["passed"])
    rows = []
    for position, seat in enumerate(view["order"]):
        player = state.seats[seat]
        cards = rnd.hand(seat)
        rows.append({
            "position": position + 1,
            "name": names.get(player, "?"),
            "title": title_name(view["titles"][seat]),
            "title_key": view["titles"][seat],
            "hand": hand_groups(cards),
            "count": len(cards),
            "score": g["scores"][player],
            "place": finish.get(seat),
            "passed": seat in passed,
            "is_turn": seat in awaiting,
        })
    plays = [
        {"name": names.get(state.seats[p["seat"]], "?"), "cards": p["cards"],
         "label": cards_phrase(p["cards"])}
        for p in view["trick"]["plays"]
    ]
    return {
        "phase": rnd.phase,
        "round_number": state.round_number,
        "rounds": state.options.rounds,
        "players": rows,
        "trick_plays": plays,
    }


@never_cache
@login_required
@vary_on_headers("HX-Request")
def replay(request, game_id: int):
    game, me = _get_finished_seat(request, game_id)
    actions = list(Action.objects.filter(game=game).order_by("seq"))
    if not actions:
        raise Http404(_("This game was never dealt: there is nothing to replay."))
    total = len(actions)
    step = _step(request, total)
    action, state = next(islice(services.replay(game, actions), step - 1, None))
    names = _names(game)
    round_starts = [
        {"number": a.round_number, "step": i + 1}
        for i, a in enumerate(actions) if a.kind in ("start", "next_round")
    ]
    context = {
        "game": game, "me": me, "step": step, "total": total,
        "previous": step - 1 if step > 1 else None,
        "next": step + 1 if step < total else None,
        "happened": [
            text for text in (record_sentence(e, names) for e in action.events) if text
        ],
        "actor": names.get(action.player, "") if action.player is not None else "",
        "round_starts": round_starts,
        **replay_context(state, names),
    }
    template = "games/history/replay.html"
    if request.htmx:
        template += "#replay"
    return render(request, template, context)


# -- the rematch --


def _seat_key(seat: Seat) -> str:
    return f"b{seat.pk}" if seat.is_bot else f"u{seat.user_id}"


def open_rematch(game_id: int, user) -> Game:
    """A new table with the same players and options, the requester hosting: bots take
    their seats at once, the other people are invited. The seating order (the final
    standings) is kept in a Rematch for the start. A second request for the same game
    joins the rematch already opened."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if not game.is_over:
            raise services.Rejected(_("A rematch can start once the game is over."), 409)
        existing = Rematch.objects.filter(previous=game).select_related("game").first()
        if existing is not None:
            new = existing.game
            if new.is_open and not new.seats.filter(user=user).exists():
                try:
                    services.join(new.pk, user)
                except services.Rejected:
                    pass
            return new
        seats = {s.player: s for s in game.seats.select_related("user")
                 if s.player is not None}
        if game.state is not None:
            order = [row["player"] for row in services.engine_state(game).standings]
        else:
            order = sorted(seats)
        order = [p for p in order if p in seats]
        name = _("%(name)s (rematch)") % {"name": game.name}
        new = services.create_table(user, name[:80], len(order), game.options)
        keys, guests = [], []
        for player in order:
            seat = seats[player]
            if seat.is_bot:
                bot = services.add_bot(new.pk, seat.bot_level)
                if seat.bot_name and not new.seats.filter(bot_name=seat.bot_name).exists():
                    Seat.objects.filter(pk=bot.pk).update(bot_name=seat.bot_name)
                keys.append(_seat_key(bot))
            else:
                keys.append(_seat_key(seat))
                if seat.user_id != user.pk:
                    guests.append(seat.user)
        Rematch.objects.create(previous=game, game=new, order=keys)
        link = LeagueGame.objects.filter(game=game).select_related("league").first()
        if link is not None:
            LeagueGame.objects.create(
                game=new, league=link.league, season=link.league.current_season()
            )
        invite(new, guests, invited_by=user)
    return new


def rematch_lineup(game: Game, seats: list[Seat]) -> list[int] | None:
    """For games.services.start: the players of a rematch table in the order of the
    previous game's final standings (`seats` already carry their player indices), or
    None when the table is not a rematch. A newcomer sits in the middle (RULES.md 8)."""
    rematch = Rematch.objects.filter(game=game).first()
    if rematch is None:
        return None
    players = {_seat_key(s): s.player for s in seats}
    lineup = [players.pop(key) for key in rematch.order if key in players]
    for player in sorted(players.values()):
        lineup.insert(len(lineup) // 2, player)
    return lineup


@require_POST
@login_required
def rematch(request, game_id: int):
    game, _me = _get_finished_seat(request, game_id)
    try:
        new = open_rematch(game.pk, request.user)
    except services.Rejected as rejected:
        messages.error(request, rejected.message)
        return redirect("game_record", game.pk)
    messages.success(request, _("The rematch table is open; the other players are invited."))
    return redirect(new)
