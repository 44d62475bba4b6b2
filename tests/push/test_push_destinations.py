"""Web push reaches push services on the public internet and nothing else: a subscription
is checked at the door (the address's shape, a real P-256 key, a 16-byte secret) and
refused with a clear 400 and nothing stored; at sending time the address is resolved and
checked again, so that a name pointing inside (or a row stored before the checks) is
never connected to, and a push service's redirect is not followed."""

import base64
import json
from datetime import timedelta

import pytest
import time_machine
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.utils import timezone

from games.commands import notifications
from games.models import Notification
from games.tasks import send_notification
from push.models import PushSubscription
from tests.helpers import make_user, start_table

from .conftest import Device, b64

pytestmark = pytest.mark.django_db

NAME = "push.example.net"


def _keys() -> dict:
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(serialization.Encoding.X962,
                                           serialization.PublicFormat.UncompressedPoint)
    return {"p256dh": b64(public), "auth": b64(b"0123456789abcdef")}


def _post(client, info) -> tuple[int, dict]:
    answer = client.post("/push/subscribe/", json.dumps(info), content_type="application/json")
    return answer.status_code, answer.json()


@pytest.fixture
def tia(client, settings):
    settings.OUTBOUND_ALLOW_LOOPBACK = False
    user = make_user("tia")
    client.force_login(user)
    return user


@pytest.mark.parametrize("endpoint", [
    "http://127.0.0.1:{port}/push/x", "https://127.0.0.1:{port}/push/x",
    "https://localhost:{port}/push/x", "https://push.localhost:{port}/push/x",
    "https://[::1]:{port}/push/x", "https://[::ffff:127.0.0.1]:{port}/push/x",
    "https://169.254.169.254/latest/meta-data/", "https://[fd00:ec2::254]/",
    "https://10.0.0.1/x", "https://192.168.1.1/x", "https://172.16.0.1/x",
    "https://0.0.0.0:{port}/x", "https://[::]:{port}/x", "https://224.0.0.1/x",
    "https://127.0.0.1:5432/", "https://127.0.0.1:6379/",
    "http://127.0.0.1@evil.example/", "https://127.0.0.1@evil.example/",
    "https://user@push.example.net/x", "http://push.example.net/x", "ftp://push.example.net/x",
    "javascript:alert(1)", "https://push.example.net/\u202ex", "https://push.example.net/a%00b",
    "https://push.example.net/a%0d%0ab", "https://pu\u0073h.example.net\u200b/x",
    "https://push.example.net/" + "a" * 1000, "https://intranet/x", "https://2130706433/x",
    "", "https://", "https://[::1/x", 42, None, ["https://push.example.net/x"],
])
def test_a_subscription_to_a_bad_address_is_refused_and_nothing_stored(
        endpoint, client, tia, fake_dns, quiet_listener):
    if isinstance(endpoint, str):
        endpoint = endpoint.format(port=quiet_listener.port)
    status, answer = _post(client, {"endpoint": endpoint, "keys": _keys()})
    assert status == 400
    assert answer["error"] in (
        "Notifications can only be sent to a push service on the public internet, "
        "over HTTPS.", "That subscription was not understood.")
    assert not PushSubscription.objects.exists()
    assert quiet_listener.connections() == 0 and fake_dns.lookups == []


@pytest.mark.parametrize("p256dh", [
    "1", "", "A" * 100_000, "not base64!",
    # compressed, not the uncompressed point the Push API gives
    "compressed",
    # the right length and prefix, but not a point on the curve
    b64(b"\x04" + b"\x00" * 64),
    # one byte short, one byte long
    "short", "long",
])
def test_a_key_that_is_not_a_p256_point_is_refused(p256dh, client, tia):
    keys = _keys()
    point = base64.urlsafe_b64decode(keys["p256dh"] + "=")
    p256dh = {"compressed": b64(bytes([2 + point[-1] % 2]) + point[1:33]),
              "short": b64(point[:-1]), "long": b64(point + b"\x01")}.get(p256dh, p256dh)
    status, answer = _post(client, {"endpoint": f"https://{NAME}/x",
                                    "keys": {**keys, "p256dh": p256dh}})
    assert status == 400
    assert answer["error"] == "The device's encryption key is not a valid P-256 public key."
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("auth", ["", "1", b64(b"x" * 15), b64(b"x" * 17), "!" * 22,
                                  "A" * 100_000, b64(b"x" * 16) + "\u202e"])
def test_an_auth_secret_that_is_not_16_bytes_is_refused(auth, client, tia):
    status, answer = _post(client, {"endpoint": f"https://{NAME}/x",
                                    "keys": {**_keys(), "auth": auth}})
    assert status == 400
    assert answer["error"] == ("The device's authentication secret is not 16 bytes "
                               "in base64url.")
    assert not PushSubscription.objects.exists()


def test_a_good_subscription_is_stored_as_given(client, tia, fake_dns):
    keys = _keys()
    endpoint = f"https://{NAME}/wpush/v2/gAAAAABk-" + "a" * 150
    padded = {"p256dh": keys["p256dh"] + "=", "auth": keys["auth"] + "=="}
    status, answer = _post(client, {"endpoint": endpoint, "keys": padded})
    assert (status, answer) == (200, {"ok": True})
    stored = PushSubscription.objects.get()
    assert (stored.endpoint, stored.p256dh, stored.auth) == (endpoint, keys["p256dh"],
                                                             keys["auth"])
    assert fake_dns.lookups == []  # checked by shape here; resolved when sending


