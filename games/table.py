"""What one player sees at a table, built only from the engine's view of their seat.

Every page, fragment and email about a game in play gets its facts from `view_for`, so
nothing a player may not know can reach them.
"""

import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.utils import timezone

from . import engine
from .clock import VACATION_DAYS, deadline
from .commands import trick_key
from .labels import card_name, cards_phrase, event_sentence, title_name
from .models import Action, Game, Seat

JESTER = engine.JESTER


@dataclass
class PlayerRow:
    player: int
    seat: int | None
    name: str
    is_bot: bool
    is_me: bool
    title: str = ""
    title_key: str = ""
    position: int = 0
    cards: int = 0
    passed: bool = False
    place: int | None = None
    score: int = 0
    is_turn: bool = False
    stand_in: bool = False
    on_vacation: bool = False


@dataclass
class Choice:
    """A button: one legal action, as the value submitted and its label."""

    value: str
    label: str


@dataclass
class RankGroup:
    rank: int
    name: str
    count: int
    plays: list[Choice] = field(default_factory=list)


def view_for(game: Game, seat: Seat | None) -> dict:
    """The engine's view for this seat's player (a spectator's view when None)."""
    state = engine.Game.from_json(game.state)
    return state.view(seat.player if seat is not None else None)


def table_context(game: Game, me: Seat | None, seats: list[Seat]) -> dict:
    """Everything the game page shows to `me`, built from `me`'s view only."""
    view = view_for(game, me)
    g = view["game"]
    by_player = {s.player: s for s in seats}
    my_player = me.player if me is not None else None

    def name_of(player: int) -> str:
        seat = by_player.get(player)
        return seat.name if seat else "?"

    trick = view["trick"]
    now = timezone.now()
    awaiting_seats = set(view["awaiting"])
    finish = {s: i + 1 for i, s in enumerate(view["finish_order"])}
    rows = []
    for position, seat_index in enumerate(view["order"]):
        player = view["seats"][seat_index]
        seat = by_player.get(player)
        rows.append(PlayerRow(
            player=player,
            seat=seat_index,
            name=name_of(player),
            is_bot=bool(seat and seat.is_bot),
            is_me=player == my_player,
            title=title_name(view["titles"][seat_index]),
            title_key=view["titles"][seat_index],
            position=position + 1,
            cards=view["counts"][seat_index],
            passed=seat_index in trick["passed"],
            place=finish.get(seat_index),
            score=g["scores"][player],
            is_turn=seat_index in awaiting_seats and view["phase"] != "over",
            stand_in=bool(seat and seat.stand_in),
            on_vacation=bool(seat and seat.vacation_until and seat.vacation_until > now),
        ))

    plays = [
        {"name": name_of(view["seats"][p["seat"]]), "cards": p["cards"],
         "label": cards_phrase(p["cards"])}
        for p in trick["plays"]
    ]
    my_turn = me is not None and bool(view["legal_actions"])
    turn_token = game.awaiting.get(str(my_player), [None])[0] if me is not None else None
    context = {
        "view": view,
        "phase": view["phase"],
        "players": rows,
        "trick_plays": plays,
        "to_beat": trick["to_beat"],
        "to_act_name": name_of(view["seats"][view["to_act"]]) if view["to_act"] is not None else "",
        "waiting_names": [
            name_of(view["seats"][s]) for s in view["awaiting"] if view["seats"][s] != my_player
        ],
        "my_turn": my_turn,
        "turn_token": turn_token,
        "hand_groups": hand_groups(view["hand"]),
        "round_number": g["round_number"],
        "rounds": g["rounds"],
        "target_score": g["target_score"],
        "open_ended": g["rounds"] is None and g["target_score"] is None,
        "ending": g.get("ending", False),
        "scoring": g.get("scoring", True),
        "is_host": me is not None and me.user_id == game.host_id,
        "game_over": g["is_over"],
        "standings": [
            {"rank": s["rank"], "name": name_of(s["player"]), "score": s["score"],
             "great_dalmuti": s.get("great_dalmuti", 0), "is_me": s["player"] == my_player}
            for s in g["standings"]
        ],
        "winner_name": name_of(g["winner"]) if g["winner"] is not None else "",
        "scoreboard": _scoreboard(g, name_of, my_player),
        "last_result": _result_rows(g["results"][-1], name_of) if g["results"] else None,
        "seating_draw": _seating_draw(g, name_of) if g["round_number"] == 1 else None,
        "revolution": view["revolution"] and {
            "name": name_of(view["seats"][view["revolution"]["seat"]]),
            "great": view["revolution"]["great"],
        },
        "taxes": _taxes(view, name_of),
        "trade": _trade(view, name_of),
        "my_title": title_name(view["titles"][view["seat"]]) if view["seat"] is not None else "",
    }
    if my_turn:
        context.update(_my_actions(view, name_of))
    if me is not None:
        context["orders"] = _my_seat(game, me, view, now)
    context["me_key"] = _key(view["hand"], view["legal_actions"], turn_token, view["taxes"],
                             view["trade"], context.get("orders"))
    return context


