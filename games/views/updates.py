"""The update an open page gets when its table changes, drawn once for all of the
table's pages and shared.

After a move, every other open page of the table used to ask for the change, and each
had the table drawn for it alone, though most of what it shows is the same for everyone:
the seats, the trick, the round's header, whose turn it is, the log's new lines. Here that
update is drawn once per table, step, language and time zone, from the spectator's view
(nothing private can be in it), and kept in Redis (or the database's cache without it).
The places where the readers differ are slots (`{% slot %}`): some are drawn once per
variant with the update, all of them public (what "Just now" says to each player, where
they sit, "You played; the others must beat this"); the others are the reader's own
(whose turn it is to them, their tip, their poller), drawn for them alone.

- A page's stream sends it the update with the variants filled in for its reader, and
  the key of the reader's own part (hand, dock, standing orders:
  `games.read.seat.own_parts`, kept apart, and sent to that reader alone); the page swaps
  the update in without asking anything (`follower`). The player the table now waits
  for gets their own part with it, drawn with the update and kept apart likewise, their
  forms' token filled in by their stream (`_draw_own`).
- A page that asks (it holds a tip, a line only its reader reads, it moved) gets the
  same update with its own parts drawn for it alone (`answer`).

Anything else is drawn for the page alone, as before: a page that does not show the
version the update starts from, or whose round, phase or day of its log moved on; a
table showing what differs from reader to reader beyond the slots (taxes and trade, a
vote, a nudge, a proposal to end, a newcomer, the end of the game); a reader whose log
gained a line only they read (a private one, their own standing order's).
"""

import asyncio
import json
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError, connection
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from chat.panel import panel_context
from games.core import live
from games.core.live import Step
from games.core.turns import nudge_open, stand_in_vote_open, tables_awaiting_each
from games.core.words import move_sentence
from games.models import Game, Seat
from games.read.narration import round_log, since, since_you_looked, spectator_lines
from games.read.seat import own_context, own_parts, table_context

from .drawn import day_ends, drawn_by, fill_table

# How long a drawn update is kept: the pages it is for ask for it at once.
KEPT_SECONDS = 120
# How long a web process keeps what it read or drew for its streams.
HELD_SECONDS = 10


def keys(game_id: int, version: int, since: int, language: str, zone: str) -> tuple[str, str]:
    """Where the update from `since` to `version` is kept, and its readers' own parts."""
    drawn = f"{game_id}:{version}:{since}:{language}:{zone}:{drawn_by()}"
    return f"live:update:{drawn}", f"live:own:{drawn}"


def sharing(request) -> bool:
    """Whether a move's answer draws the update the table's other pages share: where
    open pages hold streams (an ASGI server with Redis)."""
    return live.enabled() and isinstance(request, ASGIRequest)


def _keep(values: dict[str, str]) -> None:
    if live.enabled():
        live.store(values, KEPT_SECONDS)
    else:
        cache.set_many(values, KEPT_SECONDS)


# The updates this process drew lately, by where they are kept, for as long as they are
# kept there: its own streams and polls take them from here rather than read them back
# and parse them again. Begun afresh when full; a dict's reads and writes are safe from
# the threads that draw them.
DRAWN_HERE = 256
_here: dict[tuple[str, str], tuple["Update", float]] = {}


def _drawn_here(places: list[tuple[str, str]], update: "Update") -> None:
    if len(_here) >= DRAWN_HERE:
        _here.clear()
    until = time.monotonic() + KEPT_SECONDS
    for place in places:
        _here[place] = update, until


def _here_still(place: tuple[str, str]) -> "Update | None":
    update, until = _here.get(place, (None, 0.0))
    return update if time.monotonic() < until else None


def forget() -> None:
    """Read every update back from where it is kept (tests whose tables share numbers)."""
    _here.clear()


def _kept(*names: str) -> list[str | bytes | None]:
    if live.enabled():
        return live.load(*names)
    found = cache.get_many(names)
    return [found.get(name) for name in names]


