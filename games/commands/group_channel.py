"""The notices for a table's group channel, written when something public happens.

What a notice may say and when it may be written is the event stream's rule: only what
every spectator sees, at the moment they see it. So turns are announced only in the
play (a wait in the tax phase may be a secret revolution decision), and each notice is
written in the same transaction as the public change that causes it. A turn's notice
waits the same grace period as the turn emails and is dropped if the turn was taken
meanwhile; a nudge, a start, a round's result and the end go at once.
"""

from datetime import timedelta

from django.conf import settings
from django.db.models import F
from django.utils import timezone

from games.core import background, channel_owners
from games.models import ChannelNotice, Game, Notification

Kind = ChannelNotice.Kind
Status = Notification.Status


def _write(game: Game, kind: str, key: str, payload: dict, due=None) -> ChannelNotice | None:
    if channel_owners.for_game(game) is None:
        return None
    notice, new = ChannelNotice.objects.get_or_create(
        game=game, key=key,
        defaults={"kind": kind, "payload": payload, "due": due or timezone.now()})
    if new and notice.due <= timezone.now():
        background.after_commit("send_channel_notice", notice.pk)
    return notice


def for_started(game: Game) -> None:
    _write(game, Kind.STARTED, "started", {})


def for_public_turn(game: Game, state) -> None:
    """After a public change: the player whose turn it now is in the play, if a human."""
    if not game.is_playing or state.round.phase != "play":
        return
    if channel_owners.for_game(game) is None:
        return  # the usual case: nothing to work out
    view = state.view(None)
    if view["to_act"] is None:
        return
    player = state.seats[view["to_act"]]
    wait = game.wait_for(player)
    seat = game.seats.filter(player=player).first()
    if wait is None or seat is None or seat.played_by_bot:
        return
    grace = timedelta(seconds=settings.NOTIFY_GRACE_SECONDS)
    _write(game, Kind.TURN, f"turn:{wait.token}:{player}", {"player": player,
                                                              "token": wait.token},
           due=timezone.now() + grace)


def for_round(game: Game, state) -> None:
    """A round's result; the last round's is the end's, told with the final standings."""
    if state.is_over:
        return
    result = state.results[-1]
    _write(game, Kind.ROUND, f"round:{result['round']}", {"round": result["round"]})


def for_over(game: Game) -> None:
    _write(game, Kind.OVER, "over", {})


def for_nudge(game: Game, by: int, player: int, token: int) -> None:
    _write(game, Kind.NUDGE, f"nudge:{token}:{player}:{by}", {"by": by, "player": player})


def for_test(game: Game) -> ChannelNotice | None:
    """A test message, whenever the host asks (one at a time)."""
    ChannelNotice.objects.filter(game=game, key="test", status__in=(
        Status.SENT, Status.SKIPPED)).delete()
    return _write(game, Kind.TEST, "test", {})


def claim(notice_id: int) -> ChannelNotice | None:
    """Take the notice for sending; None if another run has it, it was sent, or it is not
    due. A conditional UPDATE: only one run wins."""
    now = timezone.now()
    taken = ChannelNotice.objects.filter(
        pk=notice_id, status=Status.PENDING, due__lte=now,
    ).update(status=Status.SENDING, claimed=now, attempts=F("attempts") + 1)
    if not taken:
        return None
    return ChannelNotice.objects.select_related("game", "game__host").get(pk=notice_id)


def still_wanted(notice: ChannelNotice) -> str:
    """"send", or why not: a turn taken within the grace period, a channel paused or
    removed meanwhile."""
    owner = channel_owners.for_game(notice.game)
    if owner is None or not owner[0].channel_active:
        return "no channel"
    if notice.kind == Kind.TURN:
        game = notice.game
        wait = game.wait_for(notice.payload["player"])
        if not game.is_playing or wait is None or wait.token != notice.payload["token"]:
            return "acted"
    return "send"


def finish(notice: ChannelNotice, status: str, note: str = "", due=None) -> None:
    fields = {"status": status, "note": note[:64]}
    if status == Status.SENT:
        fields["sent"] = timezone.now()
    if due is not None:
        fields["due"] = due
    ChannelNotice.objects.filter(pk=notice.pk).update(**fields)


def due_ids(now=None) -> list[int]:
    now = now or timezone.now()
    return list(ChannelNotice.objects.filter(status=Status.PENDING, due__lte=now)
                .order_by("due").values_list("pk", flat=True)[:500])


def release_stuck(now=None) -> int:
    now = now or timezone.now()
    return ChannelNotice.objects.filter(
        status=Status.SENDING, claimed__lt=now - timedelta(minutes=10),
    ).update(status=Status.PENDING)
