"""A game's record read back: the states rebuilt from the Action record alone, the full
log with every private line, the final results, and the table at any step of the replay.

Everything here but `replay`/`rebuild_state` reveals private information and is only for
games that are over.
"""

import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass
from datetime import timedelta
from typing import NamedTuple

from django.core.cache import cache
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games import engine
from games.core.record import apply_recorded
from games.core.standing import by_game
from games.core.words import cards_phrase, move_sentence, title_name
from games.models import Action, Game, Seat
from games.read.hand import hand_groups
from games.read.results import result_rows as _result_rows
from games.read.seat import _taxes, _trade
from leagues.models import Replacement


def replay(game: Game, actions=None):
    """(action, state after it) for each action of the record, in order: the game's
    states rebuilt from the record alone."""
    options = engine.Options.from_json(game.options)
    state = None
    for action in actions if actions is not None else game.actions.order_by("seq"):
        state = apply_recorded(state, options, action.kind, action.player, action.payload)
        yield action, state


def rebuild_state(game: Game) -> engine.Game | None:
    """The engine state rebuilt from the Action record alone (nothing else is read)."""
    last = None
    for _action, last in replay(game):  # noqa: B007 - the last state is the result
        pass
    return last


def player_names(game: Game) -> dict[int, str]:
    """The players' names by player index, as the seats are now."""
    return {s.player: s.name for s in game.seats_with_users() if s.player is not None}


class SeatNames:
    """The players' names by player index as they were in each round: an organiser who
    gives a seat to a bot gives it from a round on, and the rounds before it were played
    by the seat's player, whose name the record keeps for them."""

    def __init__(self, game: Game):
        self.now = player_names(game)
        self._before = [(r.round_number, r.player, r.user.name) for r in
                        Replacement.objects.filter(game=game).select_related("user")
                        .order_by("-round_number")]
        self._rounds: dict[int, dict[int, str]] = {}

    def in_round(self, number: int) -> dict[int, str]:
        if not self._before:
            return self.now
        if number not in self._rounds:
            names = dict(self.now)
            # Latest first, so the earliest player of a seat replaced twice names it.
            for from_round, player, name in self._before:
                if number < from_round:
                    names[player] = name
            self._rounds[number] = names
        return self._rounds[number]

    @property
    def deciders(self) -> dict[int, str]:
        """Who made a seat's own decisions (the ones a review judges): its first player."""
        return self.in_round(0)

    def digest(self) -> str:
        """What the names are, in a few characters: a key for what was put in their words."""
        names = json.dumps([sorted(self.now.items()), self._before], ensure_ascii=False)
        return hashlib.blake2b(names.encode(), digest_size=12).hexdigest()

    def replaced(self) -> dict[int, tuple[str, int]]:
        """Each replaced seat's first player and the round the bot took it from."""
        out: dict[int, tuple[str, int]] = {}
        for from_round, player, name in self._before:
            out[player] = (name, from_round)
        return out


def game_results(rounds, left: dict[int, set[int]] | None = None) -> dict[int, list[dict]]:
    """Per game, the players by final standing (games.core.standing). `rounds` are
    leagues.standings RoundFacts. Who left is read from the seats unless `left` (game id
    -> player indices) is given; a player missing from a game's last round left it too."""
    if left is None:
        left = left_players(list({r.game_id for r in rounds}))
    return by_game(rounds, left)


def left_players(game_ids) -> dict[int, set[int]]:
    """The players who left each of these games (their seat played on by a bot, or gone
    from the table)."""
    out: dict[int, set[int]] = defaultdict(set)
    if not game_ids:
        return out
    for game_id, player in Seat.objects.filter(
        game_id__in=game_ids, left=True, player__isnull=False,
    ).values_list("game_id", "player"):
        out[game_id].add(player)
    return out


def record_sentence(event: dict, names: dict[int, str], by: str = "",
                    actor: int | None = None) -> str | None:
    """An event of the log as the record tells it, to everybody, once the game is over."""
    if event["type"] == "revolution_declined":
        # Told to the jester holder alone, as "you"; in the record, by name.
        return _("%(player)s held both Jesters and kept quiet: no revolution.") % {
            "player": names.get(event.get("player"), "?")}
    return move_sentence(event, lambda p: names.get(p, "?"), by, actor)


