"""With Redis, every cache object of a process (Django makes one per request context)
shares one connection pool and one redis-py client: a new client per cache operation
built its reply-handler table again for each."""

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.cache.backends.redis import RedisCacheClient

from dalmuti_site.cache import RedisCache

pytestmark = pytest.mark.redis


def test_every_cache_operation_and_cache_object_shares_one_client():
    backend = settings.CACHES["default"]
    assert backend["BACKEND"] == "dalmuti_site.cache.RedisCache"
    other = RedisCache(backend["LOCATION"], {k: v for k, v in backend.items()
                                             if k not in ("BACKEND", "LOCATION")})
    client = cache._cache.get_client(write=True)
    assert cache._cache.get_client() is client
    assert other._cache.get_client("any key") is client
    # The stock client, for comparison, makes one per operation.
    stock = RedisCacheClient([backend["LOCATION"]])
    assert stock.get_client() is not stock.get_client()
    cache.set("kept-client", 1)
    assert other.get("kept-client") == 1
