"""What one seat sees at the table, built only from the engine's view of that seat.

Every page, fragment and email about a game in play gets its facts from `view_for`, so
nothing a player may not know can reach them. `table_context` is the game page's
view-model: it asks small builders, each for one part of the page (the seats around the
table, the trick, my turn, the game so far, the round's exchanges, the seat changes and
my standing orders), and merges what they give.
"""

import hashlib
import json
import math
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine
from games.core.clock import (
    TIMEOUTS_BEFORE_STAND_IN,
    UNTIMED_PATIENCE,
    VACATION_DAYS,
    bank_for_show,
    dalmutis_hold_until,
    promised_deadline,
)
from games.core.standing import winner
from games.core.turns import (
    TIMEOUTS_BEFORE_VOTE,
    at_the_table,
    end_tally,
    leaving_ends_game,
    may_vote_on_ending,
    no_next_round,
    nudge_after,
    nudge_open,
    shown_end_proposal,
    stand_in_tally,
    stand_in_vote_open,
    trick_key,
)
from games.core.words import cards_phrase, title_name
from games.models import STAND_IN_LEVEL, BotLevel, Game, Notification, Seat, StandInVote
from games.read.access import rematch_for
from games.read.hand import hand_cards, my_actions
from games.read.hints import hint_line
from games.read.results import gone, ranked, result_rows, scoreboard, seating_draw, standings
from games.read.tips import tip_context


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
    # Once the game is over, the player's place in the final standings.
    final_place: int | None = None
    score: int = 0
    is_turn: bool = False
    stand_in: bool = False
    # The player's clock waits: a vacation at this table, or their absence from all.
    on_vacation: bool = False
    # Which of the two the seat says: "vacation" (at this table) or "away" (from all).
    pause: str = ""
    # Until when the player is away from all their tables (set in the profile), if away.
    away_until: datetime | None = None
    # When a paused clock runs again: said as the time left, which reads alike in every
    # zone (a day would not), so that the seat is drawn once for every reader.
    back_at: datetime | None = None
    # When the turn of a seat the table waits on runs out (timed tables), or when a bot's
    # choice held after the deal comes (`bots_held_until`).
    deadline: str | None = None
    # What is left in the player's time bank (tables with one).
    bank: timedelta | None = None
    # Whether I may nudge this player now, or have nudged them this turn.
    can_nudge: bool = False
    nudged: bool = False
    # Leaving when this round ends; left, a bot playing the seat for good.
    leaving: bool = False
    left: bool = False
    # A vote on letting the stand-in bot play for this player (missed turns in a row):
    # {"votes", "needed", "voted"}.
    vote: dict | None = None


def view_for(game: Game, seat: Seat | None, state: engine.Game | None = None) -> dict:
    """The engine's view for this seat's player (a spectator's view when None), of the
    stored snapshot or of `state` read from it already."""
    if state is None:
        state = engine.Game.from_json(game.state)
    return state.view(seat.player if seat is not None else None)


@dataclass
class Sight:
    """What every builder of the page starts from: the table, my seat (None: a
    spectator), the seats, and my view of the game."""

    game: Game
    me: Seat | None
    seats: list[Seat]
    view: dict
    # The stored snapshot as the engine's Game, read once for every builder.
    state: engine.Game
    now: datetime = field(default_factory=timezone.now)

    def __post_init__(self) -> None:
        self.by_player = {s.player: s for s in self.seats}
        self.my_player = self.me.player if self.me is not None else None

    def name_of(self, player: int) -> str:
        seat = self.by_player.get(player)
        return seat.name if seat else "?"

    def name_at(self, seat_index: int) -> str:
        """The name of whoever sits at this seat of the round."""
        return self.name_of(self.view["seats"][seat_index])


