import html
import json
import math
import zoneinfo
from datetime import datetime, time, timedelta

from django import forms
from django.conf import settings
from django.contrib.auth.forms import (
    AuthenticationForm,
    PasswordResetForm,
    SetPasswordForm,
    UserCreationForm,
)
from django.core.exceptions import ValidationError
from django.forms.utils import flatatt
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.safestring import mark_safe
from django.utils.text import capfirst
from django.utils.translation import get_language_info, gettext_noop, ngettext
from django.utils.translation import gettext_lazy as _

from dalmuti_site.channels import ChannelURLField
from dalmuti_site.formats import zone_abbreviation
from dalmuti_site.text import PlainLineField, one_line

from . import outbox, throttle, zones
from .models import AWAY_DAYS, OutgoingEmail, User

# Django's own words under the second password field (sign-up, reset, change), in our
# catalogue, which is read before Django's: its German writes "das selbe" for "dasselbe".
gettext_noop("Enter the same password as before, for verification.")


def zoneinfo_for(name: str) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(name or settings.TIME_ZONE)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(settings.TIME_ZONE)


# An address already in use is not refused: that would tell anyone whose address has an
# account here. The address is confirmed by its owner only (accounts.confirmation).


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        label=_("Email address"),
        help_text=_("Used to reset your password and, if you like, to tell you it is your turn."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    # Filled by the browser (static/js/dalmuti.js): the new player's own time zone. A plain
    # field: whatever comes, even what a CharField refuses (a NUL byte), is read as a zone
    # or as none, never an error on a field the player cannot see.
    time_zone = forms.Field(required=False, widget=forms.HiddenInput)

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email", "time_zone")

    def clean_time_zone(self):
        # Whatever the browser says that zoneinfo knows, legacy names too (Chrome says
        # Asia/Calcutta, kept as Asia/Kolkata); anything else, the site's.
        return zones.recognised(str(self.cleaned_data.get("time_zone") or ""))

    def clean_email(self):
        return User.objects.normalize_email(self.cleaned_data["email"])

    def username_taken(self) -> bool:
        """Whether the form was refused for a username somebody already has (the one
        thing a sign-up still tells: usernames are unique and shown at every table). As
        Django's form found it, in any case: never the name as sent, which may be anything
        (a NUL byte the database refuses)."""
        return self.has_error("username", code="unique")


class LoginForm(AuthenticationForm):
    """Django's login form, refusing any attempt while this address, or this username from
    this address, is locked."""

    locked_for = 0  # seconds
    # Django's own says both fields may be case-sensitive: a username here is not.
    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": _("The username or the password is wrong (capitals count in the "
                           "password)."),
    }

    def clean(self):
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if not (username and password):
            return super().clean()

        address = throttle.client_address(self.request)
        self.locked_for = throttle.seconds_locked(username, address)
        if self.locked_for:
            minutes = math.ceil(self.locked_for / 60)
            raise ValidationError(
                ngettext(
                    "Too many failed attempts to log in. Please try again in %(minutes)d "
                    "minute, or reset your password.",
                    "Too many failed attempts to log in. Please try again in %(minutes)d "
                    "minutes, or reset your password.",
                    minutes,
                ),
                code="locked",
                params={"minutes": minutes},
            )
        try:
            cleaned_data = super().clean()
        except ValidationError:
            throttle.record_failure(username, address)
            raise
        throttle.clear_pair(username, address)
        return cleaned_data


class ConfirmedAddressResetForm(PasswordResetForm):
    """A password reset goes only to a confirmed address: an address typed into a profile
    by someone else must not receive a way into that account. It is sent like every
    other email, by a worker after the commit (a failing mail server fails no request)."""

    def get_users(self, email):
        return (user for user in super().get_users(email) if user.email_verified)

    def send_mail(self, subject_template_name, email_template_name, context, from_email,
                  to_email, html_email_template_name=None):
        user = context["user"]
        with translation.override(user.language or translation.get_language()):
            subject = one_line(render_to_string(subject_template_name, context))
            text = render_to_string(email_template_name, context)
            html = (render_to_string(html_email_template_name, context)
                    if html_email_template_name else "")
        outbox.enqueue(user, OutgoingEmail.Kind.PASSWORD_RESET, to_email, subject, text, html)


class ResetPasswordForm(SetPasswordForm):
    """Setting a new password through the emailed link also lifts a login lock."""

    def save(self, commit=True):
        user = super().save(commit)
        throttle.clear_username(user.get_username())
        return user


def _language_choices():
    choices = [("", _("Follow my browser"))]
    for code, _name in settings.LANGUAGES:
        choices.append((code, capfirst(get_language_info(code)["name_local"])))
    return choices


