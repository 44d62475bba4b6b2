"""Leagues: a group of friends, its seasons, its default table options and its games.

Games are linked to a league from this side (LeagueGame), so games.models knows nothing of
leagues. Two records about games also live here for the same reason: Replacement (a player
replaced by a bot, which decides who earned which round) and Rematch (the seating order a
rematch table should start with).
"""

import datetime

from django.conf import settings
from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from dalmuti_site.channels import ChannelOwner
from games import engine
from games.models import BotLevel, Game, TurnLimit


def validate_options(value) -> None:
    """The same shape as Game.options, checked by the engine itself."""
    if not isinstance(value, dict):
        raise ValidationError(_("The options must be a JSON object."))
    try:
        engine.Options.from_json(value)
    except (TypeError, ValueError) as exc:
        raise ValidationError(
            _("These are not valid table options: %(problem)s"), params={"problem": exc}
        ) from exc


class LeagueQuerySet(models.QuerySet):
    def organised_by(self, user):
        """The leagues `user` runs from the admin: every league for a superuser, else
        those that name them as an organiser."""
        if user.is_superuser:
            return self
        return self.filter(organisers=user) if user.is_authenticated else self.none()

    def of_game(self, game) -> "League | None":
        """The league a table is played in (a game or its id), or None."""
        game_id = getattr(game, "pk", game)
        return self.filter(league_games__game_id=game_id).first()


class League(ChannelOwner):
    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("slug"), unique=True)
    description = models.TextField(_("description"), blank=True)
    active = models.BooleanField(_("active"), default=True)
    default_options = models.JSONField(
        _("default table options"), default=dict, blank=True, validators=[validate_options],
        help_text=_(
            "The options of the league's tables, as stored on a table, e.g. "
            '{"rounds": 10, "reduced_deck": false, "first_round_taxes": true, '
            '"tribute_return": "choice", "merchant_trade": "off", "master_rule": false, '
            '"philanthropic": "off", "target_score": null}. Leave {} for the standard rules.'
        ),
    )
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="leagues",
        verbose_name=_("members"),
    )
    # The people who run the league from the admin (they also need the "league organiser"
    # group, which gives the role its permissions; this says which leagues they reach).
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organised_leagues", blank=True,
        verbose_name=_("organisers"),
        help_text=_("They run this league, its seasons and its tables from the admin."),
    )
    # The clock of the league's tables: over days, one absent friend must not stall a
    # table for ever (reminders, timeouts and the stand-in vote all need a limit).
    turn_limit = models.PositiveIntegerField(
        _("time limit per turn"), choices=TurnLimit.choices, default=TurnLimit.DAY,
        help_text=_("For the tables the admin opens for this league, unless a season or "
                    "the new table says otherwise."),
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)

    objects = LeagueQuerySet.as_manager()

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("league", args=[self.slug])

    def current_season(self, day: datetime.date | None = None):
        day = day or timezone.localdate()
        return self.seasons.filter(start__lte=day, end__gte=day).order_by("-start").first()


class Membership(models.Model):
    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("league")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_memberships",
        verbose_name=_("player"),
    )
    joined = models.DateField(_("joined"), default=timezone.localdate)

    class Meta:
        verbose_name = _("member")
        verbose_name_plural = _("members")
        ordering = ["league", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="one_membership_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.league}"


class Season(models.Model):
    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="seasons", verbose_name=_("league")
    )
    name = models.CharField(_("name"), max_length=80)
    start = models.DateField(_("start"))
    end = models.DateField(_("end"))
    turn_limit = models.PositiveIntegerField(
        _("time limit per turn"), choices=TurnLimit.choices, null=True, blank=True,
        help_text=_("Leave empty for the league's."),
    )

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["league", "-start"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(end__gte=models.F("start")), name="season_ends_after_start"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.league} · {self.name}"

    def clean(self) -> None:
        if self.start and self.end and self.end < self.start:
            raise ValidationError({"end": _("A season cannot end before it starts.")})

    @property
    def table_turn_limit(self) -> int:
        """The time limit of this season's new tables: its own, else its league's."""
        return self.league.turn_limit if self.turn_limit is None else self.turn_limit


def seasons_overlap(seasons) -> ValidationError | None:
    """The error for a league's seasons (each with a name, a start and an end) of which
    two share a day, naming them; None when they follow one another. A new table belongs
    to the season running on its day: there may be only one."""
    ordered = sorted(seasons, key=lambda season: season.start)
    latest = None  # of the seasons before, the one that ends last
    for season in ordered:
        if latest is not None and season.start <= latest.end:
            return ValidationError(
                _("“%(first)s” and “%(second)s” overlap: a league's seasons follow one "
                  "another, so that each new table belongs to one season."),
                code="overlap", params={"first": latest.name, "second": season.name})
        if latest is None or season.end > latest.end:
            latest = season
    return None