def _my_seat(game: Game, me: Seat, view: dict, now: datetime) -> dict:
    """My standing orders, clock and stand-in, private to me."""
    wait = game.awaiting.get(str(me.player))
    on_vacation = bool(me.vacation_until and me.vacation_until > now)
    left = timedelta(days=VACATION_DAYS) - me.vacation_used
    return {
        "auto_pass": me.auto_pass,
        "auto_tax_worst": me.auto_tax_worst,
        "pass_trick": view["phase"] == "play" and me.pass_trick == trick_key(view),
        "can_pass_trick": view["phase"] == "play" and bool(view["trick"]["plays"]),
        "deadline": deadline(game, me, datetime.fromisoformat(wait[1])) if wait else None,
        "turn_limit": game.turn_limit,
        "stand_in": me.stand_in,
        "on_vacation": on_vacation,
        "vacation_until": me.vacation_until if on_vacation else None,
        "vacation_days_left": max(0, left.days),
        "vacation_choices": list(range(1, max(0, left.days) + 1)),
    }


def _key(*parts) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:16]


def hand_groups(hand: list[int]) -> list[RankGroup]:
    """A hand grouped by rank, best first: what the page draws as cards."""
    groups: dict[int, RankGroup] = {}
    for card in hand:
        group = groups.setdefault(card, RankGroup(card, card_name(card), 0))
        group.count += 1
    return list(groups.values())


def _my_actions(view: dict, name_of) -> dict:
    """My legal actions, grouped so that each is at most two taps away: open a rank, pick
    the play (or pass, one tap)."""
    legal = view["legal_actions"]
    out: dict = {"can_pass": False, "play_groups": [], "give_back": None,
                 "revolution_offer": False,
                 "trade_partners": [], "trade_cards": []}
    groups: dict[int, RankGroup] = {}
    give_cards: set[int] = set()
    for action in legal:
        kind = action["type"]
        if kind == "pass":
            out["can_pass"] = True
        elif kind == "play":
            cards = action["cards"]
            rank = min(cards)
            group = groups.setdefault(rank, RankGroup(rank, card_name(rank), 0))
            group.plays.append(Choice(",".join(map(str, cards)), cards_phrase(cards)))
        elif kind == "give_back":
            give_cards.update(action["cards"])
        elif kind == "revolution":
            if action["declare"]:
                out["revolution_offer"] = True
            else:
                out["can_keep_quiet"] = True
        elif kind == "trade":
            partner = action["partner"]
            if partner is not None:
                out["trade_partners"].append(
                    Choice(str(partner), name_of(view["seats"][partner]))
                )
            else:
                out["can_decline_trade"] = True
        elif kind == "trade_card":
            out["trade_cards"].append(Choice(str(action["card"]), card_name(action["card"])))
    # Asked only so that nobody can tell whether they hold both jesters (a first round
    # without taxes asks the Greater Peon every time).
    out["open_the_round"] = out.pop("can_keep_quiet", False) and not out["revolution_offer"]
    for group in groups.values():
        group.count = view["hand"].count(group.rank)
    out["play_groups"] = sorted(groups.values(), key=lambda g: g.rank)
    if give_cards:
        due = view["taxes"]["to_give_back"]
        options = [c for c in view["hand"] if c in give_cards]
        out["give_back"] = {
            "count": due,
            "cards": [{"rank": c, "name": card_name(c)} for c in options],
            "forced": sum(1 for a in legal if a["type"] == "give_back") == 1,
        }
    return out


