import csv
from collections import Counter, defaultdict

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import engine
from games.models import Game, Invitation, Seat

from . import standings
from .models import League, LeagueGame, Membership, Replacement, Season


def _get_league_for_user(request, slug: str) -> League:
    """The league, for its members and for whoever runs it (its organisers, a superuser);
    404 for anybody else, organisers of other leagues included."""
    league = League.objects.filter(slug=slug).first()
    if league is None:
        raise Http404
    if not Membership.objects.filter(league=league, user=request.user).exists():
        if not League.objects.organised_by(request.user).filter(pk=league.pk).exists():
            raise Http404
    return league


def _season_choice(request, seasons: list[Season]) -> Season | None:
    """?season=<id>, ?season=all, or by default the season running today (else all time)."""
    chosen = request.GET.get("season", "")
    if chosen == "all":
        return None
    if chosen:
        season = next((s for s in seasons if str(s.pk) == chosen), None)
        if season is None:
            raise Http404
        return season
    return next((s for s in seasons if s.is_current), None)


def _seasons(league: League) -> list[Season]:
    seasons = list(league.seasons.all())
    today = timezone.localdate()
    for season in seasons:
        season.is_current = season.start <= today <= season.end
    return seasons


@login_required
def league_list(request):
    leagues = list(League.objects.filter(memberships__user=request.user)
                   .order_by("-active", "name"))
    # Whoever runs leagues from the admin finds them here too, with the way there: beside
    # their own leagues, and apart those they run without playing (a superuser: all).
    run = list(League.objects.organised_by(request.user).order_by("-active", "name")
               if request.user.is_staff else ())
    running = {league.pk for league in run}
    for league in leagues:
        league.run_by_me = league.pk in running
    mine = {league.pk for league in leagues}
    return render(request, "leagues/list.html", {
        "leagues": leagues, "run": [league for league in run if league.pk not in mine]})


@require_GET
@login_required
def league_page(request, slug: str):
    league = _get_league_for_user(request, slug)
    seasons = _seasons(league)
    season = _season_choice(request, seasons)
    rows = standings.league_standings(league, season)
    return render(request, "leagues/league.html", {
        "league": league, "seasons": seasons, "season": season, "rows": rows,
        "me": request.user, "options": engine.Options.from_json(league.default_options).to_json(),
        **_league_tables(league, season, request.user,
                         winners={g: row.label for row in rows for g in row.won_game_ids}),
    })


# The league page lists this many finished games, the most recent first.
FINISHED_LISTED = 20


def _league_tables(league: League, season: Season | None, user,
                   winners: dict[int, str] | None = None) -> dict:
    """The league's tables as a member sees them: open tables (with the way in for those
    invited), games in play and finished games (of the season shown), each with its
    players, and its winner's name where a person won it (`winners`, by game id, from the
    standings); four queries whatever their number."""
    links = LeagueGame.objects.filter(league=league).select_related("game__host") \
        .defer("game__state", "game__awaiting").order_by("-game__updated", "-pk")
    if season is not None:
        links = links.filter(Q(season=season) | Q(game__status=Game.Status.OPEN))
    links = list(links)
    ids = [link.game_id for link in links]
    players: dict[int, list[str]] = defaultdict(list)
    # A finished game's: whoever left it too, marked (their points count in the standings).
    played: dict[int, list[dict]] = defaultdict(list)
    mine = set()
    # A seat the organiser gave to a bot: its player played the rounds before, and left.
    replaced = {(r.game_id, r.player): r.user for r in
                Replacement.objects.filter(game_id__in=ids).select_related("user")}
    for seat in Seat.objects.filter(game_id__in=ids).select_related("user") \
            .order_by("game_id", "player", "joined", "pk"):
        if not seat.left:
            players[seat.game_id].append({"name": seat.name, "user": seat.user})
        if (seat.game_id, seat.player) in replaced:
            left_by = replaced[(seat.game_id, seat.player)]
            played[seat.game_id].append({"name": left_by.name, "user": left_by, "left": True})
        played[seat.game_id].append({"name": seat.name, "user": seat.user, "left": seat.left})
        if seat.user_id == user.pk:
            mine.add(seat.game_id)
    for names in (*players.values(), *played.values()):
        _tell_apart(names)
    invited = set(Invitation.objects.for_user(user).filter(game_id__in=ids)
                  .values_list("game_id", flat=True))
    open_tables, in_play, finished = [], [], []
    for link in links:
        game = link.game
        entry = {"game": game, "season": link.season_id,
                 "players": [p["name"] for p in players[game.pk]],
                 "played": played[game.pk],
                 "seated": game.pk in mine, "invited": game.pk in invited,
                 "winner": (winners or {}).get(game.pk)}
        if game.is_open:
            open_tables.append(entry)
        elif game.is_playing:
            in_play.append(entry)
        elif game.started is not None:
            finished.append(entry)
    finished.sort(key=lambda e: e["game"].finished or e["game"].updated, reverse=True)
    return {"open_tables": open_tables, "in_play": in_play,
            "finished": finished[:FINISHED_LISTED],
            "more_finished": max(0, len(finished) - FINISHED_LISTED)}


