"""The host's list of the invitations waiting for an answer: withdrawing one. Apart from
the invitation panel (`invitations`), which the table's page draws: a refusal here is
answered as at the table (`page.refused`)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.read.access import seat_for_user

from .. import commands
from .invitations import back_to_invitations
from .page import refused


@require_POST
@login_required
def withdraw_invitation(request, game_id: int, invitation_id: int):
    seat_for_user(request, game_id)
    try:
        invitation = commands.withdraw_invitation(game_id, request.user, invitation_id)
    except commands.Rejected as rejected:
        return refused(request, game_id, rejected)
    who = invitation.email or invitation.user.name
    messages.success(request, _("Invitation to %(who)s withdrawn.") % {"who": who})
    return back_to_invitations(invitation.game)
