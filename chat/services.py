"""Posting at a table, what a seat has read, and the chat's cheap questions for queries
built elsewhere (the poll, "My games"). Chat never touches the Game row, so a message
changes no version, wakes no bot and sends no email."""

import re
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from dalmuti_site.text import plain_line
from games.commands import notifications
from games.core import live
from games.models import Game, Seat

from . import flourishes
from .models import MAX_LENGTH, TOKEN_LENGTH, Message, ReadMarker

# What a form's token for its message may hold (chat/_form.html draws one, the page's
# script makes the next).
TOKEN_CHARACTERS = re.compile(r"[A-Za-z0-9_-]+")

# At most RATE_LIMIT messages per player within RATE_WINDOW seconds (settings may override).
RATE_LIMIT = 6
RATE_WINDOW = 15


class Rejected(Exception):
    """A message that was not posted, with the reason for the player and an HTTP status."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status


def titles(game: Game, me: Seat | None) -> dict[int, str]:
    """Each player's current title key (none before the game starts), as a seat at the
    table or (`me` None) a watcher sees them: titles are public."""
    if game.state is None:
        return {}
    view = game.engine_state().view(me.player if me is not None else None)
    return {view["seats"][i]: title for i, title in enumerate(view["titles"])}


# The sanitiser every player-written line shares (messages, display names, table names).
clean = plain_line


def _token(token: str) -> str:
    """The sending form's token for its message, or "" for one that is not a token."""
    return token if token and len(token) <= TOKEN_LENGTH and TOKEN_CHARACTERS.fullmatch(token) \
        else ""


def _said_already(game: Game, author_id: int | None, token: str) -> Message | None:
    """The message this token was sent with already (under the speaker's lock)."""
    if not token or author_id is None:
        return None
    return Message.objects.filter(game=game, author_id=author_id, token=token).first()


def post(game: Game, seat: Seat, text: str = "", flourish: str = "", token: str = "") -> Message:
    """Say `text` (or a flourish) at the table. A message sent again with the same
    `token` (its answer lost on the way) is not said twice: the first is returned."""
    # The title the line is said under: kept with it, and the flourishes it offers.
    title = titles(game, seat).get(seat.player, "")
    if flourish:
        offered = flourishes.for_title(title)
        if flourish not in {f.key for f in offered}:
            raise Rejected(_("That flourish does not suit your present title."))
        text = ""
    else:
        text = clean(text)
        if not text:
            raise Rejected(_("Write something first."))
        if len(text) > MAX_LENGTH:
            raise Rejected(
                _("A message has at most %(max)d characters; yours has %(count)d.")
                % {"max": MAX_LENGTH, "count": len(text)}
            )
    limit = getattr(settings, "CHAT_RATE_LIMIT", RATE_LIMIT)
    window = getattr(settings, "CHAT_RATE_WINDOW", RATE_WINDOW)
    with transaction.atomic():
        # Lock the speaker's seat: one player's concurrent posts are counted one by one.
        Seat.objects.select_for_update().filter(pk=seat.pk).first()
        token = _token(token)
        if said := _said_already(game, seat.user_id, token):
            return said
        recent = Message.objects.filter(
            seat__user_id=seat.user_id, created__gte=timezone.now() - timedelta(seconds=window)
        ).count()
        if recent >= limit:
            raise Rejected(_("You are talking too fast. Take a breath and try again."), 429)
        message = Message.objects.create(
            game=game, seat=seat, name=seat.name, text=text, flourish=flourish,
            title=title,
            author_id=seat.user_id, token=token,
        )
        tell_the_named(game, message, speaker=seat)
        live.chat_posted(game.pk, message.pk)
        return message


