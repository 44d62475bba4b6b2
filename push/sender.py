"""Sending a notification to the devices a player switched on, with web push (VAPID,
pywebpush): the same notifications, rules and records as the emails, one short message
in the player's language and time zone. Clicking it opens (or focuses) the table."""

import json
import logging
from datetime import timedelta

import requests
from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from pywebpush import WebPushException, webpush

from dalmuti_site import outbound
from dalmuti_site.text import one_line
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
from games.core.turns import games_waiting_for, tables_awaiting
from games.models import OPEN_TABLE_DAYS, Invitation, Notification

from . import keys, services

log = logging.getLogger(__name__)
Kind = Notification.Kind
# A push service keeps an undelivered message this long (a phone switched off overnight).
TTL_SECONDS = 12 * 3600


class PushFailed(Exception):
    """No device took the message for a reason other than being gone: try again later."""


def message(notification: Notification) -> dict:
    """What the notification says: title, body, the page it opens, and a tag per game (a
    newer notification about the same table replaces the older one)."""
    user, game, kind = notification.user, notification.game, notification.kind
    language = user.reading_language or settings.LANGUAGE_CODE
    with translation.override(language), timezone.override(user.zone):
        if kind == Kind.DAILY:
            games = games_waiting_for(user)
            title = render_to_string("emails/daily-subject.txt", {"games": games})
            body = ", ".join(g.name for g in games)
            return {"title": one_line(title), "body": body, "url": reverse("home"),
                    "tag": "daily"}
        if kind == Kind.INVITED:
            invitation = _invitation(notification)
            title = render_to_string("emails/invitation-subject.txt",
                                     invitation_context(invitation))
            return _to_the_seat(invitation, title, _("Take your seat at the table."))
        if kind == Kind.LAPSING:
            invitation = _invitation(notification)
            title = render_to_string("emails/lapsing-subject.txt", {
                "game": invitation.game, "host": invitation.invited_by,
                "lapses": invitation.lapses})
            return _to_the_seat(invitation, title, _("Take your seat before then."))
        if kind == Kind.MENTION:
            context = mention_context(notification)
            title = render_to_string("emails/mention-subject.txt", context)
            return {"title": one_line(title),
                    "body": one_line(" ".join((
                        pgettext("a name, before what follows it", "%(name)s:")
                        % {"name": context["speaker"]}, context["said"]))),
                    "url": game.get_absolute_url() + "?chat=open#chat",
                    "tag": f"talk-{game.pk}"}
        if kind == Kind.REPLACED:
            context = replaced_context(notification)
            title = render_to_string("emails/replaced-subject.txt", context)
            body = context["replacement"].reason or _("The game goes on without you.")
            return {"title": one_line(title), "body": one_line(body),
                    "url": game.get_absolute_url(), "tag": f"game-{game.pk}"}
        if kind == Kind.REMOVED:
            title = render_to_string("emails/removed-subject.txt", removed_context(notification))
            body = _("To sit at it again, ask them to invite you again.")
            return {"title": one_line(title), "body": body,
                    "url": game.get_absolute_url(), "tag": f"game-{game.pk}"}
        if kind == Kind.NEVER_DEALT_IN:
            title = render_to_string("emails/never_dealt_in-subject.txt", {"game": game})
            return {"title": one_line(title), "body": _("You were never dealt in."),
                    "url": reverse("home"), "tag": f"game-{game.pk}"}
        if kind == Kind.CLOSED:
            context = closed_context(notification)
            title = render_to_string("emails/closed-subject.txt", context)
            return {"title": one_line(title), "body": one_line(context["reason"]),
                    "url": reverse("home"), "tag": f"game-{game.pk}"}
        if kind == Kind.HOSTING:
            title = render_to_string("emails/hosting-subject.txt", hosting_context(notification))
            return {"title": one_line(title), "body": _("Start it once everyone is seated."),
                    "url": game.get_absolute_url(), "tag": f"game-{game.pk}"}
        if kind == Kind.JOIN_PLACE:
            context = join_place_context(notification)
            body = " ".join((
                _("%(name)s joins at round %(number)s.") % context,
                _("As Great Dalmuti you choose their place: %(upper)s or %(lower)s.") % context))
        elif kind == Kind.SEATED:
            context = last_seat_context(notification)
            body = _("%(name)s took the last seat. Start the game when you are ready.") % {
                "name": context["newcomer"]}
        elif kind == Kind.EXPIRING:
            context = {"game": game, "closes": game.created + timedelta(days=OPEN_TABLE_DAYS)}
            body = _("Start it before then: bots can fill the empty seats.")
        else:
            context = game_context(game, user)
            if kind == Kind.NUDGE:
                by = int(notification.key.rsplit(":", 1)[1])
                context["by"] = game.seats.select_related("user").get(player=by).name
            if kind in (Kind.TURN, Kind.REMINDER, Kind.NUDGE):
                body = render_to_string("emails/_decision.txt", context)
            elif kind == Kind.TIMED_OUT:
                body = _("The table went on without you. Open it to play your next turn.")
            elif kind == Kind.STAND_IN:
                body = _("Open the table to take your seat back.")
            elif kind == Kind.END_PROPOSED:
                context.update(end_proposal_context(notification))
                body = _("Open the table to answer.")
            elif kind == Kind.STARTED and context.get("my_title"):
                body = _("You start as %(title)s.") % {"title": context["my_title"]}
            elif kind == Kind.OVER:
                body = _the_end_in_a_line(context)
            else:
                body = _("Open the table to see it.")
        title = render_to_string(f"emails/{kind}-subject.txt", context)
    return {"title": one_line(title), "body": one_line(body),
            "url": game.get_absolute_url(), "tag": f"game-{game.pk}"}


