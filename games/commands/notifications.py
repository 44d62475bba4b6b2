"""Who is told what, when: email notifications derived from the tables' state.

A Notification row is created for every player and state they must act in (unique per
player and key), and sent by an idempotent task; a periodic sweep sends any that are due.
Whether an email is still wanted is decided when it is sent, from the database as it is
then:

- the player's profile asks for it ("every turn"; "one daily summary" gets the summary);
- they still have to act in that same state (they may have acted meanwhile);
- they have not been active on the table in the last few minutes (watching live: the
  email waits, and is dropped if they act);
- they were not emailed about this game since they last acted (one email per game until
  they act).
"""

from datetime import datetime, time, timedelta

from django.conf import settings
from django.db.models import F
from django.utils import timezone

from dalmuti_site.compiled import CompiledQuery
from games.core.clock import current_deadline, remind_before
from games.core.turns import awaits_person, games_waiting_for
from games.models import Game, Invitation, Notification, Removal, Seat
from leagues.models import Replacement
from push.models import PushSubscription

Kind = Notification.Kind
Status = Notification.Status
Channel = Notification.Channel

# Whether a player switched a device on: asked at every new turn of theirs (compiled once).
_A_DEVICE = CompiledQuery(
    lambda user_id: PushSubscription.objects.filter(user_id=user_id).order_by()
    .values_list("pk", flat=True)[:1])


def channels_for(user) -> list[str]:
    """Where the player's notifications go: email to a confirmed address, push to the
    devices they switched on, as their profile says; and their own chat channel if they
    added one (and it is not paused)."""
    out = []
    if user.notify_by in (user.Channel.EMAIL, user.Channel.BOTH) and user.verified_email:
        out.append(Channel.EMAIL)
    if (user.notify_by in (user.Channel.PUSH, user.Channel.BOTH)
            and _A_DEVICE(user.pk)):
        out.append(Channel.PUSH)
    if user.channel_active:
        out.append(Channel.CHAT)
    return out


def unheard(user) -> bool:
    """Whether the player wants to be told (not "never") and nothing can tell them: devices
    only with none switched on, an address not confirmed, no channel of their own."""
    return user.notify != user.Notify.NEVER and not channels_for(user)


def _wants(user, preference: str, channels: list[str] | None = None) -> bool:
    return user.notify == preference and bool(
        channels_for(user) if channels is None else channels)


def notify(user, key: str, kind: str, due, game: Game | None = None,
           channels: list[str] | None = None) -> list[Notification]:
    """One notification per channel the player wants (`channels`, if the caller asked
    already), each sent on its own, once."""
    made = []
    for channel in channels_for(user) if channels is None else channels:
        notification, _new = Notification.objects.get_or_create(
            user=user, key=key, channel=channel,
            defaults={"game": game, "kind": kind, "due": due},
        )
        made.append(notification)
    return made


def _notify_of_turn(user, key: str, kind: str, due, game: Game, channels: list[str]) -> None:
    """`notify`, for a new turn (after every move): in one statement that reads nothing
    back, a notice already recorded under the same key left as it is."""
    Notification.objects.bulk_create(
        [Notification(user=user, key=key, channel=channel, game=game, kind=kind, due=due)
         for channel in channels],
        ignore_conflicts=True,
    )


def for_new_turns(game: Game, players: list[int], seats: dict[int, Seat] | None = None) -> None:
    """Record the notifications due because the game now waits for these players
    (`seats`: the table's seats by player, with their users, if the caller has them)."""
    if not players:
        return
    now = timezone.now()
    grace = timedelta(seconds=settings.NOTIFY_GRACE_SECONDS)
    waited = ([seats[p] for p in players if p in seats] if seats is not None
              else game.seats.filter(player__in=players).select_related("user"))
    for seat in waited:
        if seat.played_by_bot:
            continue
        user = seat.user
        channels = channels_for(user)
        wait = game.wait_for(seat.player)
        reminder, remind_at = _reminder(game, seat, wait, now)
        if _wants(user, user.Notify.EVERY_TURN, channels):
            _notify_of_turn(user, f"turn:{game.pk}:{wait.public_token}:{seat.player}",
                            Kind.TURN, now + grace, game, channels)
            if game.turn_limit:
                _notify_of_turn(user, reminder, Kind.REMINDER, remind_at, game, channels)
        elif game.turn_limit and _summary_too_late(user, channels, now, remind_at):
            _notify_of_turn(user, reminder, Kind.REMINDER, remind_at, game, channels)