def named_seats(game: Game, text: str, speaker: Seat | None = None) -> list[Seat]:
    """The seated players a message names as "@name" (their name as the table shows it,
    in any case, not part of a longer word or an address): longer names first, so that "@Ada Lee"
    names Ada Lee and not also a player called Ada."""
    folded = text.lower()
    named = []
    seats = [s for s in game.seats.select_related("user").exclude(user=None)
             if speaker is None or s.pk != speaker.pk]
    for seat in sorted(seats, key=lambda s: -len(s.name)):
        needle = "@" + seat.name.lower()
        start = 0
        while (at := folded.find(needle, start)) >= 0:
            end = at + len(needle)
            # A name stands on its own: "@bob," names Bob, "@bobby" and "me@bob.nl" do not.
            alone_before = at == 0 or not (folded[at - 1].isalnum() or folded[at - 1] == "_")
            alone_after = end == len(folded) or not (folded[end].isalnum() or folded[end] == "_")
            if alone_before and alone_after:
                named.append(seat)
                folded = folded[:at] + " " * len(needle) + folded[end:]
                break
            start = at + 1
    return named


def tell_the_named(game: Game, message: Message, speaker: Seat | None = None) -> None:
    """Notify the players a message names (notifications.for_mention decides who is told,
    and sends after the message is committed)."""
    if not message.text:
        return
    for seat in named_seats(game, message.text, speaker):
        notifications.for_mention(game, seat, message.pk)


def seated_names(game: Game, seats: list[Seat] | None = None) -> list[str]:
    """The names the chat input offers after "@": the players seated at the table (from
    `seats`, the table's seats with their users, when the caller has read them)."""
    if seats is None:
        seats = game.seats.select_related("user").exclude(user=None)
    return sorted({s.name for s in seats if s.user_id is not None}, key=str.lower)


def mark_read(seat: Seat, last_id: int) -> None:
    """Move the seat's read marker forward to `last_id` (never back)."""
    if not last_id:
        return
    if not ReadMarker.objects.filter(seat=seat, last_read__lt=last_id).update(last_read=last_id):
        ReadMarker.objects.get_or_create(seat=seat, defaults={"last_read": last_id})


def last_message_id():
    """For annotating a Seat query: the id of the newest message at the seat's table."""
    return Subquery(
        Message.objects.filter(game_id=OuterRef("game_id")).order_by("-pk").values("pk")[:1]
    )


def unread_count():
    """For annotating a Seat query: messages by others that the seat has not been shown."""
    return Coalesce(
        Subquery(
            Message.objects.filter(
                game_id=OuterRef("game_id"),
                pk__gt=Coalesce(OuterRef("chat_read__last_read"), 0),
            )
            .exclude(seat_id=OuterRef("pk"))
            .order_by()
            .values("game_id")
            .annotate(n=Count("pk"))
            .values("n")
        ),
        0,
    )



def post_as_watcher(game: Game, user, text: str, token: str = "") -> Message:
    """A watcher speaks at a table whose host lets watchers talk: plain text only (the
    flourishes belong to the titles at the table), under the same rate limit, said once
    per `token` as a player's message is."""
    if not game.watchers_talk or not game.watch_token:
        raise Rejected(_("Only the players can talk at this table."), 403)
    if game.seats.filter(user=user).exists():
        # A page opened to watch before its reader took a seat: they speak as a player.
        raise Rejected(_("You have a seat at this table: talk there, with the players."),
                       409)
    text = clean(text)
    if not text:
        raise Rejected(_("Write something first."))
    if len(text) > MAX_LENGTH:
        raise Rejected(
            _("A message has at most %(max)d characters; yours has %(count)d.")
            % {"max": MAX_LENGTH, "count": len(text)}
        )
    limit = getattr(settings, "CHAT_RATE_LIMIT", RATE_LIMIT)
    window = getattr(settings, "CHAT_RATE_WINDOW", RATE_WINDOW)
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        token = _token(token)
        if said := _said_already(game, user.pk, token):
            return said
        # One limit per person, for all they say at tables and as a watcher: counted by
        # who wrote, not by the name shown (in the writer's language; two may share one).
        recent = Message.objects.filter(
            author=user, created__gte=timezone.now() - timedelta(seconds=window),
        ).count()
        if recent >= limit:
            raise Rejected(_("You are talking too fast. Take a breath and try again."), 429)
        message = Message.objects.create(game=game, seat=None, name=user.name, text=text,
                                         title="", author=user, by_watcher=True, token=token)
        tell_the_named(game, message)
        live.chat_posted(game.pk, message.pk)
        return message