class TimeZoneSelect(forms.Select):
    """The zones offered (zones.choices), with their offsets at the moment it is drawn,
    and `kept`, the account's zone, beside them if it is not one.

    Written here rather than by Django's Select, which renders a template for each option
    and normalises the choices each time it looks at them: the ~420 zones took 12–17 ms a
    page that way, and take about a millisecond written in Python."""

    kept = ""

    def use_required_attribute(self, initial):
        # Select looks for a blank first choice, which building every choice would cost;
        # the first is always the blank one (the site's zone).
        return not self.is_hidden

    def render(self, name, value, attrs=None, renderer=None):
        chosen = next(iter(self.format_value(value)), "")
        attrs = self.build_attrs(self.attrs, {**(attrs or {}), "name": name})
        blank = _("The site's: %(zone)s") % {"zone": zones.label(settings.TIME_ZONE)}

        def option(value: str, label: str) -> str:
            selected = " selected" if value == chosen else ""
            return (f'<option value="{html.escape(value)}"{selected}>'
                    f"{html.escape(label)}</option>")

        lines = [f"<select{flatatt(attrs)}>"]
        for value, label in zones.choices(blank, self.kept):
            if isinstance(label, list):  # a region: its name, then its zones
                lines.append(f'<optgroup label="{html.escape(value)}">')
                lines.extend(option(*choice) for choice in label)
                lines.append("</optgroup>")
            else:
                lines.append(option(value, label))
        lines.append("</select>")
        return mark_safe("\n".join(lines))


class TimeZoneField(forms.ChoiceField):
    """The zones offered, region by region, with the one the account has even when it is
    no longer offered (a legacy name such as US/Eastern): it stays as chosen, and the
    form saves unchanged. Its widget draws the choices (TimeZoneSelect); the field checks
    a value against the zones' names alone."""

    widget = TimeZoneSelect
    default_error_messages = {
        "invalid_choice": _("Choose a time zone from the list: “%(value)s” is not one of "
                            "them."),
    }

    kept = ""

    def keep(self, name: str) -> None:
        """Offer the zones, and `name` (the account's) beside them if it is not one."""
        self.kept = self.widget.kept = name

    def valid_value(self, value):
        return (value == "" or value in zones.offered_names()
                or (value == self.kept and value in zones.known()))