def for_private_waits(game_id: int) -> int:
    """Record the notices of the waits the table keeps in private (a decision on a
    revolution), which the move that dealt left for after its commit: sent at every deal,
    and by the sweep for any lost. Recording them twice records nothing more. How many
    such waits there were."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not game.is_playing:
        return 0
    private = [player for player, wait in game.waits().items() if wait.secret]
    if private:
        for_new_turns(game, private, {s.player: s for s in game.seats_with_users()})
    return len(private)


def _reminder(game: Game, seat: Seat, wait, now: datetime) -> tuple[str, datetime]:
    """A turn's reminder: its key, and when it goes out, measured from the turn's own
    deadline (a bank's reserve and any pause counted in it)."""
    return (f"reminder:{game.pk}:{wait.public_token}:{seat.player}",
            (wait.deadline or now) - remind_before(game, seat, wait))


def _summary_too_late(user, channels: list[str], now: datetime, remind_at: datetime) -> bool:
    """A daily-summary player whose next summary comes after the time to remind: without
    a reminder they would hear of the turn only when (or just before) it runs out."""
    return _wants(user, user.Notify.DAILY, channels) and next_summary(user, now) > remind_at


def reminders_moved(game: Game, seats: dict[int, Seat]) -> None:
    """The running waits' deadlines moved (a pause began, ended or was cut short): each
    reminder not yet sent goes out as long before the new deadline as before the old,
    and one due now that no daily summary would tell in time is recorded. (Sent only
    when the deadline moved later, a reminder due after an earlier deadline would never
    go: the player would time out unwarned.)"""
    if not game.turn_limit:
        return
    now = timezone.now()
    for player, wait in game.waits().items():
        seat = seats.get(player)
        if wait.deadline is None or seat is None or seat.played_by_bot:
            continue
        key, remind_at = _reminder(game, seat, wait, now)
        Notification.objects.filter(key=key, status=Notification.Status.PENDING) \
            .exclude(due=remind_at).update(due=remind_at)
        user = seat.user
        channels = channels_for(user)
        if (not _wants(user, user.Notify.EVERY_TURN, channels)
                and _summary_too_late(user, channels, now, remind_at)):
            _notify_of_turn(user, key, Kind.REMINDER, remind_at, game, channels)


def next_summary(user, after: datetime) -> datetime:
    """When the player's next daily summary comes: the summary hour in their own zone."""
    local = timezone.localtime(after, user.zone)
    day = local.date()
    if local.hour >= settings.DAILY_SUMMARY_HOUR:
        day += timedelta(days=1)
    return datetime.combine(day, time(settings.DAILY_SUMMARY_HOUR), tzinfo=user.zone)


def for_absence(game: Game, seat: Seat, kind: str) -> list[Notification]:
    """Tell a player, once per absence, that their time ran out (the first timeout in a
    row) or that the stand-in bot now plays for them: whatever they chose for turn emails,
    short of never. It waits like a turn email, and is dropped if they come to the table
    meanwhile."""
    if seat.user_id is None or seat.user.notify == seat.user.Notify.NEVER:
        return []
    due = timezone.now() + timedelta(seconds=settings.NOTIFY_GRACE_SECONDS)
    # The record's sequence number names this absence: a later one is told again.
    return notify(seat.user, f"{kind}:{game.pk}:{game.seq}:{seat.player}", kind, due, game)


# At most one notice of being named in the table talk per table and player in this time:
# a lively conversation about an absent friend reaches them once, not line by line.
MENTION_NOTICE_EVERY = timedelta(minutes=30)


def for_mention(game: Game, seat: Seat, message_id: int) -> list[Notification]:
    """Someone named the seat's player in the table talk: tell them through their channels,
    unless they muted this table's talk, chose never to be told, are at the table now, or
    were told of a mention here within MENTION_NOTICE_EVERY. Called in the transaction
    that posts the message; the notice waits like a turn email and is sent after it."""
    user = seat.user
    if user is None or seat.talk_muted or seat.left or user.notify == user.Notify.NEVER:
        return []
    now = timezone.now()
    watching = now - timedelta(seconds=settings.NOTIFY_WATCHING_SECONDS)
    if seat.last_seen and seat.last_seen > watching:
        return []
    # Lock the named player's seat: two messages naming them at once count one by one.
    Seat.objects.select_for_update().filter(pk=seat.pk).first()
    told = Notification.objects.filter(
        user=user, game=game, kind=Kind.MENTION, created__gt=now - MENTION_NOTICE_EVERY,
    ).exclude(status=Status.SKIPPED)
    if told.exists():
        return []
    due = now + timedelta(seconds=settings.NOTIFY_GRACE_SECONDS)
    return notify(user, f"mention:{game.pk}:{message_id}", Kind.MENTION, due, game)


def set_talk_notices(game_id: int, user, on: bool) -> None:
    """Whether the player hears (by email or push) of being named in this table's talk."""
    Seat.objects.filter(game_id=game_id, user=user).update(talk_muted=not on)


def for_end_proposal(game: Game, seat: Seat, proposal) -> list[Notification]:
    """Tell a player away from the table that someone proposes to end the game: whatever
    they chose for turn emails, short of never. It waits like a turn email, and is dropped
    if they come to the table or the proposal closes meanwhile."""
    if seat.user.notify == seat.user.Notify.NEVER:
        return []
    due = timezone.now() + timedelta(seconds=settings.NOTIFY_GRACE_SECONDS)
    return notify(seat.user, f"{Kind.END_PROPOSED}:{game.pk}:{proposal.pk}",
                  Kind.END_PROPOSED, due, game)


def for_replaced(game: Game, user, replacement_id: int) -> list[Notification]:
    """An organiser gave the player's seat to a bot: tell them, whatever they chose for
    turn emails short of never, at once (nothing at the table waits for them any more, and
    no page of theirs will show the table again)."""
    if user.notify == user.Notify.NEVER:
        return []
    return notify(user, f"{Kind.REPLACED}:{game.pk}:{replacement_id}", Kind.REPLACED,
                  timezone.now(), game)


def for_removed(game: Game, user, removal_id: int) -> list[Notification]:
    """The host took the player off their table before its start: tell them, whatever
    they chose for turn emails short of never (else they would wait for a start they
    will never hear of). It waits a little, like a turn email: a host who took the wrong
    friend off and invites them again at once has nothing told."""
    if user.notify == user.Notify.NEVER:
        return []
    due = timezone.now() + timedelta(seconds=settings.NOTIFY_GRACE_SECONDS)
    return notify(user, f"{Kind.REMOVED}:{game.pk}:{removal_id}", Kind.REMOVED, due, game)


def for_never_dealt_in(game: Game, user, never_id: int) -> list[Notification]:
    """A newcomer waited for the next round and the game ended first: tell them, whatever
    they chose for turn emails short of never (else the table they joined would just
    vanish from their games)."""
    if user.notify == user.Notify.NEVER:
        return []
    due = timezone.now() + timedelta(seconds=settings.NOTIFY_GRACE_SECONDS)
    return notify(user, f"{Kind.NEVER_DEALT_IN}:{game.pk}:{never_id}", Kind.NEVER_DEALT_IN,
                  due, game)


def for_invitation(invitation: Invitation) -> list[Notification]:
    """An invitation by name, on the player's devices and their own channel (its email
    leaves on its own, games.away.emails.send_invitation): a player who takes pushes only
    would otherwise never hear of it. One to an address tells no account of it."""
    user = invitation.user
    if user is None or user.notify == user.Notify.NEVER:
        return []
    channels = [c for c in channels_for(user) if c != Channel.EMAIL]
    return notify(user, f"{Kind.INVITED}:{invitation.pk}", Kind.INVITED, timezone.now(),
                  invitation.game, channels) if channels else []


def for_closed(game: Game) -> None:
    """The table closed before its start (its host cancelled it or deleted their account,
    or nobody started it in time): tell the people seated but the host, whatever they
    chose for turn emails short of never, at once (else they would wait for a start they
    never hear of)."""
    now = timezone.now()
    for seat in game.seats.exclude(user=None).exclude(user_id=game.host_id) \
            .select_related("user"):
        if seat.user.notify != seat.user.Notify.NEVER:
            notify(seat.user, f"{Kind.CLOSED}:{game.pk}", Kind.CLOSED, now, game)


def for_last_seat(game: Game, seat: Seat) -> list[Notification]:
    """A friend took the last free seat of an open table: tell its host, who alone may
    start it and otherwise hears nothing until it closes unstarted. It waits like a turn
    email, and is dropped if the host saw it happen at the table, or if the table started,
    closed or has a free seat again by then."""
    host = game.host
    if seat.user_id == host.pk or host.notify == host.Notify.NEVER:
        return []
    due = timezone.now() + timedelta(seconds=settings.NOTIFY_GRACE_SECONDS)
    return notify(host, f"{Kind.SEATED}:{game.pk}:{seat.pk}", Kind.SEATED, due, game)


def _seen_since(notification: Notification, seat: Seat) -> bool:
    """Whether the seat's player was at the table when the notice was made (their last
    sighting within NOTIFY_WATCHING_SECONDS of it) or has been since: they read there what
    it would tell."""
    watching = timedelta(seconds=settings.NOTIFY_WATCHING_SECONDS)
    return bool(seat.last_seen and seat.last_seen > notification.created - watching)


def _last_seat_still_news(notification: Notification) -> tuple[str, datetime | None]:
    game = notification.game
    seats = list(game.seats.all())
    if not game.is_open:
        return "started or closed", None
    # The one who took the last seat gave it back: a later newcomer's notice tells it.
    last = int(notification.key.split(":")[2])
    if len(seats) < game.seats_wanted or all(s.pk != last for s in seats):
        return "a seat freed", None
    host = next((s for s in seats if s.user_id == notification.user_id), None)
    if host and _seen_since(notification, host):
        return "at the table", None
    return "send", None


def for_join_place(game: Game, state, newcomer: Seat) -> list[Notification]:
    """A friend joins the game in progress where two middle places are free: tell the
    Great Dalmuti, who chooses theirs until the round ends (RULES.md section 8) and,
    often out of cards early, may have no turn left to bring them to the table. It waits
    like a turn email, and is dropped if the choice is made, or no longer theirs to make,
    by then."""
    if len(state.join_places()) != 2:
        return []
    great = game.seats.select_related("user").filter(
        player=state.seats[state.round.order[0]]).first()
    if great is None or great.user is None or great.user.notify == great.user.Notify.NEVER:
        return []
    due = timezone.now() + timedelta(seconds=settings.NOTIFY_GRACE_SECONDS)
    return notify(great.user, f"{Kind.JOIN_PLACE}:{game.pk}:{newcomer.pk}:{state.round_number}",
                  Kind.JOIN_PLACE, due, game)


def _join_place_still_news(notification: Notification) -> tuple[str, datetime | None]:
    game = notification.game
    _kind, _game, newcomer, number = notification.key.split(":")
    newcomer = game.seats.filter(pk=newcomer, joining=True).first()
    if not game.is_playing or newcomer is None:
        return "no newcomer", None
    if newcomer.join_choice:
        return "chosen", None
    state = game.engine_state()
    if state.round_number != int(number) or len(state.join_places()) != 2:
        return "round over", None
    seat = game.seats.filter(player=state.seats[state.round.order[0]],
                             user=notification.user_id).first()
    if seat is None:
        return "not theirs", None
    if _seen_since(notification, seat):
        return "at the table", None
    return "send", None


def for_hosting(game: Game, host, organiser) -> list[Notification]:
    """`organiser` opened a league table for `host`: tell them it is theirs to start once
    their friends are seated (else it waits until it closes), whatever they chose for
    turn emails short of never."""
    if host.notify == host.Notify.NEVER:
        return []
    return notify(host, f"{Kind.HOSTING}:{game.pk}:{organiser.pk}", Kind.HOSTING,
                  timezone.now(), game)


def _end_proposal_still_news(notification: Notification) -> tuple[str, datetime | None]:
    user, game = notification.user, notification.game
    if user.notify == user.Notify.NEVER:
        return "preference", None
    proposal = game.end_proposals.filter(pk=notification.key.split(":")[2]).first()
    seat = Seat.objects.filter(game=game, user=user).first()
    if not game.is_playing or proposal is None or proposal.outcome or seat is None:
        return "closed", None
    if proposal.votes.filter(seat=seat).exists():
        return "answered", None
    if _seen_since(notification, seat):
        return "at the table", None
    return "send", None


# What a "daily" player is told beside their summary: what it would tell too late (a
# reminder before their time runs out, a friend's nudge: the table waits on them now),
# and what no summary tells, which tells only of games in play: a game's start and its
# final standings, a table of theirs about to close, an invitation about to lapse.
DAILY_TOO = (Kind.REMINDER, Kind.NUDGE, Kind.STARTED, Kind.OVER, Kind.EXPIRING,
             Kind.LAPSING, Kind.SEATED, Kind.JOIN_PLACE)


def for_everyone(game: Game, kind: str, except_user=None) -> None:
    """The game started or ended: one email for every human at the table who takes
    notifications. Nobody is told of a start they made or watched happen."""
    now = timezone.now()
    watching = now - timedelta(seconds=settings.NOTIFY_WATCHING_SECONDS)
    for seat in game.seats.select_related("user").exclude(user=None):
        saw_it = seat.user == except_user or (seat.last_seen and seat.last_seen > watching)
        if kind == Kind.STARTED and saw_it:
            continue
        if seat.user.notify != seat.user.Notify.NEVER:
            notify(seat.user, f"{kind}:{game.pk}", kind, now, game)


def for_daily_summaries(now=None) -> int:
    """A summary notification for every "daily" player some game is waiting for and
    whose local time is the summary hour (one per local day)."""
    now = now or timezone.now()
    created = 0
    for user in set(_daily_users_waited_for()):
        local = timezone.localtime(now, user.zone)
        if local.hour != settings.DAILY_SUMMARY_HOUR:
            continue
        key = f"daily:{local.date().isoformat()}"
        if not Notification.objects.filter(user=user, key=key).exists():
            created += bool(notify(user, key, Kind.DAILY, now))
    return created


def _daily_users_waited_for():
    for seat in Seat.objects.filter(
        game__status=Game.Status.PLAYING, user__notify="daily"
    ).exclude(user=None).select_related("user", "game"):
        if awaits_person(seat) and channels_for(seat.user):
            yield seat.user


def claim(notification_id: int) -> Notification | None:
    """Take the notification for sending; None if it is not pending and due (sent, being
    sent by another worker, or not needed). A conditional UPDATE: only one run wins."""
    now = timezone.now()
    taken = Notification.objects.filter(
        pk=notification_id, status=Status.PENDING, due__lte=now
    ).update(status=Status.SENDING, claimed=now, attempts=F("attempts") + 1)
    if not taken:
        return None
    return Notification.objects.select_related("user", "game").get(pk=notification_id)


def finish(notification: Notification, status: str, note: str = "", due=None) -> None:
    fields = {"status": status, "note": note}
    if status == Status.SENT:
        fields["sent"] = timezone.now()
    if due is not None:
        fields["due"] = due
    Notification.objects.filter(pk=notification.pk).update(**fields)


def still_wanted(notification: Notification) -> tuple[str, datetime | None]:
    user, game = notification.user, notification.game
    if notification.channel not in channels_for(user):
        return "preference", None
    if notification.kind == Kind.DAILY:
        if not _wants(user, user.Notify.DAILY):
            return "preference", None
        return ("send", None) if games_waiting_for(user) else ("nothing waiting", None)
    if notification.kind in (Kind.TIMED_OUT, Kind.STAND_IN):
        return _absence_still_news(notification)
    if notification.kind == Kind.MENTION:
        return _mention_still_news(notification)
    if notification.kind == Kind.END_PROPOSED:
        return _end_proposal_still_news(notification)
    if notification.kind == Kind.REPLACED:
        if user.notify == user.Notify.NEVER:
            return "preference", None
        # Undone in the admin meanwhile: nothing to tell.
        replaced = Replacement.objects.filter(pk=notification.key.split(":")[2]).exists()
        return ("send", None) if replaced else ("withdrawn", None)
    if notification.kind == Kind.REMOVED:
        if user.notify == user.Notify.NEVER:
            return "preference", None
        # Invited again, or seated again, meanwhile: nothing to tell.
        still_out = Removal.objects.with_invited_again().filter(
            pk=notification.key.split(":")[2], invited_again=False).exists()
        return ("send", None) if still_out else ("withdrawn", None)
    if notification.kind in (Kind.CLOSED, Kind.NEVER_DEALT_IN):
        return ("preference", None) if user.notify == user.Notify.NEVER else ("send", None)
    if notification.kind == Kind.HOSTING:
        if user.notify == user.Notify.NEVER:
            return "preference", None
        return ("send", None) if game.is_open else ("started or closed", None)
    if not _wants(user, user.Notify.EVERY_TURN) and not (
            notification.kind in DAILY_TOO and _wants(user, user.Notify.DAILY)):
        return "preference", None
    if notification.kind in (Kind.STARTED, Kind.OVER):
        # A seat an organiser gave to a bot meanwhile is no longer theirs to hear of.
        seated = Seat.objects.filter(game=game, user=user).exists()
        return ("send", None) if seated else ("no seat", None)
    if notification.kind == Kind.EXPIRING:
        return ("send", None) if game.is_open else ("started or closed", None)
    if notification.kind == Kind.SEATED:
        return _last_seat_still_news(notification)
    if notification.kind == Kind.JOIN_PLACE:
        return _join_place_still_news(notification)
    if notification.kind in (Kind.INVITED, Kind.LAPSING):
        answered = not Invitation.objects.filter(pk=notification.key.split(":")[1]).exists()
        if answered or game.is_over or game.seats.filter(user=user).exists():
            return "answered or over", None
        return "send", None
    _kind, _game, token, player = notification.key.split(":")[:4]
    wait = game.wait_for(int(player))
    # A private step (a revolution declined) leaves the turn as it was: its token moves
    # on, its public token does not.
    if not game.is_playing or wait is None or str(wait.public_token) != token:
        return "acted", None
    seat = Seat.objects.get(game=game, player=int(player))
    if seat.played_by_bot:
        return "stand-in", None
    now = timezone.now()
    watching = timedelta(seconds=settings.NOTIFY_WATCHING_SECONDS)
    if seat.last_seen and seat.last_seen > now - watching:
        return "postpone", seat.last_seen + watching
    if notification.kind == Kind.NUDGE:
        return "send", None
    if notification.kind == Kind.REMINDER:
        limit = current_deadline(game, seat)
        if limit is None:
            return "no deadline", None
        remind_at = limit - remind_before(game, seat, wait)
        if remind_at > now:  # a vacation moved the deadline
            return "postpone", remind_at
        if user.notify == user.Notify.DAILY and Notification.objects.filter(
                user=user, kind=Kind.DAILY, status=Status.SENT, channel=notification.channel,
                sent__gt=wait.since).exists():
            return "told in the summary", None
        return "send", None
    told = Notification.objects.filter(user=user, game=game, kind=Kind.TURN, status=Status.SENT,
                                       channel=notification.channel)
    if seat.last_acted:
        told = told.filter(sent__gt=seat.last_acted)
    if told.exists():
        return "already told", None
    return "send", None


def _absence_still_news(notification: Notification) -> tuple[str, datetime | None]:
    user, game = notification.user, notification.game
    if user.notify == user.Notify.NEVER:
        return "preference", None
    seat = Seat.objects.filter(game=game, user=user).first()
    if not game.is_playing or seat is None or seat.leaving or seat.left:
        return "over", None
    if _seen_since(notification, seat):
        return "at the table", None
    if seat.last_acted and seat.last_acted > notification.created:
        return "back", None
    if notification.kind == Kind.STAND_IN and not seat.stand_in:
        return "back", None
    return "send", None


def _mention_still_news(notification: Notification) -> tuple[str, datetime | None]:
    """A mention is told unless the player muted the table's talk, chose never to be told,
    or came to the table since (they read it there)."""
    user, game = notification.user, notification.game
    if user.notify == user.Notify.NEVER:
        return "preference", None
    seat = Seat.objects.filter(game=game, user=user).first()
    if seat is None or seat.left:
        return "over", None
    if seat.talk_muted:
        return "muted", None
    if _seen_since(notification, seat):
        return "at the table", None
    return "send", None


def due_ids(now=None) -> list[int]:
    now = now or timezone.now()
    return list(
        Notification.objects.filter(status=Status.PENDING, due__lte=now)
        .order_by("due").values_list("pk", flat=True)[:500]
    )


def release_stuck(now=None) -> int:
    """Notifications claimed by a worker that died before finishing go back to pending."""
    now = now or timezone.now()
    return Notification.objects.filter(
        status=Status.SENDING, claimed__lt=now - timedelta(minutes=10)
    ).update(status=Status.PENDING)
