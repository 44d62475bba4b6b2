import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _an_empty_cache(db):
    # Transactional tests elsewhere do not flush the cache table: start from nothing.
    cache.clear()
