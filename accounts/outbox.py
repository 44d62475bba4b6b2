"""Account emails through the same path as every other email: a row written in the
request, handed to the workers only after the transaction commits, sent by an idempotent
task, tried again with a growing delay when the mail server fails, and picked up by the
periodic sweep if the hand-over was lost.

Only the run that claims a row (a conditional UPDATE) sends it, so a task run twice
sends one email.
"""

import logging
from datetime import timedelta

from django.db.models import F
from django.utils import timezone

from dalmuti_site.mail import Email
from games.core import background

from .models import OutgoingEmail

log = logging.getLogger(__name__)

Status = OutgoingEmail.Status
# Delays before the next try: 30 s, 1, 2, 4 … minutes, at most half an hour; given up
# after this many tries (about a day).
FIRST_RETRY = timedelta(seconds=30)
LONGEST_RETRY = timedelta(minutes=30)
TRIES = 50


def enqueue(user, kind: str, to: str, subject: str, text: str, html: str = "") -> OutgoingEmail:
    """Write the email and have it sent once the current transaction commits."""
    email = OutgoingEmail.objects.create(user=user, kind=kind, to=to, subject=subject,
                                         text=text, html=html)
    background.after_commit("account_email", email.pk)
    return email


def retry_delay(attempts: int) -> timedelta:
    return min(FIRST_RETRY * 2 ** max(0, attempts - 1), LONGEST_RETRY)


def claim(email_id: int) -> OutgoingEmail | None:
    now = timezone.now()
    taken = OutgoingEmail.objects.filter(
        pk=email_id, status=Status.PENDING, due__lte=now,
    ).update(status=Status.SENDING, claimed=now, attempts=F("attempts") + 1)
    return OutgoingEmail.objects.get(pk=email_id) if taken else None


def deliver(email_id: int) -> str:
    """Send one email if it is pending and due; returns what happened. A failure is noted
    and the email waits for its next try (the sweep sends it then)."""
    email = claim(email_id)
    if email is None:
        return "not pending"
    message = Email(email.subject, email.text, to=[email.to])
    if email.html:
        message.attach_alternative(email.html, "text/html")
    try:
        message.send()
    except Exception as failure:  # SMTP refusals, network errors: all worth a retry
        gave_up = email.attempts >= TRIES
        OutgoingEmail.objects.filter(pk=email.pk).update(
            status=Status.FAILED if gave_up else Status.PENDING,
            due=timezone.now() + retry_delay(email.attempts),
            note=f"{type(failure).__name__}: {failure}"[:120],
        )
        log.warning("account email %s to the mail server failed (try %d): %s",
                    email.pk, email.attempts, failure)
        return "failed"
    OutgoingEmail.objects.filter(pk=email.pk).update(
        status=Status.SENT, sent=timezone.now(), text="", html="", note="")
    return "sent"


def due_ids(now=None) -> list[int]:
    now = now or timezone.now()
    return list(OutgoingEmail.objects.filter(status=Status.PENDING, due__lte=now)
                .order_by("due").values_list("pk", flat=True)[:500])


def release_stuck(now=None) -> int:
    """Emails claimed by a worker that died before finishing go back to pending."""
    now = now or timezone.now()
    return OutgoingEmail.objects.filter(
        status=Status.SENDING, claimed__lt=now - timedelta(minutes=10),
    ).update(status=Status.PENDING)
