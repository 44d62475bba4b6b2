"""Tables, seats, rounds and the ordered record of every accepted action.

The rules live in games.engine. A table's current engine state is kept as JSON on the
Game row (a snapshot, for speed); the authoritative history is the Action record, from
which the state can always be rebuilt (games.read.replay.rebuild_state).
"""

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop, pgettext_lazy

from dalmuti_site.channels import ChannelOwner
from dalmuti_site.compiled import CompiledQuery
from dalmuti_site.text import plain_line

from . import engine


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_seed() -> int:
    return secrets.randbelow(2**62)


# A turn token is the public version at which a wait began times TOKEN_STEPS, plus the
# private steps the player has taken since (at most a few: a revolution declined).
TOKEN_STEPS = 16


@dataclass(frozen=True)
class Wait:
    """One player's running turn, as Game.awaiting keeps it (the list [token, since,
    deadline] in JSON, and `true` after them for a secret wait): the turn token a move must
    carry, when the wait began, and when it times out (None: no clock, or a bot plays the
    seat).

    A secret wait is one nobody else knows of: a revolution decided by a player the table
    is not seen to wait for (engine.Game.publicly_awaited). Nothing the others can read
    may come from it: it draws on no time bank, and its timeout is no missed turn."""

    token: int
    since: datetime
    deadline: datetime | None = None
    secret: bool = False

    @classmethod
    def from_stored(cls, stored: list) -> "Wait":
        # Waits stored before deadlines were kept have no third item.
        deadline = stored[2] if len(stored) > 2 else None
        return cls(stored[0], datetime.fromisoformat(stored[1]),
                   datetime.fromisoformat(deadline) if deadline else None,
                   len(stored) > 3 and bool(stored[3]))

    def to_stored(self) -> list:
        stored = [self.token, self.since.isoformat(),
                  self.deadline.isoformat() if self.deadline else None]
        return [*stored, True] if self.secret else stored

    @property
    def stored_deadline(self) -> str | None:
        """The deadline as the JSON keeps it (what the poll and the pages compare)."""
        return self.deadline.isoformat() if self.deadline else None

    @property
    def public_token(self) -> int:
        """The token the wait began with, the same through the player's private steps: what
        others do about this turn (a nudge) and what is sent about it (a reminder) holds
        after a revolution declined in private, which must change nothing they can see."""
        return self.token - self.token % TOKEN_STEPS


class BotLevel(models.TextChoices):
    BASIC = "basic", _("Basic bot")
    SKILLED = "skilled", _("Skilled bot")
    EXPERT = "expert", _("Expert bot")


# A bot's level written after its name in brackets, in the case of the words around it,
# as "(host)" is: "Ada (basic bot)".
BOT_LEVEL_AFTER_NAME = {
    BotLevel.BASIC: pgettext_lazy("after a bot's name, in brackets", "basic bot"),
    BotLevel.SKILLED: pgettext_lazy("after a bot's name, in brackets", "skilled bot"),
    BotLevel.EXPERT: pgettext_lazy("after a bot's name, in brackets", "expert bot"),
}


# The bot that plays for an absent player.
STAND_IN_LEVEL = "skilled"


# An open table that nobody starts, and an invitation nobody answers, close after this.
OPEN_TABLE_DAYS = 14
# Why a table closed before its start, kept untranslated on the table (end_reason): each
# reader reads it in their own language.
CANCELLED_BEFORE_START = gettext_noop("The host cancelled the table before it started.")
NOT_STARTED_IN_TIME = gettext_noop("Nobody started the table within 14 days.")


class TurnLimit(models.IntegerChoices):
    NONE = 0, _("No time limit")
    HOUR = 3600, _("1 hour")
    HALF_DAY = 43200, _("12 hours")
    DAY = 86400, _("1 day")
    THREE_DAYS = 259200, _("3 days")


class OnTime(models.IntegerChoices):
    # "70% of" reads to gettext as a format ("% o"): marked as not one, so that its
    # tools do not refuse a translation that writes "70% van".
    ANYONE = 0, _("Anyone may join")
    # xgettext:no-python-format
    SEVENTY = 70, _("Players who keep at least 70% of their turns on time")
    # xgettext:no-python-format
    EIGHTY = 80, _("Players who keep at least 80% of their turns on time")
    # xgettext:no-python-format
    NINETY = 90, _("Players who keep at least 90% of their turns on time")


