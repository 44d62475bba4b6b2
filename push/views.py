import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET, require_POST

from accounts.middleware import answers_without_user

from . import services

SERVICE_WORKER = settings.BASE_DIR / "static" / "js" / "sw.js"


@answers_without_user  # the same script for everybody, asked for again as pages open
@require_GET
@never_cache
def service_worker(request):
    """The service worker, from the site root so that it may control every page."""
    return HttpResponse(SERVICE_WORKER.read_text(), content_type="text/javascript",
                        headers={"Service-Worker-Allowed": "/"})



@require_GET
@cache_control(max_age=3600)
def manifest(request):
    """The web app manifest: installed, the site opens on "My games" like an app."""
    return JsonResponse({
        "name": _("The Great Dalmuti"),
        "short_name": _("Dalmuti"),
        "description": _("Play The Great Dalmuti with your friends, over days or live."),
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#f7f3ea",
        "theme_color": "#7a1f2b",
        "lang": request.LANGUAGE_CODE,
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": static("icons/maskable-512.png"), "sizes": "512x512", "type": "image/png",
             "purpose": "maskable"},
        ],
    }, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})


@require_GET
def offline(request):
    """What the service worker shows when the network is gone (it keeps a copy)."""
    return render(request, "push/offline.html")


@require_POST
@login_required
def subscribe(request):
    try:
        info = json.loads(request.body or b"{}")
    except ValueError:
        return JsonResponse({"error": _("That subscription was not understood.")}, status=400)
    try:
        services.subscribe(request.user, info,
                           services.device_name(request.headers.get("User-Agent", "")))
    except services.NotASubscription as exc:
        return JsonResponse({"error": str(exc)}, status=400)
    return JsonResponse({"ok": True})


@require_POST
@login_required
def remove(request, pk: int):
    if services.remove(request.user, pk):
        messages.success(request, _("Notifications are off on that device."))
    return redirect("profile")
