"""What the table's templates are drawn from, the same for a reader's own page and for
the update every page of the table shares (games.views.updates): the round's log and
what happened since the page last looked, how the page keeps up, and the seats round the
felt, each drawn once for what it shows and shared by every page."""

import hashlib
import json
from datetime import datetime, time, timedelta
from functools import cache as cache_in_process
from pathlib import Path

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from dalmuti_site.drawings import kept
from games.read.narration import last_trick, mark_arrivals, since, since_you_looked
from games.templatetags.games import time_left


def fill_table(context: dict, game, me, names: dict, log: list[dict], new_lines: list[dict],
               away: bool, *, oob: bool, send_panels: bool, log_news: list[dict] | None,
               stream: bool) -> None:
    """Add to a seat's `table_context` what the table's templates show of the round's log
    and of what happened since the page last looked (`new_lines`), and how the page keeps
    up: the same for a reader's own page and for an update shared by all of a table's
    pages (games.views.updates)."""
    for number, line in enumerate(log, start=1):
        line.setdefault("number", number)
    mark_arrivals(context["trick_plays"], new_lines)
    trick = last_trick(log, names)
    if trick is not None:
        # Its winner reads of it as theirs ("You won this trick"), not under their name.
        trick["mine"] = me is not None and trick["winner_player"] == me.player
    context.update({
        "game": game, "me": me, "error": "", "error_in_form": "", "log": log,
        "log_count": len(log),
        "last_trick": trick,
        "summary": since_you_looked(
            new_lines, me.player if me else None, names,
            final={s["player"]: s["rank"] for s in context.get("standings") or []}
            if context["game_over"] else None),
        "away": away,
        "poll_seconds": settings.GAME_POLL_SECONDS, "since": since(game, context["view"]),
        "oob": oob,
        "send_panels": send_panels,
        "log_news": log_news,
        "log_day": timezone.localdate().isoformat(),
        "log_day_ends": day_ends(),
        # Pages served by an ASGI server with Redis are told of changes at once.
        "stream": stream,
        "stream_safety_seconds": settings.STREAM_SAFETY_SECONDS,
        # A stream is only ever a seated player's (a shared update is drawn for them).
        "poll_url": reverse("poll", args=[game.pk]) if me is not None or stream
        else reverse("watch_poll", args=[game.watch_token]),
        "log_url": reverse("game_log", args=[game.pk]) if me is not None or stream
        else reverse("watch_log", args=[game.watch_token]),
    })
    context["seat_ring"] = seat_ring(context["seat_rows"], context["phase"], context["scoring"])


def day_ends() -> int:
    """When the reader's day ends (their next midnight, as a Unix time): a page's log and
    talk wrote the times of that day alone ("11:58 p.m."), which then need their date."""
    tomorrow = timezone.localdate() + timedelta(days=1)
    midnight = datetime.combine(tomorrow, time(), tzinfo=timezone.get_current_timezone())
    return int(midnight.timestamp())


def int_param(request, name: str) -> int | None:
    """A number the page sent with a poll; None when it sent none (or no number)."""
    try:
        return int(request.GET.get(name, ""))
    except ValueError:
        return None


def time_came(request) -> bool:
    """Whether a time the page that asked was drawn to change at has come, though nothing
    moved at its table: the end of the day its log's and talk's times were written on
    (`e`, its `day_ends`: they then need their date), or the time what the table shows
    changes with time alone (`t`, #changes: games.read.seat.changes_with_time)."""
    now = timezone.now().timestamp()
    return any(at is not None and now >= at for at in (int_param(request, "e"),
                                                       int_param(request, "t")))


def page_behind(request, newest_talk: int | None) -> bool:
    """Whether the page that asked must be drawn again though its table's version is the
    one it shows: it shows older talk than the table's newest message (`c`: the newest it
    shows, absent from a page without a talk panel), or a time it was drawn to change at
    has come (`time_came`)."""
    shown = int_param(request, "c")
    return shown is not None and shown < (newest_talk or 0) or time_came(request)


def seat_ring(rows: list, phase: str, scoring: bool) -> str:
    """The seats round the felt as every page of the table draws them: the same for every
    reader (the felt around it says whose page it is), from the spectator's rows, so it
    holds nothing a spectator may not see.

    A move changes one or two seats of a ring (whose turn it is, the cards left, a pass),
    so each seat is drawn once per process for what it shows (its row, its clock's and its
    pause's "time left" as they read now, the phase, the scores shown, the language) and
    shared by every page of the table (dalmuti_site.drawings): a drawing can never be out
    of date."""
    language = get_language()
    drawn = []
    for row in rows:
        # The rows are flat (no dataclass within), so their fields as they are do for the key.
        key = json.dumps(["games/table/_seat.html", language, phase, scoring, vars(row),
                          time_left(row.deadline), time_left(row.back_at)],
                         sort_keys=True, default=str)
        drawn.append(kept(key, lambda row=row: render_to_string(
            "games/table/_seat.html", {"p": row, "phase": phase, "scoring": scoring})))
    # Our own template's output, escaped as it was drawn.
    return render_to_string("games/table/_seats.html",
                            {"seats_drawn": [mark_safe(seat) for seat in drawn]})


@cache_in_process
def drawn_by() -> str:
    """The site's templates as this process has them (a short hash): a drawing made by
    another release (another process, still in the cache) is never shown by this one."""
    digest = hashlib.sha256()
    for path in sorted((Path(settings.BASE_DIR) / "templates").rglob("*.html")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
