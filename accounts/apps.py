from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self):
        from django.contrib.auth.signals import user_logged_in

        # The task registers itself with games.core.background, the only way to hand work to
        # the workers.
        from . import tasks  # noqa: F401
        from .middleware import remember_language_at_login

        user_logged_in.connect(remember_language_at_login, dispatch_uid="page-language")
