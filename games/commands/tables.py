"""Before the start and between games: opening a table, taking and leaving seats, bots,
invitations, the start (the seating draw and the first deal) and rematches."""

import re
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import throttle
from games.commands import group_channel, notifications
from games.core import background
from games.core.turns import no_next_round, room_for_newcomers
from games.core.usual_group import refuses
from leagues.models import League, LeagueGame, Rematch
from players.reliability import why_not_admitted

from .. import engine
from ..models import (
    CANCELLED_BEFORE_START,
    NOT_STARTED_IN_TIME,
    OPEN_TABLE_DAYS,
    BotLevel,
    Game,
    Invitation,
    Notification,
    OnTime,
    Removal,
    Seat,
    new_token,
)
from .base import Rejected, begin_round, save_state
from .moves import run_automatic, wake_bots
from .seats import answer_invitations, free_bot_name, keep_names_apart, names_taken, taken_off


def create_table(host, name: str, seats: int, options: dict, turn_limit: int = 0,
                 leaver_bot: bool = False, min_on_time: int = 0,
                 bank_reserve: int = 0, hints_allowed: bool = False,
                 guided: bool = False) -> Game:
    engine.Options.from_json(options)  # validate
    with transaction.atomic():
        # A bank is a reserve beside the time per turn: without a clock there is none.
        game = Game.objects.create(name=name, host=host, seats_wanted=seats, options=options,
                                   turn_limit=turn_limit, leaver_bot=leaver_bot,
                                   min_on_time=min_on_time,
                                   bank_reserve=bank_reserve if turn_limit else 0,
                                   hints_allowed=hints_allowed, guided=guided)
        Seat.for_user(game, host)
    return game


def _lock_open(game_id: int) -> Game:
    game = Game.locked(game_id)
    if not game.is_open:
        if game.state is None:
            raise Rejected(_("This table closed before it started."), 410)
        raise Rejected(_("The game has already started."), 409)
    return game


def join(game_id: int, user) -> Seat:
    with transaction.atomic():
        game = _lock_open(game_id)
        seat = game.seats.filter(user=user).first()
        if seat:
            return seat
        if Removal.keeps_out(game, user):
            raise Rejected(taken_off(), 403)
        refusal = why_not_admitted(user, game.min_on_time)
        if refusal:
            raise Rejected(refusal, 403)
        taken = game.seats.count()
        if taken >= game.seats_wanted:
            raise Rejected(_("This table is full."), 409)
        seat = Seat.for_user(game, user)
        answer_invitations(game, user)
        keep_names_apart(game)
        game.save(update_fields=["updated"])
        if taken + 1 == game.seats_wanted:
            notifications.for_last_seat(game, seat)
    return seat


def check_bot_level(level: str) -> None:
    """Refuse a bot level that does not exist (it would otherwise sit at the table)."""
    if level not in BotLevel.values:
        raise Rejected(
            _("There is no bot level “%(level)s”; choose one of: %(levels)s.")
            % {"level": level, "levels": ", ".join(BotLevel.values)},
            400,
        )


def add_bot(game_id: int, level: str, bots_shown: int | None = None) -> Seat:
    """A bot of `level` takes a free seat. With `bots_shown` (the bots the host's page
    showed), only if the table has no more bots than that: a second tap of the same
    button, or the form sent again, adds nothing."""
    check_bot_level(level)
    with transaction.atomic():
        game = _lock_open(game_id)
        taken = list(game.seats.all())
        if bots_shown is not None and sum(s.is_bot for s in taken) > bots_shown:
            raise Rejected(_("The table already has a bot more than your page showed, "
                             "so none was added. Add another if you want one."), 409)
        if len(taken) >= game.seats_wanted:
            raise Rejected(_("This table is full."), 409)
        seat = Seat.objects.create(game=game, bot_level=level, bot_name=free_bot_name(game))
        game.save(update_fields=["updated"])
    return seat


def cancel_table(game_id: int, user) -> Game:
    """The host closes a table that has not started."""
    with transaction.atomic():
        game = _lock_open(game_id)
        if game.host_id != user.pk:
            raise Rejected(_("Only the host can cancel the table."), 403)
        _close(game, CANCELLED_BEFORE_START)
    return game


def set_min_on_time(game_id: int, user, minimum: int) -> Game:
    """The host chooses who may still take a seat: anyone, or players who keep at least
    this share of their turns on time. Those seated keep their seats."""
    if minimum not in OnTime.values:
        raise Rejected(_("Choose one of the offered shares."), 400)
    with transaction.atomic():
        game = Game.locked(game_id)
        if game.host_id != user.pk:
            raise Rejected(_("Only the host changes the table's settings."), 403)
        if game.is_over:
            raise Rejected(_("This game is over."), 409)
        game.min_on_time = minimum
        game.save(update_fields=["min_on_time", "updated"])
    return game