class TimeBank(models.IntegerChoices):
    NONE = 0, _("No time bank")
    DAY = 86400, _("1 day")
    TWO_DAYS = 172800, _("2 days")
    THREE_DAYS = 259200, _("3 days")
    WEEK = 604800, _("7 days")


class Game(ChannelOwner):
    """A table: its options, its status and who waits, with the game in play stored as
    the engine's state (`state`, read as an `engine.Game` by `engine_state`). Elsewhere
    `Game` is this row and `engine.Game` the rules' object; modules that hold both call
    the engine's a `state`."""

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        PLAYING = "playing", _("In play")
        FINISHED = "finished", _("Finished")
        ABANDONED = "abandoned", _("Ended early")

    name = models.CharField(_("table name"), max_length=80)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hosted_games",
        verbose_name=_("host"),
    )
    seats_wanted = models.PositiveSmallIntegerField(_("seats"), default=5)
    options = models.JSONField(_("options"), default=dict)
    seed = models.BigIntegerField(default=new_seed, editable=False)
    invite_token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    # The engine's Game as JSON; None until the game starts.
    state = models.JSONField(null=True, blank=True, editable=False)
    # Sequence number of the last action in the record (Action.seq).
    seq = models.PositiveIntegerField(default=0, editable=False)
    # The public version: steps only when what every player may see changes, so that a
    # private decision (a revolution declined) is not given away by the pages' polling.
    version = models.PositiveIntegerField(default=0)
    # {player index: [turn token, ISO time the wait began, ISO deadline or None]} for every
    # player the game now waits for; read and written through Wait (waits, wait_for,
    # set_waits). A turn token is the public version at which the wait
    # began, times TOKEN_STEPS, plus the private steps the player took since (see Wait).
    awaiting = models.JSONField(default=dict, blank=True, editable=False)
    round_number = models.PositiveSmallIntegerField(_("round"), default=0)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    started = models.DateTimeField(_("started"), null=True, blank=True)
    finished = models.DateTimeField(_("finished"), null=True, blank=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)
    end_reason = models.CharField(_("reason for ending early"), max_length=200, blank=True)
    turn_limit = models.PositiveIntegerField(
        _("time limit per turn"), choices=TurnLimit.choices, default=TurnLimit.NONE
    )
    # A time bank beside the limit per turn (games.core.clock.Rules): the reserve each
    # player starts with, and what is left of each player's, by user id (seconds; a
    # player not in it has the whole reserve).
    bank_reserve = models.PositiveIntegerField(
        _("time bank"), choices=TimeBank.choices, default=TimeBank.NONE)
    banks = models.JSONField(default=dict, blank=True, editable=False)
    # A player who leaves a game in progress hands their seat to a bot for good, instead
    # of the table closing up (the host's choice when opening the table).
    leaver_bot = models.BooleanField(_("a bot takes the seat of a player who leaves"),
                                     default=False)
    # Set while the host lets people without a seat watch by link (the public view only).
    watch_token = models.CharField(max_length=64, blank=True, db_index=True, editable=False)
    # Whether those watching may read and join the table talk (the host's choice).
    watchers_talk = models.BooleanField(_("watchers may talk at the table"), default=False)
    # Only players who kept at least this share (per cent) of their turns on time lately
    # may take a seat (0: anyone); see players.reliability.
    min_on_time = models.PositiveSmallIntegerField(
        _("players who keep their turns"), choices=OnTime.choices, default=OnTime.ANYONE)
    # The host lets the players ask for a hint at their turn; such games are not rated.
    hints_allowed = models.BooleanField(_("hints allowed"), default=False)
    # "Learn by playing": the player's first game against bots, with a tip the first time
    # each situation arises (games.read.tips).
    guided = models.BooleanField(_("guided game"), default=False)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["-updated"]

    def __str__(self) -> str:
        return self.name

    @classmethod
    def from_db(cls, db, field_names, values):
        game = super().from_db(db, field_names, values)
        game.note_step()
        return game

    def refresh_from_db(self, *args, **kwargs):
        super().refresh_from_db(*args, **kwargs)
        self.note_step()

    def note_step(self) -> None:
        """Remember the public version and record number this row was read at: a change
        made through it is announced as a step from there, so that an open page showing
        that version can be brought up to date from the announcement alone
        (games.core.live)."""
        loaded = self.__dict__
        self.step_from = ((loaded["version"], loaded["seq"])
                          if "version" in loaded and "seq" in loaded else None)

    def save(self, *args, **kwargs):
        # Whatever names the table (the form, a rematch, a league, the admin), it is shown
        # as typed.
        self.name = plain_line(self.name)
        super().save(*args, **kwargs)

    @property
    def bank_days(self) -> int:
        """The time bank in whole days (every choice is), for a sentence that declines
        them as its language does: German "ein Zeitkonto von 2 Tagen"."""
        return self.bank_reserve // TimeBank.DAY

    def get_absolute_url(self) -> str:
        return reverse("game", args=[self.pk])

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    @property
    def is_playing(self) -> bool:
        return self.status == self.Status.PLAYING

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABANDONED)

    @property
    def status_label(self) -> str:
        """The table's state as players read it: one that never started "closed before it
        started", not "ended early" as its stored status says."""
        if self.status == self.Status.ABANDONED and self.started is None:
            return _("Closed before it started")
        return self.get_status_display()

    @property
    def ended_early(self) -> bool:
        """Started, then ended before its end (by an organiser): its round in play never
        ends, so the table is shown no more, only its record."""
        return self.status == self.Status.ABANDONED and self.state is not None

    def engine_state(self) -> engine.Game:
        """The stored snapshot of the game, as the engine's Game (None before the start).

        Read once per snapshot: a move's answer asks for it a handful of times (the
        command, the update, each reader's own part), and the engine's Game never changes
        once made. A new snapshot is a new dict (`save_state`, `refresh_from_db`)."""
        read = self.__dict__.get("_engine_state")
        if read is not None and read[0] is self.state:
            return read[1]
        state = engine.Game.from_json(self.state)
        self._engine_state = (self.state, state)
        return state

    def keep_state(self, state: engine.Game) -> None:
        """Hold `state` as the game's snapshot (saved with the row), already read."""
        self.state = state.to_json()
        self._engine_state = (self.state, state)

    def engine_options(self) -> engine.Options:
        return engine.Options.from_json(self.options)

    @classmethod
    def locked(cls, game_id: int) -> "Game":
        """The table, read under its row lock (inside a transaction), as
        `select_for_update().get(pk=game_id)` reads it: every change to a table begins so."""
        game = cls.locked_if_there(game_id)
        if game is None:
            raise cls.DoesNotExist("Game matching query does not exist.")
        return game

    @classmethod
    def locked_if_there(cls, game_id: int) -> "Game | None":
        """`locked`, or None when there is no such table (work sent for a table since
        deleted)."""
        return next(iter(_LOCKED_TABLE(game_id)), None)

    def seats_with_users(self, by_pk: bool = False) -> list["Seat"]:
        """The table's seats with their users, in the seats' order (or by `pk`), each
        knowing this table: what `self.seats.select_related("user")` reads, the query that
        nearly every page and move makes compiled once (dalmuti_site.compiled)."""
        seats = (_SEATS_BY_PK if by_pk else _SEATS)(self.pk)
        for seat in seats:
            seat.game = self
        return seats

    def waits(self) -> dict[int, Wait]:
        """The running waits, by player."""
        return {int(player): Wait.from_stored(wait) for player, wait in self.awaiting.items()}

    def wait_for(self, player: int | None) -> Wait | None:
        """The player's running wait, if the game waits for them."""
        stored = self.awaiting.get(str(player)) if player is not None else None
        return Wait.from_stored(stored) if stored else None

    def set_waits(self, waits: dict[int, Wait]) -> None:
        """Keep these waits (in this order) as the running ones; the caller saves."""
        self.awaiting = {str(player): wait.to_stored() for player, wait in waits.items()}


