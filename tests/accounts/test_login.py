import datetime as dt

from django.conf import settings

from tests.helpers import PASSWORD

START = dt.datetime(2026, 11, 22, 12, 0, tzinfo=dt.UTC)
ELSEWHERE = {"REMOTE_ADDR": "203.0.113.9"}


def _log_in(client, username, password, **extra):
    return client.post("/accounts/login/", {"username": username, "password": password}, **extra)


def _fail_until_locked(client, username, **extra):
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        response = _log_in(client, username, "wrong password", **extra)
        assert response.status_code == 200


def _is_logged_in(client, user) -> bool:
    return client.session.get("_auth_user_id") == str(user.pk)


def test_it_links_to_sign_up_and_password_reset_and_carries_next(client):
    response = client.get("/accounts/login/?next=/join/abc/")
    html = response.content.decode()
    assert '<input type="hidden" name="next" value="/join/abc/">' in html
    assert 'href="/accounts/signup/?next=/join/abc/"' in html
    assert 'href="/accounts/password/reset/"' in html


def test_it_logs_the_user_in(client, alice):
    response = _log_in(client, "alice", PASSWORD)
    assert response.status_code == 302
    assert response.url == "/"
    assert _is_logged_in(client, alice)


def test_it_honours_a_safe_next(client, alice):
    response = client.post(
        "/accounts/login/", {"username": "alice", "password": PASSWORD, "next": "/join/abc/"}
    )
    assert response.url == "/join/abc/"


def test_it_ignores_an_off_site_next(client, alice):
    response = client.post(
        "/accounts/login/",
        {"username": "alice", "password": PASSWORD, "next": "//evil.example.com/"},
    )
    assert response.url == "/"
    assert _is_logged_in(client, alice)


def test_it_rejects_a_wrong_password(client, alice):
    response = _log_in(client, "alice", "wrong password")
    assert response.status_code == 200
    assert response.context["form"].has_error("__all__", "invalid_login")
    page = response.content.decode()
    assert 'role="alert"' in page
    # Usernames log in whatever their case: only the password's is said to matter.
    assert "The username or the password is wrong (capitals count in the password)." in page
    assert "Note that both fields may be case-sensitive" not in page
    assert not _is_logged_in(client, alice)


def test_it_locks_the_username_from_that_address_even_with_the_right_password(client, alice):
    _fail_until_locked(client, "alice")

    response = _log_in(client, "alice", PASSWORD)
    assert response.status_code == 429
    assert response.headers["Retry-After"] == str(settings.LOGIN_FAILURE_WINDOW)
    assert "Too many failed attempts to log in" in response.content.decode()
    assert "15 minutes" in response.content.decode()
    assert not _is_logged_in(client, alice)


def test_a_user_locked_out_from_one_address_still_signs_in_from_another(client, alice):
    _fail_until_locked(client, "alice")
    assert _log_in(client, "alice", PASSWORD).status_code == 429
    assert _log_in(client, "alice", PASSWORD, **ELSEWHERE).status_code == 302
    assert _is_logged_in(client, alice)


def test_failures_spread_over_many_addresses_lock_nobody_out(client, alice):
    # Five wrong passwords for a public username, each from another address.
    for n in range(settings.LOGIN_FAILURE_LIMIT * 2):
        _log_in(client, "alice", "wrong password", REMOTE_ADDR=f"198.51.100.{n}")
    assert _log_in(client, "alice", PASSWORD, **ELSEWHERE).status_code == 302
    client.logout()
    # Each of those addresses has only its own failures against it.
    assert _log_in(client, "alice", PASSWORD, REMOTE_ADDR="198.51.100.0").status_code == 302


def test_a_pair_lock_keeps_the_attacker_out_of_that_account_only(client, alice, bob):
    _fail_until_locked(client, "alice", **ELSEWHERE)
    assert _log_in(client, "alice", PASSWORD, **ELSEWHERE).status_code == 429
    assert _log_in(client, "bob", PASSWORD, **ELSEWHERE).status_code == 302


