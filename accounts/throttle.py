"""Failed logins, counted per client address and per (username, address) pair in Django's
cache.

Each counter lives for LOGIN_FAILURE_WINDOW seconds from its first failure. Once a pair
reaches LOGIN_FAILURE_LIMIT, that username is refused from that address until the window
ends, whatever the password; once an address reaches LOGIN_ADDRESS_FAILURE_LIMIT (over
any usernames), every login from it is. Nothing counts per username alone: usernames are
public, and a lock that followed one everywhere would let anybody keep its owner out.
Guessing one password from many addresses costs each of them its own lock.
"""

import hashlib
import math
import time

from django.conf import settings
from django.core.cache import cache


def _key(kind: str, value: str) -> str:
    # Hashed so that any username makes a short key that every cache backend accepts.
    return f"login-failures:{kind}:{hashlib.sha256(value.encode()).hexdigest()}"


def _generation(username: str) -> str:
    """Bumped when the password is reset, which forgets every pair counter of the name."""
    return str(cache.get(_key("generation", username.casefold()), 0))


def _pair_key(username: str, address: str) -> str:
    name = username.casefold()
    return _key("pair", f"{_generation(name)}\n{name}\n{address}")


def _limits(username: str, address: str) -> dict[str, int]:
    return {_pair_key(username, address): settings.LOGIN_FAILURE_LIMIT,
            _key("address", address): settings.LOGIN_ADDRESS_FAILURE_LIMIT}


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
    limits = _limits(username, address)
    for key, (count, until) in cache.get_many(list(limits)).items():
        if count >= limits[key] and until > now:
            wait = max(wait, until - now)
    return math.ceil(wait)


def record_failure(username: str, address: str) -> None:
    now = time.time()
    for key in _limits(username, address):
        count, until = cache.get(key, (0, 0.0))
        if until <= now:
            count, until = 0, now + settings.LOGIN_FAILURE_WINDOW
        # Explicit expiry: cache.incr() would reset it to the backend's default timeout.
        cache.set(key, (count + 1, until), timeout=math.ceil(until - now))


def clear_pair(username: str, address: str) -> None:
    """A successful login forgets the failures of that name from that address (not the
    address's own count: logging in to one's own account must not reset it)."""
    cache.delete(_pair_key(username, address))


def clear_username(username: str) -> None:
    """A new password: the name's locks at every address are lifted."""
    key = _key("generation", username.casefold())
    cache.set(key, int(cache.get(key, 0)) + 1, timeout=None)


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


def count(kind: str, value: str, window: int) -> None:
    """Count one of something limited per `window` seconds (from the first one counted),
    that a check elsewhere reads with `counted`."""
    _count(_key(kind, value), window)


def counted(kind: str, value: str) -> int:
    """How many `count` has counted in the window running now."""
    number, until = cache.get(_key(kind, value), (0, 0.0))
    return number if until > time.time() else 0


def _peek(key: str, limit: int) -> int:
    count, until = cache.get(key, (0, 0.0))
    wait = until - time.time()
    return math.ceil(wait) if count >= limit and wait > 0 else 0


def _count(key: str, window: int) -> None:
    now = time.time()
    count, until = cache.get(key, (0, 0.0))
    if until <= now:
        count, until = 0, now + window
    cache.set(key, (count + 1, until), timeout=math.ceil(until - now))


def _signup_keys(request) -> dict[str, int]:
    """One browser (its CSRF cookie, which every sign-up must carry) at one address, and
    the address as a whole with a larger allowance for everyone behind it."""
    address = client_address(request)
    browser = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    return {_key("signup-client", f"{address}\n{browser}"): settings.SIGNUP_ATTEMPT_LIMIT,
            _key("signup-address", address): settings.SIGNUP_ADDRESS_LIMIT}


def signup_wait(request) -> int:
    """Seconds before this client may sign up again (0: now)."""
    return max(_peek(key, limit) for key, limit in _signup_keys(request).items())


def count_signup(request) -> None:
    """Count a sign-up that made an account or was told its username is taken (the
    answers worth limiting); a form refused for a short password counts nothing."""
    for key in _signup_keys(request):
        _count(key, 3600)
