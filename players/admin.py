from django.contrib import admin
from django.utils.translation import gettext_lazy

from .models import PlayerProfile, Rating, RatingChange


class ReadOnly(admin.ModelAdmin):
    """Ratings are moved by finished games (and the rebuild_ratings command) only."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnly):
    list_display = ("__str__", "games", "provisional_mark", "updated")
    search_fields = ("user__username", "user__display_name", "bot_level")
    list_select_related = ("user",)

    @admin.display(description=gettext_lazy("provisional"), boolean=True)
    def provisional_mark(self, obj):
        return obj.provisional


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnly):
    list_display = ("__str__", "place", "players", "created")
    list_select_related = ("rating__user", "game")
    raw_id_fields = ("game", "rating")


@admin.register(PlayerProfile)
class PlayerProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "visibility")
    list_filter = ("visibility",)
    search_fields = ("user__username", "user__display_name")
    raw_id_fields = ("user",)