def _invitation(notification: Notification) -> Invitation:
    """The invitation an invitation's notification is about (its key ends in its id)."""
    return Invitation.objects.select_related("game", "invited_by").get(
        pk=notification.key.split(":")[1])


def _to_the_seat(invitation: Invitation, title: str, body: str) -> dict:
    """A push that opens the invitation's seat; one tag per invitation, so that its lapse
    warning replaces the invitation on the device."""
    return {"title": one_line(title), "body": body,
            "url": reverse("join", args=[invitation.game.invite_token]),
            "tag": f"invitation-{invitation.pk}"}


def _the_end_in_a_line(context: dict) -> str:
    """The end of a game as a lock screen shows it: the reader's place and the winner, as
    the email's final standings give them."""
    standings = context.get("standings")
    if context.get("nobody_won"):
        return _("Everybody left the game: nobody won it.")
    if not standings:
        return _("No round was finished.")
    mine = next((s for s in standings if s["me"]), None)
    if mine is not None and mine["rank"] == 1:
        return _("You won!")
    winner = standings[0]["name"]
    if mine is None:
        return _("%(name)s won.") % {"name": winner}
    return _("You finished in place %(place)s; %(name)s won.") % {
        "place": mine["rank"], "name": winner}


def payload(notification: Notification) -> dict:
    """What goes to the device: the message, and how many tables await the player now, so
    that the service worker can set the installed app's badge while no page is open. Only
    the player's own count: nothing about anyone else."""
    return {**message(notification), "awaiting": tables_awaiting(notification.user)}


def send_notification(notification: Notification) -> int:
    """Push the notification to each of the player's devices; a device whose push service
    says it is gone (404, 410) is forgotten. Returns how many devices took it; raises
    PushFailed if none did for another reason (the task retries)."""
    data = json.dumps(payload(notification))
    devices = list(notification.user.push_subscriptions.all())
    delivered, failures = 0, []
    # Every push goes through the guard: the public internet only, checked addresses,
    # no redirects, short time-outs, answers read up to a cap.
    with outbound.session() as session:
        for device in devices:
            try:
                services.check_keys(device.p256dh, device.auth)
                webpush(device.info(), data=data,
                        vapid_private_key=keys.vapid()["private"],
                        vapid_claims={"sub": settings.VAPID_SUBJECT}, ttl=TTL_SECONDS,
                        timeout=outbound.READ_SECONDS, requests_session=session)
            except (outbound.Refused, services.NotASubscription) as exc:
                # Not a push service the site may reach (an inside address, stored before
                # subscriptions were checked, or a name that now resolves inside), or keys
                # nothing can be encrypted for: it will never take a message, so the device
                # is forgotten like a gone one.
                log.warning("push: forgot device %s: %s", device.pk, exc)
                device.delete()
                continue
            except WebPushException as exc:
                status = exc.response.status_code if exc.response is not None else None
                if status in (404, 410):
                    device.delete()
                    continue
                failures.append(f"{status}: {exc}")
            except requests.RequestException as exc:
                failures.append(str(exc))
            else:
                delivered += 1
                type(device).objects.filter(pk=device.pk).update(last_sent=timezone.now())
    if failures and not delivered:
        raise PushFailed("; ".join(failures))
    if failures:
        log.warning("push: %d device(s) failed: %s", len(failures), "; ".join(failures))
    return delivered
