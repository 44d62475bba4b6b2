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

from . import outbox, throttle
from .models import OutgoingEmail, User

SALT = "dalmuti.confirm-email"
VALID_FOR = timedelta(days=3)
# The owner of an address is told at most this often that someone tried to use it, so
# that sign-ups cannot be used to flood their inbox.
OWNER_NOTICE_SECONDS = 24 * 3600
# "Send the link again": at most this many an hour per account.


def link_for(user: User) -> str:
    token = signing.dumps({"user": user.pk, "email": user.email.lower()}, salt=SALT)
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
    return " ".join(subject.split()), body


def send_link(user: User) -> None:
    """The confirmation link to the user's address, after the commit, by a worker; when
    another account has confirmed that address, its owner is told instead (the user
    sees the same either way)."""
    if not user.email or user.email_verified:
        return
    owner = owner_of(user.email, but=user)
    if owner is not None:
        _tell_owner(owner)
        return
    context = {"user": user, "link": link_for(user), "days": VALID_FOR.days}
    subject, body = _render("confirm_email", context,
                            user.reading_language or translation.get_language())
    outbox.enqueue(user, OutgoingEmail.Kind.CONFIRM, user.email, subject, body)


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
    if user is None or user.email.lower() != data.get("email"):
        return None
    if not user.email_verified:
        if owner_of(user.email, but=user) is not None:
            return None  # confirmed by another account meanwhile: first come, first served
        user.email_verified = True
        user.save(update_fields=["email_verified"])
    return user
