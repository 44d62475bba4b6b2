"""Dates read one way in each language (Django's formats for the locale), in the reader's
time zone with the zone named, wherever they appear: the log, My games, the record and
emails; a wait under a minute is "just now"."""

import re
from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone, translation

from games.away import emails
from games.commands import notifications
from games.core import words
from games.models import Game, TurnLimit
from tests.helpers import make_user, play_until, start_table, waiting_humans

pytestmark = pytest.mark.django_db

MOMENT = datetime(2026, 11, 24, 15, 38, tzinfo=UTC)
FORMS = {
    # Amsterdam, the site's zone: 16:38 CET.
    "en": "Nov. 24, 2026, 4:38 p.m. CET",
    "nl": "24 november 2026 om 16:38 CET",
    "de": "24. November 2026 um 16:38 MEZ",
    "fr": "24 novembre 2026 à 16:38 CET",
}


@pytest.fixture
def dealt():
    with time_machine.travel(MOMENT, tick=False):
        users = [make_user(n) for n in ("ana", "ben", "cas", "dia")]
        game = start_table(users[0], users[1:], turn_limit=TurnLimit.DAY)
    return game, users


@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_full_log_and_the_record_write_the_same_moment_the_same_way(
        client, dealt, language):
    game, users = dealt
    users[0].language = language
    users[0].save()
    client.force_login(users[0])
    with time_machine.travel(MOMENT + timedelta(days=2), tick=False):
        log = client.get(f"/t/{game.pk}/log/").content.decode()
        assert f">{FORMS[language]}</time>" in log
        # The game page's own log names the day too, once it is not today.
        page = client.get(f"/t/{game.pk}/").content.decode()
        assert f">{FORMS[language]}</time>" in page
        game = play_until(game, lambda g: g.is_over)
        assert game.status == Game.Status.FINISHED
        record = client.get(f"/history/{game.pk}/").content.decode()
        assert f">{FORMS[language]}</time>" in record


@pytest.mark.parametrize("language", ["en", "fr"])
def test_emails_write_a_deadline_in_the_same_one_format(dealt, language):
    game, users = dealt
    waiting = waiting_humans(game)[0].user
    waiting.language = language
    waiting.save()
    with time_machine.travel(MOMENT + timedelta(minutes=5), tick=False):
        for pk in notifications.due_ids():
            emails.deliver(pk)
    deadline = {"en": "Nov. 25, 2026, 4:38 p.m. CET", "fr": "25 novembre 2026 à 16:38 CET"}
    mine = [m for m in mail.outbox if m.to == [waiting.email]]
    assert any(deadline[language] in m.body for m in mine), [m.body for m in mine]


@pytest.mark.parametrize(("language", "just_now", "minutes"), [
    ("en", "just now", "for 5\u00a0min"),
    ("nl", "zojuist", "sinds 5\u00a0min"),
])
def test_my_games_says_just_now_under_a_minute(client, dealt, language, just_now, minutes):
    game, users = dealt
    reader = next(u for u in users if u.pk not in
                  {s.user_id for s in waiting_humans(game)})
    reader.language = language
    reader.save()
    client.force_login(reader)
    with time_machine.travel(MOMENT + timedelta(seconds=20), tick=False):
        home = _words(client.get("/").content.decode())
        assert f"· {just_now}" in home
        assert not re.search(r"(?<!\d)0\u00a0min", home)
    with time_machine.travel(MOMENT + timedelta(minutes=5), tick=False):
        assert f"· {minutes}" in _words(client.get("/").content.decode())


def _words(page: str) -> str:
    """A page's text, its tags left out (a time is an element the page's script writes
    on)."""
    return re.sub(r"<[^>]+>", "", page)


@pytest.mark.parametrize(("language", "first", "second"), [
    ("fr", "1er décembre 2026", "2 décembre 2026"),
    ("en", "Dec. 1, 2026", "Dec. 2, 2026"),
    ("de", "1. Dezember 2026", "2. Dezember 2026"),
    ("nl", "1 december 2026", "2 december 2026"),
])
def test_french_writes_the_first_of_a_month_as_an_ordinal(language, first, second):
    with translation.override(language), timezone.override("UTC"):
        assert words.day(date(2026, 12, 1)) == first
        assert words.day(date(2026, 12, 2)) == second
        assert words.moment(datetime(2026, 12, 1, 9, 5, tzinfo=UTC)).startswith(first)
        assert words.moment(datetime(2026, 12, 2, 9, 5, tzinfo=UTC)).startswith(second)


@pytest.mark.parametrize(("zone", "named"), [
    ("Europe/Amsterdam", "CET"), ("Asia/Tokyo", "JST"), ("America/New_York", "EST"),
    ("UTC", "UTC"),
    # The tz database has no letters for these, only "-03", "+04", "+0545", which read as
    # a sum after a time: their offsets instead, written as the time zone list writes them.
    ("America/Sao_Paulo", "UTC−3"), ("Asia/Dubai", "UTC+4"), ("Asia/Kathmandu", "UTC+5:45"),
])
def test_a_moment_names_its_zone_in_letters_or_by_its_offset(zone, named):
    with translation.override("en"), timezone.override(zone):
        assert words.moment(MOMENT).endswith(f" {named}")


@pytest.mark.parametrize(("language", "zone", "winter", "summer"), [
    # German names Central and Western European time as its readers do.
    ("de", "Europe/Berlin", "MEZ", "MESZ"), ("de", "Europe/Lisbon", "WEZ", "WESZ"),
    # Where the language has no letters of its own, the tz database's.
    ("de", "America/New_York", "EST", "EDT"), ("nl", "Europe/Amsterdam", "CET", "CEST"),
    ("fr", "Europe/Paris", "CET", "CEST"), ("en", "Europe/London", "GMT", "BST"),
    # UTC stays UTC (the CLDR's French "TU" is rarely written).
    ("fr", "UTC", "UTC", "UTC"), ("de", "UTC", "UTC", "UTC"),
    # The CLDR counts Casablanca as Western European time, which it left for UTC+1: a
    # zone the tz database has no letters for keeps its offset in every language.
    ("de", "Africa/Casablanca", "UTC+1", "UTC+1"), ("nl", "Africa/Casablanca", "UTC+1",
                                                   "UTC+1"),
])
def test_a_moment_names_its_zone_as_the_readers_language_does(language, zone, winter,
                                                               summer):
    with translation.override(language), timezone.override(zone):
        assert words.moment(MOMENT).endswith(f" {winter}")
        assert words.moment(datetime(2026, 7, 1, 12, tzinfo=UTC)).endswith(f" {summer}")