def table_context(game: Game, me: Seat | None, seats: list[Seat], results: bool = True) -> dict:
    """Everything the game page shows to `me`, built from `me`'s view only (without
    `results`, all but the standings, the scores and the last round's result, which only
    the folded panels and the end of the game show)."""
    state = game.engine_state()
    sight = Sight(game, me, seats, view_for(game, me, state), state)
    held = bots_held_until(sight)  # the same for every reader: worked out once
    rows = player_rows(sight, held)
    mine = next((row.position for row in rows if row.is_me), None)
    context = {
        "players": rows,
        # The seats round the felt are drawn alike for every reader, from the spectator's
        # view (never from mine: a private decision of mine must not show on them); the
        # felt seats me at the bottom (see static/css/felt.css).
        "seat_rows": rows if me is None else player_rows(
            Sight(game, None, seats, state.view(None), state, sight.now), held),
        "felt_me": mine or 1,
        "felt_seated": mine is not None,
        **_own(sight, held),
        **(game_results(sight) if results else {}),
        **round_exchanges(sight),
    }
    context["bot_stand_ins"] = bot_stand_ins(seats) if context["is_host"] else []
    changes_at = changes_with_time(game, context["seat_rows"], sight.by_player, sight.now,
                                   context["end_proposal"])
    # In whole seconds, never before the change (the poll that says it came finds it).
    context["changes_at"] = math.ceil(changes_at.timestamp()) if changes_at else None
    context["panels_key"] = panels_key(sight.view, context["taxes"], context["trade"])
    return context


def panels_key(view: dict, taxes: dict | None, trade: dict | None) -> str:
    """What the folded panels show besides the log (results, taxes, trade, scores, the
    draw) changes only with these: an update whose page shows the same leaves those
    panels alone and sends the log's lines."""
    g = view["game"]
    return _key(g["round_number"], view["phase"], g["is_over"], g.get("scoring", True),
                len(g["results"]), taxes, trade)


def own_context(game: Game, me: Seat, seats: list[Seat]) -> dict:
    """What a page shows of its reader's own, beside the update the table's pages share
    (games.views.updates): their hand and dock, their turn, tip and standing orders, and
    the facts of the game these are drawn with. A part of `table_context`, built alike."""
    state = game.engine_state()
    sight = Sight(game, me, seats, view_for(game, me, state), state)
    return _own(sight, bots_held_until(sight))


def bots_held_until(sight: Sight) -> str | None:
    """Until when the choice of what to give back of a bot (or a stand-in) the table waits
    on is held after the deal (`dalmutis_hold_until`), if it is: its seat counts down to
    it, as a person's turn counts down to its deadline, so that nobody takes the bot for
    stuck. From what every spectator knows, so the same for every reader."""
    game, view = sight.game, sight.view
    if not game.is_playing or view["phase"] != "taxes":
        return None
    held = dalmutis_hold_until(game, sight.state, sight.by_player.values())
    if held is None or held <= sight.now:
        return None
    # A bot is awaited in public: every reader's view says it alike.
    bots = [s for s in view["awaiting"] if (seat := sight.by_player.get(view["seats"][s]))
            and seat.played_by_bot]
    return held.isoformat() if bots else None


def _own(sight: Sight, bots_held: str | None) -> dict:
    context = {
        "bots_hold": bots_held is not None,
        "view": sight.view,
        "phase": sight.view["phase"],
        **trick_context(sight),
        **turn_context(sight),
        **game_facts(sight),
        "my_title": my_title(sight.view),
        "taxes_note": given_and_received(sight.view, "taxes"),
        "tribute_note": tribute_due(sight.view, sight.name_of),
        "trade_note": given_and_received(sight.view, "trade"),
        **seat_changes(sight),
        **ending_by_agreement(sight),
        **tip_context(sight.game, sight.me, sight.view),
    }
    if sight.me is not None:
        context["orders"] = my_orders(sight)
        if sight.view["game"]["is_over"]:
            context.update(rematch_for(sight.game, sight.me.user))
    context["me_key"] = own_key(sight.view, context["turn_token"], context.get("orders"))
    return context


def own_key(view: dict, turn_token: int | None, orders: dict | None) -> str:
    """The key of what a page shows of the reader's own (their hand, the dock, their
    standing orders): an answer sends that part again only when its key changed."""
    return _key(view["hand"], view["legal_actions"], turn_token, view["taxes"], view["trade"],
                orders, view["game"]["is_over"])


