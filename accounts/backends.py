"""Signing players in, and finding the signed-in player at every request."""

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied

from dalmuti_site.compiled import CompiledQuery

# Every signed-in request looks its player up: the query's SQL compiled once per process.
_PLAYER = CompiledQuery(lambda pk: get_user_model()._default_manager.filter(pk=pk))


class PlayerBackend(ModelBackend):
    """Django's own backend (passwords, permissions, inactive players refused), with the
    signed-in player looked up by a compiled query (dalmuti_site.compiled).

    Django's backend stays listed after this one in AUTHENTICATION_BACKENDS, for the
    sessions begun before, which name it: they stay signed in. A username and password
    this backend refuses are refused outright, so that the password is not checked a
    second time by the backend listed after it."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is not None:
            username = self.account_name(username)
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None and password is not None:
            raise PermissionDenied  # Django's authenticate() stops here and says so
        return user

    @staticmethod
    def account_name(typed: str) -> str:
        """The username as the account spells it: sign-up and invitations take "Ann" and
        "ann" for one name, and a phone's keyboard capitalises the first letter. Where two
        accounts differ only in case (made before sign-up compared names so), the one
        typed exactly is meant."""
        typed = typed.strip()
        names = list(get_user_model()._default_manager.filter(username__iexact=typed)
                     .values_list("username", flat=True)[:2])
        return names[0] if len(names) == 1 else typed

    def get_user(self, user_id):
        found = _PLAYER(user_id)
        user = found[0] if found else None
        return user if user is not None and self.user_can_authenticate(user) else None
