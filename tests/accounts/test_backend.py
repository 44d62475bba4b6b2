"""The signed-in player is found at every request by a query compiled once per process
(accounts.backends); sessions begun before, which name Django's own backend, stay
signed in; a refused password is checked once."""

from importlib import import_module

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

from accounts.backends import PlayerBackend
from accounts.models import User
from tests.helpers import PASSWORD, sql_compiles

pytestmark = pytest.mark.django_db


def _log_in(client, username, password):
    return client.post("/accounts/login/", {"username": username, "password": password})


def test_logging_in_names_the_players_backend(client, alice):
    assert _log_in(client, "alice", PASSWORD).status_code == 302
    assert client.session[BACKEND_SESSION_KEY] == "accounts.backends.PlayerBackend"
    assert client.get("/accounts/profile/").status_code == 200


def test_the_signed_in_player_is_found_without_compiling_sql(alice, bob, monkeypatch):
    backend = PlayerBackend()
    backend.get_user(alice.pk)
    compiles = sql_compiles(monkeypatch)
    for user in (alice, bob, alice):
        found = backend.get_user(user.pk)
        assert (found.pk, found.username, found.get_session_auth_hash()) == (
            user.pk, user.username, user.get_session_auth_hash())
    assert compiles == []
    assert backend.get_user(bob.pk + alice.pk + 1000) is None


def test_an_inactive_player_is_not_found(client, alice):
    client.force_login(alice)
    User.objects.filter(pk=alice.pk).update(is_active=False)
    assert PlayerBackend().get_user(alice.pk) is None
    response = client.get("/accounts/profile/")
    assert response.status_code == 302 and "/accounts/login/" in response.url


def test_a_session_begun_under_djangos_backend_stays_signed_in(client, alice):
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(alice.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = alice.get_session_auth_hash()
    store.create()
    client.cookies[settings.SESSION_COOKIE_NAME] = store.session_key
    response = client.get("/accounts/profile/")
    assert response.status_code == 200
    assert response.context["user"].pk == alice.pk


@pytest.mark.parametrize("username", ["alice", "nobody"])
def test_a_refused_password_is_checked_once(client, alice, monkeypatch, username):
    """Django's backend, listed after ours for the sessions begun before, is not asked
    again: the password's hashing (for an unknown name, the hashing that makes the answer
    take as long) happens once per attempt."""
    hashed = []
    check, set_password = User.check_password, User.set_password
    monkeypatch.setattr(User, "check_password",
                        lambda self, raw: hashed.append("check") or check(self, raw))
    monkeypatch.setattr(User, "set_password",
                        lambda self, raw: hashed.append("set") or set_password(self, raw))
    response = _log_in(client, username, "not the password")
    assert response.status_code == 200
    assert "The username or the password is wrong" in response.content.decode()
    assert len(hashed) == 1
    assert SESSION_KEY not in client.session
