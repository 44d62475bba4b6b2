"""When the periodic sweep last ran, kept in the shared cache (Redis in production, else
the database's cache table), so that any process can read what the worker wrote."""

import time

from django.core.cache import cache

SWEEP_TASK = "games.tasks.sweep"
KEY = "hosting:sweep-last-ran"
# Long enough to outlive any sensible SWEEP_SECONDS: an absent key means "never ran".
KEEP_SECONDS = 7 * 24 * 3600


def on_task_done(sender=None, task=None, **_kwargs):
    name = getattr(task or sender, "name", "")
    if name == SWEEP_TASK:
        sweep_ran()


def sweep_ran(at: float | None = None) -> None:
    try:
        cache.set(KEY, time.time() if at is None else at, KEEP_SECONDS)
    except Exception:  # noqa: BLE001 - a cache that is down must never fail the sweep
        pass


def sweep_last_ran() -> float | None:
    return cache.get(KEY)