class Seat(models.Model):
    """A place at a table, held by a user or a bot. `player` is the engine's stable player
    index, fixed when the game starts (the round seat changes with every round)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="seats", verbose_name=_("user"),
    )
    bot_level = models.CharField(
        _("bot level"), max_length=16, choices=BotLevel.choices, blank=True
    )
    bot_name = models.CharField(_("bot name"), max_length=40, blank=True)
    player = models.PositiveSmallIntegerField(_("player number"), null=True, blank=True)
    joined = models.DateTimeField(_("joined"), auto_now_add=True)
    # When the player last looked at or acted at this table (they may be watching live).
    last_seen = models.DateTimeField(_("last seen"), null=True, blank=True)
    # When the player first had this round's deal in front of them: the hold on the bots'
    # choices after a deal ends soon after everybody has (games.core.clock).
    deal_seen = models.DateTimeField(_("saw the deal"), null=True, blank=True)
    # A move everybody saw (never a private step: see commands.moves.act).
    last_acted = models.DateTimeField(_("last move"), null=True, blank=True)
    # Decisions of this seat's bot that a simpler level made because its own level failed
    # (raised, overran its time): the host is told, and which level made the last one.
    bot_stand_ins = models.PositiveIntegerField(default=0)
    bot_stand_in_level = models.CharField(max_length=16, blank=True)
    # Absent players: consecutive turns that timed out, and a bot standing in.
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    stand_in = models.BooleanField(_("a bot stands in"), default=False)
    # Joining and leaving a game in progress (docs/RULES.md section 8): both take effect
    # when the round in play ends. A newcomer has no player id until then; when there are two middle
    # places the Great Dalmuti picks the "upper" or "lower" one (default: lower).
    joining = models.BooleanField(default=False)
    join_choice = models.CharField(max_length=8, blank=True)
    leaving = models.BooleanField(default=False)
    left = models.BooleanField(default=False)
    # Vacation: the clock is paused until then; at most VACATION_DAYS per game in all.
    vacation_until = models.DateTimeField(null=True, blank=True)
    vacation_used = models.DurationField(default=timedelta)
    # Standing orders, private to the player.
    auto_pass = models.BooleanField(
        _("pass automatically whenever I cannot beat the table"), default=True
    )
    auto_tax_worst = models.BooleanField(_("return my worst cards in taxes"), default=False)
    # Said beforehand for a round the player may not be there to decide in time (the
    # decision closes when the Dalmutis have chosen): see standing_order_action.
    auto_revolution = models.BooleanField(
        _("call a revolution when dealt both Jesters as a Peon"), default=False)
    # "Pass for the rest of this trick": the trick it holds for (see games.core.turns.trick_key).
    pass_trick = models.CharField(max_length=32, blank=True)
    # The player's first table: the page explains their standing orders there.
    first_game = models.BooleanField(default=False)
    # No email or push when someone names the player in this table's talk.
    talk_muted = models.BooleanField(_("no notices of table talk"), default=False)
    # The last hint given to this seat (tables with hints allowed): the turn token it was
    # for and what it suggested, so that asking again in the same turn costs nothing.
    hint_turn = models.PositiveIntegerField(null=True, blank=True)
    hint = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["player", "joined", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_seat_per_user"),
            models.UniqueConstraint(fields=["game", "player"], name="one_seat_per_player"),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | ~models.Q(bot_level=""),
                name="seat_is_user_or_bot",
            ),
            models.CheckConstraint(
                condition=models.Q(bot_level__in=["", *BotLevel.values]),
                name="seat_bot_level_known",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @classmethod
    def for_user(cls, game: "Game", user, **fields) -> "Seat":
        """A new seat for a person, with the standing orders of their profile."""
        return cls.objects.create(
            game=game, user=user, auto_pass=user.auto_pass, auto_tax_worst=user.auto_tax_worst,
            auto_revolution=user.auto_revolution,
            first_game=not cls.objects.filter(user=user).exists(), **fields)

    @property
    def is_bot(self) -> bool:
        return self.user_id is None

    @property
    def level_after_name(self) -> str:
        """"basic bot", as the lobby writes it after a bot's name."""
        return str(BOT_LEVEL_AFTER_NAME[self.bot_level]) if self.bot_level else ""

    @property
    def paused_until(self):
        """Until when the player's clock waits: a vacation at this table, or their
        account-wide absence, whichever lasts longer."""
        pauses = [self.vacation_until, self.user.away_until if self.user_id else None]
        return max((p for p in pauses if p), default=None)

    @property
    def played_by_bot(self) -> bool:
        """A bot makes this seat's moves: a bot seat, or a bot standing in."""
        return self.user_id is None or self.stand_in

    @property
    def bot_to_play(self) -> str:
        return self.bot_level or STAND_IN_LEVEL

    @property
    def name(self) -> str:
        if self.user_id is None:
            return self.bot_name or str(_("Bot"))
        return self.user.name


