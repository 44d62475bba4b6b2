from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from dalmuti_site.channels import ChannelURLField
from dalmuti_site.text import PlainLineField

from . import engine
from .core.usual_group import usual_group
from .engine.cards import MAX_PLAYERS
from .engine.options import MAX_ROUNDS
from .models import BotLevel, OnTime, TimeBank, TurnLimit

MIN_SEATS, MAX_SEATS = 4, 10


def check_rules(form: forms.Form, data: dict) -> None:
    """The checks any form with the table options makes (a new table, a league's
    defaults): how the game ends, and points that the rules need."""
    for name in ("seating_ties", "great_revolution"):
        data[name] = data.get(name) or form.fields[name].initial
    end = data.get("end")
    if end == "rounds" and not data.get("rounds"):
        form.add_error("rounds", _("Choose how many rounds to play."))
    if end == "score" and not data.get("target_score"):
        form.add_error("target_score", _("Choose the score that ends the game."))
    if data.get("no_points"):
        if end == "score":
            form.add_error("no_points", _("A game without points cannot end at a target score."))
        if data.get("philanthropic") not in (None, "off"):
            form.add_error("philanthropic", _(
                "Philanthropic scoring gives points: it needs a game with points."
            ))


class TableForm(forms.Form):
    """A new table: its name, size and every option of the rules (docs/RULES.md), each named
    after the rulebook it comes from. Options that cannot apply to the chosen number of
    seats are refused with the reason; every option left out of a submission means the
    standard rules."""

    name = PlainLineField(label=_("Table name"), max_length=80)
    seats = forms.IntegerField(
        label=_("Seats"), min_value=MIN_SEATS, max_value=MAX_SEATS, initial=5,
        help_text=_("4 to 10 players, humans and bots."),
    )
    end = forms.ChoiceField(
        label=_("The game ends"),
        choices=[
            ("rounds", _("after a number of rounds")),
            ("score", _("at a target score")),
            ("open", _("when the host ends it")),
        ],
        initial="rounds", widget=forms.RadioSelect,
        help_text=_(
            "German Amigo book: ten rounds is a good number, or 20 or 30, or all night "
            "long. An open-ended game ends after the round in which the host ends it."
        ),
    )
    rounds = forms.IntegerField(
        label=_("Number of rounds"), min_value=1, max_value=MAX_ROUNDS, initial=10,
        required=False, help_text=_("1 to 30 rounds."),
    )
    target_score = forms.IntegerField(
        label=_("Target score"), min_value=1, max_value=500, required=False,
        help_text=_(
            "Korean-German text. The game ends after the round in which somebody reaches "
            "it, however many rounds that takes."
        ),
    )
    no_points = forms.BooleanField(
        label=_("Play without points"), required=False,
        help_text=_(
            "French book: points are only for the players who want them. You play to "
            "become and stay Great Dalmuti; the last round’s positions make the standings."
        ),
    )
    turn_limit = forms.TypedChoiceField(
        label=_("Time limit per turn"), choices=TurnLimit.choices, coerce=int,
        # A day by default: one quiet friend must not stall the table for ever.
        initial=TurnLimit.DAY, required=False, empty_value=TurnLimit.NONE,
        help_text=_("When it runs out the table moves on: a pass, or the worst cards in taxes."),
    )
    time_bank = forms.TypedChoiceField(
        label=_("Time bank"), choices=TimeBank.choices, coerce=int,
        initial=TimeBank.NONE, required=False, empty_value=TimeBank.NONE,
        help_text=_(
            "Each player’s reserve beside the time per turn: a turn may last its time plus "
            "the reserve; time beyond the time per turn comes out of the reserve, time saved "
            "goes back in (up to one and a half times the reserve). Passing when nothing "
            "beats the table costs nothing."
        ),
    )
    leaver_bot = forms.BooleanField(
        label=_("When a player leaves during the game, a bot takes their seat"),
        required=False,
        help_text=_("Otherwise the table closes up from the next round (below four players "
                    "the game ends)."),
    )
    min_on_time = forms.TypedChoiceField(
        label=_("Who may take a seat"), choices=OnTime.choices, coerce=int,
        initial=OnTime.ANYONE, required=False, empty_value=OnTime.ANYONE,
        help_text=_("Counted over the last 90 days; a newcomer with fewer than 20 turns "
                    "there is always welcome."),
    )
    hints_allowed = forms.BooleanField(
        label=_("Hints allowed"), required=False,
        help_text=_("At your turn a Hint button suggests a move and says why. Games with "
                    "hints are not rated."),
    )
    seating_ties = forms.ChoiceField(
        label=_("Ties in the first seating draw"),
        choices=[
            ("tied_redraw", _("the tied players draw again (French book, Korean-German text)")),
            ("until_unique", _(
                "whoever draws a rank already drawn draws again until the rank is their own "
                "(Dutch books, German Amigo book)"
            )),
        ],
        initial="tied_redraw", required=False, widget=forms.RadioSelect,
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
    great_revolution = forms.ChoiceField(
        label=_("When the Greater Peon is dealt both Jesters"),
        choices=[
            ("declared", _(
                "the Greater Peon may declare a Great Revolution (Korean-German text, "
                "French book)"
            )),
            ("at_once", _(
                "the Great Revolution happens at once (Dutch book, German Amigo book)"
            )),
        ],
        initial="declared", required=False, widget=forms.RadioSelect,
    )
    merchant_trade = forms.ChoiceField(
        label=_("Merchant trade"),
        choices=[
            ("off", _("off")),
            ("chosen", _("chosen cards")),
            ("random", _("random cards")),
        ],
        initial="off",
        help_text=_(
            "After the taxes the best placed Merchant may trade one card with another "
            "Merchant: each chooses the card they give (Korean-German text), or one random "
            "card goes each way (French book)."
        ),
    )
    merchant_trade_from = forms.TypedChoiceField(
        label=_("Merchant trade from"),
        choices=[
            (6, _("6 players, two Merchants (French book)")),
            (7, _("7 players, “more than six” (Korean-German text)")),
        ],
        coerce=int, initial=6, required=False, empty_value=6, widget=forms.RadioSelect,
    )
    master_rule = forms.BooleanField(
        label=_("Master rule"), required=False,
        help_text=_("Nobody rises more than one position per round."),
    )
    philanthropic = forms.ChoiceField(
        label=_("Philanthropic scoring"),
        choices=[
            ("off", _("off")),
            ("per_position", _("a point per position risen")),
            ("flat", _("one point for any rise")),
        ],
        initial="off",
        help_text=_("The Dalmutis score for their Peons' rise: the Great Dalmuti for the "
                    "Greater Peon's, the Lesser Dalmuti for the Lesser Peon's."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A box is ticked, not filled in: its words take no colon ("Jeu réduit :").
        for field in self.fields.values():
            if isinstance(field.widget, forms.CheckboxInput):
                field.label_suffix = ""

    def clean(self):
        data = super().clean()
        check_rules(self, data)
        if data.get("time_bank") and not data.get("turn_limit"):
            self.add_error("time_bank", _(
                "A time bank goes with a time limit per turn: choose one, or no time bank."
            ))
        seats = data.get("seats")
        if seats is None:
            return data
        if data.get("reduced_deck") and seats > 5:
            self.add_error("reduced_deck", _(
                "The reduced deck is for 4 or 5 players; with %(seats)d seats it would "
                "change nothing."
            ) % {"seats": seats})
        trade_from = data.get("merchant_trade_from") or 6
        if data.get("merchant_trade") not in (None, "off") and seats < trade_from:
            self.add_error("merchant_trade", _(
                "Merchant trade needs at least %(min)d players; this table has %(seats)d "
                "seats."
            ) % {"min": trade_from, "seats": seats})
        return data

    def engine_options(self) -> dict:
        """The options as stored on the table, in the engine's own terms."""
        data = self.cleaned_data
        end = data["end"]
        return {
            "reduced_deck": data["reduced_deck"],
            "first_round_taxes": data["first_round_taxes"],
            "tribute_return": data["tribute_return"],
            "merchant_trade": data["merchant_trade"],
            "master_rule": data["master_rule"],
            "philanthropic": data["philanthropic"],
            "rounds": data["rounds"] if end == "rounds" else None,
            "target_score": data["target_score"] if end == "score" else None,
            "seating_ties": data["seating_ties"],
            "great_revolution": data["great_revolution"],
            "scoring": not data["no_points"],
            "merchant_trade_from": data["merchant_trade_from"],
        }


# A forged choice, or somebody who blocked the inviter since the page was served.
NOT_IN_THE_GROUP = _("You can invite from this list only people you have played with; "
                     "nobody was invited.")


class PeopleField(forms.ModelMultipleChoiceField):
    """Tick boxes for people, by the name they show at the table."""

    widget = forms.CheckboxSelectMultiple

    def __init__(self, **kwargs):
        super().__init__(queryset=get_user_model().objects.none(), required=False,
                         error_messages={"invalid_choice": NOT_IN_THE_GROUP,
                                         "invalid_pk_value": NOT_IN_THE_GROUP}, **kwargs)

    def offer(self, people: list[tuple[int, str]]) -> None:
        """Tick boxes for these people (id, name as the table shows it), read once: the
        boxes are drawn from the list, and only these ids are taken when the form comes
        back."""
        self.queryset = get_user_model().objects.filter(pk__in=[pk for pk, _name in people])
        self.choices = people


class NewTableForm(TableForm):
    """A new table, and the people of the host's usual group to invite to it at once."""

    guests = PeopleField(label=_("Invite people you have played with"))

    def __init__(self, *args, host, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["guests"].offer(usual_group(host))

    @staticmethod
    def initial_from(game) -> dict:
        """The form filled in as an earlier game was: its size, clock and rules."""
        o = engine.Options.from_json(game.options)
        end = "rounds" if o.rounds else "score" if o.target_score else "open"
        return {
            "seats": game.seats.count(), "turn_limit": game.turn_limit,
            "leaver_bot": game.leaver_bot, "min_on_time": game.min_on_time,
            "time_bank": game.bank_reserve, "hints_allowed": game.hints_allowed, "end": end,
            "rounds": o.rounds or 10,
            "target_score": o.target_score, "no_points": not o.scoring,
            "reduced_deck": o.reduced_deck, "first_round_taxes": o.first_round_taxes,
            "tribute_return": o.tribute_return, "merchant_trade": o.merchant_trade,
            "merchant_trade_from": o.merchant_trade_from, "master_rule": o.master_rule,
            "philanthropic": o.philanthropic, "seating_ties": o.seating_ties,
            "great_revolution": o.great_revolution,
        }


class GroupInviteForm(forms.Form):
    """People of the host's usual group to invite to a table, in one go."""

    guests = PeopleField(label=_("People you have played with"))

    def __init__(self, *args, host, game, seats=None, invitations=None, **kwargs):
        """`seats`, `invitations`: the table's, if the caller read them (the people
        seated or invited already are not offered)."""
        super().__init__(*args, **kwargs)
        if seats is None:
            seats = game.seats.all()
        if invitations is None:
            invitations = game.invitations.all()
        taken = {seat.user_id for seat in seats} | {i.user_id for i in invitations}
        self.fields["guests"].offer([(pk, name) for pk, name in usual_group(host)
                                     if pk not in taken])


class InviteForm(forms.Form):
    who = forms.CharField(
        label=_("Username or email address"), max_length=254,
    )

    def clean_who(self):
        who = self.cleaned_data["who"].strip()
        User = get_user_model()
        if "@" in who:
            forms.EmailField().clean(who)
            self.user = User.objects.filter(
                email__iexact=who, email_verified=True, is_active=True
            ).first()
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
    # How many bots the page showed: a second tap (or a resent form) finds one more and
    # adds none. Only bots count, so a friend taking a seat meanwhile stops nothing.
    bots = forms.IntegerField(min_value=0, max_value=MAX_PLAYERS, widget=forms.HiddenInput)


# What a player reads when a request cannot be read at all (a broken or forged form).
NOT_UNDERSTOOD = _("That request was not understood. Reload the page and try again.")


class WholeNumberField(forms.Field):
    """A whole number as Python reads one (no decimals, no localised digits' grouping)."""

    def to_python(self, value):
        try:
            return int(value)
        except (TypeError, ValueError):
            raise ValidationError(NOT_UNDERSTOOD, code="invalid") from None


class MoveForm(forms.Form):
    """A move as the table's forms post it, read into the engine's action and the turn it
    answers. Only its shape is checked here: whether the move is legal is the engine's to
    say, when the command applies it."""

    action = forms.ChoiceField(choices=[(kind, kind) for kind in (
        "play", "pass", "give_back", "revolution", "trade", "trade_card")])
    turn = WholeNumberField()
    # Tapped cards come as one `card` each; a `cards` list ("7,7,13") also works.
    card = forms.Field(required=False, widget=forms.MultipleHiddenInput)
    cards = forms.CharField(required=False, strip=False)
    declare = forms.CharField(required=False, strip=False)
    partner = forms.CharField(required=False, strip=False)

    def clean(self):
        data = super().clean()
        if "action" in data:
            try:
                data["move"] = self._move(data["action"], data)
            except (TypeError, ValueError):
                raise ValidationError(NOT_UNDERSTOOD, code="invalid") from None
        return data

    def _move(self, kind: str, data: dict) -> engine.Action:
        """The engine action of a well-formed move; ValueError for anything else."""
        sent = data["card"] or []
        if kind == "play":
            if "cards" in self.data:
                sent = [c for c in data["cards"].split(",") if c]
            return engine.Play(tuple(sorted(int(c) for c in sent)))
        if kind == "pass":
            return engine.Pass()
        if kind == "give_back":
            return engine.GiveBack(tuple(int(c) for c in sent))
        if kind == "revolution":
            if data["declare"] not in ("yes", "no"):
                raise ValueError(data["declare"])
            return engine.Revolution(data["declare"] == "yes")
        if kind == "trade":
            partner = data["partner"]
            return engine.Trade(None if partner == "none" else int(partner))
        # The card to trade: one value (the last, if a form sent several).
        if not sent:
            # A form sent before any card was tapped (without scripts the button is live).
            raise ValidationError(_("Choose the card you give first."), code="required")
        return engine.TradeCard(int(sent[-1]))

    def action_and_turn(self) -> tuple[engine.Action, int]:
        """The engine action and turn token; only for a valid form."""
        return self.cleaned_data["move"], self.cleaned_data["turn"]


class ChannelForm(forms.Form):
    """The table's group channel: a new address (the stored one is never shown)."""

    url = ChannelURLField(
        label=_("Channel address"), required=False,
        help_text=_("The webhook address the service gave you (Discord, Slack), or an "
                    "Apprise address such as tgram://bot_token/chat_id. Only you see it, "
                    "and only masked."))
