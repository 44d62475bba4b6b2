import os

from django.apps import AppConfig
from django.conf import settings
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self):
        # The tasks register themselves with games.core.background, the write side's only way
        # to hand work to the workers.
        from . import tasks

        # The development server (make run) without a broker has no beat: it sweeps on a
        # timer of its own. RUN_MAIN marks the server process under the autoreloader.
        if settings.CELERY_TASK_ALWAYS_EAGER and os.environ.get("RUN_MAIN") == "true":
            tasks.start_sweeper()
