"""The seam between the commands that change a table and the workers.

Commands name the background work they leave behind ("play_bots" for a table) and hand it
over here; it is sent only once the transaction commits, so a worker never sees a table
before its change is saved. games.tasks registers what carries out each kind of work when
the app starts, so the write side never imports the tasks.

Sending must never fail or hold up the player's request: everything sent from here can be
derived again from the database, and the periodic sweep does so for anything lost.
"""

import logging
import threading
from collections.abc import Callable
from datetime import datetime
from functools import partial

from django.db import transaction

log = logging.getLogger(__name__)

_senders: dict[str, Callable[..., None]] = {}
_senders_at: dict[str, Callable[..., None]] = {}
# Work sent while this thread is already sending (without a broker the work runs at once,
# and a bot's move sends the next): queued here and sent by the outer call, one after
# the other, so that a long chain of bot moves is a loop rather than ever deeper calls.
_local = threading.local()


def register(name: str, send: Callable[..., None],
             send_at: Callable[..., None] | None = None) -> None:
    """Name the function that hands work of this kind to the workers, and the one that
    hands it over for a later time (its first argument), if this work may wait."""
    _senders[name] = send
    if send_at is not None:
        _senders_at[name] = send_at


def after_commit(name: str, *args) -> None:
    """Send work of this kind once the current transaction commits (at once outside one)."""
    transaction.on_commit(partial(send_now, name, *args))


def after_commit_at(when: datetime, name: str, *args) -> None:
    """Send work of this kind, to be done at `when`, once the current transaction commits.
    Like all work sent from here, it must be found again by the sweep if it is lost."""

    def send() -> None:
        try:
            _senders_at[name](when, *args)
        except Exception:  # the broker is down or unreachable: the sweep sends it later
            log.exception("could not send %s%r to the workers for %s", name, args, when)

    transaction.on_commit(send)


def send_now(name: str, *args) -> None:
    pending = getattr(_local, "pending", None)
    if pending is not None:
        pending.append((name, args))
        return
    _local.pending = [(name, args)]
    try:
        while _local.pending:
            name, args = _local.pending.pop(0)
            try:
                _senders[name](*args)
            except Exception:  # the broker is down or unreachable: the sweep sends it later
                log.exception("could not send %s%r to the workers", name, args)
    finally:
        _local.pending = None
