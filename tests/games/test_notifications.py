"""Turn emails: the right person, at the right time, once."""

from datetime import timedelta
from urllib.parse import urlparse

import pytest
import time_machine
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import commands, engine
from games.away import emails
from games.commands import notifications
from games.core.words import TITLE_NAMES
from games.models import Notification
from games.tasks import send_notification
from tests.helpers import legal, start_table, waiting_humans

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(alice, bob, carol, dave):
    game = start_table(alice, [bob, carol, dave], options={"rounds": 2})
    for pk in notifications.due_ids():  # the "game started" emails
        emails.deliver(pk)
    mail.outbox.clear()
    return game


def _turn_notifications(game):
    return Notification.objects.filter(game=game, kind="turn")


def _deliver_due(now=None):
    return [emails.deliver(pk) for pk in notifications.due_ids(now)]


def test_the_start_is_announced_to_every_human(alice, bob, carol, dave):
    game = start_table(alice, [bob, carol, dave])
    started = Notification.objects.filter(game=game, kind="started")
    assert {n.user for n in started} == {alice, bob, carol, dave}
    _deliver_due()
    subjects = {m.subject for m in mail.outbox}
    assert subjects == {"The game at “Test table” has started"}
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        u.email for u in (alice, bob, carol, dave))


def test_a_player_is_told_when_the_game_needs_them(table):
    waiting = waiting_humans(table)
    assert waiting
    for seat in waiting:
        assert _turn_notifications(table).filter(user=seat.user).exists()
    later = timezone.now() + timedelta(minutes=3)
    with time_machine.travel(later):
        _deliver_due()
    told = {m.to[0] for m in mail.outbox if "started" not in m.subject}
    assert told == {s.user.email for s in waiting}


def test_the_email_has_text_html_a_link_and_a_one_click_unsubscribe(client, table):
    seat = waiting_humans(table)[0]
    with time_machine.travel(timezone.now() + timedelta(minutes=3)):
        _deliver_due()
    message = next(
        m for m in mail.outbox if m.to == [seat.user.email] and "started" not in m.subject
    )
    assert f"/t/{table.pk}/" in message.body
    html, mimetype = message.alternatives[0]
    assert mimetype == "text/html" and f"/t/{table.pk}/" in html
    unsubscribe = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert unsubscribe in message.body
    path = urlparse(unsubscribe).path
    assert client.get(path).status_code == 200
    seat.user.refresh_from_db()
    assert seat.user.notify == "every_turn"  # a GET (a mail scanner) changes nothing
    client.post(path)
    seat.user.refresh_from_db()
    # No more email; notifications on devices stay as they were.
    assert seat.user.notify_by == "push" and seat.user.notify == "every_turn"
    # The link opened again says it is done, rather than asking again.
    again = client.get(path).content.decode()
    assert "You get no game emails already" in again and 'type="submit"' not in again.split(
        '<main id="main" tabindex="-1">')[1]


def test_a_forged_unsubscribe_link_changes_nothing(client, alice):
    response = client.post("/unsubscribe/not-a-signed-token/")
    assert response.status_code == 400
    alice.refresh_from_db()
    assert alice.notify == "every_turn"


def test_running_the_task_twice_sends_one_email(table):
    notification = _turn_notifications(table).first()
    with time_machine.travel(timezone.now() + timedelta(minutes=3)):
        first = send_notification(notification.pk)
        second = send_notification(notification.pk)
    assert (first, second) == ("sent", "not pending")
    assert len(mail.outbox) == 1


def test_a_player_watching_the_table_is_not_emailed_yet(client, table):
    seat = waiting_humans(table)[0]
    client.force_login(seat.user)
    client.get(f"/t/{table.pk}/")  # watching live
    with time_machine.travel(timezone.now() + timedelta(minutes=3)):
        _deliver_due()
    assert not [m for m in mail.outbox if m.to == [seat.user.email]]
    notification = _turn_notifications(table).get(user=seat.user)
    assert notification.status == "pending" and notification.note == "waiting"
    with time_machine.travel(timezone.now() + timedelta(minutes=6)):
        _deliver_due()
    assert [m for m in mail.outbox if m.to == [seat.user.email]]


def test_no_email_once_the_player_has_acted(table):
    seat = waiting_humans(table)[0]
    action = engine.action_from_json(legal(table, seat)[0])
    commands.act(table.pk, seat.user, action, table.awaiting[str(seat.player)][0])
    with time_machine.travel(timezone.now() + timedelta(minutes=3)):
        _deliver_due()
    mine = _turn_notifications(table).filter(user=seat.user).order_by("pk").first()
    mine.refresh_from_db()
    assert mine.status == "skipped" and mine.note == "acted"


