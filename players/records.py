"""A finished game's record to download: as JSON (the action record with the seating and
the options, enough for the engine to replay it) and as text for people.

Both reveal every hand, so they exist only for games that are over (the views check
that through games.read.access before calling here).
"""

import html

from django.template.loader import render_to_string
from django.utils.html import strip_tags

from games import engine
from games.models import BOT_LEVEL_AFTER_NAME, Action, Game, Round
from games.read.replay import SeatNames, all_log_lines, apply_recorded, game_results
from leagues.standings import finished_rounds

from .models import RatingChange

FORMAT = "dalmuti-game-record"
VERSION = 1


def _time(value) -> str | None:
    return value.isoformat() if value else None


def seating(game: Game, names: SeatNames) -> list[dict]:
    """The seats as the game ended, each with the player it had before an organiser gave
    it to a bot, and from which round."""
    replaced = names.replaced()
    out = []
    for seat in game.seats.select_related("user").exclude(player=None).order_by("player"):
        before = replaced.get(seat.player)
        out.append({
            "player": seat.player,
            "name": seat.name,
            "username": seat.user.username if seat.user_id else None,
            "bot_level": seat.bot_level or None,
            "left": seat.left,
            "in_place_of": {"name": before[0], "from_round": before[1]} if before else None,
        })
    return out


def record_json(game: Game, reader: int | None) -> dict:
    """The game's record as a JSON-ready dict, as player `reader` reads it: what a
    standing order did is its owner's business, an ordinary move to everybody else."""
    state = game.engine_state() if game.state is not None else None
    actions = Action.objects.filter(game=game).order_by("seq")
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": {
            "id": game.pk,
            "name": game.name,
            "status": game.status,
            "started": _time(game.started),
            "finished": _time(game.finished),
            "end_reason": game.end_reason,
            # Hints were offered to the players: the game moved no rating.
            "hints_allowed": game.hints_allowed,
        },
        "options": engine.Options.from_json(game.options).to_json(),
        "seating": seating(game, SeatNames(game)),
        "actions": [
            {"seq": a.seq, "round": a.round_number, "player": a.player, "kind": a.kind,
             "payload": a.payload, "events": a.events, "time": _time(a.created),
             "by": "player" if a.by == "standing_order" and a.player != reader else a.by}
            for a in actions
        ],
        "standings": state.standings if state is not None else [],
        "scores": list(state.scores) if state is not None else [],
        "ratings": [
            {"name": c.rating.name, "before": round(c.mu_before, 1), "after": round(c.mu, 1),
             "uncertainty": round(c.sigma, 1), "place": c.place}
            for c in RatingChange.objects.filter(game=game).select_related("rating__user")
            .order_by("place", "pk")
        ],
    }


def replay_record(data: dict) -> engine.Game | None:
    """The final state of a downloaded record, replayed by the engine from its actions
    alone (no database)."""
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise ValueError("not a game record this site can read")
    options = engine.Options.from_json(data["options"])
    state = None
    for action in data["actions"]:
        state = apply_recorded(state, options, action["kind"], action["player"],
                               action["payload"])
    return state


def record_text(game: Game) -> str:
    """The game told for people: players, rules, every round's deal, log and result."""
    seat_names = SeatNames(game)
    names = seat_names.now
    # The same standings as the record page: whoever left shares the last place.
    standings = [{**row, "name": names.get(row["player"], "?")}
                 for row in game_results(finished_rounds(game=game)).get(game.pk, [])]
    lines_by_round: dict[int, list[str]] = {}
    actions = list(Action.objects.filter(game=game).order_by("seq"))
    for line in all_log_lines(actions, seat_names):
        lines_by_round.setdefault(line["round"], []).append(line["text"])
    rounds = []
    for rnd in Round.objects.filter(game=game).order_by("number"):
        names = seat_names.in_round(rnd.number)
        hands = [
            {"name": names.get(player, "?"), "cards": _cards(hand)}
            for player, hand in zip(rnd.positions, rnd.hands, strict=False)
        ]
        rounds.append({
            "number": rnd.number, "hands": hands,
            "lines": lines_by_round.get(rnd.number, []),
            "result": [
                {"place": i + 1, "name": names.get(p, "?"),
                 "points": rnd.points.get(str(p), 0)}
                for i, p in enumerate(rnd.finish_order)
            ],
        })
    return render_to_string("players/record.txt", {
        "game": game, "standings": standings, "rounds": rounds,
        "players": [{**p, "bot_label": BOT_LEVEL_AFTER_NAME.get(p["bot_level"], "")}
                    for p in seating(game, seat_names)],
        "rules": _rules(game.options),
    })


def _rules(options: dict) -> list[str]:
    """The table's rules as the pages list them, one line each."""
    listed = strip_tags(render_to_string("games/_options.html", {"options": options}))
    return [html.unescape(line.strip()) for line in listed.splitlines() if line.strip()]


def _cards(hand: list[int]) -> str:
    return " ".join(str(card) if card != engine.JESTER else "J" for card in sorted(hand))