def all_log_lines(actions, names: SeatNames) -> list[dict]:
    """Every line of the log, private ones included: only for games that are over."""
    lines = []
    for action in actions:
        in_round = names.in_round(action.round_number)
        for event in action.events:
            text = record_sentence(event, in_round, action.by, action.player)
            if text:
                lines.append({"time": action.created, "text": text, "seq": action.seq,
                              "round": action.round_number,
                              "private": event.get("visible_to") is not None})
    return lines


# After a pause this long a line of the record names its time: play took up again.
LOG_PAUSE = timedelta(minutes=30)
# A record is read by its players as the game ends and now and then after; a day keeps it
# for the first and lets the cache forget games nobody opens.
RECORD_KEPT_FOR = 24 * 3600
# In the key, so that a release that changes what is kept never reads an older shape.
RECORD_SHAPE = 1


@dataclass(frozen=True)
class RecordLog:
    """A finished game's log as its record shows it, folded by round."""

    rounds: list[dict]  # {"number", "start", "lines"}, each line with "resumed"
    can_replay: bool
    agreed_after: int | None  # the round after which the table agreed to end


def record_log(game: Game, names: SeatNames) -> RecordLog:
    """The log of `game`, a finished game, in the active language: put in words once and
    kept in the shared cache for every player who opens the record. A long game has over a
    thousand lines, each action's events read and told; its record no longer changes, but
    the players' names do (a rename, a deleted account) and each reads in their own
    language, so both are in the key, with the game's last action."""
    if not game.is_over:
        # Its private lines (every hand given back in the taxes) are for a game that is over.
        raise ValueError(f"game {game.pk} is in play: its record is not open")
    key = f"record-log:{RECORD_SHAPE}:{game.pk}:{game.seq}:{get_language()}:{names.digest()}"
    log = cache.get(key)
    if log is None:
        log = _record_log(game, names)
        cache.set(key, log, RECORD_KEPT_FOR)
    return log


def _record_log(game: Game, names: SeatNames) -> RecordLog:
    # What the log tells of each action (its events, who made it, when), without the
    # action's own payload, a second JSON document each, or a model object for each.
    actions = list(Action.objects.filter(game=game).order_by("seq").values_list(
        "seq", "round_number", "player", "by", "events", "created", named=True))
    rounds: list[dict] = []
    for line in all_log_lines(actions, names):
        if not rounds or rounds[-1]["number"] != line["round"]:
            rounds.append({"number": line["round"], "lines": []})
        rounds[-1]["lines"].append(line)
    # A time on every line (156 in a round) says nothing: the round's start is named in
    # its heading, and a line gets its time only where play took up again after a pause.
    for r in rounds:
        r["start"] = r["lines"][0]["time"]
        for previous, line in zip(r["lines"], r["lines"][1:], strict=False):
            line["resumed"] = line["time"] - previous["time"] >= LOG_PAUSE
    agreed_after = next((a.round_number for a in actions
                         if any(e.get("type") == "end_agreed" for e in a.events)), None)
    return RecordLog(rounds, bool(actions), agreed_after)


class RecordedAction(NamedTuple):
    """One action of a finished game's record, as its replay reads it."""

    seq: int
    round_number: int
    player: int | None
    kind: str
    payload: dict
    events: list


@dataclass(frozen=True)
class ReplayScript:
    """A finished game's record as its replay steps through it: the actions, and the
    table as each round began, written down as the engine writes a state (by the index in
    `actions` of the action that began the round), so that a step rebuilds the table from
    its round's start rather than from the deal of the first."""

    actions: tuple[RecordedAction, ...]
    round_starts: dict[int, dict]

    def states_around(self, options: engine.Options,
                      step: int) -> tuple[engine.Game | None, engine.Game]:
        """The table before and after the action of `step` (1-based, within the record)."""
        start = max((i for i in self.round_starts if i <= step - 2), default=None)
        state = None if start is None else engine.Game.from_json(self.round_starts[start])
        before = None
        for action in self.actions[(0 if start is None else start + 1):step]:
            before = state
            state = apply_recorded(state, options, action.kind, action.player,
                                   action.payload)
        return before, state


# In the key, as RECORD_SHAPE.
SCRIPT_SHAPE = 1
# The recorded actions that deal a round.
ROUND_BEGINS = frozenset({"start", "next_round"})


