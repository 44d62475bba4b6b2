from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PushConfig(AppConfig):
    name = "push"
    verbose_name = _("Web push")
