from django.shortcuts import render
from django.utils import translation
from django.views.decorators.csrf import csrf_exempt

from games.away.emails import UnsubscribeExpired, user_for_unsubscribe_token


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
    if user.reading_language:
        # The link came from an email in this language: the page speaks it too.
        translation.activate(user.reading_language)
        request.LANGUAGE_CODE = user.reading_language
    if request.method == "POST":
        stop_emails(user)
        return render(request, "games/unsubscribe.html", {"done": True, "subscriber": user})
    return render(request, "games/unsubscribe.html", {"subscriber": user})


def stop_emails(user) -> None:
    """No more game emails; notifications on the player's devices stay as they were (by
    email and on devices becomes devices only; by email only becomes nothing)."""
    if user.notify_by == user.Channel.BOTH:
        user.notify_by = user.Channel.PUSH
        user.save(update_fields=["notify_by"])
    elif user.notify_by == user.Channel.EMAIL:
        user.notify = user.Notify.NEVER
        user.save(update_fields=["notify"])
