"""The profile's list of the people a player has played with."""

from django.contrib.auth import get_user_model

from games.core.usual_group import blocked_by, played_with


def usual_group_context(user) -> dict:
    """The profile's list: the people the user has played with, and whether the user
    refuses their invitations (those refused stay listed, to be accepted again)."""
    blocked = blocked_by(user)
    people = list(played_with(user))
    listed = {p.pk for p in people}
    people += list(get_user_model().objects.filter(pk__in=blocked - listed))
    return {"usual_group": [{"user": p, "blocked": p.pk in blocked} for p in people]}
