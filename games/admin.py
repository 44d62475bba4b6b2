import json

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.db.models.constants import LOOKUP_SEP
from django.http import Http404
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from games.read.narration import log_lines
from games.read.replay import SeatNames, all_log_lines
from leagues.admin import WIDE_TEXT, OrganisedAdmin, action_page, leagues_of, limit_choices
from leagues.models import AdminRecord, LeagueGame
from leagues.services import end_game, replace_by_bot

from .commands import Rejected
from .models import Action, BotLevel, Game, InvitationBlock, NeverDealtIn, Removal, Round, Seat

# What the admin shows of a game in play instead of anything private.
HIDDEN_IN_PLAY = gettext_lazy("Hidden while the game is in play.")


class LeagueFilter(admin.SimpleListFilter):
    title = gettext_lazy("league")
    parameter_name = "league"

    def lookups(self, request, model_admin):
        leagues = [(str(pk), name) for pk, name in leagues_of(request).values_list("pk", "name")]
        if request.user.is_superuser:
            leagues.append(("none", gettext_lazy("No league")))
        return leagues

    def queryset(self, request, queryset):
        value = self.value()
        if value and value not in {key for key, _name in self.lookup_choices}:
            # Not one of the choices offered (a typed address): the list says so (?e=1).
            raise IncorrectLookupParameters(value)
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

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        limit_choices(db_field, request, kwargs)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        # Here one only picks the league and season: editing, adding or deleting a
        # league from beside a table's page is a trap.
        for name in ("can_add_related", "can_change_related", "can_delete_related",
                     "can_view_related"):
            if hasattr(field, "widget") and hasattr(field.widget, name):
                setattr(field.widget, name, False)
        return field


class SeatInline(admin.TabularInline):
    model = Seat
    # When each player last made a move everybody saw: not "last seen", which a private
    # step moves too (a decision on a revolution), and any visit besides.
    fields = ("seat_number", "user", "bot_level", "bot_name", "joined", "last_acted")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False

    @admin.display(description=gettext_lazy("seat"))
    def seat_number(self, seat):
        """Counted from 1, as the site counts places (the stored player index is from 0);
        empty for a newcomer who plays from the next round."""
        return "" if seat.player is None else seat.player + 1


class RemovalColumns:
    """When a host took a player off, and whether they invited them again since (which
    lets them back in): the table's page and the administrators' list show both."""

    @admin.display(description=gettext_lazy("taken off"), ordering="created")
    def taken_off(self, removal):
        return date_format(timezone.localtime(removal.created), "DATETIME_FORMAT")

    @admin.display(description=gettext_lazy("invited again since"), boolean=True,
                   ordering="invited_again")
    def invited_again(self, removal):
        return removal.invited_again

    def get_queryset(self, request):
        return super().get_queryset(request).with_invited_again()


class InvitedAgainFilter(admin.SimpleListFilter):
    """The removals still in force (the host has not invited the player again), or the
    ones the host has undone."""

    title = gettext_lazy("invited again since")
    parameter_name = "invited_again"

    def lookups(self, request, model_admin):
        return (("1", _("Yes")), ("0", _("No")))

    def queryset(self, request, queryset):
        if self.value() in ("0", "1"):
            return queryset.filter(invited_again=self.value() == "1")
        return queryset


class PartOfTableInline(admin.TabularInline):
    """A record of the table's course, read by whoever may read the table and changed by
    nobody here."""

    extra = 0
    can_delete = False
    show_change_link = False
    template = "admin/games/record_inline.html"

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("user")

    def has_view_permission(self, request, obj=None):
        # The table's own admin decides who reads it (an organiser: her leagues' tables
        # only), as for its seats. (Asked without a table too, by the inline's queryset.)
        return self.admin_site._registry[Game].has_view_permission(request, obj)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class RemovalInline(RemovalColumns, PartOfTableInline):
    """Whom the host took off the table before it started: what an organiser needs to
    answer a member's "why can't I join?". The host's decision is theirs to undo (by
    inviting again), so nothing here changes it."""

    model = Removal
    fields = ("user", "taken_off", "invited_again")
    readonly_fields = fields
    verbose_name = gettext_lazy("player taken off this table")
    verbose_name_plural = gettext_lazy("Players taken off this table")


