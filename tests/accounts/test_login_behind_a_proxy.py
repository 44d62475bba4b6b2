"""Behind an HTTPS proxy every request comes from the proxy's address: the throttle must
count each real client, read from X-Forwarded-For only when the proxy is trusted."""


from tests.helpers import PASSWORD

PROXY = {"REMOTE_ADDR": "10.0.0.2"}


def _log_in(client, username, password, client_address):
    return client.post("/accounts/login/", {"username": username, "password": password},
                       HTTP_X_FORWARDED_FOR=client_address, **PROXY)


def test_failures_from_one_client_do_not_lock_out_everybody(client, alice, settings):
    settings.TRUSTED_PROXIES = 1
    for i in range(settings.LOGIN_ADDRESS_FAILURE_LIMIT + 2):
        _log_in(client, f"nobody{i}", "guess", "198.51.100.7")
    # The attacker's own address is locked...
    locked = _log_in(client, "alice", PASSWORD, "198.51.100.7")
    assert locked.status_code == 429
    # ...but alice, from her own address, logs in.
    answer = _log_in(client, "alice", PASSWORD, "203.0.113.50")
    assert answer.status_code == 302


def test_an_untrusted_forwarded_for_is_ignored(client, alice, settings):
    settings.TRUSTED_PROXIES = 0
    for i in range(settings.LOGIN_ADDRESS_FAILURE_LIMIT):
        # Changing the header at will must not let one address escape its lock.
        _log_in(client, f"nobody{i}", "guess", f"198.51.100.{i}")
    assert _log_in(client, "alice", PASSWORD, "203.0.113.50").status_code == 429


def test_only_the_address_the_trusted_proxy_saw_counts(client, alice, settings):
    settings.TRUSTED_PROXIES = 1
    # A client may send its own X-Forwarded-For; the proxy appends the address it saw.
    for i in range(settings.LOGIN_ADDRESS_FAILURE_LIMIT):
        _log_in(client, f"nobody{i}", "guess", f"1.2.3.{i}, 198.51.100.7")
    assert _log_in(client, "alice", PASSWORD, "9.9.9.9, 198.51.100.7").status_code == 429
