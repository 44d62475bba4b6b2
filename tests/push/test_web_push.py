"""Web push for real: the site sends to a push service (our own, on this machine) with a
VAPID signature, the payload encrypted for the device (RFC 8291), which the test decrypts
with the device's key; a push service that says the device is gone makes the site forget
it; nothing is pushed twice."""

import base64
import json
from datetime import timedelta
from urllib.parse import urlparse

import http_ece
import pytest
import time_machine
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.conf import settings
from django.utils import timezone

from games.commands import notifications
from games.models import Notification
from games.tasks import send_notification
from push import keys, services
from push.models import PushSubscription
from tests.helpers import make_user, start_table

from .conftest import Device

pytestmark = pytest.mark.django_db


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _decrypt(device: Device, body: bytes) -> dict:
    return json.loads(http_ece.decrypt(body, private_key=device.key,
                                       auth_secret=device.secret, version="aes128gcm"))


def _check_vapid(headers: dict, endpoint: str) -> dict:
    """The Authorization header: a JWT signed (ES256) with the site's key, for this push
    service's origin, with the contact address; the key it names is the site's."""
    scheme, _space, params = headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == keys.public_key()
    head, claims, signature = fields["t"].split(".")
    raw = _unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _unb64(fields["k"]))
    public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    claims = json.loads(_unb64(claims))
    origin = urlparse(endpoint)
    assert claims["aud"] == f"{origin.scheme}://{origin.netloc}"
    assert claims["sub"] == settings.VAPID_SUBJECT
    assert claims["exp"] > timezone.now().timestamp()
    return claims


@pytest.fixture
def pushed_turn(push_service):
    """A game waiting for a player who has notifications on this one device only."""
    people = [make_user(n) for n in ("pia", "quinn", "rafa", "sol")]
    device = Device(push_service, "phone")
    for user in people:
        user.notify_by = "push"
        user.save()
    services.subscribe(people[0], device.info(), "Firefox on Android")
    game = start_table(people[0], people[1:])
    return game, people[0], device


def _deliver_due():
    return [send_notification(pk) for pk in notifications.due_ids()]


def test_the_push_is_encrypted_for_the_device_and_signed_by_the_site(push_service, pushed_turn):
    game, user, device = pushed_turn
    with time_machine.travel(timezone.now() + timedelta(minutes=5)):
        _deliver_due()
        _deliver_due()  # a second sweep sends nothing more
    mine = [r for r in push_service.received if r["path"] == device.path]
    assert mine, "nothing was pushed"
    kinds = [n.kind for n in Notification.objects.filter(user=user, channel="push",
                                                         status="sent")]
    assert len(mine) == len(kinds)  # each notification once
    started = _decrypt(device, mine[0]["body"])
    assert started["title"] == f"The game at “{game.name}” has started"
    assert started["url"] == game.get_absolute_url() and started["tag"] == f"game-{game.pk}"
    assert mine[0]["headers"]["content-encoding"] == "aes128gcm"
    assert int(mine[0]["headers"]["ttl"]) > 0
    _check_vapid(mine[0]["headers"], device.endpoint)
    assert not Notification.objects.filter(user=user, channel="email").exists()


def test_a_device_the_push_service_says_is_gone_is_forgotten(push_service, pushed_turn):
    game, user, device = pushed_turn
    push_service.status_for[device.path] = 410
    with time_machine.travel(timezone.now() + timedelta(minutes=5)):
        _deliver_due()
    assert push_service.received
    assert not PushSubscription.objects.filter(user=user).exists()


def test_a_push_service_that_fails_is_tried_again_later(push_service, pushed_turn):
    game, user, device = pushed_turn
    push_service.status_for[device.path] = 503
    notification = Notification.objects.filter(user=user, channel="push").first()
    from games.away import emails
    from push.sender import PushFailed
    with time_machine.travel(timezone.now() + timedelta(minutes=5)):
        with pytest.raises(PushFailed):
            emails.deliver(notification.pk)
    notification.refresh_from_db()
    assert notification.status == "pending" and notification.note == "failed"
    assert PushSubscription.objects.filter(user=user).exists()


def test_subscribing_and_removing_a_device_through_the_site(client, push_service):
    user = make_user("tia")
    device = Device(push_service, "laptop")
    client.force_login(user)
    answer = client.post("/push/subscribe/", json.dumps(device.info()),
                         content_type="application/json",
                         HTTP_USER_AGENT="Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0")
    assert answer.status_code == 200
    subscription = PushSubscription.objects.get(user=user)
    assert subscription.device == "Firefox on Linux"
    page = client.get("/accounts/profile/").content.decode()
    assert "Firefox on Linux" in page and "Remove this device" in page
    assert client.post("/push/subscribe/", "{not json", content_type="application/json"
                       ).status_code == 400
    assert client.post("/push/subscribe/", json.dumps({"endpoint": "ftp://x"}),
                       content_type="application/json").status_code == 400
    other = make_user("uma")
    client.force_login(other)
    client.post(f"/push/devices/{subscription.pk}/remove/")
    assert PushSubscription.objects.filter(pk=subscription.pk).exists()  # not theirs
    client.force_login(user)
    client.post(f"/push/devices/{subscription.pk}/remove/")
    assert not PushSubscription.objects.filter(pk=subscription.pk).exists()


def test_the_push_carries_the_count_of_tables_awaiting_the_player_and_nothing_else():
    """The service worker sets the app's badge from it while no page is open: the
    player's own tables only, not the ones waiting for someone else."""
    from push.sender import payload
    from tests.helpers import bots_play_on
    pia, quinn = make_user("pia"), make_user("quinn")
    for _ in range(2):  # two tables where only the bots sit with Pia: both wait for her
        bots_play_on(start_table(pia, bots=3))
    bots_play_on(start_table(quinn, bots=3))  # waits for Quinn, not Pia
    sent = payload(Notification(user=pia, kind=Notification.Kind.DAILY, key="daily",
                                channel="push", due=timezone.now()))
    assert sent["awaiting"] == 2
    assert set(sent) == {"title", "body", "url", "tag", "awaiting"}


def test_an_invitation_by_name_reaches_a_player_who_takes_pushes_only(push_service):
    """A player who chose pushes over emails got nothing of an invitation (its email was
    skipped, and nothing else was sent): their devices hear of it, leading to the seat.
    An invitation withdrawn before it goes, or one to an address, pushes nothing."""
    from games import commands

    host, pia = make_user("host", display_name="Alice"), make_user("pia")
    pia.notify_by = "push"
    pia.save()
    device = Device(push_service, "phone")
    services.subscribe(pia, device.info(), "Firefox on Android")
    table = commands.create_table(host, "Friday", 5, {"rounds": 3})
    invitation, _new = commands.invite(table, host, user=pia)
    withdrawn = commands.create_table(host, "Saturday", 5, {"rounds": 3})
    wrong, _new = commands.invite(withdrawn, host, user=pia)
    commands.withdraw_invitation(withdrawn.pk, host, wrong.pk)
    commands.invite(commands.create_table(host, "Sunday", 5, {}), host, email="pia@example.com")
    _deliver_due()
    [pushed] = [_decrypt(device, r["body"]) for r in push_service.received
                if r["path"] == device.path]
    assert pushed["title"] == "“Alice” invites you to “Friday”, a game of The Great Dalmuti"
    assert pushed["url"] == f"/join/{table.invite_token}/"
    assert pushed["tag"] == f"invitation-{invitation.pk}"
    _deliver_due()  # nothing twice
    assert len([r for r in push_service.received if r["path"] == device.path]) == 1
