"""Failed logins, counted per username and per client address in Django's cache.

Each counter lives for LOGIN_FAILURE_WINDOW seconds from its first failure; once it
reaches LOGIN_FAILURE_LIMIT, logins for that username (or from that address) are refused
until the window ends, whatever the password.
"""

import hashlib
import math
import time

from django.conf import settings
from django.core.cache import cache


def _key(kind: str, value: str) -> str:
    # Hashed so that any username makes a short key that every cache backend accepts.
    return f"login-failures:{kind}:{hashlib.sha256(value.encode()).hexdigest()}"


def _keys(username: str, address: str) -> list[str]:
    return [_key("username", username.casefold()), _key("address", address)]


def client_address(request) -> str:
    """The client's own address. Behind TRUSTED_PROXIES proxies (an HTTPS front end)
    every request comes from the last proxy, which appends the address it saw to
    X-Forwarded-For: that entry, counted from the right, is the client. Entries further
    left were written by the client itself and are ignored; without trusted proxies the
    header is ignored altogether."""
    proxies = getattr(settings, "TRUSTED_PROXIES", 0)
    if proxies:
        forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        forwarded = [a for a in forwarded if a]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR") or "unknown"


def seconds_locked(username: str, address: str) -> int:
    """How long until this username may try again from this address (0: right now)."""
    now = time.time()
    wait = 0.0
    for count, until in cache.get_many(_keys(username, address)).values():
        if count >= settings.LOGIN_FAILURE_LIMIT and until > now:
            wait = max(wait, until - now)
    return math.ceil(wait)


def record_failure(username: str, address: str) -> None:
    now = time.time()
    for key in _keys(username, address):
        count, until = cache.get(key, (0, 0.0))
        if until <= now:
            count, until = 0, now + settings.LOGIN_FAILURE_WINDOW
        # Explicit expiry: cache.incr() would reset it to the backend's default timeout.
        cache.set(key, (count + 1, until), timeout=math.ceil(until - now))


def clear_username(username: str) -> None:
    cache.delete(_key("username", username.casefold()))


def count_attempt(kind: str, value: str, limit: int, window: int) -> int:
    """Count one attempt at something that can tell whether an account exists (signing
    up, looking a player up by name); the seconds to wait once `limit` attempts were
    made within `window` seconds, else 0."""
    key = _key(kind, value)
    now = time.time()
    count, until = cache.get(key, (0, 0.0))
    if until <= now:
        count, until = 0, now + window
    if count >= limit:
        return math.ceil(until - now)
    cache.set(key, (count + 1, until), timeout=math.ceil(until - now))
    return 0
