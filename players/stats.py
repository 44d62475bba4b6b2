"""What a player page shows: who may see it, and the player's statistics, all computed
from games that are over (their rounds, their final standings and the parts of their
action record that tell revolutions and taxes), so no page ever shows a hand of a game
still in play.

A fixed number of queries per page whatever the number of games.
"""

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import NamedTuple

from games import engine
from games.models import Action, Game, Seat, left_from
from games.read.replay import game_results
from leagues.models import Replacement
from leagues.standings import Occupants, finished_rounds

from .models import PlayerProfile, Rating, RatingChange

OVER = (Game.Status.FINISHED, Game.Status.ABANDONED)
# The kinds of action whose consequences can include a revolution or the taxes: the deal
# (a Great Revolution at once, taxes nobody has to decide on), and the decisions of the
# tax phase. Reading only these keeps the page from loading every play of every game.
TAX_PHASE_KINDS = ("start", "next_round", "give_back", "revolution")
RECENT_GAMES = 5
RATING_POINTS = 30


def visibility(user) -> str:
    profile = PlayerProfile.objects.filter(user=user).first()
    return profile.visibility if profile else PlayerProfile.Visibility.PLAYED_WITH


def shared_a_table(viewer, user) -> bool:
    return Seat.objects.filter(
        user=viewer, game__in=Seat.objects.filter(user=user).values("game")
    ).exists()


def can_see(viewer, user) -> bool:
    """Whether `viewer` may see `user`'s player page: their own, anybody's who lets
    everyone see it, and otherwise only if the two have sat at one table."""
    if not viewer.is_authenticated:
        return False
    if viewer.pk == user.pk or visibility(user) == PlayerProfile.Visibility.EVERYONE:
        return True
    return shared_a_table(viewer, user)


@dataclass
class Place:
    """Average final place at tables of one size."""

    players: int
    games: int = 0
    total: int = 0

    @property
    def average(self) -> float:
        return self.total / self.games


@dataclass
class HeadToHead:
    user: object
    above: int = 0  # games where the player finished above this opponent
    below: int = 0
    # Games where the two shared a place: both left it, at its last place.
    level: int = 0

    @property
    def games(self) -> int:
        return self.above + self.below + self.level


@dataclass
class Stats:
    games_played: int = 0
    games_finished: int = 0
    games_left: int = 0
    games_ended_early: int = 0
    games_in_play: int = 0
    rounds: int = 0
    great_dalmuti: int = 0
    greater_peon: int = 0
    best_streak: int = 0
    revolutions: int = 0
    great_revolutions: int = 0
    places: dict[int, Place] = field(default_factory=dict)
    taxes_paid: Counter = field(default_factory=Counter)
    taxes_received: Counter = field(default_factory=Counter)
    head_to_head: list[HeadToHead] = field(default_factory=list)
    favourite_options: list[tuple[dict, int]] = field(default_factory=list)
    recent: list[dict] = field(default_factory=list)

    @property
    def average_place(self) -> float | None:
        games = sum(p.games for p in self.places.values())
        return sum(p.total for p in self.places.values()) / games if games else None

    @property
    def places_by_size(self) -> list[Place]:
        return [self.places[n] for n in sorted(self.places)]

    @property
    def taxes(self) -> list[dict]:
        """Cards paid and received in taxes, by card value (best first)."""
        ranks = sorted(set(self.taxes_paid) | set(self.taxes_received))
        return [{"rank": r, "paid": self.taxes_paid[r], "received": self.taxes_received[r]}
                for r in ranks]


class Held(NamedTuple):
    """A game the user sat in: their player index, the first round no longer theirs (a bot
    played the seat from it on) or None, whether they left it before its end, and whether
    an organiser handed their seat to a bot."""

    player: int
    until: int | None
    left: bool
    replaced: bool = False


def games_held(user) -> dict[int, Held]:
    """{game id: Held} for every game the user sat in: their seats, and seats a bot took
    over from them. Whoever said they leave left, though a bot plays their cards to the
    end of that round (or, at some tables, to the game's): the rounds from their note of
    leaving on are the bot's (`games.models.left_from`). So did whoever had their seat
    handed to a bot: none of them played the game out (as the final standings and the
    ratings rank them)."""
    held = {
        game_id: Held(player, until, left or leaving)
        for game_id, player, left, leaving, until in Seat.objects.filter(
            user=user, player__isnull=False,
        ).annotate(until=left_from()).values_list("game_id", "player", "left", "leaving",
                                                  "until")
    }
    for game_id, player, number in Replacement.objects.filter(user=user).values_list(
        "game_id", "player", "round_number"
    ):
        held.setdefault(game_id, Held(player, number, True, replaced=True))
    return held