def test_at_most_one_email_per_game_until_the_player_acts(table):
    """Bob is told once; when he becomes awaited again without having acted (a new tax
    decision after the round ends, say), no second email goes out."""
    seat = waiting_humans(table)[0]
    first = _turn_notifications(table).get(user=seat.user)
    with time_machine.travel(timezone.now() + timedelta(minutes=3)):
        assert emails.deliver(first.pk) == "sent"
    # The same wait notified again (as a later state of the game would be): the key names
    # the state, so only its uniqueness is sidestepped here.
    Notification.objects.filter(pk=first.pk).update(key=first.key + ":told")
    second = Notification.objects.create(
        user=seat.user, game=table, kind="turn", due=timezone.now(), key=first.key,
    )
    with time_machine.travel(timezone.now() + timedelta(minutes=4)):
        assert emails.deliver(second.pk) == "already told"
    assert len([m for m in mail.outbox if m.to == [seat.user.email]]) == 1


def test_daily_players_get_one_summary_instead_of_turn_emails(table):
    seat = waiting_humans(table)[0]
    seat.user.notify = "daily"
    seat.user.save()
    with time_machine.travel(timezone.now() + timedelta(minutes=3)):
        _deliver_due()
    assert not [m for m in mail.outbox if m.to == [seat.user.email]]
    # At eight in the morning of the player's (here: the site's) time zone.
    eight = timezone.localtime().replace(hour=8, minute=5) + timedelta(days=1)
    with time_machine.travel(eight - timedelta(hours=1)):
        assert notifications.for_daily_summaries() == 0
    with time_machine.travel(eight):
        assert notifications.for_daily_summaries() == 1
        assert notifications.for_daily_summaries() == 0  # one per day
        _deliver_due()
    summaries = [m for m in mail.outbox if m.to == [seat.user.email]]
    assert len(summaries) == 1
    assert "waiting for you" in summaries[0].subject and "Test table" in summaries[0].body


def test_daily_players_hear_of_a_games_start_and_end(alice, bob):
    """The summary tells of the tables waiting for them; a game's start and its final
    standings, once a game each, come as they come to everyone."""
    from tests.helpers import play_out

    bob.notify = "daily"
    bob.save()
    game = start_table(alice, [bob], bots=2, options={"rounds": 1})
    game = play_out(game)
    with time_machine.travel(timezone.now() + timedelta(minutes=3)):
        _deliver_due()
    subjects = [m.subject for m in mail.outbox if m.to == [bob.email]]
    assert subjects == ["The game at “Test table” has started", "The game at “Test table” is over"]


def test_never_means_never(table):
    for seat in table.seats.select_related("user"):
        seat.user.notify = "never"
        seat.user.save()
    with time_machine.travel(timezone.now() + timedelta(minutes=3)):
        _deliver_due()
    assert mail.outbox == []


def test_the_end_is_announced_with_the_standings(alice, bob):
    from tests.helpers import play_out

    game = play_out(start_table(alice, [bob], bots=2, options={"rounds": 1}))
    mail.outbox.clear()
    over = Notification.objects.get(game=game, kind="over", user=alice)
    assert emails.deliver(over.pk) == "sent"
    message = mail.outbox[0]
    assert "is over" in message.subject
    assert "Bob" in message.body and "Alice" in message.body
    # The reader finds their own line, and the whole game to read back and replay.
    standings = [line for line in message.body.splitlines() if line[:1].isdigit()]
    assert [line for line in standings if "(you)" in line] == \
        [line for line in standings if "Alice" in line]
    record = reverse("game_record", args=[game.pk])
    html = message.alternatives[0][0]
    assert record in message.body and record in html
    assert html.count("(you)") == 1


def test_the_pushes_of_the_start_and_the_end_say_what_the_emails_say(alice, bob):
    """On a lock screen the start tells the player's first title, the end their place and
    the winner, as the emails do: not "Open the table to see it."."""
    from push import sender as push_sender
    from tests.helpers import play_out

    game = start_table(alice, [bob], bots=2, options={"rounds": 1})
    started = Notification.objects.filter(game=game, kind="started", user=alice).first()
    view = game.engine_state().view(game.seats.get(user=alice).player)
    title = TITLE_NAMES[view["titles"][view["seat"]]]
    assert push_sender.message(started)["body"] == f"You start as {title}."
    game = play_out(game)
    standings = game.engine_state().standings
    names = {s.player: s.name for s in game.seats.all()}
    winner = names[standings[0]["player"]]
    for user in (alice, bob):
        over = Notification.objects.filter(game=game, kind="over", user=user).first()
        body = push_sender.message(over)["body"]
        place = next(i for i, s in enumerate(standings, 1)
                     if names[s["player"]] == user.display_name)
        assert body == ("You won!" if place == 1
                        else f"You finished in place {place}; {winner} won."), body


