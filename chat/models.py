"""Table talk: the messages said at a table, and how far each seat has read them."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import former_player
from games.models import Game, Seat

MAX_LENGTH = 500
TOKEN_LENGTH = 40


class Message(models.Model):
    """One thing said at a table: plain text, or a flourish (a key into
    chat.flourishes, so that each reader sees it in their own language)."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="chat_messages", db_index=False,
        verbose_name=_("table"),
    )
    # Kept when a player leaves the lobby; `name` still says who spoke.
    seat = models.ForeignKey(
        Seat, on_delete=models.SET_NULL, null=True, blank=True, related_name="chat_messages",
        verbose_name=_("speaker"),
    )
    name = models.CharField(_("speaker's name"), max_length=150, blank=True)
    # Whose account the message goes with, seated or watching: the seat may go (a lobby
    # left), and a watcher has none.
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                               null=True, blank=True, related_name="+")
    by_watcher = models.BooleanField(default=False)
    text = models.CharField(_("text"), max_length=MAX_LENGTH, blank=True)
    flourish = models.CharField(_("flourish"), max_length=40, blank=True)
    # The speaker's title when they spoke ("" without one: before the start, a watcher):
    # a line said as Great Dalmuti reads so in the rounds after. None: said before titles
    # were kept, shown with the present one (hence null, apart from "").
    title = models.CharField(_("title"), max_length=20, null=True, blank=True)  # noqa: DJ001
    # Its words taken back by its speaker when they deleted their account: the line stays
    # (the others' answers follow it), saying nothing.
    erased = models.BooleanField(_("erased"), default=False)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    # The sending form's token for this message: a message sent again (its answer lost on
    # the way, the player tapping Send once more) is said once. Empty: not given.
    token = models.CharField(max_length=TOKEN_LENGTH, blank=True, default="")

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["game", "pk"]
        indexes = [models.Index(fields=["game", "id"], name="chat_message_game_id")]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(text="") | ~models.Q(flourish="") | models.Q(erased=True),
                name="chat_message_says_something",
            ),
            models.UniqueConstraint(
                fields=["game", "author", "token"], condition=~models.Q(token=""),
                name="chat_message_said_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} · {self.speaker}: {self.text or self.flourish}"

    @property
    def speaker(self) -> str:
        """The name it was said under (none kept once its speaker deleted their account),
        a watcher's marked so in the reader's language."""
        name = self.name or former_player()
        if self.by_watcher:
            return gettext("%(name)s (watching)") % {"name": name}
        return name


class ReadMarker(models.Model):
    """The newest message a seat's player has been shown: what lies beyond is unread."""

    seat = models.OneToOneField(
        Seat, on_delete=models.CASCADE, primary_key=True, related_name="chat_read"
    )
    last_read = models.PositiveBigIntegerField(default=0)

    class Meta:
        verbose_name = _("chat read marker")
        verbose_name_plural = _("chat read markers")

    def __str__(self) -> str:
        return f"{self.seat} read up to {self.last_read}"
