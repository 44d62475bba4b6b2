"""Chat channels (Apprise) are reached only through the outbound guard: HTTPS to public
addresses, checked before any connection. Every refusal here is made before a packet
leaves: names come from a fake resolver, anything but loopback fails the test (the
autouse `only_loopback`), and the loopback refusals are proved with a listening socket
that must see no connection. Also: only HTTP services are accepted, and the address is
kept encrypted and never shown back in full."""


import pytest
from django.db import connection

from dalmuti_site import channels, outbound
from tests.helpers import WebhookServer

MESSAGE = channels.Message("Test table", "It's Ada's turn.")


@pytest.fixture
def loopback_refused(settings):
    settings.OUTBOUND_ALLOW_LOOPBACK = False


@pytest.fixture
def loopback_allowed(settings):
    settings.OUTBOUND_ALLOW_LOOPBACK = True




@pytest.fixture
def hook():
    server = WebhookServer()
    yield server
    server.close()


@pytest.mark.parametrize("url", [
    "jsons://127.0.0.1:{port}/hook", "jsons://localhost:{port}/hook",
    "jsons://[::ffff:127.0.0.1]:{port}/hook", "ntfys://127.0.0.1:{port}/topic",
])
def test_loopback_is_refused_before_connecting(url, loopback_refused, quiet_listener):
    with pytest.raises(outbound.Refused):
        channels.send(url.format(port=quiet_listener.port), MESSAGE)
    assert quiet_listener.connections() == 0


@pytest.mark.parametrize("url", [
    "jsons://10.1.2.3/hook", "jsons://169.254.169.254/latest/meta-data",
    "mmosts://192.168.1.10/token", "signals://[fd00:ec2::254]/+123456789",
])
def test_inside_addresses_are_refused_before_connecting(url, loopback_refused, fake_dns):
    with pytest.raises(outbound.Refused):
        channels.send(url, MESSAGE)
    assert fake_dns.lookups == []


def test_a_fixed_service_pointed_at_loopback_is_refused_when_connecting(
        loopback_refused, quiet_listener, monkeypatch):
    """Discord's plugin posts to its own address; were that ever loopback (a changed
    plugin, a poisoned resolver), the guard still refuses at connection time."""
    from apprise.plugins.discord import NotifyDiscord

    monkeypatch.setattr(NotifyDiscord, "notify_url",
                        f"https://127.0.0.1:{quiet_listener.port}/api/webhooks")
    with pytest.raises(outbound.Refused, match="loopback"):
        channels.send("discord://1234/secret-token", MESSAGE)
    assert quiet_listener.connections() == 0


def test_a_name_resolving_inside_is_refused_when_connecting(loopback_refused, fake_dns):
    fake_dns.names["hooks.example.org"] = ["10.9.8.7"]
    with pytest.raises(outbound.Refused, match="private"):
        channels.send("jsons://hooks.example.org/hook", MESSAGE)
    assert fake_dns.lookups == ["hooks.example.org"]  # resolved, never connected


def test_a_redirect_inside_is_not_followed(loopback_allowed, hook):
    with pytest.raises(channels.ChannelFailed):
        channels.send(f"json://127.0.0.1:{hook.port}/moved", MESSAGE)
    assert [path for path, _body in hook.received] == ["/moved"]


@pytest.mark.parametrize("url", [
    "mailto://user:pass@example.org", "syslog://", "mqtt://broker.example.org/topic",
    "json://hooks.example.org/hook", "https://example.org/hook", "file:///etc/passwd",
    "irc://irc.example.org/channel",
])
def test_only_https_services_are_accepted(url, loopback_refused, fake_dns):
    with pytest.raises(outbound.Refused):
        channels.check(url)
    assert fake_dns.lookups == []


def test_a_service_s_own_webhook_address_is_accepted_as_its_apprise_form(loopback_refused):
    webhook = "https://discord.com/api/webhooks/417429632418316298/abc_DEF-123"
    assert channels.canonical(webhook).startswith("discord://417429632418316298/abc_DEF-123")