def test_a_bad_update_changes_nothing(client, tia):
    keys = _keys()
    assert _post(client, {"endpoint": f"https://{NAME}/x", "keys": keys})[0] == 200
    assert _post(client, {"endpoint": f"https://{NAME}/x",
                          "keys": {**keys, "p256dh": "1"}})[0] == 400
    assert PushSubscription.objects.get().p256dh == keys["p256dh"]


def test_the_refusal_is_translated(client, tia):
    tia.language = "nl"
    tia.save()
    answer = client.post("/push/subscribe/", json.dumps({"endpoint": "https://10.0.0.1/x",
                                                         "keys": _keys()}),
                         content_type="application/json", HTTP_ACCEPT_LANGUAGE="nl")
    assert answer.status_code == 400
    assert answer.json()["error"] == ("Meldingen kunnen alleen via HTTPS naar een pushdienst "
                                      "op het openbare internet worden gestuurd.")


def _game_for(user):
    user.notify_by = "push"
    user.save()
    others = [make_user(n) for n in ("quinn", "rafa", "sol")]
    return start_table(user, others)


def _deliver_due():
    with time_machine.travel(timezone.now() + timedelta(minutes=5)):
        return [send_notification(pk) for pk in notifications.due_ids()]


def test_a_name_that_points_inside_is_never_connected_to(client, tia, fake_dns,
                                                         quiet_listener, only_loopback):
    """Accepted at the door (a name is only resolved when sending), the address is
    resolved when the push goes out, found to be loopback, and the device forgotten
    without a connection."""
    endpoint = f"https://{NAME}:{quiet_listener.port}/push/x"
    assert _post(client, {"endpoint": endpoint, "keys": _keys()})[0] == 200
    fake_dns.names[NAME] = ["127.0.0.1"]
    _game_for(tia)
    assert _deliver_due()
    assert NAME in fake_dns.lookups
    assert quiet_listener.connections() == 0
    assert not PushSubscription.objects.filter(user=tia).exists()
    assert only_loopback == []


@pytest.mark.parametrize("endpoint", [
    "http://127.0.0.1:{port}/push/x", "https://127.0.0.1:{port}/push/x",
    "https://localhost:{port}/push/x", "https://127.0.0.1@evil.example:{port}/x",
    "https://169.254.169.254/latest/meta-data/", "https://10.0.0.1:6379/",
])
def test_rows_stored_before_the_checks_are_never_connected_to(
        endpoint, tia, fake_dns, quiet_listener, only_loopback):
    fake_dns.names["evil.example"] = ["93.184.215.14"]
    keys = _keys()
    PushSubscription.objects.create(user=tia, endpoint=endpoint.format(
        port=quiet_listener.port), p256dh=keys["p256dh"], auth=keys["auth"])
    _game_for(tia)
    assert _deliver_due()
    assert quiet_listener.connections() == 0
    assert not PushSubscription.objects.filter(user=tia).exists()
    assert only_loopback == [] and "evil.example" not in fake_dns.lookups


def test_a_push_service_redirect_is_not_followed(push_service, client):
    user = make_user("pia")
    device = Device(push_service, "phone")
    client.force_login(user)
    assert _post(client, device.info())[0] == 200
    push_service.status_for[device.path] = 307
    push_service.location_for[device.path] = "/push/elsewhere"
    game = _game_for(user)
    notification = Notification.objects.filter(user=user, channel="push", game=game).first()
    from games.away import emails
    from push.sender import PushFailed
    with time_machine.travel(timezone.now() + timedelta(minutes=5)):
        with pytest.raises(PushFailed):
            emails.deliver(notification.pk)
    assert [r["path"] for r in push_service.received] == [device.path]
    notification.refresh_from_db()
    assert notification.status == "pending" and notification.note == "failed"


def test_a_device_stored_with_unusable_keys_is_forgotten_and_the_others_still_served(
        push_service, client):
    user = make_user("pia")
    good = Device(push_service, "phone")
    client.force_login(user)
    assert _post(client, good.info())[0] == 200
    bad = Device(push_service, "old-laptop").info()
    PushSubscription.objects.create(user=user, endpoint=bad["endpoint"], p256dh="1",
                                    auth=bad["keys"]["auth"])
    _game_for(user)
    assert _deliver_due()
    assert {r["path"] for r in push_service.received} == {good.path}
    assert list(PushSubscription.objects.filter(user=user).values_list("endpoint", flat=True)
                ) == [good.endpoint]


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_through_the_real_worker_nothing_inside_is_reached(celery_worker, settings, fake_dns,
                                                           quiet_listener, only_loopback):
    """The worker's task (what runs at a game's start) goes through the same guard: the
    name resolves to loopback, the listener sees no connection, the device is forgotten,
    and the task is not retried for it."""
    from push import services

    settings.OUTBOUND_ALLOW_LOOPBACK = False
    user = make_user("tia")
    services.subscribe(user, {"endpoint": f"https://{NAME}:{quiet_listener.port}/push/x",
                              "keys": _keys()})
    PushSubscription.objects.create(user=user, endpoint=f"http://127.0.0.1:{quiet_listener.port}/y",
                                    p256dh=_keys()["p256dh"], auth=_keys()["auth"])
    fake_dns.names[NAME] = ["127.0.0.1"]
    game = _game_for(user)
    notification = Notification.objects.get(user=user, channel="push", kind="started",
                                            game=game)
    outcome = send_notification.apply_async((notification.pk,), ignore_result=False)
    assert outcome.get(timeout=60) == "sent"
    assert quiet_listener.connections() == 0
    assert not PushSubscription.objects.filter(user=user).exists()
    assert only_loopback == []
