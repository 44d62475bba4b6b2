import copy
import csv
import json

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.utils import unquote
from django.contrib.auth import get_user_model
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
from games.models import BotLevel, Game, TurnLimit
from players import exports

from . import services, standings
from .models import (
    AdminRecord,
    League,
    LeagueGame,
    Membership,
    Rematch,
    Replacement,
    Season,
)
from .views import write_standings_csv

ORGANISER_GROUP = "league organiser"


def leagues_of(request):
    """The leagues the requesting user reaches in the admin (all, for a superuser)."""
    return League.objects.organised_by(request.user)


def limit_choices(db_field, request, kwargs) -> None:
    """A league, season or table picked in an admin form is one of the user's own
    leagues' (the form refuses any other, whatever is posted)."""
    if request.user.is_superuser:
        return
    model = db_field.remote_field.model
    leagues = leagues_of(request)
    if model is League:
        kwargs["queryset"] = leagues
    elif model is Season:
        kwargs["queryset"] = Season.objects.filter(league__in=leagues)
    elif model is Game:
        kwargs["queryset"] = Game.objects.filter(league_link__league__in=leagues)


class LeagueListFilter(admin.RelatedOnlyFieldListFilter):
    """The leagues (seasons...) of the records listed, so the user's own only; no "none"
    choice."""

    @property
    def include_empty_choice(self):
        return False


