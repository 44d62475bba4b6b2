from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class PushSubscription(models.Model):
    """One device (a browser on a phone or a computer) a player switched notifications
    on for: where its push service takes messages, and the keys to encrypt them with."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="push_subscriptions", verbose_name=_("user"))
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(_("public key"), max_length=200)
    auth = models.CharField(_("authentication secret"), max_length=100)
    # What the player sees in their list of devices ("Firefox on Android").
    device = models.CharField(_("device"), max_length=120, blank=True)
    created = models.DateTimeField(_("switched on"), auto_now_add=True)
    last_sent = models.DateTimeField(_("last sent"), null=True, blank=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.user} · {self.device or self.endpoint[:40]}"

    def info(self) -> dict:
        """The subscription as the Push API gives it (what pywebpush takes)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}