def set_watchable(game_id: int, user, watchable: bool, talk: bool = False) -> Game:
    """The host lets people without a seat watch by link (a new link each time), and
    perhaps join the table talk, or stops it (the old link stops working)."""
    with transaction.atomic():
        game = Game.locked(game_id)
        if game.host_id != user.pk:
            raise Rejected(_("Only the host can share the table with watchers."), 403)
        if watchable != bool(game.watch_token):
            game.watch_token = new_token() if watchable else ""
        game.watchers_talk = watchable and talk
        game.save(update_fields=["watch_token", "watchers_talk", "updated"])
    return game


def set_channel(game_id: int, user, url: str) -> Game:
    """The host gives the table a channel (an address already checked), or takes it away
    (empty). Saving it again switches a paused channel back on."""
    with transaction.atomic():
        game = Game.locked(game_id)
        if game.host_id != user.pk:
            raise Rejected(_("Only the host can choose the table's channel."), 403)
        game.channel_url = url
        game.channel_failures = 0
        game.channel_paused = None
        game.save(update_fields=["channel_url", "channel_failures", "channel_paused"])
    return game


def try_channel(game_id: int, user) -> None:
    with transaction.atomic():
        game = Game.locked(game_id)
        if game.host_id != user.pk:
            raise Rejected(_("Only the host can choose the table's channel."), 403)
        if group_channel.for_test(game) is None:
            raise Rejected(_("This table has no channel yet."), 409)


def _close(game: Game, reason: str) -> None:
    game.status = Game.Status.ABANDONED
    # Kept untranslated: each reader sees it in their own language.
    game.end_reason = reason
    game.finished = timezone.now()
    game.save(update_fields=["status", "end_reason", "finished", "updated"])
    notifications.for_closed(game)


def expire_open_tables(now=None) -> int:
    """Open tables close OPEN_TABLE_DAYS after they were opened; their hosts are warned
    the day before. Idempotent (the sweep runs it every minute)."""
    now = now or timezone.now()
    closing = now - timedelta(days=OPEN_TABLE_DAYS)
    for game in Game.objects.filter(status=Game.Status.OPEN,
                                    created__lte=closing + timedelta(days=1)):
        if _wants_notice(game.host) and not Notification.objects.filter(
                user=game.host, key=f"expiring:{game.pk}").exists():
            notifications.notify(game.host, f"expiring:{game.pk}",
                                 Notification.Kind.EXPIRING, now, game)
    closed = 0
    for game_id in Game.objects.filter(status=Game.Status.OPEN, created__lte=closing) \
            .values_list("pk", flat=True):
        with transaction.atomic():
            game = Game.locked(game_id)
            if game.is_open:
                _close(game, NOT_STARTED_IN_TIME)
                closed += 1
    return closed


def _wants_notice(user) -> bool:
    """Whether the player hears of a table about to close or an invitation about to lapse:
    anyone who takes notifications (a daily summary tells only of games in play)."""
    return user.notify != user.Notify.NEVER


def expire_invitations(now=None) -> int:
    """Invitations nobody answered lapse OPEN_TABLE_DAYS after they were sent (at a table
    that has started too: a newcomer may join between rounds), and with their game; an
    invitee with an account is warned the day before (`Invitation.lapses`: before a table
    nobody started closes, if it closes first). Idempotent (the sweep runs it)."""
    now = now or timezone.now()
    lapsing = now - timedelta(days=OPEN_TABLE_DAYS)
    alive = (Game.Status.OPEN, Game.Status.PLAYING)
    within_a_day = Q(created__lte=lapsing + timedelta(days=1)) | Q(
        game__status=Game.Status.OPEN, game__created__lte=lapsing + timedelta(days=1))
    warned = set()
    for invitation in Invitation.objects.filter(
        within_a_day, game__status__in=alive, created__gt=lapsing,
    ).exclude(user=None).select_related("user", "game").order_by("created", "pk"):
        # Invited by name and by address: warned once, of the first to lapse.
        if (invitation.user_id, invitation.game_id) in warned:
            continue
        warned.add((invitation.user_id, invitation.game_id))
        key = f"lapsing:{invitation.pk}"
        if _wants_notice(invitation.user) and not Notification.objects.filter(
                user=invitation.user, key=key).exists():
            notifications.notify(invitation.user, key, Notification.Kind.LAPSING, now,
                                 invitation.game)
    lapsed, _counts = Invitation.objects.filter(
        Q(created__lte=lapsing) | ~Q(game__status__in=alive)).delete()
    return lapsed


