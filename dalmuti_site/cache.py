"""Django's Redis cache backend, with one connection pool and one client per process.

Django makes a new cache object for each request context, and under ASGI each request
is a context of its own: with the stock backend every request opened a new connection
to Redis, handshake included, and dropped it at the end. The pools kept here are shared
by every cache object of the process (redis-py's pools are thread-safe and start afresh
in a forked child). Django's client also makes a new redis-py client for every cache
operation, and each builds its table of some 170 reply handlers: a session read, a
shared drawing and the check for an end proposal cost a page three of those. The
redis-py clients, thread-safe as well, are kept here too, one per pool.
"""

import threading

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient
from django.utils.functional import cached_property

_clients: dict = {}
_lock = threading.Lock()


class KeptClients(RedisCacheClient):
    def __init__(self, servers, **options):
        super().__init__(servers, **options)
        self._kept: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._kept.get(index)
        if client is None:
            pool = self._get_connection_pool(write)
            with _lock:
                client = self._kept.setdefault(index, self._client(connection_pool=pool))
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = KeptClients

    @cached_property
    def _cache(self):
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _lock:
            if key not in _clients:
                _clients[key] = self._class(self._servers, **self._options)
            return _clients[key]