def player_stats(user) -> Stats:
    stats = Stats()
    held = games_held(user)
    games = {
        g.pk: g for g in Game.objects.filter(pk__in=held).exclude(status=Game.Status.OPEN)
        .only("pk", "name", "status", "options", "finished")
    }
    held = {game_id: occ for game_id, occ in held.items() if game_id in games}
    stats.games_played = len(games)
    # Each game counts once: a game left counts as left, however it went on or ended.
    finished = []
    for game_id, game in games.items():
        if held[game_id].left:
            stats.games_left += 1
        elif game.status == Game.Status.PLAYING:
            stats.games_in_play += 1
        elif game.status == Game.Status.FINISHED:
            finished.append(game_id)
        else:
            stats.games_ended_early += 1
    stats.games_finished = len(finished)
    over = [game_id for game_id, g in games.items() if g.status in OVER]

    def mine(game_id: int, number: int) -> int | None:
        until = held[game_id].until
        return held[game_id].player if until is None or number < until else None

    rounds = finished_rounds(game__in=over)
    by_game = defaultdict(list)
    for r in rounds:
        player = mine(r.game_id, r.number)
        if player is None or player not in r.places:
            continue
        by_game[r.game_id].append(r)
        stats.rounds += 1
        held_title = r.titles.get(player)
        stats.great_dalmuti += held_title == "great_dalmuti"
        stats.greater_peon += held_title == "greater_peon"
    for game_rounds in by_game.values():
        player = held[game_rounds[0].game_id][0]
        streak, previous = 0, None
        for r in game_rounds:
            if r.titles.get(player) == "great_dalmuti":
                streak = streak + 1 if previous == r.number - 1 else 1
                previous = r.number
                stats.best_streak = max(stats.best_streak, streak)
            else:
                previous = None

    results = game_results(rounds)
    # The final places count every game that reached its end with the player ranked in
    # it: those they left too, at the last place they share with other leavers, so that
    # leaving a game going badly spares no average (a seat an organiser handed to a bot
    # is not theirs to answer for).
    ranked = finished + [game_id for game_id, game in games.items()
                         if game.status == Game.Status.FINISHED and held[game_id].left
                         and not held[game_id].replaced]
    occupants = Occupants(game__in=ranked)
    opponents: dict[int, HeadToHead] = {}
    for game_id in ranked:
        standing = results.get(game_id, [])
        rank = {row["player"]: row["rank"] for row in standing}
        player = held[game_id][0]
        if player not in rank:
            continue
        place = stats.places.setdefault(len(standing), Place(len(standing)))
        place.games += 1
        place.total += rank[player]
        for other, other_rank in rank.items():
            opponent = occupants.user(game_id, other) if other != player else None
            if opponent is None or opponent.pk == user.pk:
                continue
            h2h = opponents.setdefault(opponent.pk, HeadToHead(opponent))
            if rank[player] < other_rank:
                h2h.above += 1
            elif rank[player] > other_rank:
                h2h.below += 1
            else:
                h2h.level += 1
    stats.head_to_head = sorted(opponents.values(),
                                key=lambda h: (-h.games, h.user.name.lower(), h.user.pk))

    for game_id, number, events in Action.objects.filter(
        game_id__in=over, kind__in=TAX_PHASE_KINDS
    ).order_by("game_id", "seq").values_list("game_id", "round_number", "events"):
        player = mine(game_id, number)
        if player is None:
            continue
        tributes = set()
        for event in events:
            kind = event.get("type")
            if kind == "revolution" and event.get("player") == player:
                if event.get("great"):
                    stats.great_revolutions += 1
                else:
                    stats.revolutions += 1
            elif kind == "taxes":
                tributes = {(e["from"], e["to"]) for e in event["exchanges"]}
            elif kind == "tax_exchange" and (event["from"], event["to"]) in tributes:
                # A tribute, from a Peon to a Dalmuti (what comes back is not a tax).
                if event["from"] == player:
                    stats.taxes_paid.update(event["cards"])
                elif event["to"] == player:
                    stats.taxes_received.update(event["cards"])

    stats.favourite_options = favourite_options(games[game_id] for game_id in finished)
    stats.recent = recent_rounds(held, games, by_game)
    return stats


def favourite_options(games) -> list[tuple[dict, int]]:
    """The rules the player has played most, most played first (at most three), counted
    over the games they played to the end: a game in play may yet be left, and a game
    left (or ended early) says more of the table than of the rules they enjoy."""
    counts: Counter = Counter()
    for game in games:
        try:
            options = engine.Options.from_json(game.options).to_json()
        except (TypeError, ValueError):
            continue
        counts[json.dumps(options, sort_keys=True)] += 1
    return [(json.loads(key), n) for key, n in
            sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3]]


def recent_rounds(held: dict, games: dict, by_game: dict) -> list[dict]:
    """The player's place in each round of their last games that are over, newest first;
    for a game they left, the round they said so in (`left_in`): a bot played the rounds
    from it on, which are not theirs (an organiser's replacement is not told here)."""
    ordered = sorted(by_game, key=lambda g: (games[g].finished is not None, games[g].finished,
                                             g), reverse=True)[:RECENT_GAMES]
    out = []
    for game_id in ordered:
        player = held[game_id][0]
        rows = [{"round": r.number, "place": r.places[player], "players": len(r.places)}
                for r in by_game[game_id]]
        occupied = held[game_id]
        out.append({"game": games[game_id], "rounds": rows,
                    "left_in": occupied.until if occupied.left and not occupied.replaced
                    else None})
    return out


def rating_of(user) -> Rating | None:
    return Rating.objects.filter(user=user).first()


def rating_history(rating: Rating | None, limit: int = RATING_POINTS) -> list[RatingChange]:
    """The rating's last steps, oldest first."""
    if rating is None:
        return []
    changes = list(rating.changes.select_related("game").order_by("-pk")[:limit])
    return changes[::-1]


def bot_ratings() -> list[Rating]:
    return list(Rating.objects.filter(user=None).order_by("-mu"))
