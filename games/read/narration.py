"""The narration of a table, as one seat may read it: the log lines, one line for what
happened since the page was last shown ("since you looked"), the last finished trick, and
since when the table has waited; which lines a page has not shown yet.

Every line comes from the record's events, and a private event only reaches those it
concerns (`visible_to`)."""

from datetime import datetime, timedelta
from typing import NamedTuple

from django.utils import timezone
from django.utils.translation import get_language, ngettext, npgettext, pgettext
from django.utils.translation import gettext as _

from dalmuti_site.compiled import CompiledQuery
from games.core.words import cards_phrase, move_sentence, names_phrase
from games.models import Action, Game, Seat


def log_lines(actions: list[Action], me: Seat | None, names: dict[int, str]) -> list[dict]:
    """The game log as `me` may read it: private events only for those they concern."""
    return lines_for(actions, me.player if me is not None else None, names)


def lines_for(actions, my_player: int | None, names: dict[int, str]) -> list[dict]:
    """`log_lines` as player `my_player` (None: a spectator) reads them."""
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
    waits = game.waits()
    starts = [waits[player] for player in (view["seats"][s] for s in view["awaiting"])
              if player in waits]
    return min(wait.since for wait in starts) if starts else None


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
            plays.append(event)
        elif kind == "trick_won":
            finished = (event, plays)
            plays = []
        elif kind == "round_starts":
            plays, finished = [], None
    if finished is None:
        return None
    # Only the last trick's plays are put in words (a round's log has dozens).
    won, played = finished
    return {"winner": names.get(won["player"], "?"), "winner_player": won["player"],
            "plays": [{"name": names.get(play["player"], "?"), "cards": play["cards"],
                       "label": cards_phrase(play["cards"])} for play in played],
            "leader": names.get(won["leader"], "?")}


# How many moves the summary names before it says only how many came before them.
# What "since you looked" tells, by kind of event (games.engine.EVENT_KINDS). Every kind
# is in one of the two sets, so a new kind cannot slip past this summary unnoticed: passes
# are gathered into one phrase, the kinds told are these, the rest stay out of it (private
# choices, steps whose outcome is told by a later kind, and the table's own news, which the
# page shows in its own place). Who comes and who goes is told: once done, the page shows
# it nowhere else, and a turn email has no other place for it.
TOLD_SINCE_YOU_LOOKED = frozenset({
    "pass", "play", "trick_won", "out", "round_over", "round_starts", "revolution", "taxes",
    "trade_done", "trade_declined", "joined", "leaving", "left", "game_over",
})
NOT_TOLD_SINCE_YOU_LOOKED = frozenset({
    "revolution_declined", "give_back_chosen", "tax_exchange", "trade_offer", "trade",
    "trade_card_chosen", "trade_exchange", "play_starts", "game_ending", "game_continues",
    "end_proposed", "end_vote", "end_agreed", "end_declined", "end_lapsed",
    "stand_in_plays",
})
SUMMARY_PARTS = 6