class ProfileForm(forms.ModelForm):
    email = forms.EmailField(
        label=_("Email address"),
        help_text=_("Used to reset your password and for the notifications below."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    language = forms.ChoiceField(
        label=_("Language"),
        choices=_language_choices,
        required=False,
        help_text=_("The language of the site whenever you are logged in."),
    )

    time_zone = TimeZoneField(
        label=_("Time zone"), required=False,
        help_text=_("Times on the pages and in emails are shown in this zone."),
    )
    away_until = forms.DateField(
        label=_("Away until"), required=False,
        # A date field reads only the ISO form, whatever the language shows elsewhere.
        widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
        help_text=_(
            "Going away? Your clock waits at every timed table until the end of that day "
            "(at most 14 days ahead). Leave empty when you are here."
        ),
    )

    class Meta:
        model = User
        fields = ("display_name", "email", "notify", "notify_by", "language", "time_zone")
        labels = {"display_name": _("Display name"), "notify": _("Tell me"),
                  "notify_by": _("How")}
        help_texts = {
            "notify": _("When to tell you about your games."),
            "notify_by": _("Notifications on a device come once you switch them on there "
                           "(below)."),
        }
        field_classes = {"display_name": PlainLineField}
        widgets = {
            "display_name": forms.TextInput(attrs={"autocomplete": "nickname"}),
            "notify": forms.RadioSelect,
            "notify_by": forms.RadioSelect,
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        zone = self.instance.zone
        now = timezone.localtime(timezone.now(), zone)
        stored = self.instance.time_zone
        if zones.RENAMED.get(stored) in zones.offered_names():
            # An old name a browser gave before the site knew it as renamed is the zone
            # the list offers under its new name: that one is chosen.
            self.initial["time_zone"] = stored = zones.RENAMED[stored]
        self.fields["time_zone"].keep(stored)
        if not self.instance.time_zone:
            # No zone chosen: the page's script offers this device's, one tap away
            # (unless it is the site's, which the player has already).
            self.fields["time_zone"].widget.attrs.update({
                "data-device-zone": _("Use this device's time zone: %(zone)s"),
                "data-site-zone": settings.TIME_ZONE,
                # The browser may give an old name of a zone the list has (Asia/Calcutta).
                "data-renamed": json.dumps(zones.RENAMED, separators=(",", ":")),
            })
        if self.instance.is_away():
            local = timezone.localtime(self.instance.away_until, zone)
            self.initial["away_until"] = (local - timedelta(seconds=1)).date()
        # The date picker offers only the days that are allowed.
        today = now.date()
        self.fields["away_until"].widget.attrs.update({
            "min": today.isoformat(),
            "max": (today + timedelta(days=AWAY_DAYS - 1)).isoformat(),
        })
        # "One daily summary" says when it comes, in the player's own zone.
        summary = datetime.combine(today, time(settings.DAILY_SUMMARY_HOUR))
        self.fields["notify"].help_text = _(
            "When to tell you about your games. The daily summary comes at %(time)s "
            "(%(zone)s time), with a reminder when your time would run out before the next "
            "summary; what no summary tells comes as it happens: a game's start and end, a "
            "friend's nudge, the last seat of a table you host taken, a table or an invitation "
            "about to lapse."
        ) % {"time": date_format(summary, "TIME_FORMAT"),
             "zone": zones.named(str(zone))}
        # Seeing the time it is there tells at once whether the zone is the right one.
        self.fields["time_zone"].help_text = _(
            "Times on the pages and in emails are shown in this zone (there it is now "
            "%(time)s)."
        ) % {"time": f"{now:%H:%M} {zone_abbreviation(now)}"}

    def clean_email(self):
        return User.objects.normalize_email(self.cleaned_data["email"])

    def clean_away_until(self):
        """The last day away, in the player's own zone: away until that day's end."""
        day = self.cleaned_data.get("away_until")
        if day is None:
            return None
        zone = zoneinfo_for(self.data.get("time_zone") or self.instance.time_zone)
        today = timezone.localdate(timezone.now(), zone)
        if day < today:
            raise forms.ValidationError(_("Choose today or a later day."))
        if day > today + timedelta(days=AWAY_DAYS - 1):
            raise forms.ValidationError(
                _("You can be away for at most %(days)d days.") % {"days": AWAY_DAYS})
        return datetime.combine(day + timedelta(days=1), time(0), tzinfo=zone)


class StandingOrdersForm(forms.ModelForm):
    """The standing orders of the profile: every table the player sits at starts with
    them."""

    class Meta:
        model = User
        fields = ("auto_pass", "auto_tax_worst", "auto_revolution")
        labels = {
            "auto_pass": _("Pass automatically whenever I cannot beat the table"),
            "auto_tax_worst": _("Give back my worst cards in taxes"),
            "auto_revolution": _("Call a revolution when I am dealt both Jesters as a Peon"),
        }
        help_texts = {
            "auto_pass": _(
                "When nothing in your hand beats the cards on the table, passing is your "
                "only move: the site makes it for you at once, so the table never waits "
                "on it (and you get no email about it). Others see an ordinary pass; your "
                "log tells you it was your standing order."),
            "auto_tax_worst": _(
                "As Great or Lesser Dalmuti, give back your highest-numbered cards at once "
                "instead of choosing them."),
            "auto_revolution": _(
                "As Lesser or Greater Peon, show both Jesters as soon as you are dealt "
                "them: nobody pays taxes, and as Greater Peon you make a Great Revolution. "
                "The others may notice that your revolutions come with the deal. Without "
                "it you decide yourself, until the Dalmutis have chosen the cards they "
                "give back."),
        }


class ChannelForm(forms.Form):
    """The player's own channel (a third way to be told, beside email and devices)."""

    url = ChannelURLField(
        label=_("Channel address"), required=False,
        help_text=_("An Apprise address, for example tgram://bot_token/chat_id, "
                    "ntfys://topic or a Discord webhook's address. Only you see it, and "
                    "only masked."))


class DeleteAccountForm(forms.Form):
    """The player's own password, asked again before their account goes: a phone left
    signed in must not be enough. A wrong one counts as a failed login (the same lock
    keeps anyone from guessing it here)."""

    password = forms.CharField(
        label=_("Your password"), strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    erase_talk = forms.BooleanField(
        label=_("Erase what I said at the tables too"), required=False,
        help_text=_("Otherwise your messages stay in the table talk, under “Former "
                    "player”."),
    )

    def __init__(self, request, *args, **kwargs):
        self.request = request
        self.locked_for = 0
        super().__init__(*args, **kwargs)

    def clean_password(self) -> str:
        user = self.request.user
        username, address = user.get_username(), throttle.client_address(self.request)
        self.locked_for = throttle.seconds_locked(username, address)
        if self.locked_for:
            minutes = math.ceil(self.locked_for / 60)
            raise ValidationError(ngettext(
                "Too many wrong passwords. Please try again in %(minutes)d minute.",
                "Too many wrong passwords. Please try again in %(minutes)d minutes.",
                minutes) % {"minutes": minutes}, code="locked")
        password = self.cleaned_data["password"]
        if not user.check_password(password):
            throttle.record_failure(username, address)
            raise ValidationError(_("That is not your password."), code="password_incorrect")
        throttle.clear_pair(username, address)
        return password