def test_the_formats_of_slack_discord_and_json(loopback_allowed, hook, fake_dns, monkeypatch):
    """What the services are sent, through the guard to a local server standing for them."""
    from apprise.plugins.discord import NotifyDiscord
    from apprise.plugins.slack import NotifySlack

    fake_dns.names.update({"discord.com": ["127.0.0.1"], "hooks.slack.com": ["127.0.0.1"]})
    monkeypatch.setattr(NotifyDiscord, "notify_url",
                        f"http://discord.com:{hook.port}/api/webhooks")
    monkeypatch.setattr(NotifySlack, "webhook_url", f"http://hooks.slack.com:{hook.port}/s")
    channels.send("discord://1234/tok", MESSAGE)
    channels.send("slack://T1JJ3T3L2/A1BRTD4JD/TIiajkdnlazkcOXrIdevi7/", MESSAGE)
    channels.send(f"json://127.0.0.1:{hook.port}/hook", MESSAGE)
    (discord_path, discord), (slack_path, slack), (json_path, generic) = hook.received
    assert discord_path == "/api/webhooks/1234/tok" and "It's Ada's turn." in discord
    assert slack_path.startswith("/s/T1JJ3T3L2/") and "It's Ada's turn." in slack
    assert json_path == "/hook" and '"title": "Test table"' in generic


@pytest.mark.django_db
def test_the_address_is_stored_encrypted_and_shown_masked(make_user):
    url = "tgram://123456789:secret-bot-token/987654"
    user = make_user("keeper", channel_url=url)
    with connection.cursor() as cursor:
        cursor.execute("SELECT channel_url FROM accounts_user WHERE id = %s", [user.pk])
        stored = cursor.fetchone()[0]
    assert "secret" not in stored and stored
    user.refresh_from_db()
    assert user.channel_url == url
    assert user.channel_masked == "tgram://••••••••"


@pytest.mark.django_db
def test_the_address_is_never_logged(loopback_allowed, hook, quiet_listener, caplog,
                                     make_user):
    from games.away import channels as channel_sender

    caplog.set_level("DEBUG")
    channels.send(f"json://127.0.0.1:{hook.port}/the-secret-path?token=hush", MESSAGE)
    assert hook.received
    quiet_listener.sock.close()  # nobody answers now: the send fails, and is logged
    user = make_user("logged", channel_url=f"json://127.0.0.1:{quiet_listener.port}/"
                                           "the-secret-path?token=hush")
    with pytest.raises(channels.ChannelFailed):
        channel_sender.send_test(user)
    assert "json webhook message for user" in caplog.text.lower()
    assert "the-secret-path" not in caplog.text and "hush" not in caplog.text


@pytest.mark.parametrize(("language", "webhook"), [
    ("en", "JSON webhook"), ("nl", "JSON-webhook"), ("de", "JSON-Webhook"),
    ("fr", "webhook JSON")])
def test_an_address_of_no_service_is_told_the_services_in_the_readers_words(
        language, webhook):
    from django import forms
    from django.utils import translation

    with translation.override(language), pytest.raises(forms.ValidationError) as refused:
        channels.ChannelURLField().clean("mailto://me@example.org")
    assert webhook in refused.value.messages[0] and "Discord" in refused.value.messages[0]


def test_an_email_keeps_its_subject_on_its_line_after_apprise_has_loaded():
    """Apprise's email plugin re-registers UTF-8 for every email of the process when it
    loads (a worker loads it with the first chat channel); the site's emails must look
    the same before and after. Run in a fresh process: the registry is process-wide."""
    import subprocess
    import sys

    script = """
import django
django.setup()
from email import message_from_bytes, policy
from django.core.mail import EmailMessage
from dalmuti_site import channels

def subject_line():
    raw = EmailMessage("Olga hat „Freitag“ für dich eröffnet", "Hallo", "a@example.com",
                       ["b@example.com"]).message().as_bytes()
    return message_from_bytes(raw, policy=policy.default)["Subject"], raw.split(b"\\n")

before, _ = subject_line()
channels.check("discord://4174216298/JHMHI8qBe7bk2ZwO5U711o3dV_js")
after, lines = subject_line()
print(repr(before), repr(after))
assert before == after == "Olga hat „Freitag“ für dich eröffnet"
assert any(line.startswith(b"Subject: =?utf-8?") for line in lines)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