class Drawing:
    """A drawing shared by a table's readers: each `{% slot %}` in it is marked, for each
    reader's copy to be filled in, and drawn once per variant `variants` names for it
    ({reader: the context it is drawn with}, "*" for every reader not named), if any.
    The variants `own` names are a reader's own (their standing order's pass): drawn
    apart (`mine`), to be kept with that reader's own part."""

    def __init__(self, variants: dict[str, dict[str, dict]],
                 own: dict[str, dict[str, dict]] | None = None):
        # Markers nobody can write into a name or a chat line.
        self.nonce = secrets.token_hex(8)
        self.variants, self.own = variants, own or {}
        self.slots: dict[str, dict[str, str]] = {}
        self.mine: dict[str, dict[str, str]] = {}

    def place(self, name: str, nodelist, context) -> str:
        variants = self.variants.get(name)
        if variants is not None:
            drawn = self._draw(nodelist, context, variants)
            every = drawn["*"]
            self.slots[name] = {"*": every,
                                **{reader: html for reader, html in drawn.items() if html != every}}
        for reader, html in self._draw(nodelist, context, self.own.get(name, {})).items():
            self.mine.setdefault(reader, {})[name] = html
        return f"\ue000{self.nonce}:{name}\ue001"

    @staticmethod
    def _draw(nodelist, context, variants: dict[str, dict]) -> dict[str, str]:
        """Each reader's variant, drawn once for the readers it is the same for."""
        drawn, alike = {}, {}
        for reader, overrides in variants.items():
            same = json.dumps(overrides, sort_keys=True, default=str)
            if same not in alike:
                with context.push(overrides):
                    alike[same] = nodelist.render(context)
            drawn[reader] = alike[same]
        return drawn


def shareable(game: Game, context: dict, seats: list) -> bool:
    """Whether every reader not awaited sees the table alike but for the slots: a round in
    play (taxes and the trade show each their own cards), nobody to nudge or vote about,
    no proposal to end, no newcomer (the Great Dalmuti chooses their place)."""
    if not game.is_playing or context["phase"] != "play" or context["game_over"]:
        return False
    if context["joining"] or context["end_proposal"] is not None:
        return False
    now = timezone.now()
    by_player = {s.player: s for s in seats}
    for player, wait in game.waits().items():
        seat = by_player.get(player)
        if seat is not None and not seat.played_by_bot and nudge_open(game, wait.since, now):
            return False
    return not any(stand_in_vote_open(s, game, now) for s in seats)


def draw(game: Game, since: int, since_seq: int, seats: list[Seat] | None = None,
         counted: dict[int, int | None] | None = None) -> tuple[dict, dict]:
    """The update that brings a page showing version `since` (record number `since_seq`)
    to the table as `game` holds it, in the active language and time zone; and each
    player's own part (`own_parts`). `seats`: the table's seats with their users, if the
    caller read them. `counted`: users whose header's count to ask along with the awaited
    readers' (a move's mover, whose answer is drawn next), filled in where asked."""
    if seats is None:
        seats = game.seats_with_users()
    # The round's record (up to `game`: a move made since is another update's), read
    # first: whoever draws right after a commit learns here if the connection was lost.
    record = round_log(game)
    actions = [action for action in record.actions if action.seq <= game.seq]
    context = table_context(game, None, seats, results=False)
    shared = {"version": game.version, "since": since, "round": game.round_number,
              "day": timezone.localdate().isoformat(), "ask": True}
    if since >= game.version or not shareable(game, context, seats):
        return shared, {}
    names = {s.player: s.name for s in seats}
    log = spectator_lines(record, names, game.seq)
    news = [line for line in log if line["seq"] > since_seq]
    # What a standing order did is its owner's business: to everyone else (and in what
    # they share) it is an ordinary move; its owner reads their own lines apart.
    public = [{**line, "by": ""} if line["by"] == "standing_order" else line for line in news]
    owners = {line["actor"] for line in news if line["by"] == "standing_order"}
    view, state = context["view"], game.engine_state()
    added = [{**line, "number": f"+{i}", "slot": f"line{i}"}
             for i, line in enumerate(public, start=1)]
    fill_table(context, game, None, names, log, public, False, oob=True, send_panels=False,
               log_news=added, stream=True)
    context.update({"send_me": False, "pushed": True, "me_key": ""})
    players = [row.player for row in context["players"]]
    variants = {
        "poller": {"*": {}}, "turn": {"*": {}}, "tip": {"*": {}}, "mine": {"*": {}},
        "since": {"*": {}, **{str(p): {"summary": since_you_looked(public, p, names)}
                              for p in players}},
        "felt": {"*": {}, **{str(row.player): {"felt_me": row.position, "felt_seated": True}
                             for row in context["players"]}},
        "centre": {"*": {}},
        # The news of a revolution speaks to the player who called it as "you".
        "revolution": {"*": {}, **({str(context["revolution"]["player"]): {
            "revolution": {**context["revolution"], "mine": True}}}
            if context["revolution"] else {})},
        **{line["slot"]: {"*": {}} for line in added},
    }
    trick = view["trick"]
    if context["to_beat_play"] is not None:
        variants["centre"][str(view["seats"][trick["plays"][-1]["seat"]])] = {
            "to_beat_play": {**context["to_beat_play"], "is_me": True}}
    if view["to_act"] is not None:
        leader = variants["centre"].setdefault(str(view["seats"][view["to_act"]]), {})
        leader["leader_is_me"] = True
    if context["last_trick"] is not None and context["to_beat_play"] is None:
        winner = variants["centre"].setdefault(str(context["last_trick"]["winner_player"]), {})
        winner["last_trick"] = {**context["last_trick"], "mine": True}
    own = {"since": {}}
    for owner in owners:
        own["since"][str(owner)] = {"summary": since_you_looked(news, owner, names)}
        for line, mine in zip(added, news, strict=True):
            text = move_sentence(mine["event"], lambda p: names.get(p, "?"), mine["by"],
                                 mine["actor"], owner)
            if text != line["text"]:
                own.setdefault(line["slot"], {})[str(owner)] = {"line": {**line, "text": text}}
    drawing = Drawing(variants, own)
    context["shared_drawing"] = drawing
    html = render_to_string("games/game.html#update", context)
    shared.update({"ask": False, "lines": len(news), "nonce": drawing.nonce, "html": html,
                   "slots": drawing.slots})
    new_events = [(action.by, event) for action in actions if action.seq > since_seq
                  for event in action.events]
    parts = own_parts(game, seats, state, new_events)
    for reader, slots in drawing.mine.items():
        if reader in parts:
            parts[reader]["slots"] = slots
    by_player = {str(seat.player): seat for seat in seats}
    awaited = [reader for reader, part in parts.items() if part["awaited"] and not part["ask"]]
    if awaited:
        # Drawn with no request: the header's count that comes with their own part is
        # asked here (a page's answers have it from games.views.context), the mover's
        # with it.
        counts = tables_awaiting_each([*(by_player[r].user_id for r in awaited),
                                       *(counted or {})])
        if counted is not None:
            counted.update((user_id, counts[user_id]) for user_id in counted)
        for reader in awaited:
            me = by_player[reader]
            _draw_own(game, me, seats, parts[reader], drawing.nonce, counts[me.user_id])
    return shared, parts


