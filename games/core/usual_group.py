"""The usual group: the people a player has sat at a started table with (a game in play
or over), and who refuses invitations from whom. The commands check invitations against
it; the new-table form, the lobby and the profile list it."""

import hashlib

from django.contrib.auth import get_user_model
from django.db.models import Case, Count, IntegerField, Max, When

from dalmuti_site.compiled import CompiledQuery

from ..models import InvitationBlock, RefusedAddress, Seat

# How many people the lists offer, the most recent companions first.
USUAL_GROUP_SIZE = 40


def _companions(user, user_again, blocked_by_user=None, *fields: str):
    """Rows (user id, `fields` of theirs, last game together, games together) of the
    other people at the user's started tables, the most recent and most frequent
    companions first; without whoever refuses the invitations of `blocked_by_user`.

    The user comes once for each use (`user`, `user_again`, `blocked_by_user`: the same
    id), so that the query compiles with one marker for each (`usual_group`)."""
    tables = Seat.objects.filter(user=user, game__started__isnull=False).values("game")
    rows = (Seat.objects.filter(game__in=tables, user__isnull=False, user__is_active=True)
            .exclude(user=user_again).values("user", *fields)
            .annotate(last=Max("game__started"), games=Count("game", distinct=True))
            .order_by("-last", "-games", "user"))
    if blocked_by_user is not None:
        rows = rows.exclude(user__in=blockers_of(blocked_by_user))
    return rows


# The usual group with the names to show, as a host's page offers it at every load.
_NAMED_GROUP = CompiledQuery(
    lambda user, user_again, blocked_by_user: _companions(
        user, user_again, blocked_by_user, "user__display_name", "user__username",
    )[:USUAL_GROUP_SIZE])


def usual_group(user) -> list[tuple[int, str]]:
    """The people `played_with` lists (whoever refuses the user's invitations left out),
    in its order, as (id, name shown at the table): one query, compiled once. Two who
    show the same name are told apart by their usernames (never the same)."""
    rows = list(_NAMED_GROUP(user.pk, user.pk, user.pk))
    names = [row["user__display_name"] or row["user__username"] for row in rows]
    shared = {name for name in names if names.count(name) > 1}
    return [(row["user"], f"{name} (@{row['user__username']})" if name in shared else name)
            for row, name in zip(rows, names, strict=True)]


def played_with(user, *, include_blockers: bool = False):
    """The people the user has played with, the most recent and most frequent companions
    first (at most USUAL_GROUP_SIZE), as a queryset in that order. Whoever refuses the
    user's invitations is left out unless `include_blockers`."""
    rows = _companions(user, user, None if include_blockers else user)
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


def address_digest(email: str) -> str:
    """How an address that refuses invitations is kept: not the address itself."""
    normal = email.strip().lower()
    return hashlib.sha256(f"dalmuti.refused-address:{normal}".encode()).hexdigest()


def refuses(inviter, user=None, email: str = "") -> bool:
    """Whether the invitee (an account, or whoever has this confirmed address) refuses
    invitations from `inviter`; an address typed for someone without an account may
    refuse them all."""
    blocks = InvitationBlock.objects.filter(blocked=inviter)
    if user is not None:
        return blocks.filter(user=user).exists()
    if not email:
        return False
    return (RefusedAddress.objects.filter(digest=address_digest(email)).exists()
            or blocks.filter(user__email__iexact=email, user__email_verified=True).exists())
