"""What the chat panel shows one player: the latest messages with each speaker's current
title, and the flourishes their own title offers."""

from django.db.models import Subquery
from django.urls import reverse
from django.utils.translation import gettext as _

from dalmuti_site.compiled import CompiledQuery
from games.core import live
from games.core.words import title_name
from games.models import Game, Seat

from . import flourishes
from .models import Message, ReadMarker
from .services import mark_read, seated_names

PANEL_SIZE = 30

# What every table page asks of the talk (compiled once): the panel's newest messages,
# each with what the reader (a seat's id; 0 for a watcher) had read, asked once in the
# same query; the newest one's id; and what the reader had read, where no message was.
# A message's speaker is found among the table's seats (`lines`), not read with it.
_NEWEST = CompiledQuery(
    lambda game_id, seat_id: Message.objects.filter(game_id=game_id).order_by("-pk")
    .annotate(read_before=Subquery(ReadMarker.objects.filter(seat_id=seat_id)
                                   .values("last_read")[:1]))[:PANEL_SIZE])
_NEWEST_ID = CompiledQuery(
    lambda game_id: Message.objects.filter(game_id=game_id).order_by("-pk")
    .values_list("pk", flat=True)[:1])
_READ_BEFORE = CompiledQuery(
    lambda seat_id: ReadMarker.objects.filter(seat_id=seat_id)
    .values_list("last_read", flat=True)[:1])


def _int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def lines(messages: list[Message], me: Seat | None, titles: dict[int, str],
          seats: list[Seat] | None, watcher_id: int | None = None) -> list[dict]:
    """The messages as the talk panel shows them to `me`: each speaker named as they are
    now and titled as when they spoke (`Message.title`), found among `seats` (the
    table's, with their users); a message whose speaker has no seat at the table any
    more (who left it before it began, a watcher) keeps the name it was said under
    (`Message.speaker`). `watcher_id`: the signed-in watcher reading (no seat), whose
    own lines are theirs as a player's are."""
    by_pk = {seat.pk: seat for seat in seats or ()}
    missing = {m.seat_id for m in messages if m.seat_id is not None} - by_pk.keys()
    if missing:
        # Seated since the caller read the table's seats, and spoke already.
        by_pk.update((seat.pk, seat) for seat in
                     Seat.objects.filter(pk__in=missing).select_related("user"))
    out = []
    for m in messages:
        seat = by_pk.get(m.seat_id) if m.seat_id is not None else None
        title = m.title if m.title is not None else (
            titles.get(seat.player) if seat is not None and seat.player is not None else None)
        flourish = flourishes.BY_KEY.get(m.flourish) if m.flourish else None
        out.append({
            "id": m.pk,
            "name": seat.name if seat is not None else m.speaker,
            "title_key": title or "",
            "title": title_name(title) if title else "",
            "mine": m.seat_id == me.pk if me is not None else (
                watcher_id is not None and m.by_watcher and m.author_id == watcher_id),
            "text": str(flourish.text) if flourish else m.text or _("(deleted)"),
            "icon": flourish.icon if flourish else "",
            "flourish": bool(m.flourish),
            "created": m.created,
        })
    return out


def _newest_id(game: Game) -> int:
    """The newest message's id (0: none yet), read from the database when Redis did not
    know it, and told to Redis for the answers that follow (a table nobody has talked at
    has no entry there until it is read once)."""
    last_id = next(iter(_NEWEST_ID(game.pk)), 0)
    live.chat_known(game.pk, last_id)
    return last_id


def panel_context(request, game: Game, me: Seat | None, titles: dict[int, str], oob: bool = False,
                  send_log: bool | None = None, send_tools: bool = True,
                  send_error: bool = False, error: str = "", text: str = "",
                  limit: int | None = PANEL_SIZE, seats: list[Seat] | None = None,
                  newest_id: int | None = None) -> dict:
    """The `chat` context of chat/_chat.html: the whole panel, or (`oob`) only the parts
    named by the send_* flags, swapped into the page out of band.

    Polls and actions carry the log only when the page lacks messages (the page reports
    the newest it shows as `c`): a half-typed message, the scroll position and an open
    panel survive every other update. A caller that has read the table's seats (with
    their users) or the newest message's id passes them, and they are not read again.
    """
    last_id = None
    if send_log is None and oob:
        # An update whose page shows every message needs the newest one's id alone.
        seen = _int(request.GET.get("c"))
        last_id = newest_id if newest_id is not None else _newest_id(game)
        send_log = seen is not None and seen < last_id
    messages = []
    # What the reader had read, when the panel's messages said it (None: not asked).
    read_mark = None
    if send_log is not False:
        if limit == PANEL_SIZE:
            messages = _NEWEST(game.pk, me.pk if me is not None else 0)[::-1]
            # Without a message there is nothing to have read.
            read_mark = (messages[-1].read_before or 0) if messages else 0
        else:
            newest = Message.objects.filter(game=game).order_by("-pk")
            messages = list(newest[:limit] if limit else newest)[::-1]
        last_id = messages[-1].pk if messages else 0
        if send_log is None:
            send_log = True
    elif last_id is None:
        last_id = newest_id if newest_id is not None else _newest_id(game)
    if seats is None and (messages and send_log or not oob or send_tools):
        seats = game.seats_with_users()
    watcher_id = request.user.pk if me is None and request.user.is_authenticated else None
    shown = lines(messages, me, titles, seats, watcher_id) if send_log else []
    # What the player had read before this page: the page counts what came since as
    # unread until they open the panel.
    if oob or me is None:
        read_before = 0
    elif read_mark is not None:
        read_before = read_mark
    else:
        read_before = next(iter(_READ_BEFORE(me.pk)), 0)
    # A page whose reader had read everything it shows has no mark to move (and moving
    # it would cost two queries: the update that finds nothing older, then the look).
    if send_log and me is not None and (oob or read_before < last_id):
        mark_read(me, last_id)
    my_title = titles.get(me.player) if me is not None and me.player is not None else None
    return {"chat": {
        "lines": shown,
        # Acting one's rank is the game's: a watcher has none, and a game over is over.
        "acts_rank": me is not None and not game.is_over,
        "latest": shown[-1] if shown else None,
        "last_id": last_id,
        "read_before": read_before,
        "send_log": send_log,
        "send_tools": send_tools,
        "flourishes": flourishes.for_title(my_title) if me is not None else [],
        # Where the form posts: a seat's own, or the watch link's (a watcher who may talk).
        "post_url": reverse("chat_post", args=[game.pk]) if me is not None
        else reverse("watch_chat", args=[game.watch_token]),
        "can_post": me is not None or (game.watchers_talk and request.user.is_authenticated),
        # The names "@" completes to: everybody seated but the speaker.
        "names": [name for name in seated_names(game, seats) if me is None or name != me.name]
        if not oob or send_tools else [],
        "my_title": title_name(my_title) if my_title else "",
        "error": error,
        "send_error": send_error,
        "text": text,
        "open": request.GET.get("chat") == "open",
    }}
