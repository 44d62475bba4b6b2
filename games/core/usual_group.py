"""The usual group: the people a player has sat at a started table with (a game in play
or over), and who refuses invitations from whom. The commands check invitations against
it; the new-table form, the lobby and the profile list it."""

from django.contrib.auth import get_user_model
from django.db.models import Case, Count, IntegerField, Max, When

from ..models import InvitationBlock, Seat

# How many people the lists offer, the most recent companions first.
USUAL_GROUP_SIZE = 40


def _companions(user):
    """Rows (user id, last game together, games together) of the other people at the
    user's started tables."""
    tables = Seat.objects.filter(user=user, game__started__isnull=False).values("game")
    return (Seat.objects.filter(game__in=tables, user__isnull=False, user__is_active=True)
            .exclude(user=user).values("user")
            .annotate(last=Max("game__started"), games=Count("game", distinct=True))
            .order_by("-last", "-games", "user"))


def played_with(user, *, include_blockers: bool = False):
    """The people the user has played with, the most recent and most frequent companions
    first (at most USUAL_GROUP_SIZE), as a queryset in that order. Whoever refuses the
    user's invitations is left out unless `include_blockers`."""
    rows = _companions(user)
    if not include_blockers:
        rows = rows.exclude(user__in=blockers_of(user))
    ids = [row["user"] for row in rows[:USUAL_GROUP_SIZE]]
    order = Case(*[When(pk=pk, then=index) for index, pk in enumerate(ids)],
                 output_field=IntegerField())
    return get_user_model().objects.filter(pk__in=ids).order_by(order)


def blockers_of(user):
    """The ids of the people who refuse invitations from `user`."""
    return InvitationBlock.objects.filter(blocked=user).values("user")


def blocked_by(user) -> set[int]:
    """The ids of the people `user` refuses invitations from."""
    return set(InvitationBlock.objects.filter(user=user).values_list("blocked", flat=True))


def refuses(inviter, user=None, email: str = "") -> bool:
    """Whether the invitee (an account, or whoever has this confirmed address) refuses
    invitations from `inviter`."""
    blocks = InvitationBlock.objects.filter(blocked=inviter)
    if user is not None:
        return blocks.filter(user=user).exists()
    return bool(email) and blocks.filter(user__email__iexact=email,
                                         user__email_verified=True).exists()
