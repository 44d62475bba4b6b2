"""Messages to a chat channel a player or a host gave us (Discord, Slack, Telegram, Matrix,
ntfy, Mattermost, Teams workflows, Pushover, Signal, a JSON webhook), through Apprise.

The channel's address is a secret (whoever has a webhook's address may post to it):

- it is stored encrypted (`SecretURLField`, a key derived from SECRET_KEY), shown back
  only masked (`masked`), and never logged (Apprise's own logger is silenced: its debug
  lines name the full address);
- only the services listed in SCHEMES are accepted: each speaks HTTP, and every request
  its Apprise plugin makes goes through the outbound guard (`dalmuti_site.outbound`):
  HTTPS to public addresses only, checked when connecting, no redirects, short
  time-outs. Services Apprise reaches another way (email, raw sockets, MQTT…) would go
  around the guard, so they are refused.
"""

import base64
import email.charset
import functools
import hashlib
import logging
import sys
import threading
from dataclasses import dataclass

import requests
from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django import forms
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from dalmuti_site import outbound

log = logging.getLogger(__name__)
# Apprise's debug and warning lines name the address (the secret): none of them is kept;
# nor urllib3's debug line for each request, which names the path (a webhook's token).
logging.getLogger("apprise").setLevel(logging.CRITICAL + 1)
logging.getLogger("urllib3.connectionpool").setLevel(logging.INFO)

MAX_URL_LENGTH = 1024
# After this many failed sends in a row the channel is paused and its owner told.
FAILURES_BEFORE_PAUSE = 5

# Services that speak HTTPS to a fixed or a given server; the plain-HTTP variants of the
# self-hosted ones only where the guard lets loopback through (the tests' local server).
SCHEMES = {
    "discord": "Discord", "slack": "Slack", "tgram": "Telegram", "matrixs": "Matrix",
    "ntfys": "ntfy", "mmosts": "Mattermost", "workflows": "Microsoft Teams",
    "jsons": _("JSON webhook"), "pover": "Pushover", "signals": "Signal",
}
PLAIN = {"json": _("JSON webhook"), "matrix": "Matrix", "ntfy": "ntfy", "mmost": "Mattermost",
         "signal": "Signal"}
# Those where the address names the server to reach (the others reach their service's).
SERVER_SCHEMES = {"matrixs", "ntfys", "mmosts", "workflows", "jsons", "signals", *PLAIN}


class ChannelFailed(Exception):
    """The service did not take the message (an error, a time-out, a refusal by the
    guard): the sender tries again later, and pauses the channel after a few."""


def _schemes() -> dict[str, str]:
    return {**SCHEMES, **PLAIN} if outbound.loopback_allowed() else SCHEMES


def scheme_of(url: str) -> str:
    return url.split("://", 1)[0].lower() if "://" in url else ""


def _use_a_service() -> forms.ValidationError:
    """An address of no service the site sends to: the services, in the reader's words."""
    names = sorted({str(name) for name in _schemes().values()})
    return forms.ValidationError(_("Use an address of one of these services: %(services)s.")
                                 % {"services": ", ".join(names)})


def service_name(url: str) -> str:
    return {**SCHEMES, **PLAIN}.get(scheme_of(url), "")


def canonical(url: str) -> str:
    """The address as Apprise writes it (a service's own https webhook address becomes
    discord://…, slack://…), so that the stored one always names its service."""
    return check(url).url(privacy=False) if scheme_of(url) == "https" else url


def masked(url: str) -> str:
    """What the owner is shown of a stored address: the service, never the secret part."""
    if not url:
        return ""
    return f"{scheme_of(url)}://••••••••"


def check(url: str):
    """The Apprise plugin for the address; outbound.Refused if the address is not one of
    the services allowed, not understood, or names a server the site may not reach."""
    if not isinstance(url, str) or not url or len(url) > MAX_URL_LENGTH:
        raise outbound.Refused("not an address")
    if not all(0x21 <= ord(c) <= 0x7E for c in url):
        raise outbound.Refused("characters that have no place in an address")
    apprise = _apprise()
    scheme = scheme_of(url)
    if scheme not in _schemes() and scheme != "https":
        raise outbound.Refused("not a service the site sends to")
    plugin = apprise.Apprise.instantiate(url, suppress_exceptions=True)
    if plugin is None:
        raise outbound.Refused("not an address the service understands")
    if scheme == "https":
        # A service's own webhook address (Discord's, Slack's, ntfy's): Apprise knows
        # which service it is; any other https address is not one.
        scheme = scheme_of(plugin.url(privacy=False))
        if scheme not in _schemes():
            raise outbound.Refused("not a service the site sends to")
    if scheme in SERVER_SCHEMES and getattr(plugin, "host", ""):
        host = plugin.host
        port = getattr(plugin, "port", None)
        server = f"[{host}]" if ":" in host else host
        outbound.check_url(f"{'https' if scheme not in PLAIN else 'http'}://{server}"
                           + (f":{port}" if port else "") + "/")
    _guard(plugin)
    return plugin


_LOADING_APPRISE = threading.Lock()


def _apprise():
    """Apprise, its plugins loaded, the process's email charsets as they were before.

    Loaded only where a channel is used (it takes a second or two). Its email plugin
    re-registers UTF-8 for every email of the process when it loads: the site's own
    emails would then fold their subject onto a line of its own (read by some clients
    with a leading space) in a worker that had sent to a chat channel, and not in one
    that had not. All its plugins are loaded here, at once and by one thread (another
    would note the charsets half-changed), so that none loads later.
    """
    with _LOADING_APPRISE:
        return _load_apprise()


