from django.utils import translation


class UserLanguageMiddleware:
    """Use the language chosen in the player's profile, else what LocaleMiddleware found
    (the language cookie set by the switcher, then the browser's Accept-Language)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and user.language:
            translation.activate(user.language)
            request.LANGUAGE_CODE = user.language
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", translation.get_language())
        return response
