"""Celery tasks: thin, each calls one command or one email function. Each is idempotent:
it derives what to do from the database, so running it twice (a redelivery after a lost
worker, the sweep) does no harm."""

import logging
import smtplib
import threading
import time

from celery import shared_task
from django import db
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts import outbox
from accounts.models import User
from dalmuti_site.channels import ChannelFailed
from games.away import channels, emails
from games.commands import group_channel, notifications, reviews
from games.core import background
from games.core.clock import deadlines_may_have_passed
from push.sender import PushFailed

from . import commands
from .models import Game

log = logging.getLogger(__name__)

# The queue of bot moves that somebody at the table waits for (games.commands.bot_work),
# taken first, and the queue of the tables where nobody does, taken last (after the
# sweep and the emails): a reply never waits behind other tables' bot-only stretches.
# All are declared in settings.CELERY_TASK_QUEUES, so every worker consumes them all.
REPLY_QUEUE = "bot_replies"
BOT_PLAY_QUEUE = "bot_play"
# Reviews of finished games: taken after all other work (settings.CELERY_TASK_QUEUES).
REVIEW_QUEUE = "reviews"


@shared_task(acks_late=True, soft_time_limit=30, time_limit=60)
def play_bots(game_id: int, seq: int | None = None) -> int:
    """Play one bot move the table waits for (the command sends the next one, so that a
    worker is never held by one table for long); returns how many were made (0 or 1). A
    task for an earlier point of the record does nothing (see commands.play_bot_move). A
    failure is logged and backs off; the sweep tries again later."""
    try:
        return int(commands.play_bot_move(game_id, seq))
    except Exception:
        commands.bots_failed(game_id)
        return 0


@shared_task(acks_late=True)
def end_of_hold(game_id: int) -> bool:
    """The end of the hold of the Dalmutis' automatic choices after a deal (see
    commands.end_of_hold): the standing orders act and the bots are sent. Idempotent."""
    return commands.end_of_hold(game_id)


@shared_task(acks_late=True)
def private_notices(game_id: int) -> int:
    return notifications.for_private_waits(game_id)


@shared_task(acks_late=True)
def review_game(game_id: int) -> bool:
    """Judge a finished game's decisions for a while (``settings.REVIEW_CHUNK_SECONDS``),
    then hand the rest to the next task, so that a long review never holds a worker from
    the work queued before it. Resumable and idempotent: every decision is judged and
    saved on its own (games.commands.reviews). True once the review is done."""
    done = reviews.judge_some(game_id, settings.REVIEW_CHUNK_SECONDS)
    if not done:
        background.after_commit("review_game", game_id)
    return done


@shared_task(
    acks_late=True, autoretry_for=(smtplib.SMTPException, OSError, PushFailed, ChannelFailed),
    retry_backoff=30, retry_backoff_max=1800, max_retries=8,
)
def send_notification(notification_id: int) -> str:
    """Send one notification email if it is (still) wanted; running it twice sends one."""
    return emails.deliver(notification_id)


@shared_task(
    acks_late=True, autoretry_for=(ChannelFailed,), retry_backoff=30,
    retry_backoff_max=1800, max_retries=8, soft_time_limit=30, time_limit=60,
)
def send_channel_notice(notice_id: int) -> str:
    """Send one notice to a table's group channel if it is (still) wanted; once."""
    return channels.deliver_notice(notice_id)


@shared_task(acks_late=True, soft_time_limit=30, time_limit=60)
def send_channel_test(user_id: int) -> str:
    """A player's test message to their own channel (not retried: they are waiting)."""
    user = User.objects.filter(pk=user_id).first()
    if user is None or not user.channel_url:
        return "no channel"
    try:
        channels.send_test(user)
    except ChannelFailed:
        return "failed"
    return "sent"


@shared_task(
    acks_late=True, autoretry_for=(smtplib.SMTPException, OSError), retry_backoff=30,
    retry_backoff_max=1800, max_retries=8,
)
def send_invitation(invitation_id: int) -> None:
    emails.send_invitation(invitation_id)


