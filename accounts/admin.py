from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from .models import OutgoingEmail, User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = BaseUserAdmin.fieldsets + (
        (_("Player"), {"fields": ("display_name", "notify", "language")}),
    )
    add_fieldsets = BaseUserAdmin.add_fieldsets + (
        (_("Player"), {"fields": ("email", "display_name")}),
    )
    list_display = ("username", "display_name", "email", "notify", "is_staff")
    search_fields = ("username", "display_name", "email")


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
