"""The usual group: inviting several people one has played with in one go, and refusing
invitations from someone."""

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from ..core.usual_group import address_digest, played_with
from ..models import Game, Invitation, InvitationBlock, RefusedAddress
from .base import Rejected
from .tables import create_table, invite, seat_bot_like


def invite_group(game: Game, invited_by, users) -> list:
    """Invite these people, each one the inviter has played with, in one go: all of them
    or, when one cannot be invited (never played together, refuses the inviter's
    invitations, a limit), nobody. Those already seated are passed over."""
    users = list(users)
    allowed = set(played_with(invited_by).values_list("pk", flat=True))
    if any(u.pk not in allowed for u in users):
        raise Rejected(_("You can invite from this list only people you have played with; "
                         "nobody was invited."), 403)
    seated = set(game.seats.values_list("user", flat=True))
    with transaction.atomic():
        return [invite(game, invited_by, user=u, language=invited_by.reading_language,
                       limited=True)[0]
                for u in users if u.pk not in seated]


def set_blocked(user, other, blocked: bool) -> None:
    """`user` refuses invitations from `other`, or accepts them again. Invitations from
    them already waiting go too."""
    if other.pk == user.pk:
        raise Rejected(_("You cannot block yourself."), 400)
    if not blocked:
        InvitationBlock.objects.filter(user=user, blocked=other).delete()
        return
    with transaction.atomic():
        try:
            with transaction.atomic():
                InvitationBlock.objects.create(user=user, blocked=other)
        except IntegrityError:
            pass  # blocked already
        Invitation.objects.for_user(user).filter(invited_by=other).delete()


def refuse_invitations(email: str) -> None:
    """The reader of an invitation sent to `email` wants no more: no host can invite
    that address again. Asking twice changes nothing."""
    RefusedAddress.objects.get_or_create(digest=address_digest(email))


def open_table_with(host, name: str, seats: int, options: dict, turn_limit: int = 0,
                    leaver_bot: bool = False, min_on_time: int = 0, bank_reserve: int = 0,
                    hints_allowed: bool = False, guests=(),
                    bots_of: Game | None = None) -> Game:
    """A new table whose host invites people of their usual group at once and, opened
    from an earlier game (`bots_of`), seats that game's bots again as far as the seats
    left over by the invited allow. All of it, or nothing."""
    guests = list(guests)
    with transaction.atomic():
        game = create_table(host, name, seats, options, turn_limit, leaver_bot, min_on_time,
                            bank_reserve, hints_allowed)
        if bots_of is not None:
            bots = list(bots_of.seats.filter(user=None).order_by("player", "pk"))
            for seat in bots[:max(seats - 1 - len(guests), 0)]:
                seat_bot_like(game, seat)
        invite_group(game, host, guests)
    return game
