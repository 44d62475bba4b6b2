from django.conf import settings
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.csrf import csrf_exempt

from games import commands
from games.away.emails import (
    UnsubscribeExpired,
    address_for_refusal_token,
    user_for_unsubscribe_token,
)
from games.commands.notifications import channels_for, unheard
from games.models import Notification


def _speak(request, language: str) -> None:
    """The page speaks the language of the email its link came from, when known."""
    if language in dict(settings.LANGUAGES):
        translation.activate(language)
        request.LANGUAGE_CODE = language


@csrf_exempt
def unsubscribe(request, token: str):
    """The link in every email. GET asks for one click (mail scanners follow links);
    POST unsubscribes, including mail clients' one-click List-Unsubscribe-Post. The signed
    token is the authority, so no login or CSRF token is needed."""
    try:
        user = user_for_unsubscribe_token(token)
    except UnsubscribeExpired:
        return render(request, "games/unsubscribe.html", {"expired": True}, status=400)
    if user is None:
        return render(request, "games/unsubscribe.html", {"invalid": True}, status=400)
    _speak(request, user.reading_language)
    if request.method == "POST":
        stop_emails(user)
        return render(request, "games/unsubscribe.html", {
            "done": True, "subscriber": user,
            "unheard": unheard(user) or user.notify == user.Notify.NEVER})
    # A link opened again after it did its work: said, rather than asked again.
    already = user.notify == user.Notify.NEVER or user.notify_by == user.Channel.PUSH
    # What still tells them once emails stop: their devices, their own channel.
    others = [c for c in channels_for(user) if c != Notification.Channel.EMAIL]
    return render(request, "games/unsubscribe.html", {"subscriber": user, "already": already,
                                                      "unheard": not others})


def stop_emails(user) -> None:
    """No more game emails; notifications on the player's devices stay as they were (by
    email and on devices becomes devices only; by email only becomes nothing)."""
    if user.notify_by == user.Channel.BOTH:
        user.notify_by = user.Channel.PUSH
        user.save(update_fields=["notify_by"])
    elif user.notify_by == user.Channel.EMAIL:
        user.notify = user.Notify.NEVER
        user.save(update_fields=["notify"])


@csrf_exempt
def refuse_invitations(request, token: str):
    """The link in an invitation sent to an address without an account: GET asks for one
    click, POST (or the mail client's one-click request) refuses every invitation to
    that address from now on. The signed token is the authority, as for unsubscribing."""
    found = address_for_refusal_token(token)
    if found is None:
        return render(request, "games/refuse_invitations.html", {"invalid": True}, status=400)
    address, language = found
    _speak(request, language)
    if request.method == "POST":
        commands.refuse_invitations(address)
        return render(request, "games/refuse_invitations.html", {"done": True})
    return render(request, "games/refuse_invitations.html", {"address": address})
