from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from .models import User


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