def since_you_looked(lines: list[dict], my_player: int | None, names: dict[int, str],
                     final: dict[int, int] | None = None) -> str:
    """One line for what the table did in `lines` (the log lines a page has not shown):
    "Ada and Bram passed; Cato won the trick with 2 Masons". A move the player did not
    make themselves says who made it: the clock, the stand-in, or (to its owner) a
    standing order. Player names keep their own spelling, even first in the line.

    The end of the game is told with the reader's place in the final standings (`final`,
    by player, once the game is over), and the places of its last round are left out:
    the last there may be third in the game, behind everybody but a player who left."""
    # Each part, whether it begins with a player's name (never capitalised), and whether
    # it is a move made in the reader's name (by the clock, the stand-in or their standing
    # order): what they most need to read, never left out of a long summary.
    parts: list[tuple[str, bool, bool]] = []
    passed: list[str] = []
    # The latest play: who, in words, and where its part is (a trick it wins is told
    # as "won the trick with", the passes that let it win left unsaid).
    last_play: tuple[int, str, int] | None = None

    def who(player: int) -> str:
        return names.get(player, "?")

    def say(text: str, named: bool = False, for_you: bool = False) -> None:
        parts.append((text, named, for_you))

    def flush() -> None:
        if passed:
            if passed == [_("you")]:
                say(_("you passed"))
            else:
                # The verb agrees with how many passed ("dave passt", "dave et eve ont
                # passé").
                say(npgettext("summary", "%(names)s passed", "%(names)s passed", len(passed))
                    % {"names": names_phrase(passed)}, named=passed[0] != _("you"))
            passed.clear()

    last_round = {line.get("round") for line in lines if line["event"]["type"] == "game_over"}
    for line in lines:
        event = line["event"]
        kind = event["type"]
        player = event.get("player")
        by = line.get("by", "") if player is not None and player == line.get("actor") else ""
        mine = player == my_player
        if kind in ("out", "round_over") and line.get("round") in last_round:
            last_play = None
            continue
        if kind == "pass" and by in ("timeout", "stand_in") or (
                kind == "pass" and by == "standing_order" and mine):
            flush()
            if by == "timeout":
                say(_("your time ran out: passed for you") if mine else
                    _("%(player)s's time ran out: passed for them") % {"player": who(player)},
                    named=not mine, for_you=mine)
            elif by == "stand_in":
                say(_("the stand-in passed for you") if mine else
                    _("the stand-in passed for %(player)s") % {"player": who(player)},
                    for_you=mine)
            else:
                say(_("you passed by your standing order"), for_you=True)
            continue
        if kind == "pass":
            passed.append(_("you") if mine else who(player))
            continue
        if kind not in TOLD_SINCE_YOU_LOOKED:
            continue
        flush()
        if kind == "play":
            cards = cards_phrase(event["cards"])
            if by == "timeout":
                say(_("your time ran out: played %(cards)s for you") % {"cards": cards} if mine
                    else _("%(player)s's time ran out: played %(cards)s for them") % {
                        "player": who(player), "cards": cards}, named=not mine, for_you=mine)
            elif by == "stand_in":
                say(_("the stand-in played %(cards)s for you") % {"cards": cards} if mine
                    else _("the stand-in played %(cards)s for %(player)s") % {
                        "player": who(player), "cards": cards}, for_you=mine)
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
            if event.get("last"):
                if player == my_player:
                    say(_("you finished last, in place %(place)d") % {"place": event["place"]})
                else:
                    say(_("%(player)s finished last, in place %(place)d") % {
                        "player": who(player), "place": event["place"]}, named=True)
            elif player == my_player:
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
            if mine and by == "standing_order":
                say(_("you called a Great Revolution by your standing order") if event["great"]
                    else _("you called a revolution by your standing order"), for_you=True)
            elif mine:
                say(_("you declared a Great Revolution") if event["great"]
                    else _("you declared a revolution"))
            else:
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
        elif kind == "joined":
            if mine:
                say(_("you joined the table in place %(place)d") % {"place": event["place"]})
            else:
                say(_("%(player)s joined the table in place %(place)d") % {
                    "player": who(player), "place": event["place"]}, named=True)
        elif kind == "left" or (kind == "leaving" and event["bot"]):
            if mine:
                say(_("you left the table"))
            else:
                say(_("%(player)s left the table") % {"player": who(player)}, named=True)
        elif kind == "leaving":
            if mine:
                say(_("you will leave the table when this round ends"))
            else:
                say(_("%(player)s will leave the table when this round ends") % {
                    "player": who(player)}, named=True)
        elif kind == "game_over" and event["winner"] is None:
            # Everybody left: the places they share say nothing of who won.
            say(_("the game is over: everybody left, nobody won"))
        elif kind == "game_over":
            place = final.get(my_player) if final is not None else (
                1 if my_player is not None and event["winner"] == my_player else None)
            if place == 1:
                say(_("the game is over: you won"))
            elif place:
                say(_("the game is over: you finished in place %(place)d") % {"place": place})
            else:
                say(_("the game is over: %(player)s won") % {"player": who(event["winner"])})
    flush()
    if not parts:
        return ""
    # The same thing again at once (Bram winning two tricks with 2 Peasants) is said once,
    # with how often: repeated, it reads as a line printed twice by mistake.
    repeated: list[tuple[str, bool, bool, int]] = []
    for text, named, for_you in parts:
        if repeated and repeated[-1][0] == text:
            repeated[-1] = (text, named, for_you or repeated[-1][2], repeated[-1][3] + 1)
        else:
            repeated.append((text, named, for_you, 1))
    parts = [(text if count == 1 else ngettext(
        "%(part)s (%(count)d time)", "%(part)s (%(count)d times)", count) % {
        "part": text, "count": count}, named, for_you)
        for text, named, for_you, count in repeated]
    if len(parts) > SUMMARY_PARTS:
        # The latest parts, and before them every move made in the reader's name (the
        # latest so many of those), in the order they came; the rest is counted, unless
        # that is one move: counted, it would take the room it takes told.
        kept = set(range(len(parts) - SUMMARY_PARTS, len(parts)))
        kept |= set([i for i, part in enumerate(parts) if part[2] and i not in kept]
                    [-SUMMARY_PARTS:])
        earlier = len(parts) - len(kept)
        if earlier > 1:
            parts = [(ngettext("%(count)d earlier move", "%(count)d earlier moves", earlier)
                      % {"count": earlier}, False, False)] + [parts[i] for i in sorted(kept)]
    # Between its parts, as the language writes a semicolon (French puts a space first).
    sentence = pgettext("between the parts of a summary", "; ").join(
        text for text, _named, _for_you in parts)
    if parts[0][1]:
        return sentence
    return sentence[:1].upper() + sentence[1:]


