"""Confirming an email address: a signed link, valid for a few days, sent to the address.

The link names the address it was sent to, so a link for an address the user has since
replaced confirms nothing.
"""

from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from .models import User

SALT = "dalmuti.confirm-email"
VALID_FOR = timedelta(days=3)


def link_for(user: User) -> str:
    token = signing.dumps({"user": user.pk, "email": user.email.lower()}, salt=SALT)
    return settings.SITE_URL + reverse("confirm_email", args=[token])


def send_link(user: User) -> None:
    if not user.email:
        return
    context = {"user": user, "link": link_for(user), "days": VALID_FOR.days}
    with translation.override(user.reading_language or translation.get_language()):
        subject = render_to_string("accounts/confirm_email_subject.txt", context)
        body = render_to_string("accounts/confirm_email_body.txt", context)
    send_mail(" ".join(subject.split()), body, None, [user.email])


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
        user.email_verified = True
        user.save(update_fields=["email_verified"])
    return user
