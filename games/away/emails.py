"""Emails: a subject, a text body and an HTML body rendered from templates named after
the email (templates/emails/<name>-subject.txt, -body.txt, -body.html), in the
recipient's language, each with a signed one-click unsubscribe link."""

from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from dalmuti_site.mail import Email
from dalmuti_site.text import one_line
from games.away import channels
from games.away.content import (
    closed_context,
    end_proposal_context,
    game_context,
    hosting_context,
    invitation_context,
    join_place_context,
    last_seat_context,
    mention_context,
    removed_context,
    replaced_context,
)
from games.commands import notifications
from games.core.clock import TIMEOUTS_BEFORE_STAND_IN
from games.core.turns import games_waiting_for
from games.models import OPEN_TABLE_DAYS, Invitation, Notification
from push import sender as push_sender

UNSUBSCRIBE_SALT = "dalmuti.unsubscribe"
# An unsubscribe link works without logging in, so it must not work for ever: an old
# email that lands in the wrong hands asks for a login instead.
UNSUBSCRIBE_DAYS = 90
# The link that stops invitations to an address without an account: it only ever adds a
# refusal, so it never expires.
REFUSE_SALT = "dalmuti.refuse-invitations"
Status = Notification.Status


def settings_url() -> str:
    """The profile's choice of when and how a player is told (every turn, a daily summary
    or never; email, devices or both): what a player who finds the emails too many wants
    rather than giving them all up."""
    return settings.SITE_URL + reverse("profile") + "#id_notify"


def unsubscribe_url(user) -> str:
    token = signing.dumps(user.pk, salt=UNSUBSCRIBE_SALT, compress=True)
    return settings.SITE_URL + reverse("unsubscribe", args=[token])


class UnsubscribeExpired(Exception):
    pass


def user_for_unsubscribe_token(token: str):
    """The user an unsubscribe link was made for; None if it is not one of ours, and
    UnsubscribeExpired once it is older than UNSUBSCRIBE_DAYS."""
    try:
        pk = signing.loads(token, salt=UNSUBSCRIBE_SALT, max_age=timedelta(days=UNSUBSCRIBE_DAYS))
    except signing.SignatureExpired:
        raise UnsubscribeExpired from None
    except signing.BadSignature:
        return None
    return get_user_model().objects.filter(pk=pk).first()


def refuse_invitations_url(address: str, language: str) -> str:
    token = signing.dumps({"a": address, "l": language}, salt=REFUSE_SALT, compress=True)
    return settings.SITE_URL + reverse("refuse_invitations", args=[token])


def address_for_refusal_token(token: str) -> tuple[str, str] | None:
    """The address (and the language of the email) a stop-invitations link was made for;
    None if it is not one of ours."""
    try:
        made = signing.loads(token, salt=REFUSE_SALT)
        return str(made["a"]), str(made.get("l") or "")
    except (signing.BadSignature, AttributeError, KeyError, TypeError):
        return None


@contextmanager
def reading(user):
    """In the reader's language and time zone: for making what an email says."""
    language = user.reading_language or settings.LANGUAGE_CODE
    with translation.override(language), timezone.override(user.zone):
        yield


def render(name: str, user, context: dict, language: str = "",
           zone=None) -> tuple[str, str, str]:
    """The subject, text body and HTML body of an email to `user` (None: someone without
    an account, in `language` and `zone`), in the reader's language and time zone."""
    unsubscribe = unsubscribe_url(user) if user is not None else ""
    language = (user.reading_language if user is not None else "") or language or \
        settings.LANGUAGE_CODE
    zone = user.zone if user is not None else zone or timezone.get_default_timezone()
    context = {**context, "user": user, "site_url": settings.SITE_URL,
               "unsubscribe_url": unsubscribe,
               "settings_url": settings_url() if user is not None else ""}
    with translation.override(language), timezone.override(zone):
        subject = one_line(render_to_string(f"emails/{name}-subject.txt", context))
        text = render_to_string(f"emails/{name}-body.txt", context)
        html = render_to_string(f"emails/{name}-body.html", context)
    return subject, text, html


