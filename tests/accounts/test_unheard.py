"""A player who wants notifications but whom none can reach is told so, wherever they
chose it: the profile says it as long as it lasts (devices only with no device switched
on, or no confirmed address and no device), and the unsubscribe link says it before and
after, with a way on to the profile."""

import pytest
from django.urls import reverse

from games.away.emails import unsubscribe_url
from push.models import PushSubscription

pytestmark = pytest.mark.django_db

NOTHING = "No notification reaches you now"


def _profile(client, user, **fields):
    data = {"display_name": user.display_name, "email": user.email, "notify": "every_turn",
            "notify_by": "both", "language": "", "time_zone": "", "away_until": ""}
    data.update(fields)
    client.force_login(user)
    return client.post("/accounts/profile/", data)


def _device(user):
    return PushSubscription.objects.create(user=user, endpoint="https://push.example.com/x",
                                           p256dh="k", auth="a")


def test_devices_only_without_a_device_is_saved_and_the_profile_says_nothing_reaches(
        client, alice):
    assert _profile(client, alice, notify_by="push").status_code == 302
    page = client.get("/accounts/profile/").content.decode()
    assert NOTHING in page
    assert "you chose your devices only, and none is switched on" in page
    # Once a device is on, or email is chosen again, it is gone.
    device = _device(alice)
    assert NOTHING not in client.get("/accounts/profile/").content.decode()
    device.delete()
    _profile(client, alice, notify_by="both")
    assert NOTHING not in client.get("/accounts/profile/").content.decode()


def test_never_is_a_choice_not_a_warning(client, alice):
    _profile(client, alice, notify="never", notify_by="push")
    assert NOTHING not in client.get("/accounts/profile/").content.decode()


def test_no_confirmed_address_and_no_device_is_said_too(client, alice):
    alice.email_verified = False
    alice.save()
    client.force_login(alice)
    page = client.get("/accounts/profile/").content.decode()
    assert NOTHING in page and "no confirmed email address and no device" in page


def test_unsubscribing_without_a_device_says_nothing_reaches_and_leads_on(client, alice):
    path = reverse("unsubscribe", args=[unsubscribe_url(alice).rstrip("/").split("/")[-1]])
    asked = client.get(path).content.decode()
    assert "After this, nothing will tell you of your turns" in asked
    done = client.post(path).content.decode()
    assert NOTHING in done
    assert f'href="{reverse("profile")}"' in done
    alice.refresh_from_db()
    assert alice.notify_by == "push"


def test_unsubscribing_with_a_device_says_the_devices_stay(client, alice):
    _device(alice)
    path = reverse("unsubscribe", args=[unsubscribe_url(alice).rstrip("/").split("/")[-1]])
    assert "Notifications on your devices stay as they are." in client.get(path).content.decode()
    done = client.post(path).content.decode()
    assert NOTHING not in done and "Notifications on your devices stay as they are." in done
    assert f'href="{reverse("profile")}"' in done
