from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self):
        # The tasks register themselves with games.background, the write side's only way
        # to hand work to the workers.
        from . import tasks  # noqa: F401