def _draw_own(game: Game, me: Seat, seats: list[Seat], part: dict, nonce: str,
              awaiting_count: int) -> None:
    """Draw into `part` the own parts of a reader the table now waits for (whose turn it
    is to them, their tip, their hand and dock), so that their page takes the update
    without asking for them. Their forms carry a marker where the page's form token goes,
    filled in by their stream (`Update.event_for`)."""
    context = _own_context(game, me, seats, part["panels"])
    context.update({"csrf_token": csrf_marker(nonce), "awaiting_count": awaiting_count})
    part["slots"] = {**part.get("slots", {}), **own_drawn(context, None, send_me=True)}
    part["mine"] = True


def csrf_marker(nonce: str) -> str:
    """Where a reader's own form token goes in their own parts drawn with an update."""
    return f"\ue000{nonce}:csrf\ue001"


def _own_context(game: Game, me: Seat, seats: list[Seat], panels: str) -> dict:
    """What the reader's own parts of an update are drawn from."""
    context = own_context(game, me, seats)
    context.update({
        "game": game, "me": me, "error": "", "error_in_form": "", "oob": True,
        "orders_saved": False, "poll_url": reverse("poll", args=[game.pk]),
        "poll_seconds": settings.GAME_POLL_SECONDS, "since": since(game, context["view"]),
        "panels_key": panels,
    })
    return context


def own_drawn(context: dict, request, send_me: bool) -> dict[str, str]:
    """The reader's own parts of an update: whose turn it is to them, their tip, and
    (`send_me`) their hand, dock and standing orders."""
    return {
        "turn": render_to_string("games/table/_turn.html", context),
        "tip": render_to_string("games/table/_tip.html", context, request=request),
        "mine": render_to_string("games/table/_me.html", context, request=request)
        if send_me else "",
    }


