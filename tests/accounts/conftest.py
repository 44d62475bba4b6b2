import pytest
from django.core.cache import cache

PASSWORD = "correct-horse-battery"


@pytest.fixture(autouse=True)
def _fast_hashing_and_an_empty_cache(db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Transactional tests elsewhere do not flush the cache table: start from nothing.
    cache.clear()


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user(
        "alice", "alice@example.com", PASSWORD, display_name="Alice", email_verified=True
    )


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user(
        "bob", "bob@example.com", PASSWORD, email_verified=True
    )