class NeverDealtInInline(PartOfTableInline):
    """The newcomers who waited for the next round when the game ended: what an organiser
    needs to answer "where did Dana go?"."""

    model = NeverDealtIn
    fields = ("user", "created")
    readonly_fields = fields
    verbose_name = gettext_lazy("newcomer the game ended before")
    verbose_name_plural = gettext_lazy("Newcomers the game ended before")


class RoundInline(admin.TabularInline):
    """The rounds with their players named as in each round (a seat given to a bot was its
    player's before), not as the stored player indices."""

    model = Round
    fields = ("number", "by_position", "finishing", "points_won", "revolution", "started",
              "finished")
    readonly_fields = fields
    extra = 0
    can_delete = False
    classes = ["collapse"]

    def _names(self, obj: Round) -> dict[int, str]:
        kept = getattr(self, "_seat_names", None)
        if kept is None or kept[0] != obj.game_id:
            self._seat_names = kept = (obj.game_id, SeatNames(obj.game))
        return kept[1].in_round(obj.number)

    def _listed(self, obj: Round, players) -> str:
        names = self._names(obj)
        return ", ".join(f"{i}. {names.get(p, '?')}" for i, p in enumerate(players, start=1))

    @admin.display(description=gettext_lazy("players by position"))
    def by_position(self, obj):
        return self._listed(obj, obj.positions) or "-"

    @admin.display(description=gettext_lazy("finishing order"))
    def finishing(self, obj):
        return self._listed(obj, obj.finish_order) or "-"

    @admin.display(description=gettext_lazy("points"))
    def points_won(self, obj):
        names = self._names(obj)
        return ", ".join(f"{names.get(int(p), '?')} {points}"
                         for p, points in obj.points.items()) or "-"

    def has_add_permission(self, request, obj=None):
        return False


class EndGameForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason"), max_length=200, widget=WIDE_TEXT,
        help_text=gettext_lazy("Shown with the game. The round in play scores no points."),
    )


class ReplaceForm(forms.Form):
    seat = forms.ModelChoiceField(label=gettext_lazy("Absent player"), queryset=None)
    level = forms.ChoiceField(
        label=gettext_lazy("Bot level"), choices=BotLevel.choices, initial=BotLevel.BASIC
    )
    reason = forms.CharField(
        label=gettext_lazy("Reason"), max_length=200, widget=WIDE_TEXT, required=False,
        help_text=gettext_lazy("Sent to the player, who is told by email, push or their "
                               "channel that a bot took their seat."),
    )

    def __init__(self, *args, game: Game, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].queryset = game.seats.filter(user__isnull=False).select_related(
            "user"
        )


class RevealForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason"), max_length=200, widget=WIDE_TEXT,
        help_text=gettext_lazy("Kept in the admin record, with your name, for everyone who "
                               "runs the league to read."),
    )


