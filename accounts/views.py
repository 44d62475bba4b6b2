import math
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import auth, messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_GET, require_POST

from dalmuti_site import channels
from dalmuti_site.redirects import on_this_site
from games.commands import delete_account as delete_the_account
from games.commands import name_changed, set_away, set_profile_standing_orders
from games.commands.notifications import unheard
from games.core import background
from games.read.access import table_named_to
from games.read.account import tables_left
from games.read.usual_group import usual_group_context
from players.account_data import account_data

from . import confirmation, throttle
from .forms import (
    ChannelForm,
    DeleteAccountForm,
    LoginForm,
    ProfileForm,
    SignupForm,
    StandingOrdersForm,
)
from .models import User


def _next_url(request: HttpRequest) -> str:
    return on_this_site(request, request.POST.get("next") or request.GET.get("next"))


def _chosen_language(request: HttpRequest) -> str:
    """The language this browser chose in the menu, or "" (none: it follows the
    browser's own)."""
    code = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    return code if code in dict(settings.LANGUAGES) else ""


def _remember_language(response: HttpResponse, code: str) -> None:
    """Set Django's language cookie, or forget it so that the browser's choice applies."""
    if not code:
        response.delete_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
        return
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


@sensitive_post_parameters("password1", "password2")
@never_cache
def signup(request: HttpRequest) -> HttpResponse:
    next_url = _next_url(request)
    if request.user.is_authenticated:
        return redirect(next_url or settings.LOGIN_REDIRECT_URL)

    if request.method == "POST":
        # A sign-up tells whether a username is taken, and makes an account: limited per
        # browser, and more loosely per address (accounts.throttle).
        wait = throttle.signup_wait(request)
        if wait:
            response = render(request, "accounts/signup.html", {
                # Unbound: checking the form would say whether the username is taken.
                "form": SignupForm(initial={k: request.POST.get(k, "")
                                            for k in ("username", "email")}),
                "next": next_url,
                "error": _("Too many sign-ups from here. Please try again later."),
            }, status=429)
            response.headers["Retry-After"] = str(wait)
            return response
        form = SignupForm(request.POST)
        if form.is_valid():
            with transaction.atomic():
                user = form.save(commit=False)
                # A language chosen in the menu before the account existed is the
                # account's: without it the profile would say "follow my browser".
                user.language = _chosen_language(request)
                user.save()
                form.save_m2m()
                # The link, or (an address another account confirmed) a word to its
                # owner: sent by a worker once this commits, never failing the sign-up.
                confirmation.send_link(user)
            throttle.count_signup(request)
            # Named: with the backend of older sessions listed too, Django asks which.
            auth.login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
            welcome = reverse("signup_welcome")
            return redirect(f"{welcome}?{urlencode({'next': next_url})}" if next_url else welcome)
        if form.username_taken():
            throttle.count_signup(request)
    else:
        form = SignupForm()
    return render(request, "accounts/signup.html", {"form": form, "next": next_url},
                  status=400 if request.method == "POST" else 200)


@login_required
@never_cache
def signup_welcome(request: HttpRequest) -> HttpResponse:
    """After signing up: the account is ready, the confirmation link on its way; the way
    on names the table it leads to, when the newcomer came by one."""
    next_url = _next_url(request)
    return render(request, "accounts/welcome.html", {
        "next": next_url or reverse(settings.LOGIN_REDIRECT_URL),
        "table": table_named_to(request.user, next_url) if next_url else None,
    })


@login_required
@require_POST
def resend_confirmation(request: HttpRequest) -> HttpResponse:
    """Send the confirmation link again (a few times an hour at most)."""
    back = _next_url(request) or reverse("profile")
    user = request.user
    address = user.address_to_confirm
    if not address:
        messages.info(request, _("Your email address is already confirmed."))
        return redirect(back)
    wait = confirmation.resend_wait(user)
    if wait:
        minutes = max(1, math.ceil(wait / 60))
        response = render(request, "accounts/resend_wait.html", {"next": back, "error": ngettext(
            "You asked for the link several times already: please wait %(minutes)d minute, "
            "and look in your spam folder too.",
            "You asked for the link several times already: please wait %(minutes)d minutes, "
            "and look in your spam folder too.", minutes) % {"minutes": minutes}}, status=429)
        response.headers["Retry-After"] = str(wait)
        return response
    confirmation.send_link(user)
    messages.success(request, _("We are sending the link to %(email)s again.")
                     % {"email": address})
    return redirect(back)


