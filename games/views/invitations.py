import hashlib

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from accounts import throttle
from dalmuti_site.compiled import CompiledQuery
from games.core.turns import no_next_round, room_for_newcomers
from games.core.words import moment
from games.read.access import seat_for_user
from players.reliability import RELIABILITY_MIN_TURNS, reliability, why_not_admitted

from .. import commands
from ..forms import GroupInviteForm, InviteForm
from ..models import Game, Invitation, Removal, Seat

# Read by the game page whenever the table has room (compiled once).
_INVITATIONS = CompiledQuery(
    lambda game_id: Invitation.objects.filter(game_id=game_id).select_related("user")
    .order_by("created"))


def invitations_of(game: Game) -> list[Invitation]:
    """The table's invitations waiting for an answer, oldest first."""
    invitations = _INVITATIONS(game.pk)
    for invitation in invitations:
        invitation.game = game
    return invitations


# Asked by an open lobby page's every poll (compiled once): the ids alone, the rows with
# their players only when these changed.
_INVITED = CompiledQuery(
    lambda game_id: Invitation.objects.filter(game_id=game_id).values_list("pk", flat=True))


def invited_mark(pks) -> str:
    """What a lobby page's poller carries of the invitations the page shows (`i`): it
    changes when one is sent, declined or taken up. A digest, not the numbers themselves
    (they count every invitation of the site)."""
    listed = ",".join(str(pk) for pk in sorted(pks))
    return hashlib.blake2s(listed.encode(), digest_size=6).hexdigest()


def invitations_changed(request, game_id: int) -> bool:
    """Whether the invitations an open lobby page shows (with room for newcomers: else it
    shows none) are no longer those waiting."""
    return request.GET.get("r") == "1" and request.GET.get("i") != invited_mark(
        _INVITED(game_id))


def invitees(request, game: Game, invitations: list[Invitation]) -> dict:
    """The invitations waiting for an answer as a page shows them: named to the host
    (with the addresses they typed), counted to the others."""
    return {
        "invitations": invitations if game.host_id == request.user.pk else [],
        "pending_invitations": len(invitations),
        "invited_mark": invited_mark(invitation.pk for invitation in invitations),
    }


def invite_context(request, game: Game, seats: list[Seat] | None = None) -> dict:
    """The invitation panel of a table (the lobby, and the game page between rounds): the
    join link for everyone seated; the form and the invitees, with the addresses the
    host typed, for the host only; the others see how many are pending. Without room
    for newcomers the panel is not shown, and the invitations are read for the host
    alone (those still waiting, to withdraw). `seats`: the table's seats, if the caller
    read them."""
    is_host = game.host_id == request.user.pk
    room = room_for_newcomers(game, seats)
    invitations = invitations_of(game) if room or is_host else []
    return {
        "invite_url": request.build_absolute_uri(reverse("join", args=[game.invite_token])),
        # The forms only where the panel shows (the host's, with room).
        "invite_form": InviteForm() if is_host and room else None,
        "group_form": GroupInviteForm(host=request.user, game=game, seats=seats,
                                      invitations=invitations) if is_host and room else None,
        **invitees(request, game, invitations),
        "room_for_newcomers": room,
    }


def invitation_panel(request, game: Game, seats: list[Seat]) -> dict:
    """The folded invitation panel of a game page in play: whether it shows, and its
    content only when the page was asked with it open (`?invite=1`, the way in without
    scripts). Otherwise the page opens it empty and fetches its content when the player
    unfolds it (`invite_panel`): every load of the page read the invitations (and the
    host's usual group) and drew the host's forms, for a panel opened now and then."""
    if not room_for_newcomers(game, seats):
        return {"room_for_newcomers": False}
    if request.GET.get("invite") != "1":
        return {"room_for_newcomers": True, "invite_panel_url": reverse(
            "invite_panel", args=[game.pk])}
    return {**invite_context(request, game, seats), "invite_open": True}


def back_to_invitations(game: Game):
    """After an invitation (sent or refused): the table's page, with the invitation panel
    open on a game in play (the lobby shows it open anyway)."""
    if game.is_playing:
        return redirect(f"{game.get_absolute_url()}?invite=1")
    return redirect(game)


@never_cache
@login_required
def invite_panel(request, game_id: int):
    """The invitation panel's content, fetched when a player unfolds it on the game page."""
    game, _me = seat_for_user(request, game_id)
    # Whatever the table's state: a lobby with a free seat gets its own panel, a game
    # over or without room says so.
    context = invite_context(request, game, game.seats_with_users())
    return render(request, "games/_invite_panel.html", {"game": game, **context})