def _taxes(view: dict, name_of) -> dict | None:
    taxes = view["taxes"]
    if taxes["status"] in ("none", None):
        return None
    seats = view["seats"]
    return {
        "status": taxes["status"],
        "exchanges": [
            {"from": name_of(seats[e["from"]]), "to": name_of(seats[e["to"]]), "count": e["count"]}
            for e in taxes["exchanges"]
        ],
        "gave": cards_phrase(taxes["gave"]) if taxes["gave"] else "",
        "received": cards_phrase(taxes["received"]) if taxes["received"] else "",
        "choice": cards_phrase(taxes["choice"]) if taxes["choice"] else "",
    }


def _trade(view: dict, name_of) -> dict | None:
    trade = view["trade"]
    if not trade or trade["status"] in ("off", "none", None):
        return None
    seats = view["seats"]
    # The best placed Merchant (third position) chooses; public knowledge.
    chooser = name_of(seats[view["order"][2]]) if len(view["order"]) > 2 else ""
    return {
        "status": trade["status"],
        "chooser": chooser,
        "from": name_of(seats[trade["from"]]) if trade["from"] is not None else "",
        "to": name_of(seats[trade["to"]]) if trade["to"] is not None else "",
        "gave": cards_phrase(trade["gave"]) if trade["gave"] else "",
        "received": cards_phrase(trade["received"]) if trade["received"] else "",
    }


def _scoreboard(g: dict, name_of, my_player) -> dict:
    rounds = [r["round"] for r in g["results"]]
    rows = []
    for player in g["lineup"]:
        points = []
        for result in g["results"]:
            entry = next((p for p in result["players"] if p["player"] == player), None)
            points.append(entry["points"] if entry else None)
        rows.append({"name": name_of(player), "points": points, "total": g["scores"][player],
                     "is_me": player == my_player})
    rows.sort(key=lambda r: -r["total"])
    return {"rounds": rounds, "rows": rows}


def _result_rows(result: dict, name_of) -> dict:
    players = sorted(result["players"], key=lambda p: p["place"])
    return {
        "round": result["round"],
        "rows": [
            {"place": p["place"], "name": name_of(p["player"]), "title": title_name(p["title"]),
             "points": p["points"]}
            for p in players
        ],
        "revolution": result["revolution"],
    }


def _seating_draw(g: dict, name_of) -> list[list[dict]]:
    return [
        [{"name": name_of(d["player"]), "card": d["card"], "card_name": card_name(d["card"])}
         for d in draw]
        for draw in g["seating_draws"]
    ]


def log_lines(actions: list[Action], me: Seat | None, names: dict[int, str]) -> list[dict]:
    """The game log as `me` may read it: private events only for those they concern."""
    my_player = me.player if me is not None else None
    lines = []
    for action in actions:
        for event in action.events:
            visible = event.get("visible_to")
            if visible is not None and my_player not in visible:
                continue
            text = event_sentence(event, lambda p: names.get(p, "?"))
            if text:
                lines.append({"time": action.created, "text": text, "seq": action.seq,
                              "private": visible is not None,
                              "by": action.by if action.player is not None else ""})
    return lines


def since(game: Game, view: dict) -> datetime | None:
    """When the wait for the players the table visibly waits on began."""
    starts = [
        game.awaiting[str(view["seats"][s])][1]
        for s in view["awaiting"] if str(view["seats"][s]) in game.awaiting
    ]
    return datetime.fromisoformat(min(starts)) if starts else None


def describe_turns(entries: list[dict]) -> None:
    """For "My games": the round, my title and whose turn it is (as far as I may know) for
    each game in play; `entries` are dicts with the game and my seat."""
    if not entries:
        return
    names = {}
    for seat in Seat.objects.filter(game__in=[e["game"] for e in entries]).select_related("user"):
        names[(seat.game_id, seat.player)] = seat.name
    for entry in entries:
        game, seat = entry["game"], entry["seat"]
        view = game.engine_state().view(seat.player)
        entry["my_title"] = view["titles"][view["seat"]]
        # Said to me as "you", never by my own name.
        entry["waiting_for_me"] = view["seat"] in view["awaiting"]
        entry["waiting_for"] = [
            names.get((game.pk, view["seats"][s]), "?")
            for s in view["awaiting"] if s != view["seat"]
        ]
        entry["since"] = since(game, view)
