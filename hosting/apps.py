from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HostingConfig(AppConfig):
    name = "hosting"
    verbose_name = _("Hosting")

    def ready(self):
        # Every process that runs tasks (a worker, or the web server without a broker)
        # notes when the periodic sweep last finished, so the status page can tell
        # whether beat is alive.
        from celery.signals import task_postrun

        from . import heartbeat

        task_postrun.connect(heartbeat.on_task_done, weak=False,
                             dispatch_uid="hosting.heartbeat")