@admin.register(Game)
class GameAdmin(OrganisedAdmin):
    league_path = "league_link__league"
    list_display = ("name", "status_shown", "league", "round_shown", "turn_limit", "host",
                    "players", "updated")
    list_filter = ("status", LeagueFilter, "created")
    search_fields = ("name", "host__username", "host__display_name", "seats__user__username",
                     "seats__user__display_name", "seats__bot_name")
    date_hierarchy = "created"
    fields = ("name", "host", "status_shown", "reason_shown", "seats_wanted", "rules",
              "turn_limit", "bank_reserve", "round_shown", "created", "started", "finished",
              "updated", "waiting_for", "state_display", "log_display")
    readonly_fields = tuple(f for f in fields if f != "name")
    inlines = [LeagueGameInline, SeatInline, RemovalInline, NeverDealtInInline, RoundInline]
    actions = ["replace_absent_player", "end_stalled_games"]
    # The table's page on the site opens to its players only: a link there would answer
    # "not found" to an organiser without a seat.
    view_on_site = False

    @admin.display(description=gettext_lazy("status"), ordering="status")
    def status_shown(self, obj):
        return obj.status_label

    @admin.display(description=gettext_lazy("round"), ordering="round_number")
    def round_shown(self, obj):
        """The round in play, or the last played; none at a table not dealt yet (which the
        database stores as round 0; the record starts at the first deal)."""
        return obj.round_number or self.get_empty_value_display()

    @admin.display(description=gettext_lazy("reason for ending early"))
    def reason_shown(self, obj):
        """The stored reason in the reader's language where it is the site's own words
        (a table nobody started); an organiser's own words as written."""
        return _(obj.end_reason) if obj.end_reason else "-"

    @admin.display(description=gettext_lazy("options"))
    def rules(self, obj):
        """The table's rules in words, as the lobby and the league's page say them (the
        stored options leave out every standard rule)."""
        return render_to_string("games/_options.html", {"options": obj.options})

    # Fields a changelist URL may not filter on (`?seed__gt=…`, `?state__icontains=…`):
    # each answer would tell a little of a deal or a hand, and enough of them tell all.
    SECRET_FIELDS = {"seed", "state", "awaiting", "invite_token", "watch_token", "seq",
                     "version", "actions", "rounds", "seats", "invitations"}

    def lookup_allowed(self, lookup, value, request=None):
        if lookup.split(LOOKUP_SEP)[0] in self.SECRET_FIELDS:
            return False
        return super().lookup_allowed(lookup, value, request)

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
        return link.league.name if link else self.get_empty_value_display()

    @admin.display(description=gettext_lazy("players"))
    def players(self, obj):
        return ", ".join(seat.name for seat in obj.seats.all())

    @admin.display(description=gettext_lazy("waiting for"))
    def waiting_for(self, obj):
        """Whom the table is seen to wait for, and until when: not a secret wait (a
        revolution decided in private), and no turn token (it counts private steps)."""
        if not obj.is_playing or not obj.awaiting:
            return self.get_empty_value_display()
        names = {str(s.player): s.name for s in obj.seats.all() if s.player is not None}
        parts = []
        for player, wait in sorted(obj.waits().items()):
            if wait.secret:
                continue
            name = names.get(str(player), "?")
            if wait.deadline:
                when = timezone.localtime(wait.deadline)
                parts.append(_("%(player)s (until %(deadline)s)") % {
                    "player": name, "deadline": date_format(when, "DATETIME_FORMAT")})
            else:
                parts.append(name)
        return ", ".join(parts) or self.get_empty_value_display()

    @admin.display(description=gettext_lazy("state"))
    def state_display(self, obj):
        if obj.state is None:
            return self.get_empty_value_display()
        if not obj.is_over:
            return HIDDEN_IN_PLAY
        return format_html(
            "<details><summary>{}</summary><pre>{}</pre></details>",
            _("The engine state (every hand)"), json.dumps(obj.state, indent=1),
        )

    @admin.display(description=gettext_lazy("game log"))
    def log_display(self, obj):
        names = {s.player: s.name for s in obj.seats.all() if s.player is not None}
        actions = obj.actions.order_by("seq")
        if obj.is_over:
            # The record as the replay tells it: the private lines too, marked, each with
            # its number in the record.
            lines = all_log_lines(actions, SeatNames(obj))
            note = ""
        else:
            # In play: the lines everybody at the table reads, nothing private; not their
            # numbers in the record either, whose gaps would tell where a step was private.
            lines = [{**line, "seq": ""} for line in log_lines(list(actions), None, names)]
            note = format_html("<p class=\"help\">{}</p>", _(
                "Only the public lines while the game is in play; the private ones (the "
                "give-backs, a revolution kept quiet) show once it is over."))
        if not lines:
            return self.get_empty_value_display()
        # Folded: a game over days runs to hundreds of lines, and the seats and the
        # league come after it on the page.
        count = ngettext("%(count)d line", "%(count)d lines", len(lines)) % {
            "count": len(lines)}
        return format_html(
            "<details><summary>{}</summary>{}<ol>{}</ol></details>", count, note,
            format_html_join(
                "", "<li>{} {} · {} {}</li>",
                (("#{}".format(line["seq"]) if line["seq"] else "",
                  date_format(timezone.localtime(line["time"]), "DATETIME_FORMAT"),
                  line["text"],
                  _("(private)") if line["private"] else "") for line in lines),
            ),
        )

    # -- a superuser's explicit look at a game in play, with a reason on record --

    def get_urls(self):
        return [
            path("<path:object_id>/reveal/", self.admin_site.admin_view(self.reveal_view),
                 name="games_game_reveal"),
            *super().get_urls(),
        ]

    def render_change_form(self, request, context, *args, obj=None, **kwargs):
        if obj is not None and request.user.is_superuser and obj.is_playing:
            context["reveal_url"] = reverse("admin:games_game_reveal", args=[obj.pk])
        return super().render_change_form(request, context, *args, obj=obj, **kwargs)

    change_form_template = "games/admin/game_change_form.html"

    def reveal_view(self, request, object_id):
        """Everything about a game in play, for debugging: only a superuser, only with a
        reason, which goes into the admin record (kept after any account deletion) before
        anything is shown. Nothing is shown on a GET."""
        if not request.user.is_superuser:
            raise PermissionDenied
        game = self.get_object(request, unquote(object_id))
        if game is None:
            raise Http404
        form = RevealForm(request.POST if request.method == "POST" else None)
        context = {
            **self.admin_site.each_context(request), "opts": self.opts, "original": game,
            "title": _("Reveal “%(table)s” for debugging") % {"table": game.name},
            "form": form,
        }
        if request.method == "POST" and form.is_valid():
            reason = form.cleaned_data["reason"]
            # Django's own log_change: the record is kept once, as a reveal.
            entry = admin.ModelAdmin.log_change(
                self, request, game, _("Revealed for debugging: %(reason)s") % {"reason": reason}
            )
            [record] = self.keep([entry], [game], reason, kind=AdminRecord.Kind.REVEAL)
            actions = list(game.actions.order_by("seq"))
            context.update({
                "record": record, "seed": game.seed,
                "state": json.dumps(game.state, indent=1),
                "rounds": [(r.number, json.dumps(r.hands)) for r in game.rounds.all()],
                "lines": all_log_lines(actions, SeatNames(game)),
                "actions": [(a, json.dumps(a.payload)) for a in actions],
            })
        return TemplateResponse(request, "games/admin/reveal.html", context)

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
            self.log_change(request, game, text, reason=form.cleaned_data["reason"])
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
                self.log_change(request, game, _("Ended early: %(reason)s") % {"reason": reason},
                                reason=reason)
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