def own_parts(game: Game, seats: list[Seat], state: engine.Game,
              news: list[dict]) -> dict[str, dict]:
    """For each player of the round, what an update shared by the table's pages needs to
    know of their own page (games.views.updates): the key of their own part and of the
    folded panels they are shown (their own taxes and trade among them); whether
    their page shows more than the update and their own part (`apart`): when `news` (the
    events since the page's version) hold a private line of theirs, or when they host a
    table whose bots needed help (only the host is told); whether the table waits for
    them (`awaited`, publicly or not: the update then brings their own part, drawn for
    them); and whether their stream must tell them to ask (`ask`): when apart, when a
    tip is shown to them, which their own page draws, and when the table waits for the
    host of a table people watch (their panel shows the watch link, drawn with the
    address their page came from).

    Private to each player: kept apart from the shared drawing, and only ever sent to
    that player's own page."""
    by_player = {s.player: s for s in seats}
    now = timezone.now()
    awaited = set(state.awaiting_players)
    helped_host = bool(bot_stand_ins(seats)) and game.host_id
    parts = {}
    for player in state.seats:
        seat = by_player.get(player)
        if seat is None or seat.user_id is None:
            continue
        view = state.view(player)
        sight = Sight(game, seat, seats, view, state, now)
        wait = game.wait_for(player)
        own = any((visible := event.get("visible_to")) is not None and player in visible
                  for _by, event in news)
        apart = own or seat.user_id == helped_host
        watched_host = seat.user_id == game.host_id and bool(game.watch_token)
        ask = (apart or tip_context(game, seat, view).get("tip") is not None
               or (player in awaited and watched_host))
        parts[str(player)] = {
            "key": own_key(view, wait.token if wait else None, my_orders(sight)),
            "panels": panels_key(view, _taxes(view, sight.name_of), _trade(view, sight.name_of)),
            "ask": ask, "apart": apart, "awaited": player in awaited}
    return parts


def player_rows(sight: Sight, bots_held: str | None) -> list[PlayerRow]:
    """The seats of the round in turn order; for a player at the table, with whom they
    may nudge and the votes on stand-ins. `bots_held`: `bots_held_until`, a held bot's
    seat counting down to it."""
    game, view = sight.game, sight.view
    trick = view["trick"]
    awaiting_seats = set(view["awaiting"])
    finish = {s: i + 1 for i, s in enumerate(view["finish_order"])}
    # Once the game is over, the last round's order no longer says who won: the seats
    # say the final standings' places instead.
    final = ({s["player"]: rank for rank, s, _left in ranked(view["game"], sight.by_player)}
             if view["game"]["is_over"] else {})
    rows = []
    for position, seat_index in enumerate(view["order"]):
        player = view["seats"][seat_index]
        seat = sight.by_player.get(player)
        row = PlayerRow(
            player=player,
            seat=seat_index,
            name=sight.name_of(player),
            is_bot=bool(seat and seat.is_bot),
            is_me=player == sight.my_player,
            title=title_name(view["titles"][seat_index]),
            title_key=view["titles"][seat_index],
            position=position + 1,
            cards=view["counts"][seat_index],
            passed=seat_index in trick["passed"],
            place=finish.get(seat_index),
            final_place=final.get(player),
            score=view["game"]["scores"][player],
            is_turn=seat_index in awaiting_seats and view["phase"] != "over",
            stand_in=bool(seat and seat.stand_in),
            on_vacation=bool(seat and seat.paused_until and seat.paused_until > sight.now),
            away_until=seat.user.away_until
            if seat and seat.user_id and seat.user.is_away(sight.now) else None,
            leaving=bool(seat and seat.leaving),
            left=bool(seat and seat.left),
        )
        if row.on_vacation:
            row.pause = ("vacation" if seat.vacation_until and seat.vacation_until > sight.now
                         else "away")
            row.back_at = seat.paused_until
        if row.is_turn and bots_held and seat and seat.played_by_bot:
            row.deadline = bots_held
        elif row.is_turn and game.turn_limit:
            wait = game.wait_for(player)
            row.deadline = wait.stored_deadline if wait else None
        if seat and not seat.played_by_bot:
            row.bank = bank_for_show(game, seat.user_id)
        rows.append(row)
    me = sight.me
    if me is not None and not me.played_by_bot and game.is_playing and at_the_table(me):
        _nudges(sight, rows)
        _votes(sight, rows)
    return rows


def _person_awaited(row: PlayerRow, seat: Seat | None) -> bool:
    """Whether the table visibly waits on a person at this seat with their clock running:
    their turn, played by them (not by a bot), and not one whose clock stands still (a
    vacation, an absence: the seat says so). Only such a turn opens a nudge, or a vote."""
    return (row.is_turn and seat is not None and not seat.played_by_bot
            and not row.on_vacation and row.away_until is None)


