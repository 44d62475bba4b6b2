from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self):
        # The task registers itself with games.background, the only way to hand work to
        # the workers.
        from . import tasks  # noqa: F401
