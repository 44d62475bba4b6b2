"""Through a real worker and Redis: a bot's reply to a person's move is taken before the
bot-only tables' moves, however many of those are waiting."""


import pytest
from django.utils import timezone

from games import commands, engine
from games.models import Action, Game
from tests.helpers import legal, start_table, wait_for

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]


def test_a_reply_is_not_queued_behind_bot_only_tables(celery_worker, alice, bob):
    bot_only = []
    for t in range(6):
        game = commands.create_table(bob, f"Bots {t}", 4, {"rounds": 30})
        game.seats.filter(user=bob).delete()
        for _ in range(4):
            commands.add_bot(game.pk, "basic")
        bot_only.append(game.pk)
    people = start_table(alice, bots=3, options={"rounds": 30})
    seat = people.seats.get(user=alice)
    seat.auto_pass = False
    seat.save(update_fields=["auto_pass"])
    for pk in bot_only:
        commands.start(pk)  # from now on each has a move waiting in the workers' queue
    checked = 0
    for _attempt in range(40):
        assert wait_for(lambda: str(seat.player) in Game.objects.get(pk=people.pk).awaiting)
        people.refresh_from_db()
        moved = commands.act(people.pk, alice, engine.action_from_json(legal(people, seat)[0]),
                             people.awaiting[str(seat.player)][0])
        sent = timezone.now()  # committed: the reply's work is in the queue
        if not commands.bots_awaited(moved):
            continue
        mine = Action.objects.get(game=people, seq=moved.seq)
        replies = Action.objects.filter(game=people, seq__gt=mine.seq, by="bot")
        assert wait_for(replies.exists)
        reply = replies.first()
        between = Action.objects.filter(game_id__in=bot_only, created__gt=sent,
                                        created__lt=reply.created).count()
        # The move the worker had in hand when the reply was sent may finish first (and
        # one the broker had handed it already); the old single queue let over a
        # thousand go first.
        assert between <= 2, f"{between} bot-only moves went before the reply"
        checked += 1
        if checked == 5:
            break
    assert checked == 5
    # Meanwhile the bot-only tables had work waiting: they were playing.
    assert Action.objects.filter(game_id__in=bot_only, by="bot").count() > 0


def test_work_sent_to_a_queue_is_delivered_to_that_queue_only():
    from dalmuti_site.celery import app, ping

    with app.connection_for_write() as conn:
        channel = conn.default_channel
        for queue in app.amqp.queues.values():  # bound as a worker binds them
            queue(channel).declare()
        client = channel.client
        names = list(app.amqp.queues)
        assert {"bot_replies", "celery", "bot_play"} <= set(names)
        for name in names:
            before = {n: client.llen(n) for n in names}
            ping.apply_async(queue=name)
            after = {n: client.llen(n) for n in names}
            client.lpop(name)  # the message just sent (no worker runs here)
            grew = {n: after[n] - before[n] for n in names if after[n] != before[n]}
            assert grew == {name: 1}