def changes_with_time(game: Game, rows: list[PlayerRow], by_player: dict[int, Seat],
                      now: datetime, end_proposal: dict | None) -> datetime | None:
    """When what the table shows next changes with time alone, nothing moving there: a
    nudge opens, a vote on a stand-in opens at a table without a clock, a vacation or an
    absence ends, a proposal to end the game lapses, the Dalmutis' choices held after the
    deal (bots', standing orders') become due (without a broker, the page that asks then
    has them made). None: no such time ahead.

    Read from the spectator's rows, so the same for every reader of the table and never
    from a wait the table may not see (the jester holder's decision on a revolution): the
    time is on every open page, and one drawn from that wait would tell it exists."""
    times = [end_proposal["expires"]] if end_proposal else []
    if game.is_playing:
        held = dalmutis_hold_until(game, game.engine_state(), by_player.values())
        if held:
            times.append(held)
        for row in rows:
            seat = by_player.get(row.player)
            if seat is None:
                continue
            if row.on_vacation:  # a vacation at the table or an absence from all
                times.append(seat.paused_until)
            if not _person_awaited(row, seat):
                continue
            wait = game.wait_for(row.player)
            if wait is None or wait.secret:
                continue
            times.append(wait.since + nudge_after(game))
            if not game.turn_limit:
                times.append(wait.since + UNTIMED_PATIENCE)
    return min((time for time in times if time > now), default=None)


def trick_context(sight: Sight) -> dict:
    """The trick in play: the plays so far, the one to beat, who passed, who leads and
    whom the table waits on."""
    view, my_player = sight.view, sight.my_player
    trick = view["trick"]
    plays = [
        {"name": sight.name_at(p["seat"]), "cards": p["cards"],
         "label": cards_phrase(p["cards"]), "is_me": view["seats"][p["seat"]] == my_player}
        for p in trick["plays"]
    ]
    to_act = view["to_act"]
    return {
        "trick_plays": plays,
        "to_beat_play": plays[-1] if plays else None,
        "earlier_plays": plays[:-1],
        "passed_names": [sight.name_at(s) for s in trick["passed"]],
        "leader_is_me": to_act is not None and view["seats"][to_act] == my_player,
        "to_beat": trick["to_beat"],
        "to_act_name": sight.name_at(to_act) if to_act is not None else "",
        "waiting_names": [
            sight.name_at(s) for s in view["awaiting"] if view["seats"][s] != my_player
        ],
    }


def turn_context(sight: Sight) -> dict:
    """My turn: whether it is mine, its token, my hand, and what I may do with it."""
    view, me = sight.view, sight.me
    my_turn = me is not None and bool(view["legal_actions"])
    wait = sight.game.wait_for(sight.my_player) if me is not None else None
    context = {
        "my_turn": my_turn,
        "turn_token": wait.token if wait else None,
        "pick": "",
    }
    # On my turn the hand is drawn for what I may choose of it.
    context.update(my_actions(view, sight.name_of) if my_turn
                   else {"hand_cards": hand_cards(view["hand"], **_chosen_to_part_with(view))})
    # The Hint button, and the hint already given for this very decision.
    context["hints"] = my_turn and sight.game.hints_allowed and not me.played_by_bot
    context["hint_line"] = ""
    if context["hints"] and wait and me.hint_turn == wait.token and me.hint:
        context["hint_line"] = hint_line(me.hint, sight.name_at)
    return context


def game_facts(sight: Sight) -> dict:
    """The game around the round: its length and how it ends, and who won it."""
    g, me, name_of, my_player = sight.view["game"], sight.me, sight.name_of, sight.my_player
    # The first of the final standings: never a player who left (the engine ranks them by
    # their points, the table after everybody who played the game out), and nobody when
    # everybody left.
    won = winner(g["standings"], gone(g, sight.by_player)) if g["is_over"] else None
    return {
        "round_number": g["round_number"],
        "rounds": g["rounds"],
        "target_score": g["target_score"],
        "open_ended": g["rounds"] is None and g["target_score"] is None,
        "ending": g.get("ending", False),
        "scoring": g.get("scoring", True),
        "is_host": me is not None and me.user_id == sight.game.host_id,
        "game_over": g["is_over"],
        # Over before the rounds it was to have: the table was left with too few to play.
        "too_few": g["is_over"] and len(g["lineup"]) < engine.MIN_PLAYERS,
        "winner_name": name_of(won) if won is not None else "",
        "winner_is_me": won is not None and won == my_player,
        "nobody_won": g["is_over"] and won is None,
    }


