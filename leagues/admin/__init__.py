"""The leagues in the admin, run by their organisers (README: "Running a league")."""
import csv
import json

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.db.models import Count, Q
from django.http import HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.commands import Rejected
from games.models import TurnLimit
from leagues import services, standings
from leagues.models import (
    AdminRecord,
    League,
    LeagueGame,
    Membership,
    Rematch,
    Replacement,
    Season,
    seasons_overlap,
)
from leagues.views import write_standings_csv
from players import exports

from .league_forms import OPTION_FIELDS, LeagueForm, LeagueTableForm
from .organised import (
    ORGANISER_GROUP,
    WIDE_TEXT,
    LeagueListFilter,
    OrganisedAdmin,
    action_page,
    leagues_of,
    limit_choices,
)

__all__ = ["ORGANISER_GROUP", "WIDE_TEXT", "OrganisedAdmin", "action_page", "leagues_of",
           "limit_choices"]


class LabelledFormSet(forms.BaseInlineFormSet):
    def add_fields(self, form, index):
        super().add_fields(form, index)
        if "DELETE" in form.fields:
            form.fields["DELETE"].widget.attrs["aria-label"] = _("Delete")


class LabelledTabularInline(admin.TabularInline):
    """A table of forms whose fields carry no <label> (the column heading names them):
    each field is named for screen readers by its column's name."""
    formset = LabelledFormSet

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        for field in formset.form.base_fields.values():
            field.widget.attrs.setdefault("aria-label", str(field.label))
        return formset


class MembershipInline(LabelledTabularInline):
    model = Membership
    extra = 1
    autocomplete_fields = ["user"]

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if db_field.name == "user":
            field.label_from_instance = lambda user: user.name_to_pick
        return field


class SeasonFormSet(LabelledFormSet):
    """A league's seasons as its form holds them: they may not share a day (checked on
    what the form says of each, moved or added together)."""

    def clean(self):
        super().clean()
        seasons = []
        for form in self.forms:
            data = getattr(form, "cleaned_data", None) or {}
            if self._should_delete_form(form) or not (data.get("start") and data.get("end")):
                continue  # deleted, left empty, or refused on its own
            seasons.append(Season(name=data.get("name", ""), start=data["start"],
                                  end=data["end"]))
        error = seasons_overlap(seasons)
        if error is not None:
            raise error


def season_turn_limit(db_field) -> forms.Field:
    """A season's time limit, chosen where the league's page lists its seasons and on the
    season's own page alike: none of its own is "the league's"."""
    return forms.TypedChoiceField(
        label=capfirst(db_field.verbose_name), coerce=int, empty_value=None, required=False,
        choices=[("", _("The league's")), *TurnLimit.choices],
    )


class SeasonInline(LabelledTabularInline):
    model = Season
    formset = SeasonFormSet
    fields = ("name", "start", "end", "turn_limit")
    extra = 1

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if db_field.name == "turn_limit":
            return season_turn_limit(db_field)
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
            (_("Group channel"), {"fields": ["channel", "remove_channel"]}),
        ]

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if db_field.name == "organisers":
            # Only people who can run a league from the admin at all.
            kwargs["queryset"] = get_user_model().objects.filter(
                Q(is_superuser=True) | Q(groups__name=ORGANISER_GROUP), is_staff=True,
                is_active=True,
            ).distinct().order_by("username")
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        form.acting = request.user  # a class made for this request
        return form

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
                # Said on the form, which keeps what the organiser chose.
                form.add_error(None, str(getattr(exc, "message", exc)))
            else:
                return self._table_opened(request, league, game, d)
        return action_page(
            self, request, queryset, form=form, action="create_table",
            title=_("Create a table"),
            intro=_("A table with the league's default options. The host is seated; the "
                    "players you tick are invited."),
            submit_label=_("Create the table and invite"),
        )

    def _table_opened(self, request, league, game, d) -> None:
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


class SeasonForm(forms.ModelForm):
    """A season on its own page: it may not share a day with its league's others."""

    def clean(self):
        cleaned = super().clean()
        league, start, end = (cleaned.get(name) for name in ("league", "start", "end"))
        if league is not None and start and end:
            others = list(Season.objects.filter(league=league).exclude(pk=self.instance.pk))
            error = seasons_overlap([*others, Season(name=cleaned.get("name", ""),
                                                     start=start, end=end)])
            if error is not None:
                raise error
        return cleaned


@admin.register(Season)
class SeasonAdmin(OrganisedAdmin):
    form = SeasonForm
    league_path = "league"
    list_display = ("name", "league", "start", "end", "turn_limit")
    list_filter = (("league", LeagueListFilter),)
    search_fields = ("name", "league__name")
    date_hierarchy = "start"
    actions = ["export_games_csv", "export_games_json"]

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if db_field.name == "turn_limit":
            return season_turn_limit(db_field)
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        fields = tuple(super().get_readonly_fields(request, obj))
        return fields if obj is None else (*fields, "tables_in_it")

    @admin.display(description=gettext_lazy("Its tables"))
    def tables_in_it(self, season):
        """What counts for the season, and where its standings are read."""
        rows = season.league_games.select_related("game").order_by("added")
        standings_url = reverse("league", args=[season.league.slug]) + f"?season={season.pk}"
        standings_link = format_html('<a href="{}">{}</a>', standings_url,
                                     _("Its standings on the site"))
        if not rows:
            return format_html("{} · {}", _("None yet."), standings_link)
        return format_html(
            "{}<br>{}",
            format_html_join(mark_safe("<br>"), '<a href="{}">{}</a> · {} · {}', (
                (reverse("admin:games_game_change", args=[row.game_id]), row.game.name,
                 row.game.get_status_display(), date_format(timezone.localtime(row.added)))
                for row in rows)),
            standings_link)

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if not change:
            return
        # A table belongs to the season running on the day it opened, and stays there:
        # an end moved before such a day leaves it in (its results were played for it).
        outside = [row.game.name for row in obj.league_games.select_related("game")
                   if not obj.start <= timezone.localdate(row.added) <= obj.end]
        if outside:
            self.message_user(request, ngettext(
                "The table %(tables)s was opened outside these dates; it still counts for "
                "this season. Move it under League tables if it belongs elsewhere.",
                "The tables %(tables)s were opened outside these dates; they still count "
                "for this season. Move them under League tables if they belong elsewhere.",
                len(outside)) % {"tables": ", ".join(f"“{name}”" for name in outside)},
                messages.WARNING)

    def get_deleted_objects(self, objs, request):
        """A season's tables keep it (models.RESTRICT): the confirmation lists them as
        what stops the deletion, not as tables the organiser may not delete."""
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        if protected:
            perms_needed = set()
        return deleted, counts, perms_needed, protected

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
    list_select_related = ("actor", "league")
    date_hierarchy = "created"
    fields = ("created", "who", "kind", "content_type", "object_id", "object_repr",
              "message", "reason", "league", "game")
    readonly_fields = fields

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description=gettext_lazy("by"), ordering="actor_name")
    def who(self, obj):
        if obj.actor_gone:
            return _("%(name)s (account deleted)") % {"name": obj.actor_name}
        return obj.actor_name