def test_an_email_is_written_in_the_players_language(table):
    seat = waiting_humans(table)[0]
    seat.user.language = "nl"
    seat.user.save()
    with time_machine.travel(timezone.now() + timedelta(minutes=3)):
        _deliver_due()
    message = next(m for m in mail.outbox if m.to == [seat.user.email])
    from django.utils import translation

    with translation.override("nl"):
        expected = translation.gettext("Go to the table:")
    assert expected in message.body


def test_a_table_name_is_not_html_escaped_in_a_plain_text_email(alice, bob):
    from games.models import Game

    game = start_table(alice, [bob], bots=2)
    Game.objects.filter(pk=game.pk).update(name="Alice's <table>")
    notification = Notification.objects.get(game=game, kind="started", user=bob)
    emails.deliver(notification.pk)
    message = mail.outbox[-1]
    assert message.subject == "The game at “Alice's <table>” has started"
    assert "Alice's <table>" in message.body
    assert "Alice&#x27;s &lt;table&gt;" in message.alternatives[0][0]


def test_an_unsubscribe_link_expires_after_ninety_days(client, alice):
    from games.away.emails import unsubscribe_url

    issued = timezone.now()
    path = urlparse(unsubscribe_url(alice)).path
    with time_machine.travel(issued + timedelta(days=89)):
        assert client.get(path).status_code == 200
    with time_machine.travel(issued + timedelta(days=91)):
        answer = client.post(path)
    assert answer.status_code == 400
    assert "expired" in answer.content.decode() and "/accounts/login/" in answer.content.decode()
    alice.refresh_from_db()
    assert alice.notify == "every_turn"


def test_each_email_carries_its_own_unsubscribe_token(alice):
    from games.away.emails import unsubscribe_url

    first = unsubscribe_url(alice)
    with time_machine.travel(timezone.now() + timedelta(seconds=2)):
        assert unsubscribe_url(alice) != first


def test_a_move_reads_the_seats_and_each_next_players_devices_once(table):
    """A move tells the next player of their turn from the seats the move already read,
    asking once which channels they want (every move at every table pays for this)."""
    for _ in range(20):  # until a move gives a person a new turn (not every move does)
        seat = waiting_humans(table)[0]
        action = next((a for a in legal(table, seat) if a["type"] != "pass"),
                      legal(table, seat)[0])
        before = _turn_notifications(table).count()
        with CaptureQueriesContext(connection) as captured:
            commands.act(table.pk, seat.user, engine.action_from_json(action),
                         table.wait_for(seat.player).token)
        if _turn_notifications(table).count() == before + 1:
            break
    else:
        raise AssertionError("no move told anybody of their turn")
    sql = [q["sql"] for q in captured.captured_queries]
    assert sum('FROM "push_pushsubscription"' in q for q in sql) == 1
    seat_reads = [q for q in sql if q.startswith("SELECT") and 'FROM "games_seat"' in q]
    assert sum('JOIN "accounts_user"' in q for q in seat_reads) == 1


def test_a_move_within_a_round_reads_the_seats_once(table):
    """The move, the standing orders it sets off, the next player's clock and notice and
    the bots' wake-up share one read of the seats (until a round ends: then seats
    change, and they are read again)."""
    moves = 0
    for _ in range(12):
        table.refresh_from_db()
        round_number = table.round_number
        seat = waiting_humans(table)[0]
        action = next((a for a in legal(table, seat) if a["type"] != "pass"),
                      legal(table, seat)[0])
        with CaptureQueriesContext(connection) as captured:
            commands.act(table.pk, seat.user, engine.action_from_json(action),
                         table.wait_for(seat.player).token)
        table.refresh_from_db()
        if table.round_number != round_number:
            continue
        seat_reads = [q["sql"] for q in captured.captured_queries
                      if q["sql"].startswith("SELECT") and 'FROM "games_seat"' in q["sql"]]
        assert len(seat_reads) == 1, seat_reads
        moves += 1
    assert moves