_LOCKED_TABLE = CompiledQuery(lambda game_id: Game.objects.select_for_update().filter(pk=game_id))
_SEATS = CompiledQuery(
    lambda game_id: Seat.objects.filter(game_id=game_id).select_related("user"))
_SEATS_BY_PK = CompiledQuery(
    lambda game_id: Seat.objects.filter(game_id=game_id).select_related("user").order_by("pk"))


class Pause(models.Model):
    """A stretch of time during which a player's clock stood (or stands) still: a vacation
    at one table, or an absence from every table (`game` None). The turn clock counts only
    the time outside pauses, so a pause ended early adds exactly the time it lasted."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="pauses")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, null=True, blank=True,
                             related_name="pauses")
    start = models.DateTimeField()
    end = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["user", "end"], name="pause_user_end")]

    def __str__(self) -> str:
        return f"{self.user} pauses {self.start:%Y-%m-%d %H:%M}–{self.end:%Y-%m-%d %H:%M}"


class InvitationQuerySet(models.QuerySet):
    def for_user(self, user):
        """Invitations by username, and by email address to whoever now has that address."""
        mine = models.Q(user=user)
        if user.verified_email:
            mine |= models.Q(user=None, email__iexact=user.verified_email)
        return self.filter(mine)


class Invitation(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True,
        related_name="invitations",
    )
    email = models.EmailField(blank=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    # The language of the invitation email when the address has no account (the
    # inviter's, as the best guess).
    language = models.CharField(max_length=8, blank=True)

    objects = InvitationQuerySet.as_manager()

    class Meta:
        constraints = [
            # One by the player's name and one by each address typed for them: a host
            # who invites both ways is told nothing of whose the address is.
            models.UniqueConstraint(
                Lower("email"), "game", "user", condition=models.Q(user__isnull=False),
                name="one_invitation_per_user_and_way",
            ),
            models.UniqueConstraint(
                Lower("email"), "game", condition=models.Q(user__isnull=True),
                name="one_invitation_per_address",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} ← {self.user or self.email}"

    @property
    def lapses(self):
        """When the invitation lapses if nobody answers it: OPEN_TABLE_DAYS after it went
        out, or before, when its table closes because nobody started it."""
        lapses = self.created + timedelta(days=OPEN_TABLE_DAYS)
        if self.game.is_open:
            lapses = min(lapses, self.game.created + timedelta(days=OPEN_TABLE_DAYS))
        return lapses


class InvitationBlock(models.Model):
    """`user` refuses invitations from `blocked`: by name, by address, from the usual
    group, to a rematch. The blocked player is only ever told that the invitation could
    not be sent."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="invitation_blocks", verbose_name=_("player"))
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="+", verbose_name=_("may not invite them"))
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("blocked inviter")
        verbose_name_plural = _("blocked inviters")
        constraints = [
            models.UniqueConstraint(fields=["user", "blocked"], name="one_block_per_pair"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ⊘ {self.blocked}"


class RefusedAddress(models.Model):
    """Someone without an account, invited by their address, asked for no invitation
    ever again (from the link in the invitation). Kept as a digest: the site keeps no
    address of a person who never joined."""

    digest = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("address that refuses invitations")
        verbose_name_plural = _("addresses that refuse invitations")

    def __str__(self) -> str:
        return self.digest[:12]


class RemovalQuerySet(models.QuerySet):
    def with_invited_again(self):
        """Each removal with `invited_again`: whether the host invited the player to that
        table again since (which ends the removal), by their username or by the address
        they confirmed (as `InvitationQuerySet.for_user` finds a player's invitations);
        asked along with the rows, not once per row."""
        invitations = Invitation.objects.filter(game_id=models.OuterRef("game_id"))
        by_name = invitations.filter(user_id=models.OuterRef("user_id"))
        by_address = invitations.filter(
            user=None, email__iexact=models.OuterRef("user__email")).exclude(email="")
        again = models.Q(models.Exists(by_name)) | models.Q(
            models.Exists(by_address), user__email_verified=True)
        return self.annotate(
            invited_again=models.ExpressionWrapper(again, output_field=models.BooleanField()))


class Removal(models.Model):
    """The host took `user` off their table before it started. Their link to the table
    says so (instead of "no table here"), and the table's own link seats them again only
    once the host invites them again, as the host was promised."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="removals",
                             verbose_name=_("table"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+", verbose_name=_("player"))
    created = models.DateTimeField(auto_now_add=True)

    objects = RemovalQuerySet.as_manager()

    class Meta:
        verbose_name = _("player taken off a table")
        verbose_name_plural = _("players taken off tables")
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_removal_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.game} ✕ {self.user}"

    @staticmethod
    def keeps_out(game: Game, user) -> bool:
        """Whether the host took `user` off this table and has not invited them again
        since: the table's link does not seat them, and their link to it says why."""
        return Removal.objects.with_invited_again().filter(
            game=game, user=user, invited_again=False).exists()


class NeverDealtIn(models.Model):
    """A newcomer who waited for the next round when the game ended (by agreement, at its
    target score, for want of players): their seat went with the round that never came,
    and their link to the table says so instead of "no table here"."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="never_dealt_in",
                             verbose_name=_("table"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+", verbose_name=_("player"))
    created = models.DateTimeField(_("when the game ended"), auto_now_add=True)

    class Meta:
        verbose_name = _("newcomer never dealt in")
        verbose_name_plural = _("newcomers never dealt in")
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="never_dealt_in_once"),
        ]

    def __str__(self) -> str:
        return f"{self.game} ✕ {self.user}"


class Round(models.Model):
    """One round of a game as a row: the deal and, once over, its result (the round in
    play itself is the engine's `engine.Round`, inside the stored state)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    # Player indices in position order at the start of the round (index 0: Great Dalmuti).
    positions = models.JSONField(_("players by position"), default=list)
    # The hands as dealt, indexed like `positions`. Private: never shown during play.
    hands = models.JSONField(default=list)
    # Player indices in finishing order, and points per player index; set when over.
    finish_order = models.JSONField(_("finishing order"), default=list, blank=True)
    points = models.JSONField(_("points"), default=dict, blank=True)
    revolution = models.CharField(_("revolution"), max_length=16, blank=True)
    started = models.DateTimeField(_("started"), auto_now_add=True)
    finished = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="one_round_per_number"),
        ]

    def __str__(self) -> str:
        return f"{self.game} · {self.number}"


class Action(models.Model):
    """The durable, ordered record of a game: one row per accepted action (the engine's
    actions, `engine.Play`, `engine.Pass`…, are its `payload`).

    `payload` is the engine action as JSON; `events` is what the engine reported as its
    consequences (for the log). `player` is None for system records (the start).
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions",
                             verbose_name=_("game"))
    seq = models.PositiveIntegerField(_("number in the record"))
    round_number = models.PositiveSmallIntegerField(_("round"), default=0)
    player = models.PositiveSmallIntegerField(_("player number"), null=True, blank=True)
    kind = models.CharField(_("kind"), max_length=24)
    payload = models.JSONField(_("the move, as the engine reads it"), default=dict)
    events = models.JSONField(_("what followed, as the log tells it"), default=list)
    # The turn token of the page a player acted from: a resent page is recognised as a
    # move already recorded.
    turn = models.PositiveIntegerField(_("turn of the page it was made on"), null=True,
                                       blank=True)
    # Who made it: a user, a bot, or the clock (timeouts).
    by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+", verbose_name=_("account"),
    )
    by = models.CharField(_("made by"), max_length=16, default="player")
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("action")
        verbose_name_plural = _("actions")
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="one_action_per_seq"),
        ]

    def __str__(self) -> str:
        # Its kind is the record's own name for it: the admin says it in words beside.
        return f"{self.game} #{self.seq}"


def left_from() -> models.Expression:
    """For a query of seats: the first round that is no longer its person's, for a seat
    whose person left (or is leaving) the game: the round of their "leaving" note
    (commands.seats.leave_game), from which a bot played their cards, to that round's end
    or the game's. None for a seat whose person never left, or left before the record kept
    the note (those games count every round of the seat as the person's, as they always
    did). Read only for the seats that left: a subquery on the table's record."""
    note = Action.objects.filter(game_id=models.OuterRef("game_id"),
                                 player=models.OuterRef("player"), kind="leaving")
    return models.Case(
        models.When(models.Q(left=True) | models.Q(leaving=True),
                    then=models.Subquery(note.order_by("seq").values("round_number")[:1])),
        default=None, output_field=models.PositiveSmallIntegerField())


class StandInVote(models.Model):
    """A player's vote to let the stand-in bot play for `target`, who missed turns in a
    row. Votes count until the target acts again (Seat.last_acted)."""

    target = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="votes_against")
    voter = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["target", "voter"], name="one_vote_per_voter"),
        ]

    def __str__(self) -> str:
        return f"{self.voter} votes a stand-in for {self.target}"