def prepare(game_id: int, step: Step, language: str, zone: str,
            played: tuple[Game, list[Seat]] | None = None,
            counted: dict[int, int | None] | None = None) -> "Update | None":
    """Draw the update `step` announces (brought up to the table's version now, or the
    one of `played`: the table as a move left it, and its seats) in this language and
    time zone, and keep it with the players' own parts for the table's pages; None when
    the step's start is not known. `counted`: as `draw`'s."""
    if step.since is None:
        return None
    game, seats = played or (Game.objects.get(pk=game_id), None)
    with translation.override(language), timezone.override(zone):
        shared, own = draw(game, step.since, step.since_seq, seats, counted)
    places = [keys(game_id, step.version, step.since, language, zone)]
    if shared["version"] != step.version:
        # The table moved on: kept under the version it shows too, for that step's pages.
        places.append(keys(game_id, shared["version"], step.since, language, zone))
    written = json.dumps(shared), json.dumps(own)
    _keep({key: value for place in places for key, value in zip(place, written, strict=True)})
    update = Update.read(shared, own)
    _drawn_here(places, update)
    return update


def _prepare_apart(game_id: int, step: Step, language: str, zone: str) -> "Update | None":
    """`prepare` in a thread of its own, which gives its database connection back; None
    when the table is gone or the database cannot be reached (the pages ask)."""
    try:
        return prepare(game_id, step, language, zone)
    except (Game.DoesNotExist, DatabaseError):
        return None
    finally:
        connection.close()


@dataclass
class Update:
    """A drawn update as the pages of one web process are sent it."""

    head: dict
    parts: list[str]  # the drawing cut at its markers: text, slot name, text, …
    slots: dict[str, dict[str, str]]
    own: dict[str, dict]
    me: str  # the marker of the key of the reader's own part
    csrf: str  # the marker of the reader's form token in their own parts

    @classmethod
    def read(cls, shared: dict, own: dict) -> "Update":
        head = {name: shared.get(name) for name in
                ("version", "since", "round", "day", "ask", "lines")}
        if shared["ask"]:
            return cls(head, [], {}, own, "", "")
        nonce = shared["nonce"]
        return cls(head, re.split(f"\ue000{nonce}:([a-z0-9]+)\ue001", shared["html"]),
                   shared["slots"], own, f"\ue000{nonce}:me\ue001", csrf_marker(nonce))

    def fill(self, player: int, drawn: dict[str, str], key: str) -> str:
        """The update for `player`'s page: each slot with their variant, their own (kept
        with their own part), or what was `drawn` for them alone."""
        reader = str(player)
        mine = self.own.get(reader, {}).get("slots", {})
        pieces = []
        for index, part in enumerate(self.parts):
            if index % 2 == 0:
                pieces.append(part)
            elif part in drawn:
                pieces.append(drawn[part])
            elif part in mine:
                pieces.append(mine[part])
            else:
                slot = self.slots[part]
                pieces.append(slot.get(reader, slot["*"]))
        return "".join(pieces).replace(self.me, key)

    def brings_forms(self, player: int) -> bool:
        """Whether `player`'s event brings their own forms (the table waits for them),
        which carry their page's form token."""
        own = self.own.get(str(player))
        return bool(own and own.get("mine"))

    def event_for(self, player: int, csrf_token: str) -> str:
        """The event for `player`'s stream: a line of what the page must show for the
        update to fit it (the version it starts from, its round and day, the keys of its
        own part and of its folded panels), then the update; or word to ask. An update
        that brings the reader's own part (`mine`: the table waits for them) fits
        whatever own part the page showed, and its forms get the stream's `csrf_token`
        (the page's own, masked afresh)."""
        own = self.own.get(str(player))
        if own is None or own["ask"] or self.head["ask"]:
            return live.ask_event(self.head["version"])
        head = {"v": self.head["version"], "since": self.head["since"],
                "round": self.head["round"], "day": self.head["day"], "key": own["key"],
                "panels": own["panels"]}
        html = self.fill(player, {}, own["key"])
        if self.brings_forms(player):
            head["mine"] = True
            html = html.replace(self.csrf, csrf_token)
        html = html.replace("\n", "\ndata: ")
        return f"event: update\ndata: {json.dumps(head)}\ndata: {html}\n\n"


# -- the answer to a page that asks --


# A log line of an update, numbered from the page's last (`+1`…).
ADDED_LINE = re.compile(r'data-line="\+(\d+)"')


def _shown(request) -> dict | None:
    """What the page that asked shows (a poll's query, a form's #looked): its version,
    round, count of log lines, panels and the day its log's times were written."""
    data = request.POST if request.method == "POST" else request.GET
    try:
        return {"v": int(data["v"] if request.method == "GET" else data["sv"]),
                "r": int(data["r"]), "n": int(data["n"]), "p": data["p"], "d": data["d"]}
    except (KeyError, ValueError):
        return None


