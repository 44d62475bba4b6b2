"""What one player sees at a table, built only from the engine's view of their seat.

Every page, fragment and email about a game in play gets its facts from `view_for`, so
nothing a player may not know can reach them.
"""

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, npgettext

from games import engine
from games.commands import nudged, stand_in_votes, trick_key, two_middle_places
from games.commands.absence import TIMEOUTS_BEFORE_VOTE, at_the_table, nudge_after
from games.core.clock import VACATION_DAYS, current_deadline
from games.core.words import card_name, cards_phrase, move_sentence, title_name
from games.models import STAND_IN_LEVEL, Action, BotLevel, Game, Seat, StandInVote

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
    # Until when the player is away from all their tables (set in the profile), if away.
    away_until: datetime | None = None
    # Where the seat sits around the drawn table (see seat_slots).
    slot: str = ""
    # When the turn of a seat the table waits on runs out (timed tables).
    deadline: str | None = None
    # Whether I may nudge this player now, or have nudged them this turn.
    can_nudge: bool = False
    nudged: bool = False
    # Leaving when this round ends; left, a bot playing the seat for good.
    leaving: bool = False
    left: bool = False
    # A vote on letting the stand-in bot play for this player (missed turns in a row):
    # {"votes", "needed", "voted"}.
    vote: dict | None = None


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
            on_vacation=bool(seat and seat.paused_until and seat.paused_until > now),
            away_until=seat.user.away_until if seat and seat.user_id and seat.user.is_away(now)
            else None,
            leaving=bool(seat and seat.leaving),
            left=bool(seat and seat.left),
        ))
        if rows[-1].is_turn and game.turn_limit:
            rows[-1].deadline = (game.awaiting.get(str(player)) or [None, None, None])[2]

    seat_slots(rows, my_player)
    if me is not None and not me.played_by_bot and game.is_playing and at_the_table(me):
        _nudges(game, me, rows, by_player, now)
        _votes(game, me, rows, by_player)
    plays = [
        {"name": name_of(view["seats"][p["seat"]]), "cards": p["cards"],
         "label": cards_phrase(p["cards"]), "is_me": view["seats"][p["seat"]] == my_player}
        for p in trick["plays"]
    ]
    my_turn = me is not None and bool(view["legal_actions"])
    turn_token = game.awaiting.get(str(my_player), [None])[0] if me is not None else None
    context = {
        "view": view,
        "phase": view["phase"],
        "players": rows,
        "trick_plays": plays,
        "to_beat_play": plays[-1] if plays else None,
        "earlier_plays": plays[:-1],
        "passed_names": [name_of(view["seats"][s]) for s in trick["passed"]],
        "leader_is_me": view["to_act"] is not None and view["seats"][view["to_act"]] == my_player,
        "me_row": next((r for r in rows if r.slot == "me"), None),
        "ring": [r for r in rows if r.slot != "me"],
        "to_beat": trick["to_beat"],
        "to_act_name": name_of(view["seats"][view["to_act"]]) if view["to_act"] is not None else "",
        "waiting_names": [
            name_of(view["seats"][s]) for s in view["awaiting"] if view["seats"][s] != my_player
        ],
        "my_turn": my_turn,
        "turn_token": turn_token,
        "hand_cards": hand_cards(view["hand"]),
        "pick": "",
        "round_number": g["round_number"],
        "rounds": g["rounds"],
        "target_score": g["target_score"],
        "open_ended": g["rounds"] is None and g["target_score"] is None,
        "ending": g.get("ending", False),
        "scoring": g.get("scoring", True),
        "is_host": me is not None and me.user_id == game.host_id,
        "game_over": g["is_over"],
        "standings": _standings(g, by_player, name_of, my_player),
        "winner_name": name_of(g["winner"]) if g["winner"] is not None else "",
        "winner_is_me": g["winner"] is not None and g["winner"] == my_player,
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
    context.update(_seat_changes(game, me, seats, view))
    context["bot_stand_ins"] = _bot_stand_ins(seats) if context["is_host"] else []
    if me is not None:
        context["orders"] = _my_seat(game, me, view, now)
    context["me_key"] = _key(view["hand"], view["legal_actions"], turn_token, view["taxes"],
                             view["trade"], context.get("orders"))
    return context


def _standings(g: dict, by_player: dict, name_of, my_player) -> list[dict]:
    """The final standings: those who played the game out, ranked; then whoever left it
    (gone from the table, or their seat handed to a bot), sharing the last place with
    their points, as in the record and the ratings (players.services.entrants)."""
    left = {s.player for s in by_player.values() if s.left} | set(g.get("left", []))
    rows = [s for s in g["standings"] if s["player"] not in left]
    rows += [{"player": p, "score": g["scores"][p], "great_dalmuti": 0}
             for p in sorted(left, key=lambda p: -g["scores"][p])]
    ranked = len(rows) - len(left)
    return [
        {"rank": i + 1 if i < ranked else ranked + 1, "name": name_of(s["player"]),
         "score": s["score"], "great_dalmuti": s.get("great_dalmuti", 0),
         "is_me": s["player"] == my_player, "places": _places(g, s["player"]),
         "left": s["player"] in left}
        for i, s in enumerate(rows)
    ]


def _nudges(game: Game, me: Seat, rows: list[PlayerRow], by_player: dict, now) -> None:
    """Which of the players the table visibly waits on I may nudge, or did nudge."""
    waiting = [r for r in rows if r.is_turn and not r.is_me and not r.is_bot]
    if not waiting:
        return
    done = nudged(game, me)
    for row in waiting:
        seat = by_player.get(row.player)
        wait = game.awaiting.get(str(row.player))
        if seat is None or seat.played_by_bot or wait is None:
            continue
        row.nudged = row.player in done
        row.can_nudge = (not row.nudged
                         and now - datetime.fromisoformat(wait[1]) >= nudge_after(game))


def _seat_changes(game: Game, me: Seat | None, seats: list[Seat], view: dict) -> dict:
    """Who joins or leaves when this round ends (public), and, for the Great Dalmuti
    only, the choice of a newcomer's place when two middle places are free."""
    state = game.engine_state()
    great_dalmuti = view["seats"][view["order"][0]] if view["order"] else None
    places = two_middle_places(state) if game.is_playing else []
    choose = me is not None and not me.joining and me.player == great_dalmuti and places
    joining = [
        {"name": s.name, "seat": s.pk, "choice": s.join_choice,
         "places": places if choose else [],
         "place": places and (places[0] if s.join_choice == "upper" else places[-1])}
        for s in seats if s.joining
    ]
    return {
        "joining": joining, "next_round": view["game"]["round_number"] + 1,
        "me_joining": me is not None and me.joining,
        "me_leaving": me is not None and (me.leaving or me.left),
        "can_leave": me is not None and game.is_playing and not me.leaving and not me.left,
    }


def _level_label(level: str) -> str:
    if level in BotLevel.values:
        return str(BotLevel(level).label)
    return _("the simplest rule")


def _bot_stand_ins(seats: list[Seat]) -> list[dict]:
    """For the host: each bot whose own level failed to decide some moves (they were made
    by a simpler level, see commands.moves), and the level that made the last of them."""
    return [
        {"name": s.name, "count": s.bot_stand_ins,
         "level": _level_label(s.bot_level) if s.bot_level
         else _("stand-in bot, %(level)s") % {"level": _level_label(STAND_IN_LEVEL)},
         "stand_in": _level_label(s.bot_stand_in_level)}
        for s in seats if s.bot_stand_ins
    ]


def _votes(game: Game, me: Seat, rows: list[PlayerRow], by_player: dict) -> None:
    for row in rows:
        seat = by_player.get(row.player)
        if (row.is_me or seat is None or seat.user_id is None or seat.stand_in
                or not at_the_table(seat) or seat.timeouts_in_row < TIMEOUTS_BEFORE_VOTE):
            continue
        votes, needed = stand_in_votes(game, seat)
        mine = StandInVote.objects.filter(target=seat, voter=me)
        if seat.last_acted:
            mine = mine.filter(created__gt=seat.last_acted)
        row.vote = {"votes": votes, "needed": needed, "voted": mine.exists()}


def _my_seat(game: Game, me: Seat, view: dict, now: datetime) -> dict:
    """My standing orders, clock and stand-in, private to me."""
    wait = game.awaiting.get(str(me.player))
    on_vacation = bool(me.vacation_until and me.vacation_until > now)
    left = timedelta(days=VACATION_DAYS) - me.vacation_used
    return {
        "auto_pass": me.auto_pass,
        "auto_tax_worst": me.auto_tax_worst,
        # At their first table, the player is told plainly what their orders do.
        "first_game": me.first_game and game.is_playing,
        "pass_trick": view["phase"] == "play" and me.pass_trick == trick_key(view),
        "can_pass_trick": view["phase"] == "play" and bool(view["trick"]["plays"]),
        "deadline": current_deadline(game, me) if wait else None,
        "turn_limit": game.turn_limit,
        "stand_in": me.stand_in and not (me.leaving or me.left),
        "on_vacation": on_vacation,
        "vacation_until": me.vacation_until if on_vacation else None,
        "away_until": me.user.away_until if me.user_id and me.user.is_away(now) else None,
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
    """My legal actions as the page offers them. Plays, the cards to give back and the
    trade card are chosen by tapping cards of the hand (`pick` says which); the other
    decisions are buttons."""
    legal = view["legal_actions"]
    out: dict = {"can_pass": False, "give_back": None, "revolution_offer": False,
                 "trade_partners": [], "trade_cards": [], "legal_plays": {}}
    give_backs = []
    for action in legal:
        kind = action["type"]
        if kind == "pass":
            out["can_pass"] = True
        elif kind == "play":
            cards = sorted(action["cards"])
            out["legal_plays"][",".join(map(str, cards))] = cards_phrase(cards)
        elif kind == "give_back":
            give_backs.append(action["cards"])
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
    out["can_play"] = bool(out["legal_plays"])
    usable: set[int] = set()
    checked: list[int] = []
    if give_backs:
        out["pick"] = "give_back"
        usable = {c for cards in give_backs for c in cards}
        out["give_back"] = {"count": view["taxes"]["to_give_back"]}
        if len(give_backs) == 1:
            checked = list(give_backs[0])
    elif out["trade_cards"]:
        out["pick"] = "trade_card"
        usable = {int(c.value) for c in out["trade_cards"]}
    elif out["can_play"] or out["can_pass"]:
        out["pick"] = "play"
        usable = {int(c) for key in out["legal_plays"] for c in key.split(",")}
    out["hand_cards"] = hand_cards(view["hand"], usable, checked)
    return out


def hand_cards(hand: list[int], usable: set[int] | None = None,
               checked: list[int] | None = None) -> list[dict]:
    """The hand card by card, best first, as the page draws it: which cards a tap may
    choose (`ok`), which start chosen (a forced choice), where a new rank starts."""
    to_check = list(checked or [])
    cards = []
    previous = None
    for rank in sorted(hand):
        tick = rank in to_check
        if tick:
            to_check.remove(rank)
        cards.append({"rank": rank, "name": card_name(rank), "checked": tick,
                      "ok": usable is None or rank in usable,
                      "new_rank": previous is not None and rank != previous})
        previous = rank
    return cards


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
            text = move_sentence(event, lambda p: names.get(p, "?"), action.by,
                                 action.player, my_player)
            if text:
                lines.append({"time": action.created, "text": text, "seq": action.seq,
                              "round": action.round_number, "event": event,
                              "private": visible is not None,
                              "by": action.by if action.player is not None else "",
                              "actor": action.player})
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
        # A newcomer or a leaver has no seat in the round in play.
        entry["my_title"] = view["titles"][view["seat"]] if view["seat"] is not None else ""
        # Said to me as "you", never by my own name.
        entry["waiting_for_me"] = view["seat"] in view["awaiting"]
        entry["waiting_for"] = [
            names.get((game.pk, view["seats"][s]), "?")
            for s in view["awaiting"] if s != view["seat"]
        ]
        entry["since"] = since(game, view)


# Where the other seats sit around the drawn table, by how many there are: clockwise from
# the bottom (my seat), so up the left side, along the top, down the right side, which
# is the order the turn goes round. The slots are grid areas in the stylesheet.
SLOTS = {
    0: [],
    1: ["t3"],
    2: ["l1", "r2"],
    3: ["l1", "t3", "r2"],
    4: ["l1", "t2", "t4", "r2"],
    5: ["l1", "l2", "t3", "r1", "r2"],
    6: ["l1", "l2", "t2", "t4", "r1", "r2"],
    7: ["l1", "l2", "t1", "t3", "t5", "r1", "r2"],
    8: ["l1", "l2", "t1", "t2", "t4", "t5", "r1", "r2"],
    9: ["l1", "l2", "t1", "t2", "t3", "t4", "t5", "r1", "r2"],
}


def seat_slots(rows: list[PlayerRow], my_player: int | None) -> None:
    """Give every row its place around the table: mine at the bottom (a spectator's
    bottom seat is the first in order), the others after me in turn order."""
    if not rows:
        return
    mine = next((i for i, r in enumerate(rows) if r.player == my_player), 0)
    others = rows[mine + 1:] + rows[:mine]
    rows[mine].slot = "me"
    for row, slot in zip(others, SLOTS[len(others)], strict=True):
        row.slot = slot


def _places(g: dict, player: int) -> list[int | None]:
    """A player's finishing place in each round so far (None: not at the table)."""
    places = []
    for result in g["results"]:
        entry = next((p for p in result["players"] if p["player"] == player), None)
        places.append(entry["place"] if entry else None)
    return places


def last_trick(lines: list[dict], names: dict[int, str]) -> dict | None:
    """The most recent finished trick of the round, from its public events: who played
    what, in order, and who won it. A page keeps showing it until the next lead."""
    plays: list[dict] = []
    finished = None
    for line in lines:
        event = line["event"]
        if event.get("visible_to") is not None:
            continue
        kind = event["type"]
        if kind == "play":
            plays.append({"name": names.get(event["player"], "?"), "cards": event["cards"],
                          "label": cards_phrase(event["cards"])})
        elif kind == "trick_won":
            finished = {"winner": names.get(event["player"], "?"), "plays": plays,
                        "leader": names.get(event["leader"], "?")}
            plays = []
        elif kind == "round_starts":
            plays, finished = [], None
    return finished


def _names_phrase(names: list[str]) -> str:
    if len(names) == 1:
        return names[0]
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


# How many moves the summary names before it says only how many came before them.
SUMMARY_PARTS = 6


def since_you_looked(lines: list[dict], my_player: int | None, names: dict[int, str]) -> str:
    """One line for what the table did in `lines` (the log lines a page has not shown):
    "Ada and Bram passed; Cato won the trick with 2 Masons". A move the player did not
    make themselves says who made it: the clock, the stand-in, or (to its owner) a
    standing order. Player names keep their own spelling, even first in the line."""
    # Each part, and whether it begins with a player's name (never capitalised).
    parts: list[tuple[str, bool]] = []
    passed: list[str] = []
    # The latest play: who, in words, and where its part is (a trick it wins is told
    # as "won the trick with", the passes that let it win left unsaid).
    last_play: tuple[int, str, int] | None = None

    def who(player: int) -> str:
        return names.get(player, "?")

    def say(text: str, named: bool = False) -> None:
        parts.append((text, named))

    def flush() -> None:
        if passed:
            if passed == [_("you")]:
                say(_("you passed"))
            else:
                # The verb agrees with how many passed ("dave passt", "dave et eve ont
                # passé").
                say(npgettext("summary", "%(names)s passed", "%(names)s passed", len(passed))
                    % {"names": _names_phrase(passed)}, named=passed[0] != _("you"))
            passed.clear()

    for line in lines:
        event = line["event"]
        kind = event["type"]
        player = event.get("player")
        by = line.get("by", "") if player is not None and player == line.get("actor") else ""
        mine = player == my_player
        if kind == "pass" and by in ("timeout", "stand_in") or (
                kind == "pass" and by == "standing_order" and mine):
            flush()
            if by == "timeout":
                say(_("your time ran out: passed for you") if mine else
                    _("%(player)s's time ran out: passed for them") % {"player": who(player)},
                    named=not mine)
            elif by == "stand_in":
                say(_("the stand-in passed for you") if mine else
                    _("the stand-in passed for %(player)s") % {"player": who(player)})
            else:
                say(_("you passed by your standing order"))
            continue
        if kind == "pass":
            passed.append(_("you") if mine else who(player))
            continue
        if kind not in ("play", "trick_won", "out", "round_over", "round_starts",
                        "revolution", "taxes", "trade_done", "trade_declined"):
            continue
        flush()
        if kind == "play":
            cards = cards_phrase(event["cards"])
            if by == "timeout":
                say(_("your time ran out: played %(cards)s for you") % {"cards": cards} if mine
                    else _("%(player)s's time ran out: played %(cards)s for them") % {
                        "player": who(player), "cards": cards}, named=not mine)
            elif by == "stand_in":
                say(_("the stand-in played %(cards)s for you") % {"cards": cards} if mine
                    else _("the stand-in played %(cards)s for %(player)s") % {
                        "player": who(player), "cards": cards})
            elif mine:
                say(_("you played %(cards)s") % {"cards": cards})
            else:
                say(_("%(player)s played %(cards)s") % {"player": who(player), "cards": cards},
                    named=True)
            # Only one's own play becomes "won the trick with": another's hand stays
            # theirs to tell.
            last_play = (player, cards, len(parts) - 1) if by not in ("timeout", "stand_in") \
                else None
        elif kind == "trick_won":
            if last_play and last_play[0] == player:
                del parts[last_play[2]:]
                if player == my_player:
                    say(_("you won the trick with %(cards)s") % {"cards": last_play[1]})
                else:
                    say(_("%(player)s won the trick with %(cards)s") % {
                        "player": who(player), "cards": last_play[1]}, named=True)
            elif player == my_player:
                say(_("you won the trick"))
            else:
                say(_("%(player)s won the trick") % {"player": who(player)}, named=True)
            last_play = None
        elif kind == "out":
            last_play = None
            if player == my_player:
                say(_("you went out in place %(place)d") % {"place": event["place"]})
            else:
                say(_("%(player)s went out in place %(place)d") % {
                    "player": who(player), "place": event["place"]}, named=True)
        elif kind == "round_over":
            last_play = None
            say(_("the round is over"))
        elif kind == "round_starts":
            say(_("round %(number)d was dealt") % {"number": event["round"]})
        elif kind == "revolution":
            say((_("%(player)s declared a Great Revolution") if event["great"]
                 else _("%(player)s declared a revolution")) % {"player": who(player)},
                named=True)
        elif kind == "taxes":
            say(_("the taxes are paid"))
        elif kind == "trade_done":
            say(_("%(giver)s and %(taker)s traded a card") % {
                "giver": who(event["from"]), "taker": who(event["to"])}, named=True)
        elif kind == "trade_declined":
            say(_("%(player)s chose not to trade") % {"player": who(player)}, named=True)
    flush()
    if not parts:
        return ""
    if len(parts) > SUMMARY_PARTS:
        earlier = len(parts) - SUMMARY_PARTS
        parts = [(ngettext("%(count)d earlier move", "%(count)d earlier moves", earlier)
                  % {"count": earlier}, False)] + parts[-SUMMARY_PARTS:]
    sentence = "; ".join(text for text, _named in parts)
    if parts[0][1]:
        return sentence
    return sentence[:1].upper() + sentence[1:]
