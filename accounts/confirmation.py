"""Confirming an email address: a signed link, valid for a few days, sent to the address.

The link names the address it was sent to, so a link for an address the user has since
replaced confirms nothing. An address belongs to the account that confirmed it: another
account may write it down (sign-up says nothing about who has which address), but then
the link goes nowhere and the owner is told instead that someone tried to use it.
"""

from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from dalmuti_site.text import one_line

from . import outbox, throttle
from .models import OutgoingEmail, User

SALT = "dalmuti.confirm-email"
VALID_FOR = timedelta(days=3)
# The owner of an address is told at most this often that someone tried to use it, so
# that sign-ups cannot be used to flood their inbox.
OWNER_NOTICE_SECONDS = 24 * 3600
# "Send the link again": at most this many an hour per account.


def link_for(user: User, address: str = "") -> str:
    token = signing.dumps({"user": user.pk, "email": (address or user.email).lower()},
                          salt=SALT)
    return settings.SITE_URL + reverse("confirm_email", args=[token])


def owner_of(email: str, but: User | None = None) -> User | None:
    """The account that has confirmed this address, if it is not `but`."""
    owners = User.objects.filter(email__iexact=email, email_verified=True)
    if but is not None and but.pk:
        owners = owners.exclude(pk=but.pk)
    return owners.first()


def _render(name: str, context: dict, language: str) -> tuple[str, str]:
    with translation.override(language):
        subject = render_to_string(f"accounts/{name}_subject.txt", context)
        body = render_to_string(f"accounts/{name}_body.txt", context)
    return one_line(subject), body


def send_link(user: User) -> None:
    """The confirmation link to the address waiting for it (the new one a player with a
    confirmed address asked for, else their unconfirmed one), after the commit, by a
    worker; when another account has confirmed that address, its owner is told instead
    (the user sees the same either way)."""
    address = user.address_to_confirm
    if not address:
        return
    owner = owner_of(address, but=user)
    if owner is not None:
        _tell_owner(owner)
        return
    context = {"user": user, "link": link_for(user, address), "days": VALID_FOR.days,
               "changing": bool(user.new_email)}
    subject, body = _render("confirm_email", context,
                            user.reading_language or translation.get_language())
    outbox.enqueue(user, OutgoingEmail.Kind.CONFIRM, address, subject, body)


def tell_old_address(user: User) -> None:
    """The confirmed address learns that the account asked to move to `new_email`: its
    owner can step in if it was not them (the change waits for the new link)."""
    context = {"user": user, "new": user.new_email,
               "profile": settings.SITE_URL + reverse("profile")}
    subject, body = _render("address_changing", context,
                            user.reading_language or translation.get_language())
    outbox.enqueue(user, OutgoingEmail.Kind.ADDRESS_CHANGING, user.email, subject, body)


def _tell_owner(owner: User) -> None:
    if throttle.count_attempt("address-taken", owner.email.lower(), 1, OWNER_NOTICE_SECONDS):
        return
    context = {"user": owner, "login": settings.SITE_URL + reverse("login"),
               "reset": settings.SITE_URL + reverse("password_reset")}
    subject, body = _render("address_taken", context,
                            owner.reading_language or settings.LANGUAGE_CODE)
    outbox.enqueue(owner, OutgoingEmail.Kind.ADDRESS_TAKEN, owner.email, subject, body)


def resend_wait(user: User) -> int:
    """Count one "send the link again"; the seconds to wait when there were too many."""
    return throttle.count_attempt("resend-confirmation", str(user.pk),
                                  settings.RESEND_CONFIRMATION_LIMIT, 3600)


def for_deleted_account(token: str) -> bool:
    """Whether the token, expired or not, was for an account deleted since."""
    try:
        data = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return False
    return User.objects.filter(pk=data.get("user"), deleted__isnull=False).exists()


def confirm(token: str) -> User | None:
    """The user whose address the token confirms (now marked confirmed), or None."""
    try:
        data = signing.loads(token, salt=SALT, max_age=VALID_FOR)
    except signing.BadSignature:
        return None
    user = User.objects.filter(pk=data.get("user")).first()
    if user is None:
        return None
    if user.new_email and user.new_email.lower() == data.get("email"):
        # The new address of a change: it takes the confirmed one's place now.
        if owner_of(user.new_email, but=user) is not None:
            return None
        user.email, user.email_verified, user.new_email = user.new_email, True, ""
        user.save(update_fields=["email", "email_verified", "new_email"])
        return user
    if user.email.lower() != data.get("email"):
        return None
    if not user.email_verified:
        if owner_of(user.email, but=user) is not None:
            return None  # confirmed by another account meanwhile: first come, first served
        user.email_verified = True
        user.save(update_fields=["email_verified"])
    return user
