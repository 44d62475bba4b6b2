from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models.constants import LOOKUP_SEP
from django.utils.translation import gettext_lazy as _

from .models import OutgoingEmail, User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    """Superusers manage accounts. Everyone else who may look people up (the league
    organisers, to add members) sees usernames and display names only: no email
    address, not even as something to search by, and nothing about permissions."""

    fieldsets = BaseUserAdmin.fieldsets + (
        (_("Player"), {"fields": ("display_name", "notify", "language")}),
    )
    add_fieldsets = BaseUserAdmin.add_fieldsets + (
        (_("Player"), {"fields": ("email", "display_name")}),
    )
    list_display = ("username", "display_name", "email", "notify", "is_staff")
    search_fields = ("username", "display_name", "email")

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
        return super().get_list_filter(request)

    def lookup_allowed(self, lookup, value, request=None):
        # Filtering by URL (`?email__startswith=a`, `?password__startswith=…`) would
        # answer what the columns do not show, one letter at a time.
        if request is None or not request.user.is_superuser:
            if lookup.split(LOOKUP_SEP)[0] not in ("username", "display_name"):
                return False
        return super().lookup_allowed(lookup, value, request)

    def get_search_fields(self, request):
        if not request.user.is_superuser:
            return ("username", "display_name")
        return super().get_search_fields(request)


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