def answer(request, game: Game, me: Seat, seats: list[Seat], *, me_seen: str = "",
           orders_saved: bool = False, chat_last: int | None = None) -> str | None:
    """The fragments for `me`'s page from the update the table's pages share, with the
    reader's own parts (poller, turn, tip, hand and dock, table talk) drawn for them;
    None unless the page shows what the update starts from (the page is then drawn for
    it alone)."""
    shown = _shown(request)
    if (shown is None or me.player is None or not game.is_playing
            or shown["v"] >= game.version or shown["r"] != game.round_number
            or shown["d"] != timezone.localdate().isoformat()):
        return None
    update = getattr(request, "shared_update", None)
    if update is None or update.head["version"] != game.version \
            or update.head["since"] != shown["v"]:
        update = _read(game.pk, game.version, shown["v"])
    if update is None or update.head["ask"]:
        return None
    own = update.own.get(str(me.player))
    if own is None or own["apart"] or own["panels"] != shown["p"]:
        return None
    context = _own_context(game, me, seats, own["panels"])
    context.update({"orders_saved": orders_saved,
                    "log_count": shown["n"] + update.head["lines"], "log_day": shown["d"],
                    "log_day_ends": day_ends()})
    # My hand, the dock and my standing orders only when they changed: a half-made choice
    # (ticked cards) survives other players' moves.
    send_me = context["me_key"] != me_seen or orders_saved
    own_parts_drawn = {
        "poller": render_to_string("games/table/_poller.html", context),
        **own_drawn(context, request, send_me),
    }
    html = update.fill(me.player, own_parts_drawn, context["me_key"])
    # The new lines numbered after the page's own (each reader's log has its own lines).
    html = ADDED_LINE.sub(lambda found: f'data-line="{shown["n"] + int(found[1])}"', html)
    view = context["view"]
    titles = {view["seats"][i]: title for i, title in enumerate(view["titles"])}
    talk = panel_context(request, game, me, titles, True, send_tools=False, seats=seats,
                         newest_id=chat_last if chat_last is not None
                         else live.chat_last(game.pk))
    return html + render_to_string("chat/_chat.html", {**context, **talk}, request=request)


def _read(game_id: int, version: int, since: int) -> Update | None:
    where = keys(game_id, version, since, translation.get_language(),
                 timezone.get_current_timezone_name())
    if (update := _here_still(where)) is not None:
        return update
    found = _kept(*where)
    if found[0] is None or found[1] is None:
        return None
    return Update.read(json.loads(found[0]), json.loads(found[1]))


# -- the streams --

# What this process's streams read or drew, by event loop, table, step, language and
# zone: every stream of a table that asks while it is under way waits for the same work.
_held: dict[tuple, asyncio.Task] = {}


async def _update(game_id: int, step: Step, language: str, zone: str) -> Update | None:
    where = keys(game_id, step.version, step.since, language, zone)
    if (update := _here_still(where)) is not None:
        return update
    found = await live.fetch(*where)
    if found is None:
        return None
    if found[0] is not None and found[1] is not None:
        return Update.read(json.loads(found[0]), json.loads(found[1]))
    return await sync_to_async(_prepare_apart, thread_sensitive=False)(
        game_id, step, language, zone)


async def update_for(game_id: int, step: Step, language: str, zone: str) -> Update | None:
    loop = asyncio.get_running_loop()
    key = (id(loop), game_id, step.version, step.since, language, zone)
    task = _held.get(key)
    if task is None:
        task = asyncio.ensure_future(_update(game_id, step, language, zone))
        _held[key] = task
        loop.call_later(HELD_SECONDS, _held.pop, key, None)
    return await asyncio.shield(task)


def follower(game_id: int, player: int | None, language: str, zone: str,
             csrf_token: Callable[[], str]):
    """What a stream of `player`'s page sends after each new version's event: the update,
    or word to ask for it; `csrf_token` gives the page's form token, masked afresh."""
    async def follow(step: Step) -> str:
        if player is None or step.since is None:
            return live.ask_event(step.version)
        update = await update_for(game_id, step, language, zone)
        if update is None:
            return live.ask_event(step.version)
        # The token masked afresh only for an event whose forms carry it.
        return update.event_for(player, csrf_token() if update.brings_forms(player) else "")
    return follow