class LeagueGame(models.Model):
    """A table played in a league (and, when set, in one of its seasons)."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, related_name="league_link", verbose_name=_("table")
    )
    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="league_games", verbose_name=_("league")
    )
    # A season with tables is not deleted (its tables would leave its standings, and a
    # season made again would not take them back); a league's deletion takes both.
    season = models.ForeignKey(
        Season, on_delete=models.RESTRICT, null=True, blank=True, related_name="league_games",
        verbose_name=_("season"),
    )
    added = models.DateTimeField(_("added"), auto_now_add=True)

    class Meta:
        verbose_name = _("league table")
        verbose_name_plural = _("league tables")
        ordering = ["-added"]

    def __str__(self) -> str:
        return f"{self.game} · {self.league}"

    def clean(self) -> None:
        if self.season_id and self.league_id and self.season.league_id != self.league_id:
            raise ValidationError({"season": _("That season belongs to another league.")})
        moved = self.pk is None or LeagueGame.objects.filter(pk=self.pk).exclude(
            league_id=self.league_id).exists()
        if self.league_id and self.game_id and moved:
            # Its players' results would count in standings their own league page
            # does not show them.
            strangers = sorted(
                {seat.user.name for seat in self.game.seats.filter(user__isnull=False)
                 .exclude(user__league_memberships__league_id=self.league_id)
                 .select_related("user")}
                | {r.user.name for r in self.game.replacements.exclude(
                    user__league_memberships__league_id=self.league_id)
                   .select_related("user")})
            if strangers:
                raise ValidationError({"league": _(
                    "Not members of this league: %(names)s. Add them to its members "
                    "first; their results would count in its standings.")
                    % {"names": ", ".join(strangers)}})


class Replacement(models.Model):
    """A player replaced by a bot during a game. Rounds numbered below `round_number` were
    the user's; from that round on the seat's results are the bot's."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="replacements", verbose_name=_("table")
    )
    player = models.PositiveSmallIntegerField(_("player index"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="replacements",
        verbose_name=_("replaced player"),
    )
    round_number = models.PositiveSmallIntegerField(_("from round"))
    bot_level = models.CharField(_("bot level"), max_length=16, choices=BotLevel.choices)
    bot_name = models.CharField(_("bot name"), max_length=40)
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+", verbose_name=_("by"),
    )
    created = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        verbose_name = _("replacement by a bot")
        verbose_name_plural = _("replacements by a bot")
        ordering = ["game", "created"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="one_replacement_per_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.game}: {self.user} → {self.bot_name}"


class Rematch(models.Model):
    """A table opened as the rematch of a finished one. `order` lists the seat keys of
    the new table ("u<user id>" for people, "b<seat id>" for bots) in the order of the
    previous game's final standings: the order the new game's first round should seat."""

    previous = models.OneToOneField(
        Game, on_delete=models.CASCADE, related_name="rematch", verbose_name=_("previous table")
    )
    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, related_name="rematch_of", verbose_name=_("new table")
    )
    order = models.JSONField(_("seating order"), default=list)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("rematch")
        verbose_name_plural = _("rematches")

    def __str__(self) -> str:
        return f"{self.previous} → {self.game}"


class AdminRecord(models.Model):
    """What somebody did in the admin, kept beside Django's LogEntry, which is deleted
    with the account of whoever acted: who ended or replaced what stays readable after
    an organiser's account is gone (the name is copied, the link is cleared)."""

    class Kind(models.TextChoices):
        ADDITION = "addition", _("addition")
        CHANGE = "change", _("change")
        DELETION = "deletion", _("deletion")
        REVEAL = "reveal", _("look at a game in play")

    created = models.DateTimeField(_("when"), default=timezone.now, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+", verbose_name=_("account"),
    )
    actor_name = models.CharField(_("by"), max_length=150)
    kind = models.CharField(_("what"), max_length=16, choices=Kind.choices)
    content_type = models.ForeignKey(
        ContentType, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("kind of record"),
    )
    object_id = models.CharField(_("record id"), max_length=64, blank=True)
    object_repr = models.CharField(_("record"), max_length=200)
    message = models.TextField(_("details"), blank=True)
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    league = models.ForeignKey(
        League, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("league"),
    )
    game = models.ForeignKey(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("table"),
    )

    class Meta:
        verbose_name = _("admin record")
        verbose_name_plural = _("admin records")
        ordering = ["-created", "-pk"]
        indexes = [models.Index(fields=["content_type", "object_id"])]

    def __str__(self) -> str:
        return f"{self.actor_name} · {self.get_kind_display()} · {self.object_repr}"

    @property
    def actor_gone(self) -> bool:
        """Whoever acted has no account any more: removed in the admin, or deleted by
        its owner (the row stays then, for the games it played)."""
        return self.actor_id is None or self.actor.deleted is not None

    @classmethod
    def from_log_entry(cls, entry: LogEntry, league=None, game=None) -> "AdminRecord":
        kinds = {1: cls.Kind.ADDITION, 2: cls.Kind.CHANGE, 3: cls.Kind.DELETION}
        return cls(
            created=entry.action_time, actor=entry.user, actor_name=entry.user.get_username(),
            kind=kinds.get(entry.action_flag, cls.Kind.CHANGE),
            content_type_id=entry.content_type_id, object_id=entry.object_id or "",
            object_repr=entry.object_repr[:200], message=entry.get_change_message(),
            league=league, game=game,
        )