def game_results(sight: Sight) -> dict:
    """The game so far: the standings, the scores and the last round's result."""
    g, name_of, my_player = sight.view["game"], sight.name_of, sight.my_player
    return {
        "standings": standings(g, sight.by_player, name_of, my_player),
        "scoreboard": scoreboard(g, name_of, my_player),
        "last_result": result_rows(g["results"][-1], name_of) if g["results"] else None,
        "seating_draw": seating_draw(g, name_of) if g["round_number"] == 1 else None,
    }


def round_exchanges(sight: Sight) -> dict:
    """The round's revolution, taxes and trade."""
    view = sight.view
    revolution = view["revolution"]
    return {
        "revolution": revolution and {
            "name": sight.name_at(revolution["seat"]),
            "great": revolution["great"],
            "player": view["seats"][revolution["seat"]],
            "mine": revolution["seat"] == view["seat"],
            # News until the first trick is won (the history holds the trick in play too);
            # the log and the summary keep it after.
            "news": len(view["history"]) <= (1 if view["trick"]["plays"] else 0),
        },
        "taxes": _taxes(view, sight.name_of),
        "trade": _trade(view, sight.name_of),
    }


def given_and_received(view: dict, exchange: str) -> dict | None:
    """What the reader gave and received in this round's `exchange` ("taxes", or the
    merchants' "trade"), told with their hand while the round is played: cards of theirs
    gone from it, cards they did not have come in. Their own cards, in their own part of
    the page alone."""
    done = view[exchange]
    if view["phase"] != "play" or not done or not (done["gave"] and done["received"]):
        return None
    return {"gave": cards_phrase(done["gave"]), "received": cards_phrase(done["received"])}


def _chosen_to_part_with(view: dict) -> dict:
    """The cards the reader chose to give back in the taxes, or to trade, which stay in
    their hand until the others have chosen too: set aside there (`hand_cards`)."""
    if view["phase"] == "taxes" and view["taxes"]["choice"]:
        return {"aside": view["taxes"]["choice"], "aside_for": "give_back"}
    if view["phase"] == "trade" and view["trade"]["choice"] is not None:
        return {"aside": [view["trade"]["choice"]], "aside_for": "trade"}
    return {}


def tribute_due(view: dict, name_of) -> dict | None:
    """What a Peon is to pay in the taxes while the Dalmutis choose what they give back
    (their best cards, to whom), told with their hand: the felt says only who gives how
    many to whom. Their own cards, in their own part of the page alone."""
    tribute = view["taxes"]["tribute"]
    if view["phase"] != "taxes" or not tribute:
        return None
    taker = next(e["to"] for e in view["taxes"]["exchanges"] if e["from"] == view["seat"])
    return {"to": name_of(view["seats"][taker]), "cards": cards_phrase(tribute),
            "count": len(tribute)}


def my_title(view: dict) -> str:
    return title_name(view["titles"][view["seat"]]) if view["seat"] is not None else ""


def _taxes(view: dict, name_of) -> dict | None:
    taxes = view["taxes"]
    # None this round, or called off by a revolution (its line in the log says so).
    if taxes["status"] in ("none", "cancelled", None):
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
    chooser_seat = view["order"][2] if len(view["order"]) > 2 else None
    chooser = name_of(seats[chooser_seat]) if chooser_seat is not None else ""
    # The reader's part in it, for the two Merchants to read of themselves as "you".
    mine = view["seat"]
    part = ("from" if mine is not None and mine == trade["from"]
            else "to" if mine is not None and mine == trade["to"]
            else "chooser" if mine is not None and mine == chooser_seat else "")
    return {
        "status": trade["status"],
        "chooser": chooser,
        "me": part,
        "from": name_of(seats[trade["from"]]) if trade["from"] is not None else "",
        "to": name_of(seats[trade["to"]]) if trade["to"] is not None else "",
        "gave": cards_phrase(trade["gave"]) if trade["gave"] else "",
        "received": cards_phrase(trade["received"]) if trade["received"] else "",
        # The reader's own card, chosen while the other's is not yet.
        "choice": cards_phrase([trade["choice"]]) if trade.get("choice") is not None else "",
        # The table's rule: each gives a card of their choice, or a random one goes.
        "kind": view["options"].get("merchant_trade", "off"),
    }


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


