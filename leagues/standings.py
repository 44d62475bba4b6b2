"""League standings, computed from the rounds of the league's games.

A fixed number of queries whatever the number of games: the finished rounds (with their
game's status and season), the seats and the replacements, each in one query; the
arithmetic is done here.

Ranking: most total points; then the higher points per round; then more games won; then
the better (lower) average finishing position. Players equal on all four share the rank
and are listed by name.
"""

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from games.core.standing import by_game, winner_of
from games.engine import title
from games.models import Game, Round, Seat, left_from

from .models import Replacement

OVER = (Game.Status.FINISHED, Game.Status.ABANDONED)


@dataclass
class Row:
    user: object
    games: int = 0
    rounds: int = 0
    points: int = 0
    place_sum: int = 0
    great_dalmuti: int = 0
    greater_peon: int = 0
    wins: int = 0
    rank: int = 0
    # The name shown: with the username beside it where another row shows the same name.
    label: str = ""
    game_ids: set = field(default_factory=set, repr=False)
    won_game_ids: set = field(default_factory=set, repr=False)

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def points_per_round(self) -> Fraction:
        return Fraction(self.points, self.rounds) if self.rounds else Fraction(0)

    @property
    def average_place(self) -> Fraction:
        return Fraction(self.place_sum, self.rounds) if self.rounds else Fraction(0)

    def sort_key(self) -> tuple:
        return (-self.points, -self.points_per_round, -self.wins, self.average_place)


@dataclass
class RoundFacts:
    """One finished round, with each title and place attributed to a player index."""

    game_id: int
    number: int
    season_id: int | None
    status: str
    titles: dict[int, str]  # player -> title held during the round
    places: dict[int, int]  # player -> 1-based finishing place
    points: dict[int, int]  # player -> points scored


def finished_rounds(**filters):
    """The finished rounds of over games matching `filters` (Round lookups), as facts."""
    rows = (
        Round.objects.filter(finished__isnull=False, game__status__in=OVER, **filters)
        .order_by("game_id", "number")
        .values_list(
            "game_id", "number", "positions", "finish_order", "points", "revolution",
            "game__status", "game__league_link__season_id",
        )
    )
    return [_facts(*row) for row in rows]


def _facts(game_id, number, positions, finish_order, points, revolution, status, season_id):
    if revolution == "great":
        # A Great Revolution turns the table over before the first trick.
        positions = positions[::-1]
    n = len(positions)
    return RoundFacts(
        game_id=game_id, number=number, season_id=season_id, status=status,
        titles={p: title(i, n) for i, p in enumerate(positions)},
        places={p: i + 1 for i, p in enumerate(finish_order)},
        points={int(p): pts for p, pts in points.items()},
    )


def winners(rounds: list[RoundFacts], left: dict[int, set[int]]) -> dict[int, int]:
    """The winning player index of each finished game that has one, first in its final
    standings (games.core.standing.winner_of): never one who left it (`left`: game id ->
    player indices, or missing from its last round), so a game everybody left has none."""
    finished = {r.game_id for r in rounds if r.status == Game.Status.FINISHED}
    won = {game_id: winner_of(rows) for game_id, rows in by_game(rounds, left).items()
           if game_id in finished}
    return {game_id: player for game_id, player in won.items() if player is not None}


