"""The usual group: inviting people one has played with in one go (the lobby), and
refusing invitations from someone (the profile's list, a player's page)."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from dalmuti_site.converters import id_from
from dalmuti_site.redirects import on_this_site
from games.read.access import seat_for_user

from .. import commands
from ..forms import NOT_IN_THE_GROUP, GroupInviteForm
from .invitations import back_to_invitations


@require_POST
@login_required
def invite_group(request, game_id: int):
    """The host ticks people of their usual group and invites them all at once, or
    nobody (a forged or stale choice, a limit)."""
    game, _me = seat_for_user(request, game_id)
    if game.host_id != request.user.pk:
        raise PermissionDenied(_("Only the host invites players to this table."))
    form = GroupInviteForm(request.POST, host=request.user, game=game)
    if not form.is_valid():
        # A forged choice, or a page older than a block: the lists never offer it.
        raise PermissionDenied(NOT_IN_THE_GROUP)
    guests = form.cleaned_data["guests"]
    try:
        commands.invite_group(game, request.user, guests)
    except commands.Rejected as rejected:
        messages.error(request, rejected.message)
        return back_to_invitations(game)
    messages.success(request, ngettext("%(count)d invitation sent.",
                                       "%(count)d invitations sent.", len(guests))
                     % {"count": len(guests)})
    return back_to_invitations(game)


@require_POST
@login_required
def block(request):
    """Refuse invitations from someone (`block`), or accept them again (`unblock`)."""
    blocking = "block" in request.POST
    pk = id_from(request.POST.get("block" if blocking else "unblock", ""))
    if pk is None:
        raise Http404
    other = get_user_model().objects.filter(pk=pk, is_active=True).first()
    if other is None:
        raise Http404
    try:
        commands.set_blocked(request.user, other, blocking)
    except commands.Rejected as rejected:
        messages.error(request, rejected.message)
    else:
        said = (_("%(name)s can no longer invite you.") if blocking
                else _("%(name)s can invite you again."))
        messages.success(request, said % {"name": other.name})
    return redirect(on_this_site(request, request.POST.get("next")) or "profile")
