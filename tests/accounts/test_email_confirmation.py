"""An address gets game emails, invitations and password resets only once its owner
has confirmed it by following the link sent to it."""

import re
from urllib.parse import urlsplit

import pytest
from django.core import mail

from accounts import confirmation
from games import commands
from games.commands import notifications
from games.models import Invitation
from tests.helpers import make_user

pytestmark = pytest.mark.django_db

LINK = re.compile(r"https?://[^/\s]+(/accounts/confirm/[^\s]+/)")


def _confirm_link(message) -> str:
    return LINK.search(message.body).group(1)


def test_signing_up_sends_a_confirmation_link_that_confirms(client, after_commit):
    with after_commit():
        client.post("/accounts/signup/", {
            "username": "newbie", "email": "newbie@example.com",
            "password1": "a-long-enough-pass", "password2": "a-long-enough-pass",
        })
    from accounts.models import User

    user = User.objects.get(username="newbie")
    assert not user.email_verified and user.verified_email == ""
    (message,) = mail.outbox
    assert message.to == ["newbie@example.com"]
    answer = client.get(_confirm_link(message), follow=True)
    assert "confirmed" in answer.content.decode()
    user.refresh_from_db()
    assert user.email_verified and user.verified_email == "newbie@example.com"


def _title_and_heading(page) -> tuple[str, str]:
    text = page.content.decode()
    title = re.search(r"<title>(.*?)</title>", text, re.S).group(1).strip()
    heading = re.search(r"<h1[^>]*>(.*?)</h1>", text, re.S).group(1).strip()
    return title, heading


def test_the_page_says_confirmed_once_it_is_and_asks_to_confirm_while_it_is_not(client):
    """A heading asking to confirm above "Thank you: … is confirmed" reads as if something
    were left to do."""
    user = make_user("newbie", email_verified=False)
    page = client.get(urlsplit(confirmation.link_for(user)).path)
    assert page.status_code == 200
    title, heading = _title_and_heading(page)
    assert title == "Email address confirmed · The Great Dalmuti"
    assert heading == "Email address confirmed"
    assert "Confirm your email address" not in page.content.decode()
    broken = client.get("/accounts/confirm/forged/")
    assert broken.status_code == 400
    assert _title_and_heading(broken) == (
        "Confirm your email address · The Great Dalmuti", "Confirm your email address")


def _move(client, email: str, **extra):
    return client.post("/accounts/profile/", {
        "display_name": "Mover", "email": email, "notify": "every_turn", "notify_by": "both",
        "language": "", **extra}, follow=True)


def test_a_confirmed_address_stays_until_the_new_one_is_confirmed(client, after_commit):
    """A typo, or someone else at a signed-in phone, does not cut the account off from its
    mail: the confirmed address keeps getting it, and is told, until the link sent to
    the new one is followed."""
    user = make_user("mover")
    old = user.email
    assert user.email_verified
    client.force_login(user)
    with after_commit():
        page = _move(client, "new@example.com").content.decode()
    user.refresh_from_db()
    assert (user.email, user.email_verified, user.new_email) == (old, True, "new@example.com")
    assert user.verified_email == old
    assert "Your new address new@example.com waits for you" in page
    # Said once, in the notice that stays until it is confirmed, not again in a message.
    assert page.count("keep going to") == 1
    to_new = [m for m in mail.outbox if m.to == ["new@example.com"]]
    to_old = [m for m in mail.outbox if m.to == [old]]
    assert len(to_new) == 1 and len(to_old) == 1
    assert "new@example.com" in to_old[0].body and "/accounts/confirm/" not in to_old[0].body
    with after_commit():
        client.post("/accounts/profile/", {"resend_confirmation": "1"})
    assert [m.to for m in mail.outbox[2:]] == [["new@example.com"]]
    client.get(_confirm_link(to_new[0]))
    user.refresh_from_db()
    assert (user.email, user.email_verified, user.new_email) == ("new@example.com", True, "")


def test_keeping_the_confirmed_address_leaves_the_new_link_confirming_nothing(
        client, after_commit):
    user = make_user("stayer")
    old = user.email
    client.force_login(user)
    with after_commit():
        _move(client, "typo@exmaple.com")
    link = _confirm_link(next(m for m in mail.outbox if m.to == ["typo@exmaple.com"]))
    page = client.post("/accounts/profile/", {"keep_email": "1"}, follow=True)
    assert f"Your address stays {old}." in page.content.decode()
    assert client.get(link).status_code == 400
    user.refresh_from_db()
    assert (user.email, user.email_verified, user.new_email) == (old, True, "")


def test_an_unconfirmed_address_is_replaced_at_once(client, after_commit):
    """Nothing reaches an unconfirmed address anyway: a new one takes its place."""
    user = make_user("mover", email_verified=False)
    client.force_login(user)
    with after_commit():
        _move(client, "new@example.com")
    user.refresh_from_db()
    assert user.email == "new@example.com" and not user.email_verified
    assert user.new_email == ""
    assert [m.to for m in mail.outbox] == [["new@example.com"]]
    client.get(_confirm_link(mail.outbox[0]))
    user.refresh_from_db()
    assert user.email_verified


def test_a_link_for_an_old_address_confirms_nothing(client, after_commit):
    user = make_user("fickle", email_verified=False)
    client.force_login(user)
    with after_commit():
        client.post("/accounts/profile/", {"display_name": "F", "email": "first@example.com",
                                           "notify": "every_turn", "notify_by": "both",
                                           "language": ""})
    first = _confirm_link(mail.outbox[-1])
    client.post("/accounts/profile/", {"display_name": "F", "email": "second@example.com",
                                       "notify": "every_turn", "notify_by": "both", "language": ""})
    client.get(first)
    user.refresh_from_db()
    assert user.email == "second@example.com" and not user.email_verified


def test_an_unconfirmed_address_gets_no_turn_email(alice):
    unconfirmed = make_user("quiet", email_verified=False)
    game = commands.create_table(alice, "T", 4, {"rounds": 1})
    commands.join(game.pk, unconfirmed)
    for level in ("basic", "basic"):
        commands.add_bot(game.pk, level)
    commands.start(game.pk)
    assert not game.notifications.filter(user=unconfirmed).exists()
    assert not notifications._wants(unconfirmed, unconfirmed.Notify.EVERY_TURN)


def test_an_email_invitation_does_not_reach_an_unconfirmed_profile(client, alice):
    claimant = make_user("claimant", email_verified=False)
    claimant.email = "victim@example.com"
    claimant.save()
    game = commands.create_table(alice, "T", 4, {"rounds": 1})
    commands.invite(game, alice, email="victim@example.com")
    assert Invitation.objects.for_user(claimant).count() == 0
    client.force_login(claimant)
    assert "invites you" not in client.get("/").content.decode()


def test_a_password_reset_is_not_sent_to_an_unconfirmed_address(client):
    make_user("shady", email_verified=False)
    client.post("/accounts/password/reset/", {"email": "shady@example.com"})
    assert mail.outbox == []


def test_a_link_for_a_deleted_account_says_the_account_is_gone(client, alice):
    """Not "ask for a new one on your profile page": there is no profile any more."""
    from accounts import confirmation
    from games.commands import delete_account

    link = confirmation.link_for(alice)
    delete_account(alice.pk)
    from urllib.parse import urlsplit

    page = client.get(urlsplit(link).path)
    assert page.status_code == 400
    text = page.content.decode()
    assert "The account this link was for has been deleted." in text
    assert "profile" not in text.split('id="main"')[1]
