import copy
import csv
import json

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import Count, Q
from django.http import HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import engine
from games.commands import Rejected
from games.forms import MAX_SEATS, MIN_SEATS, TableForm, check_rules
from games.models import BotLevel
from players import exports

from . import services, standings
from .models import League, LeagueGame, Membership, Rematch, Replacement, Season
from .views import write_standings_csv


def action_page(modeladmin, request, queryset, *, form, action, title, intro, submit_label):
    """The intermediate page of an admin action that needs a form (it posts back to the
    changelist with the same action and selection, plus `apply`)."""
    return TemplateResponse(request, "leagues/admin/action_form.html", {
        **modeladmin.admin_site.each_context(request),
        "opts": modeladmin.model._meta, "queryset": queryset, "form": form,
        "action": action, "title": title, "intro": intro, "submit_label": submit_label,
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
    })


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1
    autocomplete_fields = ["user"]


class SeasonInline(admin.TabularInline):
    model = Season
    extra = 1


class RunningSeasonFilter(admin.SimpleListFilter):
    title = gettext_lazy("season running today")
    parameter_name = "running"

    def lookups(self, request, model_admin):
        return [("yes", gettext_lazy("Yes")), ("no", gettext_lazy("No"))]

    def queryset(self, request, queryset):
        today = timezone.localdate()
        running = Q(seasons__start__lte=today, seasons__end__gte=today)
        if self.value() == "yes":
            return queryset.filter(running).distinct()
        if self.value() == "no":
            return queryset.exclude(
                pk__in=League.objects.filter(running).values("pk")
            )
        return queryset


class LeagueTableForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Table name"), max_length=80)
    host = forms.ModelChoiceField(
        label=gettext_lazy("Host"), queryset=None,
        help_text=gettext_lazy("Seated at once; the host starts the game."),
    )
    players = forms.ModelMultipleChoiceField(
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

    def __init__(self, *args, league: League, **kwargs):
        super().__init__(*args, **kwargs)
        members = league.members.order_by("username")
        self.fields["host"].queryset = members
        self.fields["players"].queryset = members
        self.fields["season"].queryset = league.seasons.all()
        self.fields["season"].initial = league.current_season()

    def clean(self):
        data = super().clean()
        host = data.get("host")
        if host is None or data.get("bots") is None:
            return data
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
    name for name in TableForm.base_fields if name not in ("name", "seats", "turn_limit")
]