@shared_task(acks_late=True)
def sweep() -> dict:
    """The periodic safety net (Celery beat, every minute): expired turns, due emails,
    lost bot moves, work claimed by a worker that died."""
    now = timezone.now()
    done = {"timeouts": 0, "emails": 0, "bots": 0}
    done["released"] = notifications.release_stuck(now)
    for game in Game.objects.filter(status=Game.Status.PLAYING).exclude(turn_limit=0):
        if deadlines_may_have_passed(game, now):
            done["timeouts"] += commands.enforce_deadlines(game.pk, now)
    # A bot's wait begins with a change everybody sees, which moves `updated`.
    stalled = now - commands.BOT_STALL
    for game in Game.objects.filter(status=Game.Status.PLAYING, updated__lt=stalled):
        if commands.bots_due(game, now):
            background.after_commit(commands.bot_work(list(game.seats.all())), game.pk,
                                    game.seq)
            done["bots"] += 1
        elif commands.hold_due(game, now):
            background.after_commit("end_of_hold", game.pk)
            done["bots"] += 1
        if any(wait.secret for wait in game.waits().values()):
            # The notices a deal left for after its commit, if that work was lost.
            notifications.for_private_waits(game.pk)
    done["pauses"] = commands.forget_old_pauses(now)
    done["closed"] = commands.expire_open_tables(now)
    done["lapsed"] = commands.expire_invitations(now)
    done["end_proposals"] = commands.lapse_end_proposals(now)
    # Idempotent per local day; beat runs it hourly too, this covers set-ups without beat.
    done["summaries"] = notifications.for_daily_summaries(now)
    for notification_id in notifications.due_ids(now):
        background.after_commit("send_notification", notification_id)
        done["emails"] += 1
    group_channel.release_stuck(now)
    for notice_id in group_channel.due_ids(now):
        background.after_commit("send_channel_notice", notice_id)
    if settings.DALMUTI_REVIEWS:
        for game_id in reviews.stalled_reviews(now):
            background.after_commit("review_game", game_id)
            done["reviews"] = done.get("reviews", 0) + 1
    # Account emails (confirmation links, password resets) lost or due to be tried again.
    outbox.release_stuck(now)
    for email_id in outbox.due_ids(now):
        background.after_commit("account_email", email_id)
        done["emails"] += 1
    return done


@shared_task(acks_late=True)
def daily_summaries() -> int:
    """Every hour: a summary for every "daily" player some game is waiting for and whose
    local time is the summary hour."""
    created = notifications.for_daily_summaries()
    for notification_id in notifications.due_ids():
        background.after_commit("send_notification", notification_id)
    return created


def _sender(task, queue: str | None = None):
    def send(*args):
        task.apply_async(args=args, queue=queue)

    return send


def _sender_at(task, queue: str | None = None):
    def send(when, *args):
        # Without a broker a task runs at once, whatever its time: the pages that ask at
        # that time and the sweep do the work then instead.
        if not settings.CELERY_TASK_ALWAYS_EAGER:
            task.apply_async(args=args, queue=queue, eta=when)

    return send


background.register("play_bots", _sender(play_bots, BOT_PLAY_QUEUE))
background.register("bot_reply", _sender(play_bots, REPLY_QUEUE))
background.register("private_notices", _sender(private_notices))
background.register("end_of_hold", _sender(end_of_hold, REPLY_QUEUE),
                    _sender_at(end_of_hold, REPLY_QUEUE))
background.register("send_notification", _sender(send_notification))


def _send_review(game_id: int) -> None:
    """Reviews go to the last queue; without a broker a thread of this process judges the
    whole game, so that the request that ended it never waits for its review."""
    if not settings.DALMUTI_REVIEWS:
        return
    if settings.CELERY_TASK_ALWAYS_EAGER:
        threading.Thread(target=_review_in_thread, args=(game_id,), name="dalmuti-review",
                         daemon=True).start()
    else:
        review_game.apply_async(args=(game_id,), queue=REVIEW_QUEUE)


def _review_in_thread(game_id: int) -> None:
    try:
        reviews.judge_some(game_id)
    except Exception:  # the sweep sends it again; say why in the log
        log.exception("The review of game %s failed", game_id)
    finally:
        db.connection.close()


background.register("review_game", _send_review)
background.register("invitation_email", _sender(send_invitation))
background.register("send_channel_notice", _sender(send_channel_notice))
background.register("channel_test", _sender(send_channel_test))


# When this process last swept (wall-clock seconds): one cheap comparison per request.
_last_sweep_in_process = float("-inf")


def sweep_in_process() -> None:
    """Without a broker there is no Celery beat: run the periodic sweep from requests
    instead (pages and the open pages' polls), at most once per SWEEP_SECONDS in each
    process (the sweep is idempotent, so several processes doing it costs nothing but the
    work). The wall clock, not a monotonic one, so that a clock set back (or a test
    travelling in time) never holds the sweep off."""
    global _last_sweep_in_process
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        return
    now = time.time()
    if not 0 <= now - _last_sweep_in_process < settings.SWEEP_SECONDS:
        _last_sweep_in_process = now
        transaction.on_commit(sweep.delay)


def start_sweeper() -> threading.Thread:
    """Without a broker, `manage.py runserver` (make run) sweeps on a timer of its own, so
    that turn emails and timeouts are on time even when nobody has a page open; pages
    and polls sweep too (sweep_in_process), which covers other servers without a broker."""

    def loop():
        global _last_sweep_in_process
        while True:
            time.sleep(settings.SWEEP_SECONDS)
            _last_sweep_in_process = time.time()
            try:
                sweep()
            except Exception:  # the next round tries again; say why in the log
                log.exception("The in-process sweep failed")
            finally:
                db.close_old_connections()

    thread = threading.Thread(target=loop, name="dalmuti-sweeper", daemon=True)
    thread.start()
    return thread
