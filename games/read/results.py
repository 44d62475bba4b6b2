"""The game's results as one seat sees them, from the game part of its view: the final
standings, the scoreboard round by round, the last round's result and the seating draw.
Each takes `name_of` (a player's name at the table)."""

import math

from games.core.standing import leavers_place
from games.core.words import card_name, title_name
from games.engine.cards import title


def standings(g: dict, by_player: dict, name_of, my_player) -> list[dict]:
    """The final standings (see `ranked`), with each player's name, points and places."""
    return [
        {"rank": rank, "player": s["player"], "name": name_of(s["player"]),
         "score": s["score"], "great_dalmuti": s.get("great_dalmuti", 0),
         "is_me": s["player"] == my_player, "places": _places(g, s["player"]),
         "left": left}
        for rank, s, left in ranked(g, by_player)
    ]


def ranked(g: dict, by_player: dict) -> list[tuple[int, dict, bool]]:
    """The final standings as (rank, standing, left): those who played the game out,
    ranked; then whoever left it (gone from the table, or their seat handed to a bot),
    sharing the game's last place with their points (`leavers_place`), as in the record
    and the ratings (players.services.entrants). Nobody is placed in a game ended before a
    round was finished."""
    if not g["results"]:
        return []
    left = gone(g, by_player)
    rows = [s for s in g["standings"] if s["player"] not in left]
    rows += [{"player": p, "score": g["scores"][p], "great_dalmuti": 0}
             for p in sorted(left, key=lambda p: -g["scores"][p])]
    return [(leavers_place(len(rows)) if s["player"] in left else i + 1, s,
             s["player"] in left) for i, s in enumerate(rows)]


def nobody_won(placed: list[tuple[int, dict, bool]]) -> bool:
    """Whether a game's final standings (`ranked`) have no winner: everybody at the table
    left it (games.core.standing.winner), and the bots that played their seats out do not
    make one of them the winner."""
    return bool(placed) and all(left for _rank, _s, left in placed)


def gone(g: dict, by_player: dict) -> set[int]:
    """Who left the game: gone from the table, or their seat handed to a bot."""
    return {s.player for s in by_player.values() if s.left} | set(g.get("left", []))


def _places(g: dict, player: int) -> list[int | None]:
    """A player's finishing place in each round so far (None: not at the table)."""
    places = []
    for result in g["results"]:
        entry = next((p for p in result["players"] if p["player"] == player), None)
        places.append(entry["place"] if entry else None)
    return places


def scoreboard(g: dict, name_of, my_player) -> dict:
    """Each player's points round by round, in the standings' order: those at the table,
    most points first, a tie broken by the better place in the last round they played
    (RULES.md §7); then whoever left it (their points stand, as in the standings)."""
    rounds = [r["round"] for r in g["results"]]
    players = list(g["lineup"])
    for result in g["results"]:
        players += [p["player"] for p in result["players"] if p["player"] not in players]
    ranked_rows = []
    for player in players:
        points, last_place = [], math.inf
        for result in g["results"]:
            entry = next((p for p in result["players"] if p["player"] == player), None)
            points.append(entry["points"] if entry else None)
            if entry:
                last_place = entry["place"]
        left = player not in g["lineup"]
        ranked_rows.append(((left, -g["scores"][player], last_place), {
            "name": name_of(player), "points": points, "total": g["scores"][player],
            "is_me": player == my_player, "left": left}))
    ranked_rows.sort(key=lambda ranked_row: ranked_row[0])
    return {"rounds": rounds, "rows": [row for _rank, row in ranked_rows]}


def result_rows(result: dict, name_of) -> dict:
    """The last round's places, titles and points; and, when the next round's order is
    not the order of going out (the master rule keeps anyone from rising more than one
    position), the title each goes on with."""
    players = sorted(result["players"], key=lambda p: p["place"])
    next_order = result.get("next_order") or []
    next_title = {player: title_name(title(i, len(next_order)))
                  for i, player in enumerate(next_order)}
    return {
        "round": result["round"],
        "rows": [
            {"place": p["place"], "name": name_of(p["player"]), "title": title_name(p["title"]),
             "points": p["points"], "next_title": next_title.get(p["player"], "")}
            for p in players
        ],
        "revolution": result["revolution"],
        "reordered": bool(next_order) and next_order != result.get("finish_order", next_order),
    }


def seating_draw(g: dict, name_of) -> list[list[dict]]:
    return [
        [{"name": name_of(d["player"]), "card": d["card"], "card_name": card_name(d["card"])}
         for d in draw]
        for draw in g["seating_draws"]
    ]