# A page left alone this long says "While you were away" over what happened meanwhile.
AWAY = timedelta(minutes=10)
# How many earlier rounds a page's summary reaches back (a page open for days).
SUMMARY_ROUNDS = 2
# The most plays that land one after another (the stylesheet has a delay for each).
ARRIVALS = 9


# What log_lines reads of an action: a page that reads only these for the round it shows
# (every poll after every move) is spared building whole Action rows.
LINE_FIELDS = ("seq", "round_number", "player", "events", "by", "created")


# The round's record from an action on (every page reads it; compiled once).
_ROUND_FROM = CompiledQuery(
    lambda game_id, round_number, seq: Action.objects
    .filter(game_id=game_id, round_number=round_number, seq__gte=seq)
    .order_by("seq").values_list("id", *LINE_FIELDS, named=True))


def lines_of_round(game: Game, me: Seat | None, names: dict[int, str]) -> list[dict]:
    """The log lines of the round in play up to `game`, as this seat (or a watcher) may
    read them: from the record this process keeps (`round_log`), narrated once per reader."""
    return lines_read(round_log(game), names, game.seq, me.player if me is not None else None)


class RoundLog(NamedTuple):
    """A round's record in play as this process has read it, and its lines as each reader
    (a player, or None: a spectator) reads them in each language (for the record's first
    so many actions)."""

    actions: tuple
    lines: dict[tuple, tuple[int, list[dict]]]


# The rounds in play this process read, by table and round. While a round is in play its
# record only grows, one action after another under the table's lock, so a page's update
# (drawn after every move) and a page read only the actions since and narrate them once
# per language and reader, instead of reading and narrating the whole round again. Begun
# afresh when full: a round of five, its record and its lines in one language, holds
# about 150 KB, and each player's own lines (their private ones, their standing order's;
# the rest are the spectator's, shared) a few KB more: a full store about 50 MB.
_rounds_read: dict[tuple[int, int], RoundLog] = {}
ROUNDS_KEPT = 256


def round_log(game: Game) -> RoundLog:
    """The record of the round in play of `game`, up to its last committed action (more
    than `game.seq` when a move was made since `game` was read).

    The last action this process read is read again with those since: a record that no
    longer holds it as it was (a transaction that wrote it rolled back; another table
    given the same id, as in a test database) is read whole again."""
    key = (game.pk, game.round_number)
    kept = _rounds_read.get(key)
    if kept is not None and kept.actions:
        last = kept.actions[-1]
        since = _ROUND_FROM(game.pk, game.round_number, last.seq)
        if since and since[0] == last:
            if len(since) == 1:
                return kept
            found = RoundLog(kept.actions + tuple(since[1:]), dict(kept.lines))
            _rounds_read[key] = found
            return found
    found = RoundLog(tuple(_ROUND_FROM(game.pk, game.round_number, 0)), {})
    if len(_rounds_read) >= ROUNDS_KEPT:
        _rounds_read.clear()
    _rounds_read[key] = found
    return found


