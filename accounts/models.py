import zoneinfo
from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# How far ahead an account-wide absence may be announced.
AWAY_DAYS = 14


def time_zone_choices() -> list[tuple[str, str]]:
    return [(zone, zone.replace("_", " ")) for zone in sorted(zoneinfo.available_timezones())
            if "/" in zone and not zone.startswith(("Etc/", "SystemV/", "posix/", "right/"))]


class User(AbstractUser):
    """A player. Profile settings live on the user itself: there is one profile per login."""

    class Notify(models.TextChoices):
        EVERY_TURN = "every_turn", _("Every turn")
        DAILY = "daily", _("One daily summary")
        NEVER = "never", _("Never")

    class Channel(models.TextChoices):
        BOTH = "both", _("By email and on my devices")
        EMAIL = "email", _("By email only")
        PUSH = "push", _("On my devices only")

    email = models.EmailField(_("email address"), blank=True)
    # Set when the owner followed the confirmation link sent to `email`: until then no
    # game email, invitation or password reset goes to that address.
    email_verified = models.BooleanField(_("email address confirmed"), default=False)
    display_name = models.CharField(
        _("display name"), max_length=40, blank=True,
        help_text=_("The name other players see at the table."),
    )
    notify = models.CharField(
        _("email notifications"), max_length=16, choices=Notify.choices,
        default=Notify.EVERY_TURN,
    )
    # How notifications reach the player: email, push to the devices they switched on, or
    # both (push only goes where a device is subscribed).
    notify_by = models.CharField(
        _("notifications by"), max_length=8, choices=Channel.choices, default=Channel.BOTH,
    )
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, blank=True,
        help_text=_("Leave empty to follow your browser."),
    )

    # Every time a player reads (pages and emails) is shown in this zone; empty: the
    # site's. Filled from the browser at sign-up.
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True)
    # Away from every timed table until then: their clocks wait, as on vacation.
    away_until = models.DateTimeField(_("away until"), null=True, blank=True)
    # Standing orders, chosen once: every new seat starts with them (a table's own panel
    # changes them for that game only).
    auto_pass = models.BooleanField(
        _("pass automatically whenever I cannot beat the table"), default=True)
    auto_tax_worst = models.BooleanField(_("give back my worst cards in taxes"), default=False)

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        try:
            return zoneinfo.ZoneInfo(self.time_zone or settings.TIME_ZONE)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return zoneinfo.ZoneInfo(settings.TIME_ZONE)

    def is_away(self, now: datetime | None = None) -> bool:
        return bool(self.away_until and self.away_until > (now or timezone.now()))

    @property
    def verified_email(self) -> str:
        """The address emails may go to: the confirmed one, else none."""
        return self.email if self.email and self.email_verified else ""

    @property
    def name(self) -> str:
        return self.display_name or self.username

    def __str__(self) -> str:
        return self.name
