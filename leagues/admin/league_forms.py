"""The admin's forms for leagues: a table for chosen members, and a league with its default
table options."""
import copy

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from dalmuti_site.channels import ChannelURLField, masked
from games import engine
from games.forms import MAX_SEATS, MIN_SEATS, TableForm, check_rules
from games.models import BotLevel, TurnLimit
from leagues.admin.organised import WIDE_TEXT
from leagues.models import (
    League,
)


class PersonChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return obj.name_to_pick


class PeopleChoiceField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj):
        return obj.name_to_pick


class LeagueTableForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Table name"), max_length=80,
                           widget=WIDE_TEXT)
    host = PersonChoiceField(
        label=gettext_lazy("Host"), queryset=None,
        help_text=gettext_lazy("Seated at once; the host starts the game."),
    )
    players = PeopleChoiceField(
        label=gettext_lazy("Invite"), queryset=None, required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=gettext_lazy("Each gets an invitation by email and on their games page."),
    )
    bots = forms.IntegerField(
        label=gettext_lazy("Bots"), min_value=0, max_value=MAX_SEATS - 1, initial=0
    )
    bot_level = forms.ChoiceField(
        label=gettext_lazy("Bot level"), choices=BotLevel.choices, initial=BotLevel.BASIC
    )
    season = forms.ModelChoiceField(
        label=gettext_lazy("Season"), queryset=None, required=False,
        help_text=gettext_lazy("The season its results count for."),
    )
    turn_limit = forms.TypedChoiceField(
        label=gettext_lazy("Time limit per turn"), coerce=int, empty_value=None,
        required=False, choices=(),
        help_text=gettext_lazy("The default is the season's limit, else the league's. After "
                               "it: reminders, a timeout, and the stand-in vote."),
    )

    def __init__(self, *args, league: League, **kwargs):
        super().__init__(*args, **kwargs)
        members = league.members.order_by("username")
        self.fields["host"].queryset = members
        self.fields["players"].queryset = members
        self.fields["season"].queryset = league.seasons.all()
        current = league.current_season()
        self.fields["season"].initial = current
        default = current.table_turn_limit if current else league.turn_limit
        self.fields["turn_limit"].choices = [
            ("", _("Default: %(limit)s")
             % {"limit": TurnLimit(default).label}),
            *TurnLimit.choices,
        ]

    def clean(self):
        data = super().clean()
        host = data.get("host")
        if host is None or data.get("bots") is None or "players" in self.errors:
            return data  # a choice refused already says what is wrong
        guests = [p for p in data.get("players", []) if p.pk != host.pk]
        seats = 1 + len(guests) + data["bots"]
        if not MIN_SEATS <= seats <= MAX_SEATS:
            raise forms.ValidationError(
                _("A table has %(min)d to %(max)d seats (host, invited players and bots); "
                  "this one would have %(seats)d.")
                % {"min": MIN_SEATS, "max": MAX_SEATS, "seats": seats}
            )
        data["guests"] = guests
        return data


# The options of a table that do not depend on its seats or its players: the league's
# defaults are chosen with the same widgets as a new table.
OPTION_FIELDS = [
    name for name in TableForm.base_fields
    if name not in ("name", "seats", "turn_limit", "time_bank")
]


class LeagueForm(forms.ModelForm):
    """A league with its default table options as the new-table form's widgets. Stored are
    only the options that differ from the standard rules, so the standard rules are {}."""

    class Meta:
        model = League
        fields = ["name", "slug", "description", "active", "organisers", "turn_limit"]
        widgets = {"organisers": forms.CheckboxSelectMultiple}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        try:
            options = engine.Options.from_json(self.instance.default_options or {})
        except (TypeError, ValueError):
            options = engine.Options()
        end = "rounds" if options.rounds else "score" if options.target_score else "open"
        current = masked(self.instance.channel_url)
        self.fields["channel"].help_text = (
            _("Now: %(channel)s%(paused)s. Paste a new address to replace it.") % {
                "channel": current,
                "paused": _(" (paused: it failed several times in a row)")
                if self.instance.channel_paused else ""}
            if current else _("The tables of the league tell this chat (Discord, Telegram…) "
                              "whose turn it is, each round's result and the end."))
        self.initial.update({
            "end": end, "rounds": options.rounds or 10,
            "target_score": options.target_score, "no_points": not options.scoring,
            **{name: getattr(options, name) for name in (
                "seating_ties", "reduced_deck", "first_round_taxes", "tribute_return",
                "great_revolution", "merchant_trade", "merchant_trade_from", "master_rule",
                "philanthropic",
            )},
        })

    # The league's group channel, inherited by each of its tables without one of their
    # own. The stored address is never put back in the form (it is a secret).
    channel = ChannelURLField(label=gettext_lazy("Group channel"), required=False)
    remove_channel = forms.BooleanField(label=gettext_lazy("Remove the channel"),
                                        required=False)

    # Who saves the form (LeagueAdmin.get_form sets it).
    acting = None

    def clean_organisers(self):
        chosen = self.cleaned_data["organisers"]
        acting = self.acting
        if (acting is not None and not acting.is_superuser and self.instance.pk
                and acting not in chosen):
            raise forms.ValidationError(_(
                "You cannot take yourself off this league's organisers: you would no "
                "longer reach it. Another of its organisers or an administrator can."))
        return chosen

    def clean(self):
        data = super().clean()
        check_rules(self, data)
        if data.get("remove_channel"):
            self.instance.channel_url = ""
        elif data.get("channel"):
            self.instance.channel_url = data["channel"]
        if data.get("remove_channel") or data.get("channel"):
            self.instance.channel_failures, self.instance.channel_paused = 0, None
        if self.errors:
            return data
        # The same mapping as a new table's; it reads nothing but cleaned_data.
        chosen = TableForm.engine_options(self)
        try:
            engine.Options.from_json(chosen)
        except (TypeError, ValueError) as exc:
            raise forms.ValidationError(str(exc)) from exc
        standard = engine.Options().to_json()
        self.instance.default_options = {
            name: value for name, value in chosen.items() if standard[name] != value
        }
        return data


# Declared after the class so that the admin, which builds its form from the fieldsets,
# finds them as the form's own fields.
for _name in OPTION_FIELDS:
    LeagueForm.base_fields[_name] = LeagueForm.declared_fields[_name] = copy.deepcopy(
        TableForm.base_fields[_name]
    )
