"""A player deletes their account. The row stays, because the records of the games they
played are other players' history too (their seats, their moves, their talk); what made
it theirs goes: name, addresses, devices, channel, settings, memberships, absences, the
tables a host took them off. Every table still going is left as any player leaves it: an
open one they host closes, their seat at another open one is freed, and at a game in
progress a bot plays their cards to the end of the round and they are out from the next
(or the bot plays on, at tables where it takes a leaver's seat)."""

import re

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.models import OutgoingEmail
from chat.models import Message
from leagues.models import Membership
from players.models import PlayerProfile
from push.models import PushSubscription

from ..models import (
    DismissedTip,
    Game,
    Invitation,
    InvitationBlock,
    Notification,
    Pause,
    Removal,
    Seat,
)
from .seats import leave_game
from .tables import _close, remove_seat


def delete_account(user_id: int, erase_talk: bool = False) -> bool:
    """Delete the account: False if it was deleted already (a second submit). With
    `erase_talk`, the words of every message of theirs go too."""
    with transaction.atomic():
        user = get_user_model()._default_manager.select_for_update().get(pk=user_id)
        if user.deleted:
            return False
        _unname(user)
        # Every message of theirs: one said in a lobby they left keeps the name it was
        # said under.
        said = Message.objects.filter(author=user)
        if erase_talk:
            said.update(name="", text="", flourish="", erased=True)
        else:
            said.update(name="")
        for seat in Seat.objects.filter(
                user=user, game__status__in=(Game.Status.OPEN, Game.Status.PLAYING)):
            _leave(seat, user)
        invited = Q(user=user)
        if user.email:  # and those a host sent to their address, typed
            invited |= Q(user=None, email__iexact=user.email)
        Invitation.objects.filter(invited).delete()
        # Their absences and vacations go after they have left every table, whose
        # clocks read them as the leave settles their turn.
        for mine in (InvitationBlock, Notification, DismissedTip, PushSubscription,
                     PlayerProfile, OutgoingEmail, Membership, Pause, Removal):
            mine.objects.filter(user=user).delete()
        user.organised_leagues.clear()
        user.groups.clear()
        user.user_permissions.clear()
        _erase(user)
    return True


# What tables closed this way said before, kept in their rows: still read in each
# reader's language.
EARLIER_REASONS = (gettext_noop("The host deleted their account before the table started."),)


def _leave(seat: Seat, user) -> None:
    """Leave one table as its players see anyone leave it, as it is once locked (it may
    have started or closed since the seats were read)."""
    with transaction.atomic():
        game = Game.locked(seat.game_id)
        seat = game.seats.filter(pk=seat.pk).first()
        if seat is None:
            return
        if game.is_open and game.host_id == user.pk:
            # Every page that says why follows "This table closed before it started."
            _close(game, gettext_noop("The host deleted their account."))
        elif game.is_open:
            remove_seat(game.pk, seat.pk, by_host=False)
        elif game.is_playing and not (seat.leaving or seat.left):
            leave_game(game.pk, user)


def _unname(user) -> None:
    """Their name goes from the talk too where it named them as the talk names a player
    ("@Alice", read as chat.services.named_seats reads it): at each table they have a
    seat at, under the name the table showed them by. Called before the seats go."""
    for seat in Seat.objects.filter(user=user).select_related("user"):
        named = re.compile(rf"(?<!\w)@{re.escape(seat.name)}(?!\w)", re.IGNORECASE)
        for message in Message.objects.filter(game_id=seat.game_id,
                                              text__icontains="@" + seat.name):
            text = named.sub("@…", message.text)
            if text != message.text:
                Message.objects.filter(pk=message.pk).update(text=text)


def _erase(user) -> None:
    user.deleted = timezone.now()
    user.username = f"deleted-{user.pk}"
    user.set_unusable_password()  # every session of theirs ends with it
    user.is_active = user.is_staff = user.is_superuser = False
    user.email, user.email_verified, user.new_email = "", False, ""
    user.display_name = user.first_name = user.last_name = ""
    user.notify = user.Notify.NEVER
    user.time_zone, user.away_until = "", None
    user.channel_url, user.channel_failures, user.channel_paused = "", 0, None
    user.save()