class LeagueForm(forms.ModelForm):
    """A league with its default table options as the new-table form's widgets. Stored are
    only the options that differ from the standard rules, so the standard rules are {}."""

    class Meta:
        model = League
        fields = ["name", "slug", "description", "active"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        try:
            options = engine.Options.from_json(self.instance.default_options or {})
        except (TypeError, ValueError):
            options = engine.Options()
        end = "rounds" if options.rounds else "score" if options.target_score else "open"
        self.initial.update({
            "end": end, "rounds": options.rounds or 10,
            "target_score": options.target_score, "no_points": not options.scoring,
            **{name: getattr(options, name) for name in (
                "seating_ties", "reduced_deck", "first_round_taxes", "tribute_return",
                "great_revolution", "merchant_trade", "merchant_trade_from", "master_rule",
                "philanthropic",
            )},
        })

    def clean(self):
        data = super().clean()
        check_rules(self, data)
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


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    form = LeagueForm
    list_display = ("name", "slug", "active", "member_count", "season_count", "table_count",
                    "created")
    list_filter = ("active", RunningSeasonFilter, "created")
    search_fields = ("name", "slug", "description", "memberships__user__username",
                     "memberships__user__display_name")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [MembershipInline, SeasonInline]

    def get_fieldsets(self, request, obj=None):
        return [
            (None, {"fields": ["name", "slug", "description", "active"]}),
            (_("Default table options"), {
                "fields": OPTION_FIELDS,
                "description": _("The standard rules unless you change them here."),
            }),
        ]

    actions = ["create_table", "export_standings"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(
            n_members=Count("memberships", distinct=True),
            n_seasons=Count("seasons", distinct=True),
            n_tables=Count("league_games", distinct=True),
        )

    @admin.display(description=gettext_lazy("members"), ordering="n_members")
    def member_count(self, obj):
        return obj.n_members

    @admin.display(description=gettext_lazy("seasons"), ordering="n_seasons")
    def season_count(self, obj):
        return obj.n_seasons

    @admin.display(description=gettext_lazy("tables"), ordering="n_tables")
    def table_count(self, obj):
        return obj.n_tables

    @admin.action(
        description=gettext_lazy("Create a table for selected members with the league's "
                                 "defaults"),
        permissions=["change"],
    )
    def create_table(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, _("Choose exactly one league."), messages.WARNING)
            return None
        league = queryset.get()
        data = request.POST if "apply" in request.POST else None
        form = LeagueTableForm(
            data, league=league, initial={"name": f"{league.name} · {timezone.localdate()}"}
        )
        if data is not None and form.is_valid():
            d = form.cleaned_data
            try:
                game = services.create_league_table(
                    league, d["host"], d["guests"], d["name"], bots=d["bots"],
                    bot_level=d["bot_level"], season=d["season"], invited_by=request.user,
                )
            except (Rejected, ValueError) as exc:
                self.message_user(request, str(getattr(exc, "message", exc)), messages.ERROR)
                return None
            self.log_change(request, league, _("Opened the table “%(table)s”.")
                            % {"table": game.name})
            url = reverse("admin:games_game_change", args=[game.pk])
            self.message_user(request, format_html(
                ngettext(
                    "The table <a href=\"{}\">{}</a> is open; {} invitation was sent.",
                    "The table <a href=\"{}\">{}</a> is open; {} invitations were sent.",
                    len(d["guests"]),
                ),
                url, game.name, len(d["guests"]),
            ), messages.SUCCESS)
            return None
        return action_page(
            self, request, queryset, form=form, action="create_table",
            title=_("Create a table"),
            intro=_("A table with the league's default options. The host is seated; the "
                    "players you tick are invited."),
            submit_label=_("Create the table and invite"),
        )

    @admin.action(description=gettext_lazy("Export standings as CSV"), permissions=["view"])
    def export_standings(self, request, queryset):
        response = HttpResponse(
            content_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": 'attachment; filename="standings.csv"'},
        )
        sections = []
        for league in queryset.order_by("name"):
            all_time, by_season, _rounds, _occupants = standings.standings_by_season(league)
            sections.append((league, None, all_time))
            for season in league.seasons.order_by("start"):
                sections.append((league, season, by_season.get(season.pk, [])))
        write_standings_csv(response, sections)
        return response


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("name", "league", "start", "end")
    list_filter = ("league",)
    search_fields = ("name", "league__name")
    date_hierarchy = "start"
    actions = ["export_games_csv", "export_games_json"]

    @admin.action(description=gettext_lazy("Export the seasons’ games as CSV"),
                  permissions=["view"])
    def export_games_csv(self, request, queryset):
        response = HttpResponse(
            content_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": 'attachment; filename="season-games.csv"'},
        )
        writer = csv.writer(response)
        writer.writerow(exports.CSV_HEADER)
        for season in queryset.select_related("league").order_by("league__name", "start"):
            writer.writerows(exports.season_csv_rows(season))
        return response

    @admin.action(description=gettext_lazy("Export the seasons’ games and standings as JSON"),
                  permissions=["view"])
    def export_games_json(self, request, queryset):
        seasons = queryset.select_related("league").order_by("league__name", "start")
        return HttpResponse(
            json.dumps({"seasons": [exports.season_json(s) for s in seasons]},
                       ensure_ascii=False, indent=1),
            content_type="application/json; charset=utf-8",
            headers={"Content-Disposition": 'attachment; filename="season-games.json"'},
        )


@admin.register(LeagueGame)
class LeagueGameAdmin(admin.ModelAdmin):
    list_display = ("game", "league", "season", "status", "added")
    list_filter = ("league", "season", "game__status")
    search_fields = ("game__name", "league__name")
    list_select_related = ("game", "league", "season")
    raw_id_fields = ("game",)

    @admin.display(description=gettext_lazy("status"), ordering="game__status")
    def status(self, obj):
        return obj.game.get_status_display()


class ReadOnlyAdmin(admin.ModelAdmin):
    """Records written by the admin actions and the rematch button, for reading."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Replacement)
class ReplacementAdmin(ReadOnlyAdmin):
    list_display = ("game", "user", "bot_name", "round_number", "reason", "by", "created")
    list_filter = ("game__league_link__league",)
    search_fields = ("game__name", "user__username", "user__display_name")
    list_select_related = ("game", "user", "by")


@admin.register(Rematch)
class RematchAdmin(ReadOnlyAdmin):
    list_display = ("previous", "game", "created")
    search_fields = ("previous__name", "game__name")
    list_select_related = ("previous", "game")
