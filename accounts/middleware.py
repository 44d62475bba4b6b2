from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone, translation


def activate_user_language(request) -> None:
    """Use the language and time zone chosen in the player's profile, if any."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return
    if user.language:
        translation.activate(user.language)
        request.LANGUAGE_CODE = user.language
    else:
        remember_page_language(user, translation.get_language())
    timezone.activate(user.zone)


def remember_language_at_login(sender, request, user, **kwargs) -> None:
    """Logging in already tells the language the player's pages are in: stored then, the
    pages that follow write nothing unless it changes."""
    if not user.language:
        remember_page_language(user, translation.get_language())


def remember_page_language(user, code: str) -> None:
    """Keep the language the player's pages are in, for the emails and pushes sent
    without a browser: one UPDATE when it changes, nothing otherwise."""
    if code in dict(settings.LANGUAGES) and code != user.page_language:
        get_user_model().objects.filter(pk=user.pk).update(page_language=code)
        user.page_language = code


def answers_without_user(view):
    """Mark `view` as one UserLanguageMiddleware leaves to load the user, and so call
    activate_user_language, only when it needs to: the poll, whose usual answer is an
    empty 204 from Redis alone, and what answers the same to everybody (the health check,
    the service worker, the old-style icon's redirect). Looking the user up for it would
    cost every such request the session and a database query."""
    view.answers_without_user = True
    return view


class UserLanguageMiddleware:
    """Use the language chosen in the player's profile, else what LocaleMiddleware found
    (the language cookie set by the switcher, then the browser's Accept-Language); not for
    a view marked `answers_without_user`."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        timezone.deactivate()
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", translation.get_language())
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        if not getattr(view_func, "answers_without_user", False):
            activate_user_language(request)
