"""What every admin page of a league shares: an organiser sees and changes only the leagues
that name her, and the intermediate page of an action that needs a form."""

from django import forms
from django.contrib import admin
from django.contrib.admin import helpers
from django.contrib.admin.utils import unquote
from django.template.response import TemplateResponse

from games.models import Game
from leagues.models import (
    AdminRecord,
    League,
    Season,
)

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

    def get_changeform_initial_data(self, request):
        """Something new of a league (a season) starts in the organiser's league when she
        reaches just one: nothing to choose."""
        initial = super().get_changeform_initial_data(request)
        if "league" not in initial and any(
                field.name == "league" for field in self.model._meta.get_fields()):
            leagues = list(leagues_of(request).values_list("pk", flat=True)[:2])
            if len(leagues) == 1:
                initial["league"] = leagues[0]
        return initial

    # -- the record that outlives accounts --

    def league_and_game(self, obj):
        """The league and the table a record is about (either may be None)."""
        game = obj if isinstance(obj, Game) else getattr(obj, "game", None)
        if isinstance(obj, League):
            return obj, None
        league = getattr(obj, "league", None)
        if league is None and game is not None:
            league = League.objects.of_game(game)
        return league, game

    def keep(self, entries, objects, reason: str = "", kind=None) -> list[AdminRecord]:
        """The record of each log entry, with its league and game; `kind` names an act
        Django's log has no flag for (a reveal)."""
        records = []
        for entry, obj in zip(entries, objects, strict=True):
            league, game = self.league_and_game(obj)
            record = AdminRecord.from_log_entry(entry, league, game)
            record.reason = reason[:200]
            record.kind = kind or record.kind
            record.save()
            records.append(record)
        return records

    def log_addition(self, request, obj, message):
        entry = super().log_addition(request, obj, message)
        self.keep([entry], [obj])
        return entry

    def log_change(self, request, obj, message, reason: str = ""):
        """Django's change log, and the record that outlives accounts, with the reason
        the organiser gave (ending a game, replacing a player) in a column of its own."""
        entry = super().log_change(request, obj, message)
        self.keep([entry], [obj], reason)
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


# A line of text on an action's page as wide as the admin's own forms make one.
WIDE_TEXT = forms.TextInput(attrs={"class": "vTextField"})


def action_page(modeladmin, request, queryset, *, form, action, title, intro, submit_label,
                entries=None):
    """The intermediate page of an admin action that needs a form (it posts back to the
    changelist with the same action and selection, plus `apply`). `entries` names the
    selection when each object's name is not enough: (label, notes) for each."""
    if entries is None:
        entries = [(str(obj), ()) for obj in queryset]
    return TemplateResponse(request, "leagues/admin/action_form.html", {
        **modeladmin.admin_site.each_context(request),
        "opts": modeladmin.model._meta, "queryset": queryset, "entries": entries,
        "form": form,
        "action": action, "title": title, "intro": intro, "submit_label": submit_label,
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
    })