# The record keeps the engine's and the commands' own names for what happened and who made
# it; the admin reads them in words, in the reader's language (a name not listed here, from
# a newer record than this list, is shown as stored).
ACTION_KINDS = {
    "start": pgettext_lazy("record kind", "First deal"),
    "next_round": pgettext_lazy("record kind", "Next deal"),
    "play": pgettext_lazy("record kind", "Play"),
    "pass": pgettext_lazy("record kind", "Pass"),
    "give_back": pgettext_lazy("record kind", "Cards given back"),
    "revolution": pgettext_lazy("record kind", "Revolution or not"),
    "trade": pgettext_lazy("record kind", "Trade partner chosen"),
    "trade_card": pgettext_lazy("record kind", "Card given in the trade"),
    "ending": pgettext_lazy("record kind", "End after this round, or not"),
    "end_proposal": pgettext_lazy("record kind", "Proposal to end the game"),
    "end_vote": pgettext_lazy("record kind", "Vote on ending the game"),
    "end_closed": pgettext_lazy("record kind", "Proposal closed"),
    "join": pgettext_lazy("record kind", "Joined the table"),
    "leaving": pgettext_lazy("record kind", "Leaving the table"),
    "leave": pgettext_lazy("record kind", "Left the table"),
    "stand_in": pgettext_lazy("record kind", "Stand-in takes over"),
}
ACTION_MAKERS = {
    "player": pgettext_lazy("record maker", "The player"),
    "bot": pgettext_lazy("record maker", "A bot"),
    "stand_in": pgettext_lazy("record maker", "A stand-in"),
    "standing_order": pgettext_lazy("record maker", "A standing order"),
    "timeout": pgettext_lazy("record maker", "The clock"),
    "closed": pgettext_lazy("record maker", "The revolution's window closing"),
    "agreement": pgettext_lazy("record maker", "The players' agreement"),
    "system": pgettext_lazy("record maker", "The site"),
}


