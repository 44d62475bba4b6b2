"""A player's record of reliability over the last days, read from the games' own record:
the turns the table waited for them (their moves, and the ones the clock made when their
time ran out: "time ran out: passed for them"), how often the stand-in bot took their
seat (the "stand_in" records), and the games they left before the end (their seats).
Three queries, whatever the number of games.

Moves made by a standing order are not counted: nobody waited for them. Nor is a decision
on a revolution: in a round with taxes nobody knows it was asked for (docs/RULES.md,
section 5), and a count anybody can read must not tell who held both jesters. (The one
decision the table is seen to wait for, the Greater Peon's in a first round without
taxes, goes uncounted with them.)"""

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.core.record import SYSTEM_KINDS
from games.models import Action, Game, Seat

# The record covers this many days back.
RELIABILITY_DAYS = 90
# With fewer turns than this the share says little: a table asking for a share admits
# the player anyway, and says why.
RELIABILITY_MIN_TURNS = 20

# Records that are not a turn of the player: the table's own (the deal, its changes, its
# notes), and the decision on a revolution, taken in private: counting it would tell who
# held both jesters.
NOT_TURNS = SYSTEM_KINDS | {"revolution"}


@dataclass(frozen=True)
class Reliability:
    turns: int
    on_time: int
    timeouts: int
    stand_ins: int
    games: int
    left: int
    days: int = RELIABILITY_DAYS

    @property
    def share(self) -> int | None:
        """The share of turns played on time, in whole per cent (rounded down, so that
        79.9% is not shown as meeting 80%); None without any turn."""
        return self.on_time * 100 // self.turns if self.turns else None

    @property
    def too_few(self) -> bool:
        return self.turns < RELIABILITY_MIN_TURNS

    def basis(self) -> str:
        """What the figures are based on: "over the last 90 days, based on 212 turns in
        9 games"."""
        if not self.turns:
            return _("No turn played in the last %(days)d days.") % {"days": self.days}
        turns = ngettext("%(count)s turn", "%(count)s turns", self.turns) % {
            "count": number_format(self.turns, force_grouping=True)}
        games = ngettext("%(count)s game", "%(count)s games", self.games) % {
            "count": number_format(self.games, force_grouping=True)}
        return _("Over the last %(days)d days, based on %(turns)s in %(games)s.") % {
            "days": self.days, "turns": turns, "games": games}

    def meets(self, minimum: int) -> bool:
        """Whether a table asking for `minimum` per cent admits the player: a new player
        (too few turns to tell) is admitted."""
        return not minimum or self.too_few or self.share >= minimum


def reliability(user, now=None) -> Reliability:
    now = now or timezone.now()
    since = now - timedelta(days=RELIABILITY_DAYS)
    seats = Seat.objects.filter(user=user, player__isnull=False)
    # The record names players by their index at the table; the player's own seat maps it.
    mine = Exists(seats.filter(game=OuterRef("game_id"), player=OuterRef("player")))
    turns = Q(by__in=("player", "timeout")) & ~Q(kind__in=NOT_TURNS)
    figures = Action.objects.filter(
        mine, game__in=seats.values("game"), created__gte=since, created__lte=now,
    ).aggregate(
        turns=Count("pk", filter=turns),
        timeouts=Count("pk", filter=turns & Q(by="timeout")),
        stand_ins=Count("pk", filter=Q(kind="stand_in")),
        games=Count("game", distinct=True, filter=turns),
    )
    left = seats.filter(Q(left=True) | Q(leaving=True)).filter(
        Q(game__finished__gte=since) | Q(game__status=Game.Status.PLAYING,
                                         game__updated__gte=since),
    ).count()
    return Reliability(turns=figures["turns"], on_time=figures["turns"] - figures["timeouts"],
                       timeouts=figures["timeouts"], stand_ins=figures["stand_ins"],
                       games=figures["games"], left=left)


def why_not_admitted(user, minimum: int) -> str:
    """Why a table asking for `minimum` per cent of turns on time does not admit the
    player; "" if it does."""
    if not minimum:
        return ""
    record = reliability(user)
    if record.meets(minimum):
        return ""
    return _("This table is for players who keep at least %(minimum)d%% of their turns on "
             "time. Over the last %(days)d days you kept %(share)d%% (%(on_time)d of "
             "%(turns)d turns).") % {
        "minimum": minimum, "days": record.days, "share": record.share,
        "on_time": record.on_time, "turns": record.turns}
