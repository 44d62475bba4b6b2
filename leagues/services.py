"""What the league organiser does to tables from the admin: open a table for members with
the league's defaults, replace an absent player by a bot, end a stalled game.

Like games.commands, each change runs in one transaction holding the table's row lock.
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import commands
from games.commands import Rejected, group_channel, notifications
from games.commands.base import out_with_the_game, table_touched
from games.core import live
from games.core.usual_group import refuses
from games.models import BotLevel, Game, Invitation, Notification

from .models import League, LeagueGame, Replacement, Season


def create_league_table(
    league: League, host, guests, name: str, bots: int = 0, bot_level: str = BotLevel.BASIC,
    season: Season | None = None, invited_by=None, turn_limit: int | None = None,
) -> Game:
    """A table with the league's default options: the host seated, `bots` bots seated,
    the guests invited; linked to the league and its current season. Its time limit is
    `turn_limit`, else the season's, else the league's.

    The invitations count against the inviter's limits exactly as a host's from the web
    do: the admin is no way around them. Over a limit, nothing is created."""
    guests = [g for g in guests if g.pk != host.pk]
    commands.check_bot_level(bot_level)
    if invited_by is not None and invited_by.pk != host.pk and (
            refuses(invited_by, user=host) or not host.is_active):
        # Seated by an organiser they refuse invitations from: an invitation in all but
        # name, refused as one (told no more than for an invitation).
        raise Rejected(commands.could_not_invite(host.name), 403)
    seats = 1 + len(guests) + bots
    season = season or league.current_season()
    if turn_limit is None:
        turn_limit = season.table_turn_limit if season is not None else league.turn_limit
    with transaction.atomic():
        game = commands.create_table(host, name, seats, league.default_options, turn_limit)
        LeagueGame.objects.create(game=game, league=league, season=season)
        commands.invite_users(game, guests, invited_by or host, limited=True)
        # After the invitations: the bots are named away from the friends invited.
        for _i in range(bots):
            commands.add_bot(game.pk, bot_level)
        if invited_by is not None and invited_by.pk != host.pk:
            # An organiser's table: its host learns it is theirs to start.
            notifications.for_hosting(game, host, invited_by)
    return game


def replace_by_bot(game_id: int, seat_id: int, level: str = BotLevel.BASIC,
                   reason: str = "", by=None) -> Replacement:
    """Give an absent player's seat to a bot, from the round in play on. The Replacement
    keeps the earlier rounds the player's in league standings."""
    commands.check_bot_level(level)
    with transaction.atomic():
        game = Game.locked(game_id)
        if not game.is_playing:
            raise Rejected(_("Only a game in play can have a player replaced."), 409)
        seat = game.seats.select_related("user").filter(pk=seat_id).first()
        if seat is None:
            raise Rejected(_("There is no such seat at this table."), 404)
        if seat.is_bot:
            raise Rejected(_("That seat is already played by a bot."), 409)
        name = commands.free_bot_name(game)
        replacement = Replacement.objects.create(
            game=game, player=seat.player, user=seat.user, round_number=game.round_number,
            bot_level=level, bot_name=name, reason=reason, by=by,
        )
        Invitation.objects.filter(game=game, user=seat.user).delete()
        commands.give_turn_to_bot(game, seat)
        # A bot seat from now on: nothing of the person stays on it (their vacation,
        # their missed turns and the votes about them, their standing orders, a hint).
        seat.user = None
        seat.bot_level = level
        seat.bot_name = name
        seat.vacation_until = None
        seat.timeouts_in_row = 0
        seat.stand_in = False
        seat.pass_trick = ""
        seat.auto_pass = seat.auto_tax_worst = seat.auto_revolution = False
        seat.hint_turn, seat.hint = None, {}
        seat.save(update_fields=["user", "bot_level", "bot_name", "vacation_until",
                                 "timeouts_in_row", "stand_in", "pass_trick", "auto_pass",
                                 "auto_tax_worst", "auto_revolution", "hint_turn", "hint"])
        seat.votes_against.all().delete()
        notifications.for_replaced(game, replacement.user, replacement.pk)
        # Every page of the table shows the bot at its next poll.
        table_touched(game)
        commands.wake_bots(game)
    return replacement


def end_game(game_id: int, reason: str) -> Game:
    """End a stalled game now. Rounds already over keep their points; the round in play
    is left unfinished and scores nothing. Only a game in play stalls: a table that never
    started is the host's to cancel (or closes by itself)."""
    reason = reason.strip()
    if not reason:
        raise Rejected(_("Give the reason for ending the game."))
    with transaction.atomic():
        game = Game.locked(game_id)
        if game.is_over:
            raise Rejected(_("This game is already over."), 409)
        if not game.is_playing:
            raise Rejected(_("This table has not started: only a game in play can be "
                             "ended."), 409)
        game.status = Game.Status.ABANDONED
        out_with_the_game(game)
        game.end_reason = reason[:200]
        game.finished = timezone.now()
        game.awaiting = {}
        # A new version: the open pages learn at once that the game is over.
        game.version += 1
        game.save(update_fields=["status", "end_reason", "finished", "awaiting", "version",
                                 "updated"])
        live.table_changed(game)
        # Everybody at the table hears of it, with the reason, as of any game's end.
        notifications.for_everyone(game, Notification.Kind.OVER)
        group_channel.for_over(game)
    return game
