from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A player. Profile settings live on the user itself: there is one profile per login."""

    class Notify(models.TextChoices):
        EVERY_TURN = "every_turn", _("Every turn")
        DAILY = "daily", _("One daily summary")
        NEVER = "never", _("Never")

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
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, blank=True,
        help_text=_("Leave empty to follow your browser."),
    )

    @property
    def verified_email(self) -> str:
        """The address emails may go to: the confirmed one, else none."""
        return self.email if self.email and self.email_verified else ""

    @property
    def name(self) -> str:
        return self.display_name or self.username

    def __str__(self) -> str:
        return self.name
