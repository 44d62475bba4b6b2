"""A player's own page setting, and the ratings of players and bot levels.

A rating is a Plackett-Luce belief (openskill) about a player's strength: `mu` is the
best guess and `sigma` its uncertainty, both on the scale shown to players (a newcomer
starts at 1,500 ± 500). Each finished game moves the ratings of everyone in it once, from
the game's final standings (players.services); RatingChange keeps every step, so the
page can draw a rating over time and the rebuild command can compare its own numbers.
"""

from django.conf import settings
from django.db import models
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _

from games.models import BotLevel, Game

# The openskill model's parameters, scaled by 60 from its defaults (25, 25/3, 25/6,
# 25/300) so that the numbers stored are the numbers shown.
MU = 1500.0
SIGMA = 500.0
BETA = 250.0
TAU = 5.0
# Below this many rated games a rating is marked provisional.
PROVISIONAL_GAMES = 5


class PlayerProfile(models.Model):
    """What a player decides about their own player page."""

    class Visibility(models.TextChoices):
        PLAYED_WITH = "played_with", _("Only people I have shared a table with")
        EVERYONE = "everyone", _("Everyone with an account")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_profile",
        verbose_name=_("player"),
    )
    visibility = models.CharField(
        _("who can see my player page"), max_length=16, choices=Visibility.choices,
        default=Visibility.PLAYED_WITH,
    )

    class Meta:
        verbose_name = _("player page setting")
        verbose_name_plural = _("player page settings")

    def __str__(self) -> str:
        return f"{self.user} · {self.visibility}"


class Rating(models.Model):
    """The rating of a person, or of a bot level (every bot of that level shares it)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True,
        related_name="rating", verbose_name=_("player"),
    )
    bot_level = models.CharField(_("bot level"), max_length=16, choices=BotLevel.choices,
                                 blank=True)
    mu = models.FloatField(_("rating"), default=MU)
    sigma = models.FloatField(_("uncertainty"), default=SIGMA)
    games = models.PositiveIntegerField(_("rated games"), default=0)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        ordering = ["-mu"]
        constraints = [
            models.UniqueConstraint(fields=["bot_level"], condition=~models.Q(bot_level=""),
                                    name="one_rating_per_bot_level"),
            models.CheckConstraint(
                condition=(models.Q(user__isnull=False) & models.Q(bot_level=""))
                | (models.Q(user__isnull=True) & ~models.Q(bot_level="")),
                name="rating_is_user_or_bot_level",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name}: {self.shown}"

    @property
    def name(self) -> str:
        return self.user.name if self.user_id else str(BotLevel(self.bot_level).label)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    @property
    def shown(self) -> str:
        return shown(self.mu, self.sigma)


def shown(mu: float, sigma: float) -> str:
    """A rating as players read it, in their language's digits: "1,540 ± 80", held on one
    line (a narrow column broke it after the ±)."""
    return (f"{number_format(round(mu), force_grouping=True)}\u00a0±\u00a0"
            f"{number_format(round(sigma))}")


class RatingChange(models.Model):
    """One rating's step for one finished game: before and after, and the place the game
    gave it among the players rated (leavers share the last place)."""

    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="changes")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    place = models.PositiveSmallIntegerField(_("place"))
    players = models.PositiveSmallIntegerField(_("players"))
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["rating", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["rating", "game"], name="one_change_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.rating.name} · {self.game}: {shown(self.mu, self.sigma)}"

    @property
    def shown(self) -> str:
        return shown(self.mu, self.sigma)

    @property
    def delta(self) -> int:
        return round(self.mu) - round(self.mu_before)