# A proposal to end the game by agreement lapses after this.
END_PROPOSAL_LASTS = timedelta(days=1)


class EndProposal(models.Model):
    """A player's proposal to end the game after the round in play; the humans seated
    vote, and a majority of them ends it (games.commands.agreement). At most one is open
    per table; each step is in the Action record too (kinds "end_proposal", "end_vote",
    "end_closed", and "ending" when agreed)."""

    class Outcome(models.TextChoices):
        OPEN = "", _("open")
        AGREED = "agreed", _("agreed")
        DECLINED = "declined", _("declined")
        LAPSED = "lapsed", _("lapsed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="end_proposals")
    proposer = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(default=timezone.now)
    expires = models.DateTimeField()
    outcome = models.CharField(max_length=16, choices=Outcome.choices, blank=True,
                               default=Outcome.OPEN)
    closed = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game"], condition=models.Q(outcome=""),
                                    name="one_open_end_proposal"),
        ]

    def __str__(self) -> str:
        return f"{self.game}: end proposed by {self.proposer} ({self.outcome or 'open'})"


class EndVote(models.Model):
    """A seated player's answer to a proposal to end the game (the proposer's yes
    included)."""

    proposal = models.ForeignKey(EndProposal, on_delete=models.CASCADE, related_name="votes")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    agree = models.BooleanField()
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["proposal", "seat"], name="one_end_vote_per_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.seat} {'agrees' if self.agree else 'declines'}"