@require_POST
@login_required
def invite(request, game_id: int):
    game, _me = seat_for_user(request, game_id)
    if game.host_id != request.user.pk:
        raise PermissionDenied(_("Only the host invites players to this table."))
    form = InviteForm(request.POST)
    # Each look-up by name tells whether that player exists: limit them per inviter.
    if throttle.count_attempt("lookup", str(request.user.pk), settings.LOOKUP_LIMIT, 3600):
        messages.error(request, _("You have looked up too many players; try again in an "
                                  "hour, or share the table's link."))
        return back_to_invitations(game)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return back_to_invitations(game)
    user = form.user
    if user is not None and game.seats.filter(user=user).exists():
        if not form.email:  # by username: the name is public; by address, say nothing
            messages.info(request, _("%(name)s already has a seat here.") % {"name": user.name})
            return back_to_invitations(game)
    else:
        try:
            invitation, sent = commands.invite(
                game, request.user, user=user, email=form.email,
                language=translation.get_language() or "", limited=True)
        except commands.Rejected as rejected:
            messages.error(request, rejected.message)
            return back_to_invitations(game)
        if not sent:
            # As typed: by address, the host learns nothing of whose it is.
            who = form.email or user.name
            messages.info(request, _(
                "%(who)s is already invited, until %(lapses)s: that invitation went out "
                "when you sent it. Share the table's link if it did not arrive."
            ) % {"who": who, "lapses": moment(invitation.lapses)})
            return back_to_invitations(game)
    messages.success(request, _("Invitation sent."))
    return back_to_invitations(game)


def _join_page(request, game: Game, token: str, error: str = "", status: int = 200):
    """The page behind a table's link; for a game in progress, whether a next round is
    still to come to join at."""
    last_round = game.is_playing and no_next_round(game.engine_state())
    refusal, record = "", None
    if game.min_on_time and request.user.is_authenticated:
        record = reliability(request.user)
        refusal = why_not_admitted(request.user, game.min_on_time)
    taken_off = (request.user.is_authenticated and not game.is_over
                 and Removal.keeps_out(game, request.user))
    seats = game.seats_with_users()
    # Said before anyone is asked to sign up for a seat there is not.
    full = ((game.is_open or game.is_playing) and not last_round
            and not room_for_newcomers(game, seats))
    return render(request, "games/join.html", {
        "game": game, "token": token, "seats": seats, "full": full,
        "last_round": last_round, "error": error, "not_admitted": refusal,
        "taken_off": taken_off,
        "record": record, "min_turns": RELIABILITY_MIN_TURNS,
    }, status=status)


def join(request, token: str):
    game = get_object_or_404(Game, invite_token=token)
    if not request.user.is_authenticated:
        return _join_page(request, game, token)
    if game.seats.filter(user=request.user).exists():
        return redirect(game)
    if request.method == "POST":
        try:
            if game.is_playing:
                commands.join_in_progress(game.pk, request.user)
            else:
                commands.join(game.pk, request.user)
        except commands.Rejected as rejected:
            return _join_page(request, game, token, rejected.message, rejected.status)
        if game.is_playing:
            messages.success(request, _("You have a seat at %(table)s from the next round on.")
                             % {"table": game.name})
        else:
            messages.success(request, _("You took a seat at %(table)s.") % {"table": game.name})
        return redirect(game)
    return _join_page(request, game, token)


@require_POST
@login_required
def decline_invitation(request, invitation_id: int):
    invitation = get_object_or_404(Invitation.objects.for_user(request.user), pk=invitation_id)
    # Invited by name and by address, the table is declined whole.
    Invitation.objects.for_user(request.user).filter(game=invitation.game_id).delete()
    messages.info(request, _("Invitation declined."))
    return redirect("home")


@require_POST
@login_required
def decline_and_block(request, invitation_id: int):
    """Decline an invitation and refuse any more from whoever sent it (their other
    invitations waiting go too); the profile lists whom one blocks, to let them again."""
    invitation = get_object_or_404(
        Invitation.objects.for_user(request.user).select_related("invited_by"), pk=invitation_id)
    inviter = invitation.invited_by
    try:
        commands.set_blocked(request.user, inviter, True)
    except commands.Rejected as rejected:
        messages.error(request, rejected.message)
        return redirect("home")
    messages.success(request, _("Invitation declined. %(name)s can no longer invite you: "
                                "you can undo this on your profile.")
                     % {"name": inviter.name})
    return redirect("home")