class OrganisedAdmin(admin.ModelAdmin):
    """An admin whose records belong to leagues: an organiser reaches only those of the
    leagues that name her, in lists, pages, actions and form choices alike, and every
    change is also kept in the AdminRecord (which survives her account's deletion).

    `league_path` leads from the model to its League ("" for League itself)."""

    league_path = ""
    object_history_template = "leagues/admin/object_history.html"

    def in_reach(self, request, queryset):
        if request.user.is_superuser:
            return queryset
        key = f"{self.league_path}__in" if self.league_path else "pk__in"
        return queryset.filter(**{key: leagues_of(request).values("pk")})

    def get_queryset(self, request):
        return self.in_reach(request, super().get_queryset(request))

    def reaches(self, request, obj) -> bool:
        if obj is None or request.user.is_superuser:
            return True
        return self.in_reach(request, self.model._default_manager.filter(pk=obj.pk)).exists()

    def has_view_permission(self, request, obj=None):
        return super().has_view_permission(request, obj) and self.reaches(request, obj)

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and self.reaches(request, obj)

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and self.reaches(request, obj)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        limit_choices(db_field, request, kwargs)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    # -- the record that outlives accounts --

    def league_and_game(self, obj):
        """The league and the table a record is about (either may be None)."""
        game = obj if isinstance(obj, Game) else getattr(obj, "game", None)
        if isinstance(obj, League):
            return obj, None
        league = getattr(obj, "league", None)
        if league is None and game is not None:
            link = LeagueGame.objects.filter(game=game).select_related("league").first()
            league = link.league if link else None
        return league, game

    def keep(self, entries, objects):
        for entry, obj in zip(entries, objects, strict=True):
            league, game = self.league_and_game(obj)
            AdminRecord.from_log_entry(entry, league, game).save()

    def log_addition(self, request, obj, message):
        entry = super().log_addition(request, obj, message)
        self.keep([entry], [obj])
        return entry

    def log_change(self, request, obj, message):
        entry = super().log_change(request, obj, message)
        self.keep([entry], [obj])
        return entry

    def log_deletions(self, request, queryset):
        objects = list(queryset)  # one order for the entries and the records
        entries = super().log_deletions(request, objects)
        self.keep(entries, objects)
        return entries

    def history_view(self, request, object_id, extra_context=None):
        obj = self.get_object(request, unquote(object_id))
        records = []
        if obj is not None:
            records = AdminRecord.objects.filter(
                content_type__app_label=self.opts.app_label,
                content_type__model=self.opts.model_name, object_id=str(obj.pk),
            ).select_related("actor")
        return super().history_view(
            request, object_id, {**(extra_context or {}), "admin_records": records}
        )


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
    fields = ("name", "start", "end", "turn_limit")
    extra = 1

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if db_field.name == "turn_limit":
            return forms.TypedChoiceField(
                label=db_field.verbose_name, coerce=int, empty_value=None, required=False,
                choices=[("", _("The league's")), *TurnLimit.choices],
            )
        return super().formfield_for_dbfield(db_field, request, **kwargs)


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
        fields = ["name", "slug", "description", "active", "organisers", "turn_limit"]
        widgets = {"organisers": forms.CheckboxSelectMultiple}

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
class LeagueAdmin(OrganisedAdmin):
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
            (None, {"fields": ["name", "slug", "description", "active", "organisers"]}),
            (_("Default table options"), {
                "fields": ["turn_limit", *OPTION_FIELDS],
                "description": _("The standard rules unless you change them here."),
            }),
        ]

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if db_field.name == "organisers":
            # Only people who can run a league from the admin at all.
            kwargs["queryset"] = get_user_model().objects.filter(
                Q(is_superuser=True) | Q(groups__name=ORGANISER_GROUP), is_staff=True,
                is_active=True,
            ).distinct().order_by("username")
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        if not change and not request.user.is_superuser:
            # A league an organiser adds is hers to run.
            form.instance.organisers.add(request.user)

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
                    turn_limit=d["turn_limit"],
                )
            except (Rejected, ValueError) as exc:
                self.message_user(request, str(getattr(exc, "message", exc)), messages.ERROR)
                return None
            self.log_change(request, league, _("Opened the table “%(table)s”.")
                            % {"table": game.name})
            url = reverse("admin:games_game_change", args=[game.pk])
            self.message_user(request, format_html(
                ngettext(
                    "The table <a href=\"{}\">{}</a> is open ({}); {} invitation was sent.",
                    "The table <a href=\"{}\">{}</a> is open ({}); {} invitations were "
                    "sent.",
                    len(d["guests"]),
                ),
                url, game.name, game.get_turn_limit_display(), len(d["guests"]),
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
class SeasonAdmin(OrganisedAdmin):
    league_path = "league"
    list_display = ("name", "league", "start", "end", "turn_limit")
    list_filter = (("league", LeagueListFilter),)
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
class LeagueGameAdmin(OrganisedAdmin):
    league_path = "league"
    list_display = ("game", "league", "season", "status", "added")
    list_filter = (("league", LeagueListFilter),
                   ("season", admin.RelatedOnlyFieldListFilter), "game__status")
    search_fields = ("game__name", "league__name")
    list_select_related = ("game", "league", "season")
    raw_id_fields = ("game",)

    @admin.display(description=gettext_lazy("status"), ordering="game__status")
    def status(self, obj):
        return obj.game.get_status_display()


class ReadOnlyAdmin(OrganisedAdmin):
    """Records written by the admin actions and the rematch button, for reading."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Replacement)
class ReplacementAdmin(ReadOnlyAdmin):
    league_path = "game__league_link__league"
    list_display = ("game", "user", "bot_name", "round_number", "reason", "by", "created")
    list_filter = (("game__league_link__league", LeagueListFilter),)
    search_fields = ("game__name", "user__username", "user__display_name")
    list_select_related = ("game", "user", "by")


@admin.register(Rematch)
class RematchAdmin(ReadOnlyAdmin):
    league_path = "game__league_link__league"
    list_display = ("previous", "game", "created")
    search_fields = ("previous__name", "game__name")
    list_select_related = ("previous", "game")


@admin.register(AdminRecord)
class AdminRecordAdmin(ReadOnlyAdmin):
    """Who did what in the admin, kept when their account is deleted."""

    league_path = "league"
    list_display = ("created", "who", "kind", "object_repr", "message", "reason", "league")
    list_filter = ("kind", ("league", LeagueListFilter))
    search_fields = ("actor_name", "object_repr", "message", "reason")
    date_hierarchy = "created"
    fields = ("created", "who", "kind", "content_type", "object_id", "object_repr",
              "message", "reason", "league", "game")
    readonly_fields = fields

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description=gettext_lazy("by"), ordering="actor_name")
    def who(self, obj):
        if obj.actor_id is None:
            return _("%(name)s (account deleted)") % {"name": obj.actor_name}
        return obj.actor_name
