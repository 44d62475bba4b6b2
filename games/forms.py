from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from .models import BotLevel, TurnLimit

MIN_SEATS, MAX_SEATS = 4, 10


class TableForm(forms.Form):
    """A new table: its name, size and every option of the rules (RULES.md)."""

    name = forms.CharField(label=_("Table name"), max_length=80)
    seats = forms.IntegerField(
        label=_("Seats"), min_value=MIN_SEATS, max_value=MAX_SEATS, initial=5,
        help_text=_("4 to 10 players, humans and bots."),
    )
    end = forms.ChoiceField(
        label=_("The game ends"),
        choices=[("rounds", _("after a number of rounds")), ("score", _("at a target score"))],
        initial="rounds", widget=forms.RadioSelect,
    )
    rounds = forms.IntegerField(label=_("Number of rounds"), min_value=1, max_value=30, initial=10)
    target_score = forms.IntegerField(
        label=_("Target score"), min_value=1, max_value=500, required=False,
        help_text=_("The game ends after the round in which somebody reaches it."),
    )
    turn_limit = forms.TypedChoiceField(
        label=_("Time limit per turn"), choices=TurnLimit.choices, coerce=int,
        initial=TurnLimit.NONE, required=False, empty_value=TurnLimit.NONE,
        help_text=_("When it runs out the table moves on: a pass, or the worst cards in taxes."),
    )
    reduced_deck = forms.BooleanField(
        label=_("Reduced deck"), required=False,
        help_text=_("With 4 players remove the 11s and 12s, with 5 players the 12s."),
    )
    first_round_taxes = forms.BooleanField(
        label=_("Taxes in the first round"), required=False, initial=True,
        help_text=_("Untick for the “automatic revolution”: nobody has earned a position yet."),
    )
    tribute_return = forms.ChoiceField(
        label=_("The Dalmutis give back"),
        choices=[("choice", _("cards of their choice")), ("worst", _("their worst cards"))],
        initial="choice",
    )
    merchant_trade = forms.ChoiceField(
        label=_("Merchant trade (6 or more players)"),
        choices=[
            ("off", _("off")),
            ("chosen", _("each Merchant chooses the card to give")),
            ("random", _("a random card each way")),
        ],
        initial="off",
    )
    master_rule = forms.BooleanField(
        label=_("Master rule"), required=False,
        help_text=_("Nobody rises more than one position per round."),
    )
    philanthropic = forms.ChoiceField(
        label=_("Philanthropic scoring"),
        choices=[
            ("off", _("off")),
            ("per_position", _("a point per position the Peon rose")),
            ("flat", _("one point if the Peon rose")),
        ],
        initial="off",
    )

    def clean(self):
        data = super().clean()
        if data.get("end") == "score" and not data.get("target_score"):
            self.add_error("target_score", _("Choose the score that ends the game."))
        return data

    def engine_options(self) -> dict:
        """The options as stored on the table, in the engine's own terms."""
        data = self.cleaned_data
        return {
            "reduced_deck": data["reduced_deck"],
            "first_round_taxes": data["first_round_taxes"],
            "tribute_return": data["tribute_return"],
            "merchant_trade": data["merchant_trade"],
            "master_rule": data["master_rule"],
            "philanthropic": data["philanthropic"],
            "rounds": data["rounds"] if data["end"] == "rounds" else 30,
            "target_score": data["target_score"] if data["end"] == "score" else None,
        }


class InviteForm(forms.Form):
    who = forms.CharField(
        label=_("Username or email address"), max_length=254,
    )

    def clean_who(self):
        who = self.cleaned_data["who"].strip()
        User = get_user_model()
        if "@" in who:
            forms.EmailField().clean(who)
            self.user = User.objects.filter(email__iexact=who, is_active=True).first()
            self.email = who
        else:
            self.user = User.objects.filter(username__iexact=who, is_active=True).first()
            self.email = ""
            if self.user is None:
                raise ValidationError(
                    _("There is no player called “%(name)s”."), params={"name": who}
                )
        return who


class BotForm(forms.Form):
    level = forms.ChoiceField(label=_("Bot level"), choices=BotLevel.choices, initial="basic")