def _tell_apart(names: list[dict]) -> None:
    """Two people of one table who chose the same display name are named with their
    usernames too (never the same)."""
    counts = Counter(entry["name"].casefold() for entry in names)
    for entry in names:
        if entry["user"] is not None and counts[entry["name"].casefold()] > 1:
            entry["name"] = entry["user"].name_to_pick


def csv_header() -> list[str]:
    return [
        _("Rank"), _("Player"), _("Games"), _("Rounds"), _("Points"), _("Points per round"),
        _("Average finishing position"), _("Times Great Dalmuti"), _("Times Greater Peon"),
        _("Games won"),
    ]


def write_standings_csv(response, sections) -> None:
    """`sections`: (league, season or None, rows); one CSV with a league and a season
    column, so that several standings fit in one file."""
    writer = csv.writer(response)
    writer.writerow([_("League"), _("Season")] + csv_header())
    for league, season, rows in sections:
        for row in rows:
            writer.writerow(
                [league.name, season.name if season else _("All time")]
                + standings.csv_row(row)
            )


@require_GET
@login_required
def standings_csv(request, slug: str):
    league = _get_league_for_user(request, slug)
    season = _season_choice(request, _seasons(league))
    rows = standings.league_standings(league, season)
    name = f"{league.slug}-{slugify(season.name) if season else 'all-time'}-standings.csv"
    response = HttpResponse(
        content_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
    write_standings_csv(response, [(league, season, rows)])
    return response


@require_GET
@login_required
def player_page(request, slug: str, user_id: int):
    league = _get_league_for_user(request, slug)
    player = get_user_model().objects.filter(pk=user_id).first()
    if player is None:
        raise Http404
    all_time, by_season, rounds, occupants = standings.standings_by_season(league)
    mine = [r for r in rounds if _is_player(occupants, r, player)]
    if not mine and not Membership.objects.filter(league=league, user=player).exists():
        raise Http404
    seasons = _seasons(league)
    results = [{"season": None, "row": _row_of(all_time, player), "of": len(all_time)}]
    for season in seasons:
        rows = by_season.get(season.pk, [])
        row = _row_of(rows, player)
        if row is not None:
            results.append({"season": season, "row": row, "of": len(rows)})

    game_ids = sorted({r.game_id for r in mine})
    links = {
        link.game_id: link
        for link in LeagueGame.objects.filter(game_id__in=game_ids)
        .select_related("game", "season").defer("game__state", "game__awaiting")
    }
    seated = set(
        Seat.objects.filter(game_id__in=game_ids, user=request.user)
        .values_list("game_id", flat=True)
    )
    won = standings.winners(rounds, occupants.left)
    games = []
    for game_id in game_ids:
        link = links[game_id]
        titles, points = [], 0
        for r in mine:
            if r.game_id == game_id:
                player_index = next(p for p in r.places if occupants.user(
                    r.game_id, p, r.number) == player)
                titles.append({"number": r.number, "key": r.titles.get(player_index, ""),
                               "place": r.places[player_index]})
                points += r.points.get(player_index, 0)
        winner = won.get(game_id)
        games.append({
            "game": link.game, "season": link.season, "titles": titles, "points": points,
            "won": winner is not None and occupants.user(game_id, winner) == player,
            "seated": game_id in seated,
        })
    games.sort(key=lambda g: (g["game"].finished or g["game"].created), reverse=True)
    return render(request, "leagues/player.html", {
        "league": league, "player": player, "results": results, "games": games,
        "abandoned": Game.Status.ABANDONED,
    })


def _is_player(occupants, r, player) -> bool:
    return any(occupants.user(r.game_id, p, r.number) == player for p in r.places)


def _row_of(rows, player):
    return next((row for row in rows if row.user.pk == player.pk), None)
