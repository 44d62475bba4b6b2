"""The write side of the players app: ratings moved by a finished game, and a player's
choice of who may see their page.

Why final standings and not each round's finishing order: the rounds of one game are not
independent contests. Whoever finishes first becomes Great Dalmuti and is paid the best
cards for the next round, so the rounds after the first mostly repeat what the first
decided; rating each round would count that one piece of luck ten times and make the
rating swing with the seating draw. The game's standings (points over every round, ties
broken by the last round) are the result players play for, so each finished game is one
Plackett-Luce match with every player in it, updated by the transaction that records the
game's end (games.commands.base.finish_game).

Who is rated for a place: the person holding the seat at the end (a stand-in bot that
played some turns for them does not change that), or the seat's bot level. A person who
left the game, or was replaced by a bot, shares the last place with the other leavers,
and the seat's later results go unrated (they are neither theirs nor a whole game for the
bot). Bots of one level share a rating: each bot seat enters the match as a copy of it,
and the level's rating takes every copy's change in mu and the smallest sigma.
"""

from collections import defaultdict
from dataclasses import dataclass

from django.db import transaction
from openskill.models import PlackettLuce

from games import engine
from games.core.standing import leavers_place
from games.models import Game
from leagues.models import Replacement

from .models import BETA, MU, SIGMA, TAU, PlayerProfile, Rating, RatingChange

MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)

# ("user", user id) or ("bot", level)
Key = tuple[str, int | str]


@dataclass(frozen=True)
class Step:
    """What one game did to one rating."""

    place: int
    players: int
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float


def entrants(game: Game, state: engine.Game) -> list[tuple[Key, int]]:
    """(rating key, place) of everyone rated for this finished game, best first; the
    leavers share the game's last place (games.core.standing.leavers_place: the order
    against those who played it out is all that moves a rating). A game where hints were
    allowed rates nobody (its places were not the players' own)."""
    if game.hints_allowed:
        return []
    seats = {s.player: s for s in game.seats.all() if s.player is not None}
    replaced = {r.player: r.user_id for r in Replacement.objects.filter(game=game)}
    ranked: list[Key] = []
    leavers: list[Key] = []
    for row in state.standings:
        player = row["player"]
        seat = seats.get(player)
        if player in replaced:
            leavers.append(("user", replaced[player]))
        elif seat is None:
            continue
        elif seat.user_id is None:
            ranked.append(("bot", seat.bot_level))
        elif seat.left:
            leavers.append(("user", seat.user_id))
        else:
            ranked.append(("user", seat.user_id))
    for player in state.left:
        seat = seats.get(player)
        if player in replaced:
            leavers.append(("user", replaced[player]))
        elif seat is not None and seat.user_id is not None:
            leavers.append(("user", seat.user_id))
    out = [(key, i + 1) for i, key in enumerate(ranked)]
    seen = {key for key in ranked if key[0] == "user"}
    gone = []
    for key in leavers:
        if key not in seen:
            seen.add(key)
            gone.append(key)
    # The game's last place, never better, however many left (as the final standings).
    last = leavers_place(len(out) + len(gone))
    return out + [(key, last) for key in gone]


def compute(players: list[tuple[Key, int]],
            current: dict[Key, tuple[float, float]]) -> dict[Key, Step]:
    """The new rating of each key after one match (pure: the same inputs always give the
    same floats). `current` holds (mu, sigma) of the keys already rated."""
    if len({key for key, _place in players}) < 2:
        return {}
    teams = []
    for key, _place in players:
        mu, sigma = current.get(key, (MU, SIGMA))
        teams.append([MODEL.rating(mu=mu, sigma=sigma)])
    new = MODEL.rate(teams, ranks=[place for _key, place in players])
    copies: dict[Key, list[int]] = defaultdict(list)
    for i, (key, _place) in enumerate(players):
        copies[key].append(i)
    n = len(players)
    out = {}
    for key, indices in copies.items():
        mu, sigma = current.get(key, (MU, SIGMA))
        out[key] = Step(
            place=min(players[i][1] for i in indices),
            players=n,
            mu_before=mu,
            sigma_before=sigma,
            mu=mu + sum(new[i][0].mu - mu for i in indices),
            sigma=min(new[i][0].sigma for i in indices),
        )
    return out


def _rating(key: Key) -> Rating:
    if key[0] == "user":
        return Rating.objects.get_or_create(user_id=key[1], defaults={"bot_level": ""})[0]
    return Rating.objects.get_or_create(bot_level=key[1], user=None)[0]


def rate_game(game: Game, state: engine.Game) -> dict[Key, Step]:
    """Move the ratings of everyone in this finished game, in the caller's transaction.

    The rating rows are locked (in one order, so two games ending at once cannot
    deadlock) before they are read: of two games with a player in common, the second
    waits for the first to commit and rates from its result. The caller stamps the game's
    end only after this returns, so ordering games by that time is the order their
    ratings were moved in, which is how the rebuild command replays them."""
    players = entrants(game, state)
    if len({key for key, _place in players}) < 2:
        return {}
    with transaction.atomic():
        ids = sorted({_rating(key).pk for key, _place in players})
        rows = {key_of(r): r for r in Rating.objects.select_for_update().filter(pk__in=ids)
                .order_by("pk")}
        steps = compute(players, {key: (r.mu, r.sigma) for key, r in rows.items()})
        for key, step in steps.items():
            row = rows[key]
            RatingChange.objects.create(
                rating=row, game=game, place=step.place, players=step.players,
                mu_before=step.mu_before, sigma_before=step.sigma_before,
                mu=step.mu, sigma=step.sigma,
            )
            row.mu, row.sigma, row.games = step.mu, step.sigma, row.games + 1
            row.save(update_fields=["mu", "sigma", "games", "updated"])
    return steps


def key_of(rating: Rating) -> Key:
    return ("user", rating.user_id) if rating.user_id else ("bot", rating.bot_level)


def forget_ratings() -> None:
    """Every rating and its history gone (the rebuild command starts from nothing)."""
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()


def set_visibility(user, visibility: str) -> PlayerProfile:
    if visibility not in PlayerProfile.Visibility.values:
        raise ValueError(visibility)
    profile, _created = PlayerProfile.objects.update_or_create(
        user=user, defaults={"visibility": visibility}
    )
    return profile