class RecordWordsFilter(admin.SimpleListFilter):
    """A filter of the record by one of its columns of names, offered in words: the names
    the records in the list hold, in the order of their words."""

    words: dict = {}

    def lookups(self, request, model_admin):
        stored = (model_admin.get_queryset(request).order_by()
                  .values_list(self.parameter_name, flat=True).distinct())
        return sorted(((name, self.words.get(name, name)) for name in stored),
                      key=lambda choice: str(choice[1]))

    def queryset(self, request, queryset):
        value = self.value()
        return queryset.filter(**{self.parameter_name: value}) if value else queryset


class ActionKindFilter(RecordWordsFilter):
    title = gettext_lazy("kind")
    parameter_name = "kind"
    words = ACTION_KINDS


class ActionMakerFilter(RecordWordsFilter):
    title = gettext_lazy("made by")
    parameter_name = "by"
    words = ACTION_MAKERS


@admin.register(Action)
class ActionAdmin(OrganisedAdmin):
    """The record, read-only: it is the history every state is rebuilt from. Only games
    that are over: a game in play's payloads hold the deal's seed and private moves (a
    superuser who must look reveals the game, with a reason, from its table's page)."""

    league_path = "game__league_link__league"

    list_display = ("game", "seq", "round_number", "player", "kind_shown", "by_shown",
                    "created")
    list_filter = (ActionKindFilter, ActionMakerFilter)
    search_fields = ("game__name",)
    list_select_related = ("game",)
    raw_id_fields = ("game", "by_user")
    fields = ("game", "seq", "round_number", "player", "kind_shown", "by_shown", "by_user",
              "turn", "payload", "events", "created")
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).filter(
            game__status__in=[Game.Status.FINISHED, Game.Status.ABANDONED]
        )

    @admin.display(description=gettext_lazy("kind"), ordering="kind")
    def kind_shown(self, action):
        return ACTION_KINDS.get(action.kind, action.kind)

    @admin.display(description=gettext_lazy("made by"), ordering="by")
    def by_shown(self, action):
        return ACTION_MAKERS.get(action.by, action.by)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class AdministratorsRecordAdmin(admin.ModelAdmin):
    """A record of the players' own doing that only the site's administrators read (not
    a league's organisers), and may only delete, never make or change."""

    def has_view_permission(self, request, obj=None):
        return request.user.is_superuser

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser


@admin.register(InvitationBlock)
class InvitationBlockAdmin(AdministratorsRecordAdmin):
    """Who refuses invitations from whom, since when: for the site's administrators only
    (who blocks whom is the players' own business, not a league's). Read-only: a block is
    made and lifted by the player; an administrator may only remove one."""

    list_display = ("user", "blocked", "since")
    list_select_related = ("user", "blocked")
    search_fields = ("user__username", "user__display_name", "blocked__username",
                     "blocked__display_name")
    date_hierarchy = "created"
    fields = ("user", "blocked", "since")
    readonly_fields = fields

    @admin.display(description=gettext_lazy("blocked since"), ordering="created")
    def since(self, block):
        return date_format(timezone.localtime(block.created), "DATETIME_FORMAT")


@admin.register(Removal)
class RemovalAdmin(RemovalColumns, AdministratorsRecordAdmin):
    """Every table's players taken off by its host, for the site's administrators (an
    organiser reads her own leagues' on each table's page). Read-only: the host undoes a
    removal by inviting again; an administrator may only delete one."""

    list_display = ("user", "game", "taken_off", "invited_again")
    list_select_related = ("user", "game")
    list_filter = (InvitedAgainFilter,)
    search_fields = ("user__username", "user__display_name", "game__name")
    date_hierarchy = "created"
    fields = ("game", "user", "taken_off", "invited_again")
    readonly_fields = fields