class Notification(models.Model):
    """A notification a player is due, derived from the table's state: one row per player,
    game, state they must act in (`key`) and channel, so it can never be sent twice."""

    class Channel(models.TextChoices):
        EMAIL = "email", _("email")
        PUSH = "push", _("push")
        # The player's own chat channel (Telegram, ntfy, …), beside the other two.
        CHAT = "chat", _("your channel")

    class Kind(models.TextChoices):
        TURN = "turn", _("Your turn")
        REMINDER = "reminder", _("Reminder")
        STARTED = "started", _("The game started")
        OVER = "over", _("The game is over")
        DAILY = "daily", _("Daily summary")
        NUDGE = "nudge", _("A nudge from another player")
        EXPIRING = "expiring", _("An open table is about to close")
        LAPSING = "lapsing", _("An invitation is about to lapse")
        TIMED_OUT = "timed_out", _("Your time ran out")
        STAND_IN = "stand_in", _("The stand-in plays for you")
        MENTION = "mention", _("Named in the table talk")
        END_PROPOSED = "end_proposed", _("A proposal to end the game")
        REPLACED = "replaced", _("Your seat was given to a bot")
        REMOVED = "removed", _("The host took you off a table")
        HOSTING = "hosting", _("A table opened for you to host")
        CLOSED = "closed", _("A table closed before it started")
        SEATED = "seated", _("Everyone is seated at a table you host")
        JOIN_PLACE = "join_place", _("A newcomer waits for your choice of their place")
        NEVER_DEALT_IN = "never_dealt_in", _("A game ended before your first round")
        INVITED = "invited", _("An invitation to a table")

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        SENDING = "sending", _("sending")
        SENT = "sent", _("sent")
        SKIPPED = "skipped", _("not needed")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="notifications")
    # None for a daily summary, which covers every game waiting for the player.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="notifications",
                             null=True, blank=True)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    key = models.CharField(max_length=80)
    # Each channel is claimed, sent and recorded on its own: an email that fails and is
    # retried never pushes twice, and the other way round.
    channel = models.CharField(max_length=8, choices=Channel.choices, default=Channel.EMAIL)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING,
                              db_index=True)
    due = models.DateTimeField(db_index=True)
    created = models.DateTimeField(auto_now_add=True)
    claimed = models.DateTimeField(null=True, blank=True)
    sent = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    note = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["due"]
        constraints = [
            models.UniqueConstraint(fields=["user", "key", "channel"],
                                    name="one_notification_per_state_and_channel"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} → {self.user} ({self.game})"


class DismissedTip(models.Model):
    """A tip of the guided game that the player has read and dismissed: it is not shown
    to them again, at any table."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="dismissed_tips")
    key = models.CharField(max_length=24)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="one_dismissal_per_tip"),
        ]

    def __str__(self) -> str:
        return f"{self.user} dismissed {self.key}"


class ChannelNotice(models.Model):
    """A short public notice for the table's group channel (the game started, whose turn
    it is, a round's result, the end, a nudge): one row per table and event (`key`), so
    it is never sent twice. Only what every spectator sees, when they see it."""

    class Kind(models.TextChoices):
        STARTED = "started", _("The game started")
        TURN = "turn", _("Whose turn it is")
        ROUND = "round", _("A round's result")
        OVER = "over", _("The game is over")
        NUDGE = "nudge", _("A nudge")
        TEST = "test", _("A test message")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="channel_notices")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    key = models.CharField(max_length=80)
    # What the notice names (players, the round), read when it is written.
    payload = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=16, choices=Notification.Status.choices,
                              default=Notification.Status.PENDING, db_index=True)
    due = models.DateTimeField(db_index=True)
    created = models.DateTimeField(auto_now_add=True)
    claimed = models.DateTimeField(null=True, blank=True)
    sent = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    note = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["due"]
        constraints = [
            models.UniqueConstraint(fields=["game", "key"], name="one_channel_notice_per_event"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} → {self.game}"


class Review(models.Model):
    """The expert's review of a finished game: every decision with a real choice that a
    person made (``ReviewedDecision``), judged from that player's own view at the time
    (games.engine.review), and per player a summary (``ReviewSummary``).

    Computed in the background after the game (games.commands.reviews): each decision is
    judged and saved on its own, so a worker that dies loses at most the decision it was
    judging and the next one goes on from there. ``seed`` and ``samples`` fix the review:
    the same record, seed and samples give the same review."""

    class Status(models.TextChoices):
        RUNNING = "running", _("in progress")
        DONE = "done", _("done")

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="review")
    seed = models.BigIntegerField()
    samples = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.RUNNING)
    total = models.PositiveIntegerField(default=0)
    judged = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)
    # Moved on every decision judged: a running review that stopped moving has lost its
    # worker, and the sweep sends it again.
    updated = models.DateTimeField(default=timezone.now)
    # The worker's CPU seconds spent judging, summed over its decisions.
    cpu_seconds = models.FloatField(default=0)

    def __str__(self) -> str:
        return f"review of {self.game} ({self.judged}/{self.total})"

    @property
    def is_done(self) -> bool:
        return self.status == self.Status.DONE

    @property
    def percent(self) -> int:
        return 100 if not self.total else int(100 * self.judged / self.total)


class ReviewedDecision(models.Model):
    """One decision of a review: the recorded action ``seq`` by ``player``; until judged,
    ``judged`` is None, and ``claimed`` says when a worker took it to judge (others leave
    it for a while: games.commands.reviews). ``verdict`` is
    ``engine.review.Judgement.to_json()``."""

    review = models.ForeignKey(Review, on_delete=models.CASCADE, related_name="decisions")
    seq = models.PositiveIntegerField()
    round_number = models.PositiveSmallIntegerField(default=0)
    player = models.PositiveSmallIntegerField()
    claimed = models.DateTimeField(null=True, blank=True)
    judged = models.DateTimeField(null=True, blank=True)
    loss = models.FloatField(null=True, blank=True)
    kind = models.CharField(max_length=12, blank=True)
    verdict = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["review", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["review", "seq"], name="one_judgement_per_action"),
        ]
        indexes = [models.Index(fields=["review", "judged"], name="review_decisions_pending")]

    def __str__(self) -> str:
        return f"{self.review.game} #{self.seq} ({self.kind or 'good'})"


class ReviewSummary(models.Model):
    """One player's figures in a game's review: decisions judged, counts per class, mean
    places lost per decision and the accuracy (``engine.review.decision_accuracy``)."""

    review = models.ForeignKey(Review, on_delete=models.CASCADE, related_name="summaries")
    player = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="review_summaries")
    decisions = models.PositiveIntegerField(default=0)
    inaccuracies = models.PositiveIntegerField(default=0)
    mistakes = models.PositiveIntegerField(default=0)
    blunders = models.PositiveIntegerField(default=0)
    places_lost = models.FloatField(default=0)
    accuracy = models.FloatField(default=100)
    game_finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["review", "player"]
        constraints = [
            models.UniqueConstraint(fields=["review", "player"], name="one_summary_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.review.game} player {self.player}: {self.accuracy:.0f}%"
