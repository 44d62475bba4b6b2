from django.contrib import admin

from .models import PushSubscription


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ("user", "device", "created", "last_sent")
    search_fields = ("user__username", "device")
    readonly_fields = ("endpoint", "p256dh", "auth", "created", "last_sent")