@functools.cache
def _load_apprise():
    charsets = dict(email.charset.CHARSETS)
    try:
        import apprise
        from apprise.apprise import N_MGR

        N_MGR.load_modules()
    finally:
        email.charset.CHARSETS.clear()
        email.charset.CHARSETS.update(charsets)
    return apprise


class _GuardedRequests:
    """Stands for the `requests` module inside an Apprise plugin: the same names, but
    every request goes through the outbound guard. A refusal is kept (the plugin only
    sees a connection error, which it reports as a failed send)."""

    def __init__(self):
        self._local = threading.local()

    def __getattr__(self, name):
        return getattr(requests, name)

    def refusals(self) -> list:
        if not hasattr(self._local, "refusals"):
            self._local.refusals = []
        return self._local.refusals

    def request(self, method, url, **kwargs):
        kwargs.pop("allow_redirects", None)
        with outbound.session() as session:
            try:
                return session.request(method, url, **kwargs)
            except outbound.Refused as refusal:
                self.refusals().append(refusal)
                raise requests.ConnectionError("refused by the outbound guard") from None

    def get(self, url, **kwargs):
        return self.request("GET", url, **kwargs)

    def post(self, url, **kwargs):
        return self.request("POST", url, **kwargs)

    def put(self, url, **kwargs):
        return self.request("PUT", url, **kwargs)

    def patch(self, url, **kwargs):
        return self.request("PATCH", url, **kwargs)

    def delete(self, url, **kwargs):
        return self.request("DELETE", url, **kwargs)

    def head(self, url, **kwargs):
        return self.request("HEAD", url, **kwargs)

    def Session(self):  # noqa: N802 - stands for requests.Session
        return outbound.session()


_GUARD = _GuardedRequests()
_guard_lock = threading.Lock()


def _guard(plugin) -> None:
    """Route the plugin's module through the guard (once per module, for good: every
    request it makes from then on is guarded). A plugin that does not reach the network
    through `requests` cannot be guarded, and is refused."""
    module = sys.modules[type(plugin).__module__]
    with _guard_lock:
        current = getattr(module, "requests", None)
        if current is requests:
            module.requests = _GUARD
        elif current is not _GUARD:
            raise outbound.Refused("not a service the site can send to safely")


@dataclass(frozen=True)
class Message:
    title: str
    body: str


def send(url: str, message: Message) -> None:
    """Post the message; ChannelFailed (or outbound.Refused) if the service did not take
    it. The caller runs this in a worker, never in a request."""
    plugin = check(url)
    refusals = _GUARD.refusals()
    refusals.clear()
    try:
        taken = plugin.notify(body=message.body, title=message.title)
    except Exception as exc:  # a plugin's own bug must not look like a delivery
        raise ChannelFailed(type(exc).__name__) from None
    if refusals:
        raise refusals[0]
    if not taken:
        raise ChannelFailed("the service did not take the message")


# -- storing the address --

def _fernet() -> MultiFernet:
    keys = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    return MultiFernet([
        Fernet(base64.urlsafe_b64encode(
            hashlib.sha256(b"dalmuti.channels:" + str(key).encode()).digest()))
        for key in keys
    ])


def encrypt(url: str) -> str:
    return _fernet().encrypt(url.encode()).decode() if url else ""


def decrypt(token: str) -> str:
    """The address; empty if it was encrypted with a key the site no longer has."""
    if not token:
        return ""
    try:
        return _fernet().decrypt(token.encode()).decode()
    except (InvalidToken, ValueError):
        return ""


class SecretURLField(models.TextField):
    """An address kept encrypted in the database, plain in Python."""

    def from_db_value(self, value, expression, connection):
        return decrypt(value) if value else ""

    def get_prep_value(self, value):
        value = super().get_prep_value(value)
        return encrypt(value) if value else ""


class ChannelOwner(models.Model):
    """Whatever has a channel (a player, a table, a league): its address, and how its
    sends went lately."""

    channel_url = SecretURLField(_("notification channel"), blank=True, default="")
    channel_failures = models.PositiveSmallIntegerField(default=0, editable=False)
    # Set when the channel failed too often: nothing is sent until the owner saves it again.
    channel_paused = models.DateTimeField(_("channel paused"), null=True, blank=True,
                                          editable=False)

    class Meta:
        abstract = True

    @property
    def channel_active(self) -> bool:
        return bool(self.channel_url) and self.channel_paused is None

    @property
    def channel_masked(self) -> str:
        return masked(self.channel_url)


class ChannelURLField(forms.CharField):
    """Where a form takes a channel's address: checked as `check` does, with the reason in
    the reader's words. Never filled in with the stored address (it is a secret even from
    a screen behind the owner's shoulder): the page shows it masked beside the field."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", MAX_URL_LENGTH)
        kwargs.setdefault("strip", True)
        kwargs.setdefault("widget", forms.TextInput(attrs={
            "autocomplete": "off", "spellcheck": "false", "autocapitalize": "off",
            "inputmode": "url", "placeholder": "https://discord.com/api/webhooks/…"}))
        super().__init__(**kwargs)

    def clean(self, value):
        value = super().clean(value)
        if not value:
            return value
        if scheme_of(value) not in _schemes() and scheme_of(value) != "https":
            raise _use_a_service()
        try:
            check(value)
            return canonical(value)
        except outbound.Refused as refusal:
            if str(refusal) == "not a service the site sends to":
                raise _use_a_service() from None
            raise forms.ValidationError(_(
                "The site cannot send to this address: it must be one the service gave "
                "you, reaching a public server over HTTPS.")) from None
