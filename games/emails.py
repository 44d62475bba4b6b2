"""Emails: a subject, a text body and an HTML body rendered from templates named after
the email (templates/emails/<name>-subject.txt, -body.txt, -body.html), in the
recipient's language, each with a signed one-click unsubscribe link."""

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from . import services
from .labels import TITLE_NAMES
from .models import Notification

UNSUBSCRIBE_SALT = "dalmuti.unsubscribe"


def unsubscribe_url(user) -> str:
    token = signing.dumps(user.pk, salt=UNSUBSCRIBE_SALT, compress=True)
    return settings.SITE_URL + reverse("unsubscribe", args=[token])


def user_for_unsubscribe_token(token: str):
    from django.contrib.auth import get_user_model

    try:
        pk = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    return get_user_model().objects.filter(pk=pk).first()


def send(name: str, user, context: dict) -> None:
    language = user.language or settings.LANGUAGE_CODE
    unsubscribe = unsubscribe_url(user)
    context = {**context, "user": user, "site_url": settings.SITE_URL,
               "unsubscribe_url": unsubscribe}
    with translation.override(language):
        subject = " ".join(render_to_string(f"emails/{name}-subject.txt", context).split())
        text = render_to_string(f"emails/{name}-body.txt", context)
        html = render_to_string(f"emails/{name}-body.html", context)
    message = EmailMultiAlternatives(
        subject, text, to=[user.email],
        headers={"List-Unsubscribe": f"<{unsubscribe}>",
                 "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"},
    )
    message.attach_alternative(html, "text/html")
    message.send()


def _game_context(game, user) -> dict:
    """What the email may say about the game: only what the player's own view shows."""
    seat = game.seats.get(user=user)
    context = {"game": game, "game_url": settings.SITE_URL + game.get_absolute_url()}
    if game.state is not None:
        view = services.engine_state(game).view(seat.player)
        kinds = {a["type"] for a in view["legal_actions"]}
        context.update({
            "round_number": view["game"]["round_number"],
            "my_title": TITLE_NAMES[view["titles"][view["seat"]]] if view["seat"] is not None
            else "",
            "decision": _decision(view["phase"], kinds),
            "standings": _standings(game, view),
        })
    return context


def _decision(phase: str, kinds: set[str]) -> str:
    if "revolution" in kinds:
        return "revolution"
    if "give_back" in kinds:
        return "give_back"
    if "trade" in kinds or "trade_card" in kinds:
        return "trade"
    return "play"


def _standings(game, view) -> list[dict]:
    names = {s.player: s.name for s in game.seats.select_related("user")}
    return [{"rank": s["rank"], "name": names.get(s["player"], "?"), "score": s["score"]}
            for s in view["game"]["standings"]]


def send_notification(notification: Notification) -> None:
    user = notification.user
    if notification.kind == Notification.Kind.DAILY:
        from .notifications import games_waiting_for

        games = [_game_context(game, user) for game in games_waiting_for(user)]
        send("daily", user, {"games": games})
        return
    context = _game_context(notification.game, user)
    if notification.kind == Notification.Kind.REMINDER:
        from datetime import datetime

        seat = notification.game.seats.get(user=user)
        wait = notification.game.awaiting[str(seat.player)]
        context["deadline"] = services.deadline(
            notification.game, seat, datetime.fromisoformat(wait[1]))
    send(notification.kind, user, context)
