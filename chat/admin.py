from django.contrib import admin

from .models import Message


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ["created", "game", "name", "text", "flourish"]
    list_select_related = ["game"]
    search_fields = ["text", "name", "game__name"]
    raw_id_fields = ["game", "seat"]
    date_hierarchy = "created"
