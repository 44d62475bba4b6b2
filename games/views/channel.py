"""The host's page for the table's group channel: where the table's public news goes
(the start, whose turn it is, each round's result, the end, nudges)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters

from dalmuti_site import channels
from games import commands
from games.core import channel_owners
from games.read.access import seat_for_user

from ..forms import ChannelForm
from .page import refusals_answered


@sensitive_post_parameters("url")
@never_cache
@login_required
@refusals_answered()
def table_channel(request, game_id: int):
    game, _seat = seat_for_user(request, game_id)
    if game.host_id != request.user.pk:
        raise Http404(_("Only the host can choose the table's channel."))
    form = ChannelForm(request.POST or None)
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "test":
            commands.try_channel(game.pk, request.user)
            messages.info(request, _("A test message is on its way: it should arrive within "
                                     "a minute."))
            return redirect("table_channel", game.pk)
        if action == "remove":
            commands.set_channel(game.pk, request.user, "")
            messages.success(request, _("The table has no channel any more."))
            return redirect("table_channel", game.pk)
        if form.is_valid() and form.cleaned_data["url"]:
            commands.set_channel(game.pk, request.user, form.cleaned_data["url"])
            messages.success(request, _("Saved: the channel will hear the table's news."))
            return redirect("table_channel", game.pk)
        if form.is_valid():
            form.add_error("url", _("Paste the address of the channel."))
    owner = channel_owners.for_game(game)
    inherited = owner is not None and owner[0] is not game
    return render(request, "games/channel.html", {
        "game": game, "form": form, "inherited": inherited,
        "service": channels.service_name(owner[0].channel_url) if owner else "",
        "paused": owner is not None and owner[0].channel_paused is not None,
    })
