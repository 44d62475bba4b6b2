"""A player who is rarely online meets the site in their mail and on their lock screen.
Every HTML email is laid out for a phone's width and says its language; every email
leads to the notification settings (a daily summary instead of every turn, or never),
signed in or through a login that comes back; the daily summary puts the table whose
time runs out first on top, each table told as one block; a reminder tells the table as
the turn email does (after a timeout it is the only email of the turn); what a player
said is quoted with the reader's language's marks; a French email keeps the no-break
space before its colons."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.core import mail
from django.test import Client
from django.utils import timezone

from chat import services as chat
from games import commands
from games.away import emails
from games.commands import notifications
from games.core.clock import current_deadline
from games.core.words import moment
from games.models import Game, Notification, TimeBank, TurnLimit
from games.templatetags.games import last_day
from push import sender as push_sender
from tests.helpers import (
    PASSWORD,
    act_as,
    colons_without_space,
    deal_a_merchant_both_jesters,
    deliver_due,
    legal,
    make_user,
    play_out,
    start_table,
    waiting_humans,
    words_of,
)

pytestmark = pytest.mark.django_db

VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">'
SETTINGS_LINK = settings.SITE_URL + "/accounts/profile/#id_notify"
GRACE = timedelta(seconds=settings.NOTIFY_GRACE_SECONDS + 1)


def _friends(language: str):
    ana = make_user("ana", display_name="Ana", language=language)
    rosa = make_user("rosa", display_name="Rosa", language=language,
                     time_zone="America/Toronto")
    return ana, rosa


def _table(host, friend, name="Friday cards", limit=TurnLimit.DAY) -> Game:
    """A timed game where only the clock acts for the people (no standing orders)."""
    game = start_table(host, [friend], bots=2, turn_limit=limit, name=name)
    game.seats.update(auto_pass=False)
    return game


def _until_waiting_for(game: Game, user) -> Game:
    """The bots and the other people play on until the table waits for `user` in public."""
    for _ in range(2000):
        game.refresh_from_db()
        humans = waiting_humans(game)
        if any(s.user_id == user.pk and not game.wait_for(s.player).secret for s in humans):
            return game
        others = [s for s in humans if s.user_id != user.pk]
        if others:
            act_as(game, others[0], legal(game, others[0])[0])
        else:
            assert commands.play_bot_move(game.pk), "the game waits for nobody"
    raise AssertionError("the table never waited for them")


def _sent_to(user) -> list:
    return [m for m in mail.outbox if m.to == [user.verified_email]]


def _tomorrow_at_the_summary_hour(user):
    """The next day's summary hour in the player's zone, from now."""
    local = timezone.localtime(timezone.now(), user.zone)
    return local.replace(hour=settings.DAILY_SUMMARY_HOUR, minute=0) + timedelta(days=1)


def _daily_summary_of(user) -> list:
    """The player switched to one daily summary: what reaches them at the next one."""
    user.notify = user.Notify.DAILY
    user.save()
    mail.outbox.clear()
    with time_machine.travel(_tomorrow_at_the_summary_hour(user), tick=False):
        notifications.for_daily_summaries()
        deliver_due()
    return _sent_to(user)


def _html(message) -> str:
    html, mimetype = message.alternatives[0]
    assert mimetype == "text/html"
    return html


def _turn_email(language: str):
    ana, rosa = _friends(language)
    game = _until_waiting_for(_table(ana, rosa), rosa)
    deliver_due()  # the news of the start
    mail.outbox.clear()
    with time_machine.travel(timezone.now() + GRACE):
        deliver_due()
    [message] = _sent_to(rosa)
    return game, rosa, message


@pytest.mark.parametrize("language", ["fr", "nl"])
def test_an_html_email_is_laid_out_for_a_phone_and_says_its_language(language):
    _game, _rosa, message = _turn_email(language)
    html = _html(message)
    # Without a viewport a phone lays the email out 980 px wide and shrinks it to fit:
    # the words too small to read.
    assert VIEWPORT in html
    assert f'<html lang="{language}">' in html
    assert '<meta charset="utf-8">' in html


def test_the_password_reset_email_is_laid_out_for_a_phone_too(client, after_commit):
    make_user("rosa", language="de")
    with after_commit():
        client.post("/accounts/password/reset/", {"email": "rosa@example.com"})
    html = _html(mail.outbox[-1])
    assert VIEWPORT in html
    assert '<html lang="de">' in html


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_game_email_leads_to_the_notification_settings_through_a_login(client, language):
    _game, rosa, message = _turn_email(language)
    # Fewer emails (a daily summary instead of every turn) without giving them all up.
    assert SETTINGS_LINK in message.body
    assert f'href="{SETTINGS_LINK}"' in _html(message)
    assert message.body.index(SETTINGS_LINK) < message.body.index("/unsubscribe/")

    path = SETTINGS_LINK.removeprefix(settings.SITE_URL).split("#")[0]
    login = client.get(path, follow=True)
    assert login.redirect_chain[-1][0] == f"/accounts/login/?next={path}"
    back = client.post(login.redirect_chain[-1][0],
                       {"username": "rosa", "password": PASSWORD}, follow=True)
    assert back.redirect_chain[-1][0] == path
    assert 'id="id_notify"' in back.content.decode()


def test_the_unsubscribe_page_offers_the_notification_settings_before_giving_all_up(client):
    _game, rosa, message = _turn_email("en")
    unsubscribe = message.extra_headers["List-Unsubscribe"].strip("<>")
    page = client.get(unsubscribe.removeprefix(settings.SITE_URL)).content.decode()
    assert '<a href="/accounts/profile/#id_notify">' in page
    assert "one daily summary" in page


def test_an_invitation_leads_to_the_notification_settings_too():
    ana, rosa = _friends("nl")
    game = commands.create_table(ana, "Sunday rematch", 5, {"rounds": 3}, TurnLimit.DAY)
    invitation, _new = commands.tables.invite(game, ana, user=rosa)
    mail.outbox.clear()
    emails.send_invitation(invitation.pk)
    [message] = _sent_to(rosa)
    assert SETTINGS_LINK in message.body
    assert f'href="{SETTINGS_LINK}"' in _html(message)


def test_the_daily_summary_puts_the_table_whose_time_runs_out_first_on_top():
    ana, rosa = _friends("en")
    rosa.notify = rosa.Notify.DAILY
    rosa.save()
    # The slower table is the older one: it comes first in the database.
    slow = _until_waiting_for(_table(ana, rosa, "Slow table", TurnLimit.THREE_DAYS), rosa)
    quick = _until_waiting_for(_table(ana, rosa, "Quick table", TurnLimit.DAY), rosa)
    seat = quick.seats.get(user=rosa)
    assert current_deadline(quick, seat) < current_deadline(slow, slow.seats.get(user=rosa))
    mail.outbox.clear()
    with time_machine.travel(_tomorrow_at_the_summary_hour(rosa), tick=False):
        assert notifications.for_daily_summaries() == 1
        deliver_due()
        notice = Notification.objects.get(user=rosa, kind="daily")
        pushed = push_sender.message(notice)
    [summary] = [m for m in _sent_to(rosa) if m.subject == "2 games are waiting for you"]
    for text in (summary.body, _html(summary)):
        assert text.index("Quick table") < text.index("Slow table")
    # Each table a block of its own, a blank line between them, and one before the footer.
    assert "\n\n“Quick table”\nIt is your turn to play." in summary.body
    assert "\n\n“Slow table”\n" in summary.body
    assert "\n\n\n" not in summary.body
    assert pushed["body"] == "Quick table, Slow table"


def test_a_reminder_tells_the_table_as_the_turn_email_does():
    ana, rosa = _friends("en")
    game = _until_waiting_for(_table(ana, rosa), rosa)
    deadline = current_deadline(game, game.seats.get(user=rosa))
    mail.outbox.clear()
    with time_machine.travel(deadline - timedelta(minutes=1)):
        deliver_due()
    [reminder] = [m for m in _sent_to(rosa) if m.subject.startswith("Reminder")]
    for text in (reminder.body, _html(reminder)):
        assert "Cards in hand:" in text
        assert "Since your last move:" in text
        assert "To beat:" in text or "The table is empty: you lead." in text


def _named_by_ana(language: str, words: str):
    ana, rosa = _friends(language)
    game = _until_waiting_for(_table(ana, rosa), rosa)
    with time_machine.travel(timezone.now() + GRACE):
        deliver_due()
    mail.outbox.clear()
    seat = game.seats.get(user=ana)
    message = chat.post(game, seat, words)
    chat.tell_the_named(game, message, seat)
    with time_machine.travel(timezone.now() + GRACE):
        deliver_due()
        [notice] = Notification.objects.filter(user=rosa, kind="mention")
        pushed = push_sender.message(notice)
    [email] = [m for m in _sent_to(rosa) if m.subject.startswith(("Ana", "« Ana"))]
    return email, pushed


@pytest.mark.parametrize(("language", "words", "quoted"), [
    ("de", "@Rosa bist du da?", "„@Rosa bist du da?“"),
    ("fr", "@Rosa, tu es là ?", "«\u00a0@Rosa, tu es là ?\u00a0»"),
    ("en", "@Rosa are you there?", "“@Rosa are you there?”"),
])
def test_what_a_player_said_is_quoted_with_the_readers_marks(language, words, quoted):
    email, _pushed = _named_by_ana(language, words)
    assert quoted in email.body


def test_a_french_email_puts_a_no_break_space_before_its_colons():
    email, pushed = _named_by_ana("fr", "@Rosa, tu es là ?")
    assert colons_without_space(email.body) == []
    assert colons_without_space(pushed["body"]) == []
    rosa = Notification.objects.get(kind="mention").user
    [summary] = [m for m in _daily_summary_of(rosa) if m.subject == "Une partie vous attend"]
    assert "tu es là" in summary.body
    assert colons_without_space(summary.body) == []
    # The HTML's words, the tags aside.
    assert colons_without_space(words_of(_html(summary))) == []


def test_no_email_leaves_two_blank_lines_in_a_row():
    """The nudge and the timeout email each left an empty line where a part was not
    there."""
    ana, rosa = _friends("en")
    game = _until_waiting_for(_table(ana, rosa), rosa)
    with time_machine.travel(timezone.now() + timedelta(hours=2)):
        commands.nudge(game.pk, ana, game.seats.get(user=rosa).player)
        deliver_due()
    deadline = current_deadline(game, game.seats.get(user=rosa))
    with time_machine.travel(deadline + timedelta(minutes=1)):
        commands.enforce_deadlines(game.pk)
    with time_machine.travel(deadline + timedelta(minutes=1) + GRACE):
        deliver_due()
    kinds = {m.subject.split(" ")[0] for m in _sent_to(rosa)}
    assert {"Ana", "Your"} <= kinds
    for message in _sent_to(rosa):
        assert "\n\n\n" not in message.body, message.subject


def test_a_player_away_reads_that_their_clock_waits_in_the_turn_email_and_the_summary():
    """Told of a turn while away, the player reads why their time runs out so late."""
    ana, rosa = _friends("en")
    # As the profile sets it: until the end of a day, in the player's own zone.
    local = timezone.localtime(timezone.now(), rosa.zone)
    back = local.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=3)
    commands.set_away(rosa, back)
    rosa.refresh_from_db()
    game = _until_waiting_for(_table(ana, rosa), rosa)
    deliver_due()  # the news of the start
    mail.outbox.clear()
    with time_machine.travel(timezone.now() + GRACE):
        deliver_due()
    [turn] = _sent_to(rosa)
    with timezone.override(rosa.zone):
        day = last_day(rosa.away_until)
    away = f"You are away until the end of {day}: your clock waits at every timed table."
    assert away in turn.body and away in _html(turn)
    [summary] = _daily_summary_of(rosa)
    assert away in summary.body and away in _html(summary)
    # Back, nothing says so.
    commands.set_away(rosa, None)
    assert game.seats.get(user=rosa).paused_until is None


def test_a_vacation_at_one_table_is_told_in_its_turn_email():
    ana, rosa = _friends("en")
    game = _until_waiting_for(_table(ana, rosa), rosa)
    deliver_due()  # the news of the start
    mail.outbox.clear()
    seat = commands.start_vacation(game.pk, rosa, 2)
    with time_machine.travel(timezone.now() + GRACE):
        deliver_due()
    [turn] = _sent_to(rosa)
    with timezone.override(rosa.zone):
        when = moment(seat.vacation_until)
    assert f"Your clock is paused until {when}." in turn.body
    assert f"Your clock is paused until {when}." in _html(turn)


def test_a_decision_kept_in_private_promises_no_time_as_the_game_page_does():
    """A decision on a revolution closes when the Dalmutis have chosen their give-back,
    before its deadline as often as not: its turn email, its reminder and the daily
    summary promise no time for it, as the game page and My games do, and the summary
    lists it after the tables whose time runs out."""
    ana, rosa = _friends("en")
    # The public turn's time runs out later: a bank's day beside three days a turn.
    public = _until_waiting_for(
        start_table(ana, [rosa], bots=2, turn_limit=TurnLimit.THREE_DAYS, bank=TimeBank.DAY,
                    name="Public table"), rosa)
    private = deal_a_merchant_both_jesters(
        start_table(rosa, [ana], bots=3, seed=11, turn_limit=TurnLimit.THREE_DAYS,
                    name="Private table"), rosa)
    seat = private.seats.get(user=rosa)
    wait = private.wait_for(seat.player)
    assert wait.secret and wait.deadline
    assert wait.deadline < current_deadline(public, public.seats.get(user=rosa))
    notifications.for_private_waits(private.pk)
    mail.outbox.clear()
    with time_machine.travel(timezone.now() + GRACE):  # the start's news, then the turn's
        deliver_due()
    with time_machine.travel(wait.deadline - timedelta(hours=1)):
        deliver_due()
    told = [m for m in _sent_to(rosa)
            if "Private table" in m.subject and not m.subject.endswith("has started")]
    assert [m.subject for m in told] == ["A decision awaits you at “Private table”",
                                             "Reminder: “Private table” is waiting for you"]
    for message in told:
        for text in (message.body, _html(message)):
            assert "A decision awaits you before the first trick." in text
            assert "runs out" not in text
    [summary] = _daily_summary_of(rosa)
    for text in (summary.body, _html(summary)):
        assert text.index("Public table") < text.index("Private table")
        assert text.count("your time runs out on") == 1
    client = Client()
    client.force_login(rosa)
    mine = client.get("/").content.decode()
    assert mine.index("Public table") < mine.index("Private table")
    assert mine.count('class="time-left') == 1


def test_the_end_email_gives_each_way_on_its_own_line_the_table_a_button():
    """Two links side by side in one line were two small targets on a phone."""
    ana, rosa = _friends("en")
    game = play_out(start_table(ana, [rosa], bots=2, options={"rounds": 1}))
    mail.outbox.clear()
    over = Notification.objects.get(game=game, kind="over", user=rosa, channel="email")
    emails.deliver(over.pk)
    [message] = _sent_to(rosa)
    html = _html(message)
    table = re.search(r'<p><a href="[^"]+/t/\d+/" style="background[^"]*">Go to the table</a></p>',
                      html)
    assert table, html
    assert re.search(r'<p><a href="[^"]+/history/\d+/">The whole game and its replay</a></p>',
                     html), html