class LoginView(auth_views.LoginView):
    """Django's login view with the rate-limited form: a locked login answers 429."""

    form_class = LoginForm
    redirect_authenticated_user = True

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "locked"):
            response.status_code = 429
            response.headers["Retry-After"] = str(form.locked_for)
        return response


class LogoutView(auth_views.LogoutView):
    """Django's logout, which takes only a form: its address opened as a page (a link
    kept, an address typed) asks with a button, rather than answer nothing."""

    http_method_names = ["get", "post", "options"]

    def get(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect("home")
        return render(request, "accounts/logout.html")

    def post(self, request, *args, **kwargs):
        # The profile's language was the pages' while signed in: the pages after stay in
        # it rather than turn to the browser's (a profile that follows the browser, as is).
        language = request.user.language if request.user.is_authenticated else ""
        response = super().post(request, *args, **kwargs)
        if language:
            _remember_language(response, language)
        return response


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        # A fresh copy: an invalid form must not change request.user (the header shows it).
        if request.POST.get("resend_confirmation"):
            return resend_confirmation(request)
        if request.POST.get("back"):
            set_away(User.objects.get(pk=request.user.pk), None)
            messages.success(request, _("Welcome back: your clocks run again."))
            # From My games too: back to the page the player came from.
            return redirect(on_this_site(request, request.POST.get("next")) or "profile")
        if request.POST.get("keep_email"):
            User.objects.filter(pk=request.user.pk).update(new_email="")
            messages.success(request, _("Your address stays %(email)s.")
                             % {"email": request.user.email})
            return redirect("profile")
        current = User.objects.get(pk=request.user.pk)
        confirmed = current.verified_email
        form = ProfileForm(request.POST, instance=current)
        if form.is_valid():
            moving = "email" in form.changed_data
            if moving and confirmed:
                # The confirmed address stays until the new one is confirmed.
                form.instance.new_email = form.instance.email
                form.instance.email = confirmed
            elif moving:
                form.instance.email_verified = False
            user = form.save()
            if "display_name" in form.changed_data:
                name_changed(user)
            if "away_until" in form.changed_data or (
                form.cleaned_data["away_until"] and "time_zone" in form.changed_data
            ):
                # The clocks at every timed table move with the absence (the end of the
                # last day away moves with the zone).
                set_away(user, form.cleaned_data["away_until"])
            if moving:
                confirmation.send_link(user)
                if confirmed:
                    # The page's notice says where the link went and what holds till then.
                    confirmation.tell_old_address(user)
                else:
                    messages.info(request, _("We are sending a confirmation link to "
                                             "%(email)s: follow it to get emails there.")
                                  % {"email": user.email})
            if user.language:
                translation.activate(user.language)
            messages.success(request, _("Your profile has been saved."))
            response = redirect("profile")
            _remember_language(response, user.language)
            return response
        return _profile_page(request, request.user, form, ChannelForm(), status=400)
    else:
        # An account that follows the browser, in a browser whose menu chose a language
        # before signing in: the language in force is that one, and the form shows it.
        chosen = None if request.user.language else _chosen_language(request)
        form = ProfileForm(instance=request.user,
                           initial={"language": chosen} if chosen else None)
    return _profile_page(request, request.user, form, ChannelForm())


def _profile_page(request: HttpRequest, user, form, channel_form, status: int = 200
                  ) -> HttpResponse:
    """The profile page, whole, whichever of its forms was refused (drawn with its
    errors) or none."""
    return render(request, "accounts/profile.html", {
        "form": form, "away_until": user.away_until if user.is_away() else None,
        "unheard": unheard(user),
        "orders_form": StandingOrdersForm(instance=user),
        **usual_group_context(user),
        "channel_form": channel_form, "channel_current": user.channel_masked,
        "channel_service": channels.service_name(user.channel_url),
        "channel_paused": user.channel_paused,
    }, status=status)


@sensitive_post_parameters("url")
@require_POST
@login_required
def profile_channel(request: HttpRequest) -> HttpResponse:
    """The player's own channel: save a new address, send a test message, or remove it.
    The address is never shown back (only its service), nor logged."""
    user = User.objects.get(pk=request.user.pk)
    action = request.POST.get("action")
    if action == "test" and user.channel_url:
        background.after_commit("channel_test", user.pk)
        messages.info(request, _("A test message is on its way: it should arrive within a "
                                 "minute."), extra_tags="channel")
        return redirect(reverse("profile") + "#channel")
    if action == "remove":
        user.channel_url, user.channel_failures, user.channel_paused = "", 0, None
        user.save(update_fields=["channel_url", "channel_failures", "channel_paused"])
        messages.success(request, _("Your channel has been removed."), extra_tags="channel")
        return redirect(reverse("profile") + "#channel")
    form = ChannelForm(request.POST)
    if form.is_valid() and form.cleaned_data["url"]:
        user.channel_url, user.channel_failures, user.channel_paused = (
            form.cleaned_data["url"], 0, None)
        user.save(update_fields=["channel_url", "channel_failures", "channel_paused"])
        messages.success(request, _("Saved: your notifications go to this channel too."),
                         extra_tags="channel")
        return redirect(reverse("profile") + "#channel")
    if form.is_valid():
        form.add_error("url", _("Paste the address of the channel."))
    return _profile_page(request, user, ProfileForm(instance=user), form, status=400)


@sensitive_post_parameters("password")
@never_cache
@login_required
def delete_account(request: HttpRequest) -> HttpResponse:
    """The player deletes their account, after saying their password again; the page
    says first what becomes of each table they are at."""
    form = DeleteAccountForm(request, request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            language = request.user.language
            delete_the_account(request.user.pk, erase_talk=form.cleaned_data["erase_talk"])
            auth.logout(request)
            messages.success(request, _("Your account is deleted. Thank you for playing."))
            response = redirect("home")
            if language:  # the way out in the language they chose, as the message is
                _remember_language(response, language)
            return response
        status = 429 if form.has_error("password", "locked") else 400
    response = render(request, "accounts/delete.html", {
        "form": form, "left": tables_left(request.user.pk)}, status=status)
    if status == 429:
        response.headers["Retry-After"] = str(form.locked_for)
    return response


@require_GET
@never_cache
@login_required
def download_data(request: HttpRequest) -> HttpResponse:
    """What the site keeps about the player, as one JSON file to keep."""
    day = timezone.localdate().isoformat()
    return JsonResponse(
        account_data(request.user), json_dumps_params={"indent": 2, "ensure_ascii": False},
        headers={"Content-Disposition": content_disposition_header(
            True, f"dalmuti-{request.user.username}-{day}.json")})


@never_cache
def confirm_email(request: HttpRequest, token: str) -> HttpResponse:
    """The link in the confirmation email: a GET that only confirms an address its owner
    received, so a mail scanner following it does no harm."""
    user = confirmation.confirm(token)
    return render(request, "accounts/confirm_email.html", {
        "confirmed": user,
        "deleted": user is None and confirmation.for_deleted_account(token),
    }, status=200 if user else 400)


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    code = request.POST.get("language", "")
    if code not in dict(settings.LANGUAGES):
        return HttpResponseBadRequest(_("Unknown language."))

    user = request.user
    if user.is_authenticated and user.language != code:
        # The profile language wins over the cookie (UserLanguageMiddleware): keep them equal.
        user.language = code
        user.save(update_fields=["language"])

    next_url = _next_url(request) or on_this_site(request, request.headers.get("Referer")) or "/"
    response = redirect(next_url)
    _remember_language(response, code)
    return response


@require_POST
@login_required
def standing_orders(request: HttpRequest) -> HttpResponse:
    """The profile's standing orders, for every table the player sits at or will."""
    form = StandingOrdersForm(request.POST, instance=User.objects.get(pk=request.user.pk))
    if not form.is_valid():
        return HttpResponseBadRequest(_("That request was not understood."))
    set_profile_standing_orders(form.instance, form.cleaned_data["auto_pass"],
                                form.cleaned_data["auto_tax_worst"],
                                form.cleaned_data["auto_revolution"])
    messages.success(request, _("Your standing orders are saved. They apply at every table "
                                "you sit at, from now on."), extra_tags="standing-orders")
    return redirect(f"{reverse('profile')}#standing-orders")
