from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models.constants import LOOKUP_SEP
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games.commands import delete_account, name_changed
from games.read.account import tables_left
from leagues.admin import WIDE_TEXT, action_page

from .models import OutgoingEmail, User


class DeleteAccountsForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"), max_length=200, widget=WIDE_TEXT,
        help_text=_("Kept in the admin's log with your name: who asked, and how."),
    )
    erase_talk = forms.BooleanField(
        label=_("Erase what they said at the tables too"), required=False,
        help_text=_("If the player asked for it; otherwise their messages stay in the table "
                    "talk, under “Former player”."),
    )


class AccountFilter(admin.SimpleListFilter):
    """Deleted accounts stay (their games keep them), named deleted-<number>: told apart."""

    title = _("account")
    parameter_name = "account"

    def lookups(self, request, model_admin):
        # The words as a line says them, with a capital as the admin's own filters have.
        return [("kept", capfirst(_("kept"))), ("deleted", capfirst(_("deleted")))]

    def queryset(self, request, queryset):
        if self.value() in ("kept", "deleted"):
            return queryset.filter(deleted__isnull=self.value() == "kept")
        return queryset


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    """Superusers manage accounts. Everyone else who may look people up (the league
    organisers, to add members) sees usernames and display names only: no email
    address, not even as something to search by, and nothing about permissions."""

    fieldsets = BaseUserAdmin.fieldsets + (
        (_("Player"), {"fields": ("display_name", "new_email", "notify", "language",
                                  "deleted")}),
    )
    add_fieldsets = BaseUserAdmin.add_fieldsets + (
        (_("Player"), {"fields": ("email", "display_name")}),
    )
    list_display = ("username", "display_name", "email", "notify", "is_staff")
    search_fields = ("username", "display_name", "email")
    readonly_fields = ("deleted", "new_email")
    actions = ["delete_accounts"]

    def get_fieldsets(self, request, obj=None):
        if obj is not None and not request.user.is_superuser:
            return [(None, {"fields": ("username", "display_name")})]
        return super().get_fieldsets(request, obj)

    def get_list_display(self, request):
        if not request.user.is_superuser:
            return ("username", "display_name")
        return super().get_list_display(request)

    def get_list_filter(self, request):
        if not request.user.is_superuser:
            return ()
        return (AccountFilter, *super().get_list_filter(request))

    def get_actions(self, request):
        # Django's own deletion refuses every account that has played: one way to delete.
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change and {"username", "display_name"} & set(form.changed_data):
            name_changed(obj)

    def has_change_permission(self, request, obj=None):
        # A deleted account is shown, never changed: no password or "active" box would
        # bring it back.
        if obj is not None and obj.deleted:
            return False
        return super().has_change_permission(request, obj)

    def lookup_allowed(self, lookup, value, request=None):
        # Filtering by URL (`?email__startswith=a`, `?password__startswith=…`) would
        # answer what the columns do not show, one letter at a time.
        if request is None or not request.user.is_superuser:
            if lookup.split(LOOKUP_SEP)[0] not in ("username", "display_name"):
                return False
        return super().lookup_allowed(lookup, value, request)

    def get_search_results(self, request, queryset, search_term):
        queryset, distinct = super().get_search_results(request, queryset, search_term)
        match = request.resolver_match
        if match is not None and match.url_name == "autocomplete":
            # Whom to pick (a league's member, a table's guest): never a deleted account.
            queryset = queryset.filter(deleted__isnull=True, is_active=True)
        return queryset, distinct

    def get_search_fields(self, request):
        if not request.user.is_superuser:
            return ("username", "display_name")
        return super().get_search_fields(request)

    @admin.action(description=_("Delete these accounts as their players would"),
                  permissions=["delete"])
    def delete_accounts(self, request, queryset):
        """For a player who asks and cannot do it themselves (a lost password, an address
        gone). Django's own deletion refuses anyone who has played: their seats belong to
        the other players' games too."""
        data = request.POST if "apply" in request.POST else None
        form = DeleteAccountsForm(data)
        if data is None or not form.is_valid():
            return action_page(
                self, request, queryset, form=form, action="delete_accounts",
                title=gettext("Delete these accounts as their players would"),
                intro=gettext(
                    "Each player leaves their tables as a player leaves them (a bot plays "
                    "their cards at a game in progress; an open table they host closes). "
                    "Their name, address, devices, channel, settings and league memberships "
                    "are erased; the games they played keep their record, with “Former "
                    "player” in their place. This cannot be undone."),
                submit_label=gettext("Delete the accounts"),
                entries=[(_account_label(user), _what_goes(user, request.user))
                         for user in queryset],
            )
        reason, deleted = form.cleaned_data["reason"], 0
        for user in queryset:
            if user.pk == request.user.pk:
                self.message_user(request, gettext(
                    "Your own account is deleted from your profile, not here."),
                    messages.WARNING)
            elif delete_account(user.pk, erase_talk=form.cleaned_data["erase_talk"]):
                self.log_change(request, User.objects.get(pk=user.pk), gettext(
                    "Deleted as the player would: %(reason)s") % {"reason": reason})
                deleted += 1
        if deleted:
            self.message_user(request, ngettext(
                "%(count)d account deleted.", "%(count)d accounts deleted.", deleted,
            ) % {"count": deleted}, messages.SUCCESS)
        return None


def _account_label(user: User) -> str:
    if user.email:
        return gettext("%(name)s (%(username)s, %(email)s)") % {
            "name": user.name, "username": user.username, "email": user.email}
    return gettext("%(name)s (%(username)s)") % {"name": user.name,
                                                "username": user.username}


def _what_goes(user: User, me: User) -> list[str]:
    """What deleting this account does, as the player's own page says it."""
    if user.pk == me.pk:
        return [gettext("Your own account: you delete it from your profile, not here.")]
    if user.deleted:
        return [gettext("Already deleted.")]
    left = tables_left(user.pk)
    if not left:
        return [gettext("No table to leave.")]

    def names(games):
        return ", ".join(game.name for game in games)

    notes = []
    if left.in_play:
        notes.append(ngettext(
            "%(count)d game in progress: %(names)s",
            "%(count)d games in progress: %(names)s", len(left.in_play),
        ) % {"count": len(left.in_play), "names": names(left.in_play)})
    if left.hosted:
        notes.append(ngettext(
            "%(count)d open table they host, which closes: %(names)s",
            "%(count)d open tables they host, which close: %(names)s", len(left.hosted),
        ) % {"count": len(left.hosted), "names": names(left.hosted)})
    if left.seated:
        notes.append(ngettext(
            "%(count)d open table where their seat is freed: %(names)s",
            "%(count)d open tables where their seat is freed: %(names)s", len(left.seated),
        ) % {"count": len(left.seated), "names": names(left.seated)})
    return notes


@admin.register(OutgoingEmail)
class OutgoingEmailAdmin(admin.ModelAdmin):
    """What the outbox sent, is trying again, or gave up on (never the bodies: a reset
    link is nobody else's)."""

    list_display = ("created", "kind", "to", "status", "attempts", "due", "note")
    list_filter = ("status", "kind")
    search_fields = ("to", "user__username")
    fields = ("user", "kind", "to", "subject", "status", "attempts", "created", "due", "sent",
              "note")
    readonly_fields = fields

    def has_add_permission(self, request):
        return False
