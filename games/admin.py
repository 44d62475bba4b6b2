import json

from django import forms
from django.contrib import admin, messages
from django.db.models import Prefetch
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from leagues.admin import action_page
from leagues.models import League, LeagueGame
from leagues.services import end_game, replace_by_bot

from .commands import Rejected
from .models import Action, BotLevel, Game, Round, Seat
from .replay import all_log_lines


class LeagueFilter(admin.SimpleListFilter):
    title = gettext_lazy("league")
    parameter_name = "league"

    def lookups(self, request, model_admin):
        return [(str(pk), name) for pk, name in League.objects.values_list("pk", "name")] + [
            ("none", gettext_lazy("No league"))
        ]

    def queryset(self, request, queryset):
        value = self.value()
        if value == "none":
            return queryset.filter(league_link__isnull=True)
        if value:
            return queryset.filter(league_link__league_id=value)
        return queryset


class LeagueGameInline(admin.StackedInline):
    model = LeagueGame
    fields = ("league", "season")
    max_num = 1
    extra = 0
    verbose_name = gettext_lazy("league")
    verbose_name_plural = gettext_lazy("league")


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ("player", "user", "bot_level", "bot_name", "joined", "last_seen")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False


class RoundInline(admin.TabularInline):
    model = Round
    fields = ("number", "positions", "finish_order", "points", "revolution", "started",
              "finished")
    readonly_fields = fields
    extra = 0
    can_delete = False
    classes = ["collapse"]

    def has_add_permission(self, request, obj=None):
        return False


class EndGameForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason"), max_length=200,
        help_text=gettext_lazy("Shown with the game. The round in play scores no points."),
    )


class ReplaceForm(forms.Form):
    seat = forms.ModelChoiceField(label=gettext_lazy("Absent player"), queryset=None)
    level = forms.ChoiceField(
        label=gettext_lazy("Bot level"), choices=BotLevel.choices, initial=BotLevel.BASIC
    )
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=200, required=False)

    def __init__(self, *args, game: Game, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].queryset = game.seats.filter(user__isnull=False).select_related(
            "user"
        )


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("name", "status", "league", "round_number", "host", "players", "updated")
    list_filter = ("status", LeagueFilter, "created")
    search_fields = ("name", "host__username", "host__display_name", "seats__user__username",
                     "seats__user__display_name", "seats__bot_name")
    date_hierarchy = "created"
    fields = ("name", "host", "status", "end_reason", "seats_wanted", "options",
              "round_number", "version", "created", "started", "finished", "updated",
              "awaiting", "state_display", "log_display")
    readonly_fields = tuple(f for f in fields if f != "name")
    inlines = [LeagueGameInline, SeatInline, RoundInline]
    actions = ["replace_absent_player", "end_stalled_games"]

    def get_queryset(self, request):
        qs = super().get_queryset(request).select_related("host", "league_link__league")
        qs = qs.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        match = request.resolver_match
        if match and match.url_name and match.url_name.endswith("changelist"):
            qs = qs.defer("state")
        return qs

    def has_add_permission(self, request):
        return False

    @admin.display(description=gettext_lazy("league"), ordering="league_link__league__name")
    def league(self, obj):
        link = getattr(obj, "league_link", None)
        return link.league.name if link else "—"

    @admin.display(description=gettext_lazy("players"))
    def players(self, obj):
        return ", ".join(seat.name for seat in obj.seats.all())

    @admin.display(description=gettext_lazy("state"))
    def state_display(self, obj):
        if obj.state is None:
            return "—"
        return format_html(
            "<details><summary>{}</summary><pre>{}</pre></details>",
            _("The engine state (every hand)"), json.dumps(obj.state, indent=1),
        )

    @admin.display(description=gettext_lazy("game log"))
    def log_display(self, obj):
        names = {s.player: s.name for s in obj.seats.all() if s.player is not None}
        actions = obj.actions.order_by("seq")
        lines = all_log_lines(actions, names)
        if not lines:
            return "—"
        return format_html(
            "<ol>{}</ol>",
            format_html_join(
                "", "<li>#{} {} · {} {}</li>",
                ((line["seq"], line["time"].strftime("%Y-%m-%d %H:%M"), line["text"],
                  _("(private)") if line["private"] else "") for line in lines),
            ),
        )

    @admin.action(description=gettext_lazy("Replace an absent player by a bot"),
                  permissions=["change"])
    def replace_absent_player(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, _("Choose exactly one table."), messages.WARNING)
            return None
        game = queryset.get()
        data = request.POST if "apply" in request.POST else None
        form = ReplaceForm(data, game=game)
        if data is not None and form.is_valid():
            seat = form.cleaned_data["seat"]
            name = seat.name
            try:
                replacement = replace_by_bot(
                    game.pk, seat.pk, form.cleaned_data["level"],
                    form.cleaned_data["reason"], by=request.user,
                )
            except Rejected as rejected:
                self.message_user(request, rejected.message, messages.ERROR)
                return None
            text = _("%(player)s was replaced by the bot %(bot)s.") % {
                "player": name, "bot": replacement.bot_name,
            }
            self.log_change(request, game, text)
            self.message_user(request, text, messages.SUCCESS)
            return None
        return action_page(
            self, request, queryset, form=form, action="replace_absent_player",
            title=_("Replace an absent player by a bot"),
            intro=_("The bot plays the seat from now on; the rounds already played keep "
                    "counting for the player."),
            submit_label=_("Replace by a bot"),
        )

    @admin.action(description=gettext_lazy("End a stalled game"), permissions=["change"])
    def end_stalled_games(self, request, queryset):
        data = request.POST if "apply" in request.POST else None
        form = EndGameForm(data)
        if data is not None and form.is_valid():
            reason = form.cleaned_data["reason"]
            ended = 0
            for game in queryset:
                try:
                    end_game(game.pk, reason)
                except Rejected as rejected:
                    self.message_user(request, f"{game}: {rejected.message}", messages.WARNING)
                    continue
                self.log_change(request, game, _("Ended early: %(reason)s") % {"reason": reason})
                ended += 1
            if ended:
                self.message_user(request, ngettext(
                    "%(count)d game ended.", "%(count)d games ended.", ended,
                ) % {"count": ended}, messages.SUCCESS)
            return None
        return action_page(
            self, request, queryset, form=form, action="end_stalled_games",
            title=_("End a stalled game"),
            intro=_("These games end now. Rounds already over keep their points; the round "
                    "in play scores nothing."),
            submit_label=_("End the games"),
        )


@admin.register(Action)
class ActionAdmin(admin.ModelAdmin):
    """The record, read-only: it is the history every state is rebuilt from."""

    list_display = ("game", "seq", "round_number", "player", "kind", "by", "created")
    list_filter = ("kind", "by")
    search_fields = ("game__name",)
    list_select_related = ("game",)
    raw_id_fields = ("game", "by_user")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