def replay_script(game: Game) -> ReplayScript:
    """The record of `game`, a finished game, for its replay: read from the database once
    and kept in the shared cache, since every step rebuilds the table from it (a
    three-round game has some three hundred actions, each with two JSON documents)."""
    if not game.is_over:
        # Every hand is in it.
        raise ValueError(f"game {game.pk} is in play: its record is not open")
    key = f"replay-script:{SCRIPT_SHAPE}:{engine.JSON_VERSION}:{game.pk}:{game.seq}"
    script = cache.get(key)
    if script is None:
        actions = tuple(RecordedAction(*row) for row in Action.objects.filter(game=game)
                        .order_by("seq").values_list("seq", "round_number", "player",
                                                     "kind", "payload", "events"))
        round_starts = {i: state.to_json() for i, (action, state)
                        in enumerate(replay(game, actions)) if action.kind in ROUND_BEGINS}
        script = ReplayScript(actions, round_starts)
        cache.set(key, script, RECORD_KEPT_FOR)
    return script


# The events after which a trick is over (or play begins, after the taxes).
TRICK_ENDS = {"trick_won", "round_over", "play_starts"}


def replay_neighbours(actions, step: int, by: str) -> tuple[int | None, int | None]:
    """The steps one back and one forward from `step` (1-based), moving by one action, to
    the end of the previous/next trick, or to the start of the previous/next round; None at
    either end of the record."""
    total = len(actions)
    if by == "action":
        marks = range(1, total + 1)
    elif by == "trick":
        marks = [
            i + 1 for i, a in enumerate(actions)
            if a.kind in ROUND_BEGINS
            or any(e.get("type") in TRICK_ENDS for e in a.events)
        ]
    else:
        marks = [i + 1 for i, a in enumerate(actions) if a.kind in ROUND_BEGINS]
    marks = sorted({1, total, *marks})
    back = max((m for m in marks if m < step), default=None)
    forward = min((m for m in marks if m > step), default=None)
    return back, forward


def replay_context(state: engine.Game, names: dict[int, str], my_player: int | None = None,
                   bots: frozenset[int] = frozenset()) -> dict:
    """The table at one step with every hand shown (the game is over), in the keys the game
    page's seats and felt are drawn from: `my_player`'s seat at the bottom, as they sat."""
    rnd = state.round
    view = state.view(None)
    g = view["game"]
    finish = {s: i + 1 for i, s in enumerate(view["finish_order"])}
    awaiting = set(rnd.awaiting) if rnd.phase != "over" else set()
    passed = set(view["trick"]["passed"])

    def name_of(player: int) -> str:
        return names.get(player, "?")

    rows = []
    for position, seat in enumerate(view["order"]):
        player = state.seats[seat]
        cards = rnd.hand(seat)
        rows.append({
            "player": player,
            "position": position + 1,
            "name": name_of(player),
            "is_me": player == my_player,
            "is_bot": player in bots,
            "title": title_name(view["titles"][seat]),
            "title_key": view["titles"][seat],
            "hand": hand_groups(cards),
            "count": len(cards),
            "cards": len(cards),
            "score": g["scores"][player],
            "place": finish.get(seat),
            "passed": seat in passed,
            "is_turn": seat in awaiting,
        })
    plays = [
        {"name": name_of(state.seats[p["seat"]]), "cards": p["cards"],
         "label": cards_phrase(p["cards"])}
        for p in view["trick"]["plays"]
    ]
    to_act = view["to_act"]
    return {
        "phase": rnd.phase,
        "round_number": state.round_number,
        "rounds": state.options.rounds,
        "scoring": g.get("scoring", True),
        "players": rows,
        # The seats take their places round the felt as on the game page: mine (else the
        # first in turn order) at the bottom.
        "felt_me": next((row["position"] for row in rows if row["is_me"]), 1),
        "felt_seated": any(row["is_me"] for row in rows),
        "trick_plays": plays,
        "to_beat_play": plays[-1] if plays else None,
        "earlier_plays": plays[:-1],
        "passed_names": [name_of(state.seats[s]) for s in view["trick"]["passed"]],
        "to_act_name": name_of(state.seats[to_act]) if to_act is not None else "",
        "last_result": _result_rows(g["results"][-1], name_of) if g["results"] else None,
        "taxes": _taxes(view, name_of),
        "trade": _trade(view, name_of),
        "revolution": view["revolution"] and {
            "name": name_of(state.seats[view["revolution"]["seat"]]),
            "great": view["revolution"]["great"],
        },
    }