def remove_seat(game_id: int, seat_id: int, by_host: bool = True) -> None:
    """A seat goes before the start: a bot, a friend the host takes off (`by_host`: kept
    as a `Removal`, so that the table's link does not seat them again uninvited), or a
    player leaving by their own choice."""
    with transaction.atomic():
        game = _lock_open(game_id)
        seat = game.seats.select_related("user").filter(pk=seat_id).first()
        if seat is None:
            raise Rejected(_("There is no such seat at this table."), 404)
        if seat.user_id == game.host_id:
            raise Rejected(_("The host cannot be removed from their own table."), 409)
        if by_host and seat.user_id is not None:
            removal, _new = Removal.objects.get_or_create(game=game, user_id=seat.user_id)
            notifications.for_removed(game, seat.user, removal.pk)
        seat.delete()
        game.save(update_fields=["updated"])


def start(game_id: int, started_by=None) -> Game:
    """Draw for seats (docs/RULES.md section 3), deal round 1 and record the start. Whoever
    pressed Start is not emailed that the game started."""
    with transaction.atomic():
        game = _lock_open(game_id)
        seats = list(game.seats.order_by("joined", "pk"))
        if len(seats) < 4:
            raise Rejected(_("A game needs at least 4 players."), 409)
        for index, seat in enumerate(seats):
            seat.player = index
            seat.save(update_fields=["player"])
        lineup = rematch_lineup(game, seats)
        payload = {"players": len(seats), "seed": game.seed}
        if lineup is not None:
            payload["lineup"] = lineup
        state = engine.Game.new(len(seats), game.engine_options(), game.seed, lineup=lineup)
        game.status = Game.Status.PLAYING
        game.started = timezone.now()
        begin_round(game, state, "start", payload)
        state = run_automatic(game, state)
        save_state(game, state)
        notifications.for_everyone(game, notifications.Kind.STARTED, started_by)
        group_channel.for_started(game)
        wake_bots(game)
    return game


# -- invitations --


def _lock_invitable(game_id: int) -> Game:
    """The table, locked, if it still takes newcomers: before the start, or between the
    rounds of a game in progress (they join at the next round)."""
    game = Game.locked(game_id)
    if game.is_open:
        return game
    if not game.is_playing:
        raise Rejected(_("This game is over: there is no seat to take."), 409)
    if no_next_round(game.engine_state()):
        raise Rejected(_("This is the game's last round: there is no next round to "
                         "join."), 409)
    if not room_for_newcomers(game):
        raise Rejected(_("The table is full: %(max)d players.") % {"max": engine.MAX_PLAYERS},
                       409)
    return game


def invite(game: Game, invited_by, user=None, email: str = "", language: str = "",
           limited: bool = False) -> tuple[Invitation, bool]:
    """Invite a user, or an email address, to a table that has not started, or to a game
    in progress from its next round; the email leaves once the transaction commits.
    Inviting again changes nothing and sends nothing.

    `limited` applies the limits a host inviting from the web has (per table, and per
    inviter per day), so that the site cannot be used to send email to strangers at will.
    """
    email = email.strip().lower()
    with transaction.atomic():
        # The table's lock makes concurrent invitations to one address take turns.
        game = _lock_invitable(game.pk)
        if refuses(invited_by, user=user, email=email) or (
                user is not None and not user.is_active):
            # All the inviter learns: no more than for a typing mistake.
            raise Rejected(could_not_invite(email or user.name), 403)
        # Already out as the host typed it: by this name, or by this address (whoever's
        # it is). An address typed for a player invited by name is a new invitation:
        # answering otherwise would tell the host whose address it is.
        if email:
            found = game.invitations.filter(email__iexact=email).first()
        else:
            found = game.invitations.filter(user=user, email="").first()
        if found is not None:
            return found, False
        if limited:
            if game.invitations.count() >= settings.INVITATIONS_PER_TABLE:
                raise Rejected(_("This table can send no more invitations: share its link "
                                 "instead."), 429)
            today = timezone.now() - timedelta(days=1)
            sent = Invitation.objects.filter(invited_by=invited_by, created__gte=today).count()
            # The withdrawn ones' emails went out too.
            sent += throttle.counted(WITHDRAWN, str(invited_by.pk))
            if sent >= settings.INVITATIONS_PER_DAY:
                raise Rejected(_("You have sent too many invitations today; try again "
                                 "tomorrow, or share the table's link."), 429)
        invitation = Invitation.objects.create(
            # The address typed is kept even when it is a player's: the host sees what
            # they typed, never which account it belongs to.
            game=game, user=user, email=email, invited_by=invited_by,
            language=language,
        )
    if email or (user is not None and user.verified_email):
        background.after_commit("invitation_email", invitation.pk)
    notifications.for_invitation(invitation)
    return invitation, True


WITHDRAWN = "withdrawn-invitation"


