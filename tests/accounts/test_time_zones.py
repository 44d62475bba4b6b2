"""Every time a player reads, on pages and in emails, is in their own time zone (and
language), with the zone named where it matters; the daily summary goes out at the
summary hour of each reader's own day."""

import re
import zoneinfo
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone, translation

from games import tasks
from games.away import emails
from games.commands import notifications
from games.models import Notification, TurnLimit
from games.templatetags.games import time_left
from tests.helpers import make_user, names, start_table, waiting_humans

pytestmark = pytest.mark.django_db

# A moment whose deadline a day later falls on different days in New York and Tokyo.
STARTED = datetime(2026, 11, 23, 20, 30, tzinfo=UTC)
DEADLINE = STARTED + timedelta(days=1)
NEW_YORK = "Nov. 24, 2026, 3:30 p.m. EST"
TOKYO = "Nov. 25, 2026, 5:30 a.m. JST"


def _deliver_due():
    return [emails.deliver(pk) for pk in notifications.due_ids()]


@pytest.fixture
def two_zones(db):
    """A timed table that waits for two players at once (the taxes), one in New York
    reading French, one in Tokyo reading English; the others in the site's zone."""
    with time_machine.travel(STARTED, tick=False):
        friends = [make_user(name) for name in ("ana", "ben", "cas", "dia")]
        game = start_table(friends[0], friends[1:], turn_limit=TurnLimit.DAY)
        mail.outbox.clear()
    paris, tokyo = waiting_humans(game)
    paris.user.time_zone, paris.user.language = "America/New_York", "fr"
    tokyo.user.time_zone = "Asia/Tokyo"
    for seat in (paris, tokyo):
        seat.user.save()
        assert game.awaiting[str(seat.player)][2] == DEADLINE.isoformat()
    return game, paris.user, tokyo.user


def test_two_players_read_the_same_deadline_each_in_their_own_time_on_the_page(
    client, two_zones
):
    game, new_york, tokyo = two_zones
    with time_machine.travel(STARTED + timedelta(hours=3, minutes=40), tick=False):
        client.force_login(tokyo)
        page = client.get(f"/t/{game.pk}/").content.decode()
        # (The time left is in an element of its own, which the page's script runs on.)
        text = re.sub(r"<[^>]+>", "", page)
        assert f"Your time to decide runs out on {TOKYO} (in 20\u00a0h 20\u00a0min)." in text
        assert not names(page, "EST") and "3:30 p.m." not in page
        # The table's log too: the deal at 20:30 UTC was at 05:30 in Tokyo (that day).
        assert f'<time datetime="{STARTED.isoformat()}">5:30 a.m.</time>' in page

        client.force_login(new_york)
        page = client.get(f"/t/{game.pk}/").content.decode()
        assert ("Votre temps de décision expire le 24 novembre 2026 à 15:30 EST "
                "(dans 20\u00a0h 20\u00a0min).") in re.sub(r"<[^>]+>", "", page)
        assert f'<time datetime="{STARTED.isoformat()}">15:30</time>' in page
        assert not names(page, "JST")

        # What a poll sends when the table changed is in the reader's zone as well.
        polled = client.get(f"/t/{game.pk}/poll/?v=0&me=x").content.decode()
        assert "24 novembre 2026 à 15:30 EST" in polled


def test_two_players_read_the_same_deadline_each_in_their_own_time_in_emails(two_zones):
    game, new_york, tokyo = two_zones
    # The turn emails (after the grace period), then the reminders a quarter of the
    # limit before the deadline.
    with time_machine.travel(STARTED + timedelta(minutes=5), tick=False):
        _deliver_due()
    with time_machine.travel(DEADLINE - timedelta(hours=6), tick=False):
        _deliver_due()
    to = {user.email: [m for m in mail.outbox if m.to == [user.email]]
          for user in (new_york, tokyo)}
    assert [m.subject for m in to[tokyo.email]] == [
        "The game at “Test table” has started", "A decision awaits you at “Test table”",
        "Reminder: “Test table” is waiting for you"]
    _started, turn, reminder = to[tokyo.email]
    assert f"Your time runs out on {TOKYO} (in 23\u00a0h 55\u00a0min)" in turn.body
    assert f"Your time runs out on {TOKYO} (in 6\u00a0h)" in reminder.body
    for message in (turn, reminder):
        html = message.alternatives[0][0]
        assert TOKYO in html and not names(message.body + html, "EST")
        assert "p.m.." not in message.body + html

    _started, turn, reminder = to[new_york.email]
    french = "Votre temps expire le 24 novembre 2026 à 15:30 EST"
    for message, left in ((turn, "23\u00a0h 55\u00a0min"), (reminder, "6\u00a0h")):
        html = message.alternatives[0][0]
        assert f"{french} (dans {left})" in message.body and french in html
        assert not names(message.body + html, "JST")


def test_a_summary_lists_each_tables_deadline_in_the_readers_time(two_zones):
    game, new_york, tokyo = two_zones
    tokyo.notify = "daily"
    tokyo.save()
    # 08:00 in Tokyo is 23:00 UTC.
    with time_machine.travel(datetime(2026, 11, 23, 23, 0, tzinfo=UTC), tick=False):
        assert notifications.for_daily_summaries() == 1
        _deliver_due()
    summary = next(m for m in mail.outbox
                   if m.to == [tokyo.email] and "waiting for you" in m.subject)
    assert f"(your time runs out on {TOKYO})" in summary.body
    # A block a table: its name, what it waits for with the deadline, then its link.
    lines = summary.body.splitlines()
    (at,) = [number for number, line in enumerate(lines) if TOKYO in line]
    assert lines[at - 1] == f"“{game.name}”" and lines[at + 1].endswith(f"/t/{game.pk}/")
    assert TOKYO in summary.alternatives[0][0]


