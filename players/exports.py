"""A league season's games for the organiser to keep or analyse: every game of the
season with each player's final place, points and rating change, as CSV rows or as JSON
(with the season's standings). Games not yet over are listed without results."""

from collections import defaultdict

from django.utils.translation import gettext as _

from games.models import STAND_IN_LEVEL, BotLevel, Game, Seat
from games.read.replay import game_results
from leagues.standings import Occupants, csv_row, finished_rounds, league_standings

from .models import RatingChange

CSV_HEADER = [
    "league", "season", "table_id", "table", "status", "finished", "player", "bot_level",
    "rank", "points", "rounds", "rating_before", "rating_after",
]


def season_games(season) -> list[dict]:
    """Each game of the season with a row per person who played it (and per bot): a seat
    the organiser gave to a bot is two rows, its player's for the rounds before (ranked
    with the leavers, as the ratings and the standings count them) and the bot's after
    (not ranked, as the ratings leave it); so is the seat of a player who left, the
    stand-in bot's row holding the rounds it played from their note of leaving on."""
    games = list(
        Game.objects.filter(league_link__season=season).order_by("finished", "pk")
        .defer("state", "awaiting")
    )
    ids = [g.pk for g in games]
    rounds = finished_rounds(game__in=ids)
    occupants = Occupants(game__in=ids)
    results = game_results(rounds, occupants.left)
    # (game, player index, whether the organiser's bot played it) -> rounds, points
    played: dict[tuple[int, int, bool], list[int]] = defaultdict(lambda: [0, 0])
    for r in rounds:
        for player in r.places:
            bot_from = occupants.bot_from(r.game_id, player)
            tally = played[(r.game_id, player, bot_from is not None and r.number >= bot_from)]
            tally[0] += 1
            tally[1] += r.points.get(player, 0)
    seats = {(s.game_id, s.player): s for s in Seat.objects.filter(
        game__in=ids, player__isnull=False).select_related("user")}
    changes = {
        (c.game_id, c.rating.user_id or c.rating.bot_level): c
        for c in RatingChange.objects.filter(game__in=ids).select_related("rating")
    }

    def row_of(game, player, rank, name, user, bot_level, by_bot):
        rounds_played, points = played[(game.pk, player, by_bot)]
        change = None if by_bot else changes.get((game.pk, user.pk if user else bot_level))
        return {
            "player": name, "username": user.username if user else None,
            "bot_level": bot_level or None,
            "rank": rank if game.status == Game.Status.FINISHED else None,
            "points": points, "rounds": rounds_played,
            "rating_before": round(change.mu_before, 1) if change else None,
            "rating_after": round(change.mu, 1) if change else None,
        }

    out = []
    for game in games:
        rows, by_bots = [], []
        for row in results.get(game.pk, []):
            player = row["player"]
            seat = seats.get((game.pk, player))
            replaced = occupants.replaced.get((game.pk, player))
            if replaced:
                person = replaced[1]
                rows.append(row_of(game, player, row["rank"], person.name, person, "", False))
                if played[(game.pk, player, True)][0]:
                    by_bots.append(row_of(game, player, None, seat.name if seat else "?",
                                          None, seat.bot_level if seat else "", True))
                continue
            user = occupants.user(game.pk, player)
            bot_level = seat.bot_level if seat is not None and user is None else ""
            rows.append(row_of(game, player, row["rank"],
                               user.name if user else (seat.name if seat else "?"),
                               user, bot_level, False))
            if user is not None and played[(game.pk, player, True)][0]:
                # Left: the stand-in played the seat's rounds from then on.
                by_bots.append(row_of(game, player, None, _("stand-in bot, %(level)s") % {
                    "level": BotLevel(STAND_IN_LEVEL).label}, None, STAND_IN_LEVEL, True))
        out.append({
            "id": game.pk, "name": game.name, "status": game.status,
            "finished": game.finished.isoformat() if game.finished else None,
            "players": rows + by_bots,
        })
    return out


def season_csv_rows(season) -> list[list]:
    rows = []
    for game in season_games(season):
        for p in game["players"]:
            rows.append([
                season.league.name, season.name, game["id"], game["name"], game["status"],
                game["finished"] or "", p["player"], p["bot_level"] or "",
                "" if p["rank"] is None else p["rank"], p["points"], p["rounds"],
                "" if p["rating_before"] is None else p["rating_before"],
                "" if p["rating_after"] is None else p["rating_after"],
            ])
    return rows


STANDINGS_KEYS = [
    "rank", "player", "games", "rounds", "points", "points_per_round",
    "average_finishing_position", "times_great_dalmuti", "times_greater_peon", "games_won",
]


def season_json(season) -> dict:
    return {
        "league": season.league.name,
        "season": season.name,
        "start": season.start.isoformat(),
        "end": season.end.isoformat(),
        "standings": [dict(zip(STANDINGS_KEYS, csv_row(row), strict=True))
                      for row in league_standings(season.league, season)],
        "games": season_games(season),
    }