def seat_slots(rows: list, my_player: int | None) -> None:
    """Give every row (with `player` and `slot`) its place around the table: mine at the
    bottom (a spectator's bottom seat is the first in order), the others after me in turn
    order. The seats are drawn alike for every reader: tools/felt_css writes these places
    into static/css/felt.css."""
    if not rows:
        return
    mine = next((i for i, r in enumerate(rows) if r.player == my_player), 0)
    others = rows[mine + 1:] + rows[:mine]
    rows[mine].slot = "me"
    for row, slot in zip(others, SLOTS[len(others)], strict=True):
        row.slot = slot


def nudged(game: Game, me: Seat) -> set[int]:
    """The players `me` has nudged in their current turn (commands.absence.nudge keys
    each nudge "nudge:game:public token:player:by")."""
    keys = Notification.objects.filter(
        game=game, kind=Notification.Kind.NUDGE, key__endswith=f":{me.player}",
    ).values_list("key", flat=True)
    done = set()
    for key in keys:
        _kind, _game, token, player, _by = key.split(":")
        wait = game.wait_for(int(player))
        if wait and str(wait.public_token) == token:
            done.add(int(player))
    return done


def _nudges(sight: Sight, rows: list[PlayerRow]) -> None:
    """Which of the players the table visibly waits on I may nudge, or did nudge."""
    game = sight.game
    # A nudge waits until the turn has lasted nudge_after: before that, nobody may nudge
    # or can have nudged, and the record need not be asked.
    waiting = [r for r in rows if not r.is_me
               and _person_awaited(r, sight.by_player.get(r.player))
               and (wait := game.wait_for(r.player)) is not None
               and nudge_open(game, wait.since, sight.now)]
    if not waiting:
        return
    done = nudged(game, sight.me)
    for row in waiting:
        row.nudged = row.player in done
        row.can_nudge = not row.nudged  # every row here has waited long enough


def _votes(sight: Sight, rows: list[PlayerRow]) -> None:
    """The votes on a stand-in for each player who missed their last turns, and whether
    I voted since they last acted."""
    targets = {}
    for row in rows:
        seat = sight.by_player.get(row.player)
        if row.is_me or seat is None or not stand_in_vote_open(seat, sight.game, sight.now):
            continue
        targets[seat.pk] = (row, seat)
    if not targets:
        return
    # Every vote about these players in one query, counted as the command counts them.
    votes: dict[int, list[tuple[int, datetime]]] = {pk: [] for pk in targets}
    for target, voter, created in StandInVote.objects.filter(target__in=targets).values_list(
            "target_id", "voter_id", "created"):
        votes[target].append((voter, created))
    for pk, (row, seat) in targets.items():
        count, needed = stand_in_tally(seat, sight.seats, votes[pk])
        voted = any(voter == sight.me.pk and (not seat.last_acted or created > seat.last_acted)
                    for voter, created in votes[pk])
        row.vote = {"votes": count, "needed": needed, "voted": voted,
                    # Opened by the wait alone, not by missed turns: says so.
                    "stalled": seat.timeouts_in_row < TIMEOUTS_BEFORE_VOTE}


def two_middle_places(state: engine.Game) -> list[int]:
    """The two 1-based places a newcomer may take, when the Great Dalmuti must choose."""
    places = state.join_places()
    return places if len(places) == 2 else []


def seat_changes(sight: Sight) -> dict:
    """Who joins or leaves when this round ends (public), and, for the Great Dalmuti
    only, the choice of a newcomer's place when two middle places are free."""
    game, me, view = sight.game, sight.me, sight.view
    state = sight.state
    great_dalmuti = view["seats"][view["order"][0]] if view["order"] else None
    places = two_middle_places(state) if game.is_playing else []
    choose = me is not None and not me.joining and me.player == great_dalmuti and places
    joining = [
        {"name": s.name, "seat": s.pk, "choice": s.join_choice,
         "places": places if choose else [],
         "place": places and (places[0] if s.join_choice == "upper" else places[-1])}
        for s in sight.seats if s.joining
    ]
    return {
        "joining": joining, "next_round": view["game"]["round_number"] + 1,
        "me_joining": me is not None and me.joining,
        "me_leaving": me is not None and (me.leaving or me.left),
        "me_left": me is not None and me.left,
        "can_leave": me is not None and game.is_playing and not me.leaving and not me.left,
        "leave_ends_game": game.is_playing and leaving_ends_game(game, sight.seats, state),
    }