def test_what_is_left_is_said_shortly_in_the_readers_language():
    now = timezone.now()
    # Each number keeps its unit (a no-break space between them).
    with time_machine.travel(now, tick=False):
        assert time_left(now + timedelta(hours=3, minutes=20, seconds=30)) == (
            "3\u00a0h 20\u00a0min")
        assert time_left(now + timedelta(days=2, hours=4)) == "2\u00a0d 4\u00a0h"
        assert time_left(now + timedelta(minutes=5)) == "5\u00a0min"
        assert time_left(now + timedelta(seconds=20)) == "<1\u00a0min"
        assert time_left(now - timedelta(hours=1)) == "<1\u00a0min"
        with translation.override("de"):
            assert time_left(now + timedelta(hours=3, minutes=20)) == "3\u00a0Std. 20\u00a0Min."
        with translation.override("nl"):
            assert time_left(now + timedelta(days=1, hours=2)) != "1\u00a0d 2\u00a0h"


# -- the daily summary at each reader's own hour --

def test_the_daily_summary_goes_out_once_a_day_at_eight_in_each_readers_zone(
    eager_tasks, settings, django_capture_on_commit_callbacks,
):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    zones = {"ana": "Europe/Amsterdam", "ben": "America/New_York", "cas": "Asia/Tokyo",
             "dia": "Asia/Kathmandu"}  # +05:45: eight o'clock there is never on the hour
    start = datetime(2026, 11, 23, 0, 0, tzinfo=UTC)
    with time_machine.travel(start, tick=False):
        friends = [make_user(n, notify="daily", time_zone=z) for n, z in zones.items()]
        game = start_table(friends[0], friends[1:])  # no time limit: the waits last
    waited_for = {s.user.username for s in waiting_humans(game)}
    assert len(waited_for) == 2
    mail.outbox.clear()

    sent_at = {name: [] for name in zones}
    with time_machine.travel(start, tick=False) as traveller:
        for _hour in range(48):
            traveller.shift(timedelta(hours=1))
            # Beat's hourly task, run twice as a redelivery would, and the minute's sweep.
            with django_capture_on_commit_callbacks(execute=True):
                tasks.daily_summaries()
                tasks.daily_summaries()
                tasks.sweep()
            for message in mail.outbox:
                if "waiting for you" not in message.subject:
                    continue  # the game's start, which daily players hear of too
                name = message.to[0].split("@")[0]
                sent_at[name].append(timezone.now())
            mail.outbox.clear()

    for name, zone in zones.items():
        local = [moment.astimezone(zoneinfo.ZoneInfo(zone)) for moment in sent_at[name]]
        if name not in waited_for:
            assert local == [], f"{name} has nothing waiting"
            continue
        assert len(local) == 2, f"{name}: {local}"
        assert [t.hour for t in local] == [8, 8]
        assert local[0].date() != local[1].date()
    assert Notification.objects.filter(kind="daily").count() == 4


def test_no_daily_summary_outside_the_summary_hour(settings):
    settings.DAILY_SUMMARY_HOUR = 19
    with time_machine.travel(datetime(2026, 11, 23, 17, 30, tzinfo=UTC),
                             tick=False):
        friends = [make_user(n, notify="daily", time_zone="Europe/Amsterdam")
                   for n in ("ana", "ben", "cas", "dia")]
        start_table(friends[0], friends[1:])
        assert notifications.for_daily_summaries() == 0  # 18:30 in Amsterdam
    with time_machine.travel(datetime(2026, 11, 23, 18, 30, tzinfo=UTC),
                             tick=False):
        assert notifications.for_daily_summaries() == 2
        assert notifications.for_daily_summaries() == 0


def test_the_zones_to_choose_from_are_read_from_the_system_once(client, monkeypatch):
    from accounts import zones

    for cached in (zones.known, zones.offered, zones.offered_names, zones.places,
                   zones.listing):
        cached.cache_clear()
    listed = []
    available = zoneinfo.available_timezones
    monkeypatch.setattr(zoneinfo, "available_timezones",
                        lambda: listed.append(1) or available())
    tess = make_user("tess")
    client.force_login(tess)
    for _ in range(2):
        page = client.get("/accounts/profile/").content.decode()
        assert '<option value="Asia/Tokyo">Tokyo (UTC+9)</option>' in page
    # Checked too, by the profile and at sign-up.
    assert client.post("/accounts/profile/", {
        "display_name": "Tess", "email": tess.email, "notify": tess.notify,
        "notify_by": tess.notify_by, "language": "", "time_zone": "Asia/Tokyo",
        "away_until": ""}).status_code == 302
    client.logout()
    client.post("/accounts/signup/", {
        "username": "ravi", "email": "ravi@example.com", "password1": "correct-horse-battery",
        "password2": "correct-horse-battery", "time_zone": "Asia/Calcutta"})
    assert len(listed) == 1