def lines_read(log: RoundLog, names: dict[int, str], through: int,
               reader: int | None = None) -> list[dict]:
    """`log_lines` of the round's record up to action `through`, as player `reader` (None:
    a spectator) reads them in the active language: the lines of actions this process
    narrated for them before are taken as they were (each line a copy, for the caller to
    number)."""
    return [dict(line) for line in _told(log, names, reader) if line["seq"] <= through]


def _told(log: RoundLog, names: dict[int, str], reader: int | None) -> list[dict]:
    """The lines of the whole record as `reader` reads them, narrated for them once and
    kept under their own key (their private lines with them). A line that reads to them
    as to a spectator is kept once, the spectator's, for all of them."""
    # A seat not yet at the table (a newcomer waiting for the next round) has no place
    # (None) among the names: a set needs no order.
    key = (get_language(), frozenset(names.items()), reader)
    told, lines = log.lines.get(key, (0, []))
    if told < len(log.actions):
        new = lines_for(log.actions[told:], reader, names)
        if reader is not None:
            first = log.actions[told].seq
            public = {id(line["event"]): line for line in _told(log, names, None)
                      if line["seq"] >= first}
            new = [_shared(public.get(id(line["event"])), line) for line in new]
        lines = lines + new
        log.lines[key] = (len(log.actions), lines)
    return lines


def _shared(public: dict | None, line: dict) -> dict:
    return public if public == line else line


def spectator_lines(log: RoundLog, names: dict[int, str], through: int) -> list[dict]:
    """`lines_read` as a spectator reads them (what a table's readers share)."""
    return lines_read(log, names, through)


def lines_of_game(game: Game, me: Seat | None, names: dict[int, str]) -> list[dict]:
    """The log lines of the whole game, as this seat (or a watcher) may read them."""
    return log_lines(list(Action.objects.filter(game=game).order_by("seq")), me, names)


def unseen_lines(game: Game, me: Seat | None, names: dict[int, str], log: list[dict],
                 shown: tuple[int, int] | None, looked: datetime | None
                 ) -> tuple[list[dict], bool]:
    """The log lines a page has not shown yet, and whether its player was away.

    An answer to a poll or an action knows what the page showed (`shown`): the round and
    how many of its log lines, counted in this player's own log, so they tell nothing
    another player could not see. A full page goes by when its player last `looked`."""
    if shown is not None and 0 < shown[0] <= game.round_number:
        seen_round, seen_lines = shown
        if seen_round == game.round_number:
            return log[seen_lines:], False
        first = max(seen_round, game.round_number - SUMMARY_ROUNDS)
        lines = _earlier_rounds_lines(game, me, names, first)
        if first == seen_round:
            # The lines of the round the page was in, less those it showed.
            already = [line for line in lines if line["round"] == seen_round][:seen_lines]
            lines = lines[len(already):]
        return lines + log, False
    if looked is not None and timezone.now() - looked > AWAY:
        # Away across the end of a round, as an update reaches back (`SUMMARY_ROUNDS`):
        # how the round the player left ended, and what was done in their name there,
        # are what they most need to read.
        lines = _earlier_rounds_lines(game, me, names,
                                      game.round_number - SUMMARY_ROUNDS, after=looked)
        return [line for line in lines + log if line["time"] > looked], True
    return [], False


def _earlier_rounds_lines(game: Game, me: Seat | None, names: dict[int, str], first: int,
                          after: datetime | None = None) -> list[dict]:
    """The log lines of the rounds from `first` to the one in play (not included), as this
    seat may read them; only those of actions after `after`, if given. None in round 1,
    without asking the database."""
    if game.round_number <= 1:
        return []
    actions = Action.objects.filter(game=game, round_number__gte=first,
                                    round_number__lt=game.round_number)
    if after is not None:
        actions = actions.filter(created__gt=after)
    earlier = list(actions.order_by("seq"))
    return log_lines(earlier, me, names) if earlier else []


def mark_arrivals(trick_plays: list[dict], new_lines: list[dict]) -> None:
    """Number the plays of the current trick that arrived since the page last looked, in
    order (`arrive`), so that the stylesheet can let them land one after another."""
    arrived = 0
    for line in new_lines:
        kind = line["event"]["type"]
        if kind == "play":
            arrived += 1
        elif kind in ("trick_won", "round_starts"):
            arrived = 0
    fresh = trick_plays[len(trick_plays) - min(arrived, len(trick_plays), ARRIVALS):]
    for number, play in enumerate(fresh, start=1):
        play["arrive"] = number
