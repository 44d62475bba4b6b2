"""Django's Redis cache backend, with one connection pool per process.

Django makes a new cache object for each request context, and under ASGI each request
is a context of its own: with the stock backend every request opened a new connection
to Redis, handshake included, and dropped it at the end. The pools kept here are shared
by every cache object of the process (redis-py's pools are thread-safe and start afresh
in a forked child).
"""

import threading

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.utils.functional import cached_property

_clients: dict = {}
_lock = threading.Lock()


class RedisCache(DjangoRedisCache):
    @cached_property
    def _cache(self):
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _lock:
            if key not in _clients:
                _clients[key] = self._class(self._servers, **self._options)
            return _clients[key]
