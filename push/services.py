"""Switching push notifications on and off for a device."""

import base64
import binascii
import re

from cryptography.hazmat.primitives.asymmetric import ec
from django.db import transaction
from django.utils.translation import gettext as _

from dalmuti_site import outbound

from .models import PushSubscription

# The Push API's endpoints are a few hundred characters; the column holds this many.
MAX_ENDPOINT_LENGTH = PushSubscription._meta.get_field("endpoint").max_length
_BASE64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")


class NotASubscription(ValueError):
    """What the browser sent is not a subscription the site can use; the message (for
    the player) says what is wrong with it."""

    def __init__(self, message: str = ""):
        super().__init__(message or _("That subscription was not understood."))


def subscribe(user, info: dict, device: str = "") -> PushSubscription:
    """Remember the device's subscription (the Push API's JSON); NotASubscription if it is
    not one the site can send to. A subscription moves to whoever is logged in on that
    browser now."""
    try:
        endpoint, p256dh, auth = info["endpoint"], info["keys"]["p256dh"], info["keys"]["auth"]
    except (KeyError, TypeError, IndexError):
        raise NotASubscription() from None
    if not all(isinstance(value, str) for value in (endpoint, p256dh, auth)):
        raise NotASubscription()
    check_endpoint(endpoint)
    p256dh, auth = check_keys(p256dh, auth)
    with transaction.atomic():
        subscription, _created = PushSubscription.objects.update_or_create(
            endpoint=endpoint,
            defaults={"user": user, "p256dh": p256dh, "auth": auth, "device": device[:120]},
        )
    return subscription


def check_endpoint(endpoint: str) -> None:
    """The push service's address: https, a public host (resolved and checked again each
    time a message is sent), no user name, no control or invisible characters."""
    try:
        outbound.check_url(endpoint, max_length=MAX_ENDPOINT_LENGTH)
    except outbound.Refused:
        raise NotASubscription(_("Notifications can only be sent to a push service on the "
                                 "public internet, over HTTPS.")) from None


def check_keys(p256dh: str, auth: str) -> tuple[str, str]:
    """The device's keys (RFC 8291), base64url: its public key an uncompressed point on
    P-256, its authentication secret 16 bytes. Returns them without padding."""
    point = _unb64(p256dh, 65)
    try:
        if point is None or point[0] != 4:
            raise ValueError("not an uncompressed point")
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise NotASubscription(
            _("The device's encryption key is not a valid P-256 public key.")) from None
    secret = _unb64(auth, 16)
    if secret is None or len(secret) != 16:
        raise NotASubscription(
            _("The device's authentication secret is not 16 bytes in base64url."))
    return _b64(point), _b64(secret)


def _unb64(text: str, size: int) -> bytes | None:
    """The bytes of base64url text no longer than `size` bytes needs, else None."""
    if len(text) > (size * 4 + 2) // 3 + 2 or not _BASE64URL.fullmatch(text):
        return None
    try:
        return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        return None


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def remove(user, pk: int) -> bool:
    return PushSubscription.objects.filter(user=user, pk=pk).delete()[0] > 0


def device_name(user_agent: str) -> str:
    """"Firefox on Android": enough for a player to tell their devices apart."""
    agent = user_agent or ""
    browser = next((name for key, name in (
        ("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"),
        ("Safari/", "Safari")) if key in agent), _("a browser"))
    system = next((name for key, name in (
        ("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("Windows", "Windows"),
        ("Mac OS X", "macOS"), ("Linux", "Linux")) if key in agent), "")
    return _("%(browser)s on %(system)s") % {"browser": browser, "system": system} if system \
        else browser