class Occupants:
    """Who held a player index of a game in a given round: the seat's user, or the user
    a bot replaced (for the rounds before the replacement); nobody in the rounds a bot
    played for a person who left (from their note of leaving on)."""

    def __init__(self, **filters):
        seats = Seat.objects.filter(player__isnull=False, **filters).select_related("user") \
            .annotate(until=left_from())
        self.seats = {(s.game_id, s.player): s.user for s in seats}
        # Who left each game (a bot played their seat out, or it went from the table), or
        # had it given to a bot by the organiser: none of them played the game out (the
        # ratings rank them alike, players.services.entrants).
        self.left: dict[int, set[int]] = defaultdict(set)
        # The first round a bot played for each person who left: the bot's from then on.
        self.left_from: dict[tuple[int, int], int] = {}
        for s in seats:
            if s.left:
                self.left[s.game_id].add(s.player)
            if s.until is not None:
                self.left_from[(s.game_id, s.player)] = s.until
        self.replaced = {
            (r.game_id, r.player): (r.round_number, r.user)
            for r in Replacement.objects.filter(**filters).select_related("user")
        }
        for game_id, player in self.replaced:
            self.left[game_id].add(player)

    def user(self, game_id: int, player: int, number: int | None = None):
        """The user for that round (None: a bot played it); with number None, whoever
        holds the seat at the end."""
        replaced = self.replaced.get((game_id, player))
        if replaced and number is not None and number < replaced[0]:
            return replaced[1]
        if number is not None and number >= self.left_from.get((game_id, player), number + 1):
            return None
        return self.seats.get((game_id, player))

    def bot_from(self, game_id: int, player: int) -> int | None:
        """The first round a bot played the seat for itself: from the organiser's
        replacement, or from its person's note of leaving; None if none did."""
        replaced = self.replaced.get((game_id, player))
        return replaced[0] if replaced else self.left_from.get((game_id, player))


def rank(rows: list[Row]) -> list[Row]:
    """The rows in order, each with its rank and the name it is shown by: two players may
    choose the same display name (never the same username), and a table of standings
    where two lines read "Camille" says nothing of either."""
    rows = sorted(rows, key=lambda r: (r.sort_key(), r.name.lower(), r.user.pk))
    names = Counter(row.name.casefold() for row in rows)
    previous = None
    for i, row in enumerate(rows):
        key = row.sort_key()
        row.rank = rows[i - 1].rank if key == previous else i + 1
        previous = key
        row.label = row.user.name_to_pick if names[row.name.casefold()] > 1 else row.name
    return rows


def tally(rounds: list[RoundFacts], occupants: Occupants) -> list[Row]:
    """The ranked standings of these rounds, people only (bots are not ranked)."""
    rows: dict[int, Row] = {}
    won = winners(rounds, occupants.left)
    for r in rounds:
        for player, place in r.places.items():
            user = occupants.user(r.game_id, player, r.number)
            if user is None:
                continue
            row = rows.get(user.pk)
            if row is None:
                row = rows[user.pk] = Row(user)
            row.game_ids.add(r.game_id)
            row.rounds += 1
            row.points += r.points.get(player, 0)
            row.place_sum += place
            t = r.titles.get(player)
            row.great_dalmuti += t == "great_dalmuti"
            row.greater_peon += t == "greater_peon"
    for game_id, player in won.items():
        user = occupants.user(game_id, player)
        if user is not None and user.pk in rows:
            rows[user.pk].wins += 1
            rows[user.pk].won_game_ids.add(game_id)
    for row in rows.values():
        row.games = len(row.game_ids)
    return rank(list(rows.values()))


def league_standings(league, season=None) -> list[Row]:
    """The standings of a league, all time or for one season: three queries."""
    filters = {"game__league_link__league": league}
    if season is not None:
        filters["game__league_link__season"] = season
    rounds = finished_rounds(**filters)
    return tally(rounds, Occupants(**filters))


def standings_by_season(league) -> tuple[list[Row], dict[int, list[Row]], list[RoundFacts],
                                         Occupants]:
    """All-time standings and those of each season, from one load (three queries)."""
    filters = {"game__league_link__league": league}
    rounds = finished_rounds(**filters)
    occupants = Occupants(**filters)
    by_season: dict[int, list[RoundFacts]] = defaultdict(list)
    for r in rounds:
        if r.season_id is not None:
            by_season[r.season_id].append(r)
    return (
        tally(rounds, occupants),
        {season_id: tally(rs, occupants) for season_id, rs in by_season.items()},
        rounds,
        occupants,
    )


CSV_HEADER = [
    "rank", "player", "games", "rounds", "points", "points_per_round",
    "average_finishing_position", "times_great_dalmuti", "times_greater_peon", "games_won",
]


def csv_row(row: Row) -> list:
    return [
        row.rank, row.label, row.games, row.rounds, row.points,
        f"{float(row.points_per_round):.2f}", f"{float(row.average_place):.2f}",
        row.great_dalmuti, row.greater_peon, row.wins,
    ]