def ending_by_agreement(sight: Sight) -> dict:
    """The open proposal to end the game, with its count and my answer (public to the
    table), and whether I may propose one."""
    game, me, state = sight.game, sight.me, sight.state
    if not game.is_playing or state.ending:
        return {"end_proposal": None, "can_propose_end": False}
    proposal = shown_end_proposal(game)
    if proposal is not None and proposal.expires <= sight.now:
        proposal = None  # lapsed: the sweep tells the table
    mine = may_vote_on_ending(me)
    shown = None
    if proposal is not None:
        tally = end_tally(proposal, sight.seats)
        answered = me is not None and me.pk in tally["voted"]
        shown = {"id": proposal.pk, "proposer": proposal.proposer.name,
                 "yes": tally["yes"], "needed": tally["needed"], "expires": proposal.expires,
                 "may_answer": mine and not answered,
                 "mine": me is not None and proposal.proposer_id == me.pk,
                 "answered": answered}
    return {"end_proposal": shown,
            "can_propose_end": mine and proposal is None and not no_next_round(state)}


def _level_label(level: str) -> str:
    if level in BotLevel.values:
        return str(BotLevel(level).label)
    return _("the simplest rule")


def bot_stand_ins(seats: list[Seat]) -> list[dict]:
    """For the host: each bot whose own level failed to decide some moves (they were made
    by a simpler level, see commands.moves), and the level that made the last of them."""
    return [
        {"name": s.name, "count": s.bot_stand_ins,
         "level": _level_label(s.bot_level) if s.bot_level
         else _("stand-in bot, %(level)s") % {"level": _level_label(STAND_IN_LEVEL)},
         "stand_in": _level_label(s.bot_stand_in_level)}
        for s in seats if s.bot_stand_ins
    ]


def my_orders(sight: Sight) -> dict:
    """My standing orders, clock and stand-in, private to me."""
    game, me, view, now = sight.game, sight.me, sight.view, sight.now
    on_vacation = bool(me.vacation_until and me.vacation_until > now)
    left = timedelta(days=VACATION_DAYS) - me.vacation_used
    # Whole days, the nearest: a vacation ended a minute after a day began left 5 days 23
    # hours, offered as 6 (start_vacation takes no more than what is left).
    days_left = max(0, (left + timedelta(hours=12)) // timedelta(days=1))
    return {
        "auto_pass": me.auto_pass,
        "auto_tax_worst": me.auto_tax_worst,
        "auto_revolution": me.auto_revolution,
        "talk_notices": not me.talk_muted,
        # At their first table, the player is told plainly what their orders do.
        "first_game": me.first_game and game.is_playing,
        "pass_trick": view["phase"] == "play" and me.pass_trick == trick_key(view),
        # From the first lead on: before a trick's lead it holds for the trick to come
        # (trick_key is the same), and a page need not change with every trick.
        "can_pass_trick": view["phase"] == "play",
        # The dock says when a decision on a revolution in private closes instead.
        "deadline": promised_deadline(game, me),
        "turn_limit": game.turn_limit,
        "bank": bank_for_show(game, me.user_id),
        "stand_in": me.stand_in and not (me.leaving or me.left),
        # Turns whose time ran out in a row, told to the player alone while they count.
        "timeouts_in_row": (me.timeouts_in_row
                            if game.turn_limit and not me.stand_in and not me.left else 0),
        "timeouts_before_vote": TIMEOUTS_BEFORE_VOTE,
        "timeouts_before_stand_in": TIMEOUTS_BEFORE_STAND_IN,
        "on_vacation": on_vacation,
        "vacation_until": me.vacation_until if on_vacation else None,
        "away_until": me.user.away_until if me.user_id and me.user.is_away(now) else None,
        "vacation_days_left": days_left,
        "vacation_choices": list(range(1, days_left + 1)),
    }


def _key(*parts) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:16]
