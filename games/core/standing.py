"""A finished game's final standings from its rounds' points and places: the one rule the
record, the history lists and the league tables rank by (docs/RULES.md section 7)."""

from collections import defaultdict


def leavers_place(players: int) -> int:
    """The place whoever left a game shares with every other leaver: the game's last, its
    number of players. Never better, however many left: a game everybody left is no
    win-place for any of them (they are not placed after the last who played it out, who
    would be nobody)."""
    return players


def final_order(scores: dict[int, int], last_places: dict[int, int],
                gone: set[int]) -> list[dict]:
    """The players by final standing: most points, then the better place in the last
    round. Whoever left the game (`gone`) is not ranked among those who played it out:
    the leavers share the game's last place (`leavers_place`, `"left": True`), as in the
    ratings (players.services.entrants) and the table's own final standings."""
    order = sorted(scores, key=lambda p: (p in gone, -scores[p], last_places.get(p, 99)))
    return [{"player": p, "score": scores[p], "left": p in gone,
             "rank": leavers_place(len(order)) if p in gone else i + 1}
            for i, p in enumerate(order)]


def winner(standings: list[dict], gone: set[int]) -> int | None:
    """Who won the game: the first of the standings (best first) who played it out.
    Whoever left shares the last place and never wins, though a bot that finished their
    rounds for them scored the most; a game everybody left has no winner (None), and
    every page, line and message that tells its end says so."""
    return next((s["player"] for s in standings if s["player"] not in gone), None)


def winner_of(order: list[dict]) -> int | None:
    """The winner of a game by its `final_order`: its first, unless they left (then
    everybody did, and nobody won)."""
    return winner(order, {row["player"] for row in order if row["left"]})


def by_game(rounds, left: dict[int, set[int]]) -> dict[int, list[dict]]:
    """Per game, its players by final standing (`final_order`), from its finished
    `rounds` in order (each with `game_id`, `points` and `places` by player index):
    whoever is in `left` (game id -> player indices) or missing from the game's last
    round left it."""
    totals: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    last: dict[int, dict[int, int]] = {}
    for r in rounds:
        for player, points in r.points.items():
            totals[r.game_id][player] += points
        last[r.game_id] = r.places
    return {
        game_id: final_order(scores, last[game_id],
                             {p for p in scores if p not in last[game_id]}
                             | left.get(game_id, set()))
        for game_id, scores in totals.items()
    }
