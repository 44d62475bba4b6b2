"""Switching push notifications on and off for a device."""

from django.db import transaction
from django.utils.translation import gettext as _

from .models import PushSubscription


def subscribe(user, info: dict, device: str = "") -> PushSubscription:
    """Remember the device's subscription (the Push API's JSON); ValueError if it is not
    one. A subscription moves to whoever is logged in on that browser now."""
    try:
        endpoint = str(info["endpoint"])
        p256dh, auth = str(info["keys"]["p256dh"]), str(info["keys"]["auth"])
    except (KeyError, TypeError):
        raise ValueError("not a push subscription") from None
    if not endpoint.startswith(("https://", "http://127.0.0.1", "http://localhost")) or not (
            p256dh and auth) or len(endpoint) > 1000:
        raise ValueError("not a push subscription")
    with transaction.atomic():
        subscription, _created = PushSubscription.objects.update_or_create(
            endpoint=endpoint,
            defaults={"user": user, "p256dh": p256dh[:200], "auth": auth[:100],
                      "device": device[:120]},
        )
    return subscription


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
