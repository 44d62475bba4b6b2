import zoneinfo
from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from dalmuti_site.channels import ChannelOwner
from dalmuti_site.text import plain_line

# How far ahead an account-wide absence may be announced.
AWAY_DAYS = 14


def former_player() -> str:
    """What stands where a deleted account's name stood, in the reader's language."""
    return pgettext("a deleted account", "Former player")


class User(AbstractUser, ChannelOwner):
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
    # The address a player with a confirmed one asked to change to: it replaces `email`
    # only once its link is followed, so that a typo (or someone else at a signed-in
    # phone) does not cut the account off from its mail.
    new_email = models.EmailField(_("new email address, not confirmed yet"), blank=True)
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
    # The language of the last page served to the player (their browser's, or the
    # switcher's), so that emails and pushes, sent where no browser asks, follow it too
    # while `language` is left empty.
    page_language = models.CharField(max_length=8, blank=True, editable=False)

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
    auto_revolution = models.BooleanField(
        _("call a revolution when dealt both Jesters as a Peon"), default=False)
    # When the player deleted their account: everything personal is erased, the row stays
    # for the records of the games they played (which read "Former player").
    deleted = models.DateTimeField(_("account deleted"), null=True, blank=True, editable=False)

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        try:
            return zoneinfo.ZoneInfo(self.time_zone or settings.TIME_ZONE)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return zoneinfo.ZoneInfo(settings.TIME_ZONE)

    def save(self, *args, **kwargs):
        # Whatever sets the name (the profile, the admin, a command), it is shown as typed.
        self.display_name = plain_line(self.display_name)
        super().save(*args, **kwargs)

    def is_away(self, now: datetime | None = None) -> bool:
        return bool(self.away_until and self.away_until > (now or timezone.now()))

    @property
    def verified_email(self) -> str:
        """The address emails may go to: the confirmed one, else none."""
        return self.email if self.email and self.email_verified else ""

    @property
    def address_to_confirm(self) -> str:
        """The address a confirmation link is for: the new one asked for, else an
        unconfirmed one; none when nothing waits."""
        return self.new_email or ("" if self.email_verified else self.email)

    @property
    def reading_language(self) -> str:
        """The language to write to the player in: the one chosen in the profile, else
        the one their pages were last in; empty when neither is known."""
        return self.language or self.page_language

    @property
    def name(self) -> str:
        if self.deleted:
            return former_player()
        return self.display_name or self.username

    @property
    def name_to_pick(self) -> str:
        """The name with the username beside it, for whoever picks a person from a list:
        two players may choose the same display name, never the same username."""
        if self.deleted or self.display_name in ("", self.username):
            return self.name
        return f"{self.display_name} (@{self.username})"

    def __str__(self) -> str:
        return self.name


class OutgoingEmail(models.Model):
    """An account email (an address to confirm, a password reset, a sign-up with an
    address that already has an account), written in the request that asks for it and
    sent by a worker once that request commits: a mail server that fails never fails the
    request, and a failed send is tried again with a growing delay (accounts.outbox)."""

    class Kind(models.TextChoices):
        CONFIRM = "confirm", _("Confirm an address")
        ADDRESS_TAKEN = "address_taken", _("A sign-up with an address that has an account")
        ADDRESS_CHANGING = "address_changing", _("A change of address, told to the old one")
        PASSWORD_RESET = "password_reset", _("Password reset")
        CHANNEL_PAUSED = "channel_paused", _("A notification channel was paused")

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        SENDING = "sending", _("sending")
        SENT = "sent", _("sent")
        FAILED = "failed", _("given up")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="account_emails", verbose_name=_("account"))
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    to = models.EmailField(_("to"))
    subject = models.CharField(_("subject"), max_length=200)
    # Emptied once sent: a link that opens an account has no business lying around.
    text = models.TextField(blank=True)
    html = models.TextField(blank=True)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices,
                              default=Status.PENDING, db_index=True)
    due = models.DateTimeField(_("next try"), default=timezone.now, db_index=True)
    created = models.DateTimeField(_("written"), auto_now_add=True)
    claimed = models.DateTimeField(null=True, blank=True)
    sent = models.DateTimeField(_("sent"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(_("tries"), default=0)
    note = models.CharField(_("last failure"), max_length=120, blank=True)

    class Meta:
        ordering = ["due"]
        verbose_name = _("account email")
        verbose_name_plural = _("account emails")

    def __str__(self) -> str:
        return f"{self.kind} → {self.to} ({self.status})"