def test_it_locks_an_address_that_tries_many_usernames(client, alice):
    for n in range(settings.LOGIN_ADDRESS_FAILURE_LIMIT):
        _log_in(client, f"nobody{n}", "wrong password")

    assert _log_in(client, "alice", PASSWORD).status_code == 429
    assert _log_in(client, "alice", PASSWORD, **ELSEWHERE).status_code == 302


def test_another_user_is_unaffected(client, alice, bob):
    _fail_until_locked(client, "alice")

    response = _log_in(client, "bob", PASSWORD, **ELSEWHERE)
    assert response.status_code == 302
    assert _is_logged_in(client, bob)


def test_it_lets_the_user_in_again_after_the_window(client, alice, time_machine):
    time_machine.move_to(START, tick=False)
    _fail_until_locked(client, "alice")

    time_machine.move_to(START + dt.timedelta(seconds=settings.LOGIN_FAILURE_WINDOW - 60))
    assert _log_in(client, "alice", PASSWORD).status_code == 429

    time_machine.move_to(START + dt.timedelta(seconds=settings.LOGIN_FAILURE_WINDOW + 1))
    assert _log_in(client, "alice", PASSWORD).status_code == 302
    assert _is_logged_in(client, alice)


def test_a_success_clears_the_pairs_counter(client, alice):
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
        _log_in(client, "alice", "wrong password")
    assert _log_in(client, "alice", PASSWORD).status_code == 302
    client.logout()

    _log_in(client, "alice", "wrong password")
    assert _log_in(client, "alice", PASSWORD).status_code == 302


def test_logging_in_does_not_clear_the_addresss_own_count(client, alice, settings):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 3
    _log_in(client, "nobody1", "guess")
    _log_in(client, "nobody2", "guess")
    assert _log_in(client, "alice", PASSWORD).status_code == 302
    client.logout()
    _log_in(client, "nobody3", "guess")
    assert _log_in(client, "alice", PASSWORD).status_code == 429


def test_the_limit_comes_from_the_settings(client, alice, settings):
    settings.LOGIN_FAILURE_LIMIT = 2
    _log_in(client, "alice", "wrong password")
    assert _log_in(client, "alice", "wrong password").status_code == 200
    assert _log_in(client, "alice", PASSWORD).status_code == 429


def test_a_logged_in_user_is_sent_on_from_the_login_page(client, alice):
    client.force_login(alice)
    response = client.get("/accounts/login/?next=/join/abc/")
    assert response.status_code == 302
    assert response.url == "/join/abc/"


def test_log_out_needs_a_post(client, alice):
    client.force_login(alice)
    # A link to it (or the address typed) asks with a button, and logs nobody out.
    asked = client.get("/accounts/logout/")
    assert asked.status_code == 200 and 'action="/accounts/logout/"' in asked.content.decode()
    assert _is_logged_in(client, alice)

    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert not _is_logged_in(client, alice)


def test_a_username_logs_in_whatever_its_case(client, make_user):
    """Sign-up and invitations treat "Ann" and "ann" as one name; so does the login, where
    a phone's keyboard capitalises the first letter."""
    ann = make_user("Ann")
    response = _log_in(client, "ann", PASSWORD)
    assert response.status_code == 302 and _is_logged_in(client, ann)
    client.logout()
    response = _log_in(client, " ANN ", PASSWORD)
    assert response.status_code == 302 and _is_logged_in(client, ann)
    client.logout()
    assert _log_in(client, "ann", "wrong password").status_code == 200
    assert not _is_logged_in(client, ann)


def test_the_pages_after_log_out_stay_in_the_profiles_language(client, make_user):
    """A player whose profile says Dutch, on a browser that asks for English: the pages
    after they log out are still in Dutch (the language they were reading)."""
    noor = make_user("noor", language="nl")
    client.force_login(noor)
    assert 'lang="nl"' in client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    client.post("/accounts/logout/", HTTP_ACCEPT_LANGUAGE="en")
    page = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'lang="nl"' in page


def test_log_out_leaves_a_browser_following_its_own_language_alone(client, make_user):
    ann = make_user("ann", language="")
    client.force_login(ann)
    client.post("/accounts/logout/", HTTP_ACCEPT_LANGUAGE="de")
    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies
    page = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert 'lang="fr"' in page