def withdraw_invitation(game_id: int, host, invitation_id: int) -> Invitation:
    """The host takes back an invitation nobody answered (a mistyped address, a friend
    who cannot come): it leaves the table's list and the invitee's games. Its email is
    sent already, and the table's link seats whoever has it, as ever."""
    with transaction.atomic():
        game = Game.locked(game_id)
        if game.host_id != host.pk:
            raise Rejected(_("Only the host can withdraw an invitation."), 403)
        invitation = game.invitations.select_related("user").filter(pk=invitation_id).first()
        if invitation is None:
            raise Rejected(_("That invitation was answered or withdrawn already."), 409)
        invitation.delete()
    # Among the day's invitations still (kept in the cache: a limit, not a record).
    throttle.count(WITHDRAWN, str(host.pk), 24 * 3600)
    return invitation


def could_not_invite(who: str) -> str:
    return _("%(who)s could not be invited.") % {"who": who}


def invite_users(game: Game, users, invited_by, limited: bool = False) -> list[Invitation]:
    """Invite these users to an open table; each gets an email in their language (else
    in the inviter's). `limited` as for `invite`."""
    return [invite(game, invited_by, user=user, language=invited_by.reading_language,
                   limited=limited)[0]
            for user in users]


# -- rematches --


def _seat_key(seat: Seat) -> str:
    return f"b{seat.pk}" if seat.is_bot else f"u{seat.user_id}"


def seat_bot_like(new: Game, seat: Seat) -> Seat:
    """A bot at the new table of the same level, and name if free, as this one."""
    bot = add_bot(new.pk, seat.bot_level)
    if seat.bot_name and seat.bot_name.casefold() not in names_taken(new):
        Seat.objects.filter(pk=bot.pk).update(bot_name=seat.bot_name)
    return bot


def rematch_name(name: str) -> str:
    """"Friday · 2" after "Friday", "Friday · 3" after that: in no language, as every
    invitee reads the same name whatever language its host reads."""
    found = re.fullmatch(r"(.*) · (\d+)", name)
    base, number = (found[1], int(found[2]) + 1) if found else (name, 2)
    suffix = f" · {number}"
    return base[:80 - len(suffix)] + suffix


def open_rematch(game_id: int, user) -> Game:
    """A new table with the same players and options, the requester hosting: bots take
    their seats at once, the other people are invited. The seating order (the final
    standings) is kept in a Rematch for the start. A second request for the same game
    joins the rematch already opened."""
    with transaction.atomic():
        game = Game.locked(game_id)
        if not game.is_over:
            raise Rejected(_("A rematch can start once the game is over."), 409)
        existing = Rematch.objects.filter(previous=game).select_related("game").first()
        if existing is not None:
            new = existing.game
            if new.is_open and not new.seats.filter(user=user).exists():
                try:
                    join(new.pk, user)
                except Rejected:
                    pass
            return new
        seats = {s.player: s for s in game.seats.select_related("user")
                 if s.player is not None}
        if game.state is not None:
            order = [row["player"] for row in game.engine_state().standings]
        else:
            order = sorted(seats)
        order = [p for p in order if p in seats]
        name = rematch_name(game.name)
        # The same rules, clock included: a rematch of a timed table must not stall. At
        # least four seats: a game that ended short of players (a friend left a table of
        # four) would otherwise open a table that can never start.
        size = max(len(order), engine.MIN_PLAYERS)
        new = create_table(user, name, size, game.options, game.turn_limit,
                           game.leaver_bot, game.min_on_time, game.bank_reserve,
                           game.hints_allowed)
        keys, guests = [], []
        for player in order:
            seat = seats[player]
            if seat.is_bot:
                keys.append(_seat_key(seat_bot_like(new, seat)))
            else:
                keys.append(_seat_key(seat))
                if seat.user_id != user.pk and seat.user.is_active:
                    guests.append(seat.user)  # not a deleted account
        Rematch.objects.create(previous=game, game=new, order=keys)
        league = League.objects.of_game(game)
        if league is not None:
            LeagueGame.objects.create(game=new, league=league, season=league.current_season())
        # Whoever refuses the requester's invitations may still join from their record.
        invite_users(new, [g for g in guests if not refuses(user, user=g)], invited_by=user)
    return new


def rematch_lineup(game: Game, seats: list[Seat]) -> list[int] | None:
    """For the start: the players of a rematch table in the order of the previous game's
    final standings (`seats` already carry their player indices), or None when the table
    is not a rematch. A newcomer sits in the middle (docs/RULES.md section 8)."""
    rematch = Rematch.objects.filter(game=game).first()
    if rematch is None:
        return None
    players = {_seat_key(s): s.player for s in seats}
    lineup = [players.pop(key) for key in rematch.order if key in players]
    for player in sorted(players.values()):
        lineup.insert(len(lineup) // 2, player)
    return lineup