def send(name: str, user, context: dict, address: str = "", language: str = "",
         zone=None) -> None:
    """Render and send one email to `user` (or, for someone without an account yet, to
    `address` in `language` and `zone`): in the reader's language and time zone,
    whoever's request or task sends it, with the unsubscribe footer when there is an
    account to unsubscribe, and without one the link that stops every invitation to the
    address."""
    if user is not None:
        stop = unsubscribe_url(user)
    else:
        stop = refuse_invitations_url(address, language)
        context = {**context, "refuse_url": stop}
    subject, text, html = render(name, user, context, language, zone)
    headers = {"List-Unsubscribe": f"<{stop}>",
               "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
    message = Email(
        subject, text, to=[address or user.verified_email], headers=headers,
    )
    message.attach_alternative(html, "text/html")
    message.send()


def deliver(notification_id: int) -> str:
    """Send one notification if it is still wanted; returns what happened. Safe to run any
    number of times: only the run that claims it can send."""
    notification = notifications.claim(notification_id)
    if notification is None:
        return "not pending"
    try:
        verdict, later = notifications.still_wanted(notification)
        if verdict == "postpone":
            notifications.finish(notification, Status.PENDING, "waiting", due=later)
            return verdict
        if verdict != "send":
            notifications.finish(notification, Status.SKIPPED, verdict)
            return verdict
        if notification.channel == Notification.Channel.PUSH:
            push_sender.send_notification(notification)
        elif notification.channel == Notification.Channel.CHAT:
            channels.send_personal(notification)
        else:
            send_notification(notification)
    except Exception:
        # Back to pending: the task retries with backoff, then the sweep picks it up.
        notifications.finish(notification, Status.PENDING, "failed")
        raise
    notifications.finish(notification, Status.SENT)
    return "sent"


def send_notification(notification: Notification) -> None:
    name, context = email_for(notification)
    send(name, notification.user, context)


def email_for(notification: Notification) -> tuple[str, dict]:
    """Which email a notification sends, and what it says (made in the reader's language:
    the narration's sentences are made here, not in the templates)."""
    with reading(notification.user):
        return _email_for(notification)


def _email_for(notification: Notification) -> tuple[str, dict]:
    user = notification.user
    if notification.kind == Notification.Kind.DAILY:
        games = [game_context(game, user) for game in games_waiting_for(user)]
        return "daily", {"games": games}
    if notification.kind == Notification.Kind.EXPIRING:
        game = notification.game
        return "expiring", {
            "game": game, "game_url": settings.SITE_URL + game.get_absolute_url(),
            "closes": game.created + timedelta(days=OPEN_TABLE_DAYS),
        }
    if notification.kind == Notification.Kind.LAPSING:
        invitation = Invitation.objects.select_related("game", "invited_by").get(
            pk=notification.key.split(":")[1])
        return "lapsing", {
            "game": invitation.game, "host": invitation.invited_by, "lapses": invitation.lapses,
            "link": settings.SITE_URL + reverse("join", args=[invitation.game.invite_token]),
        }
    if notification.kind == Notification.Kind.MENTION:
        return "mention", mention_context(notification)
    if notification.kind == Notification.Kind.REPLACED:
        return "replaced", replaced_context(notification)
    if notification.kind == Notification.Kind.REMOVED:
        return "removed", removed_context(notification)
    if notification.kind == Notification.Kind.HOSTING:
        return "hosting", hosting_context(notification)
    if notification.kind == Notification.Kind.NEVER_DEALT_IN:
        return "never_dealt_in", {"game": notification.game}
    if notification.kind == Notification.Kind.CLOSED:
        return "closed", closed_context(notification)
    if notification.kind == Notification.Kind.SEATED:
        return "seated", last_seat_context(notification)
    if notification.kind == Notification.Kind.JOIN_PLACE:
        return "join_place", join_place_context(notification)
    context = game_context(notification.game, user)
    context["timeouts_before_stand_in"] = TIMEOUTS_BEFORE_STAND_IN
    if notification.kind == Notification.Kind.END_PROPOSED:
        context.update(end_proposal_context(notification))
    if notification.kind == Notification.Kind.NUDGE:
        by = int(notification.key.rsplit(":", 1)[1])
        context["by"] = notification.game.seats.select_related("user").get(player=by).name
    return notification.kind, context


def send_invitation(invitation_id: int) -> None:
    """The invitation to a table, to the invited user's address (in their language) or to
    the invited email address."""
    invitation = (
        Invitation.objects.select_related("game", "user", "invited_by")
        .filter(pk=invitation_id).first()
    )
    if invitation is None:
        return
    user = invitation.user
    address = user.verified_email if user is not None else invitation.email
    if not address or (user is not None and (
            user.notify == user.Notify.NEVER or user.notify_by == user.Channel.PUSH)):
        return
    # The recipient's language and zone when known, else those the inviter wrote it in.
    send("invitation", user, invitation_context(invitation), address=address,
         language=invitation.language, zone=invitation.invited_by.zone)
