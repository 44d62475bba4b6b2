"""The talk's messages on a page: each drawn once per process for what it shows and kept
(as the round's log lines are), its speaker found among the table's seats the page has
read rather than read again with every message. Kept, a message must still read as drawn
afresh to each reader: their own marked, each speaker named as they are now and titled
as when they spoke, in the reader's language, with its date from the next day on,
escaped."""

from datetime import datetime, timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from chat import flourishes
from chat import services as talk
from chat.models import Message
from chat.templatetags import chat as chat_tags
from dalmuti_site import drawings
from games import commands
from games.models import Game, Seat
from tests.helpers import make_user, play_until, shed_worst, start_table, templates_drawn

pytestmark = pytest.mark.django_db

MESSAGE = "chat/_message.html"


@pytest.fixture
def drawn(monkeypatch):
    """The messages drawn since the test began, afresh (nothing kept before it)."""
    chat_tags.forget()
    drawings.forget()
    return templates_drawn(monkeypatch, chat_tags)


def _page(user, game: Game) -> str:
    client = Client()
    client.force_login(user)
    return client.get(game.get_absolute_url()).content.decode()


def _talk(page: str) -> str:
    return page[page.index('<div id="chat-log"'):page.index("</ol>", page.index('id="chat-log"'))]


def _message(talk_html: str, text: str) -> str:
    """The `<li>` of the message that says `text`."""
    end = talk_html.index(text)
    return talk_html[talk_html.rindex("<li", 0, end):talk_html.index("</li>", end)]


@pytest.fixture
def table(db):
    people = [make_user(name) for name in ("ada", "bob", "cy", "dee")]
    game = start_table(people[0], people[1:])
    seats = {s.user.username: s for s in game.seats.select_related("user")}
    talk.post(game, seats["ada"], "Hello <b>all</b> & good luck")
    talk.post(game, seats["bob"], "Thanks, Ada")
    return game, people, seats


def test_each_message_is_drawn_once_and_marked_as_its_readers_own(table, drawn):
    game, people, _ = table
    ada, bob, cy = people[:3]
    first = _talk(_page(ada, game))
    assert drawn.count(MESSAGE) == 2
    assert _talk(_page(ada, game)) == first and drawn.count(MESSAGE) == 2
    # Her own message marked on her page, Bob's not; on Bob's page the other way round.
    assert "mine" in _message(first, "good luck") and "mine" not in _message(first, "Thanks")
    theirs = _talk(_page(bob, game))
    assert "mine" in _message(theirs, "Thanks") and "mine" not in _message(theirs, "good luck")
    assert drawn.count(MESSAGE) == 4
    # Cy spoke neither: each message reads to them as to one of the two, kept already.
    neither = _talk(_page(cy, game))
    assert "mine" not in neither and drawn.count(MESSAGE) == 4
    # Each speaker named, the words escaped as drawn afresh, newest first.
    assert "Hello &lt;b&gt;all&lt;/b&gt; &amp; good luck" in neither
    assert "<b>all</b>" not in neither
    assert neither.index("Thanks, Ada") < neither.index("good luck")
    assert "<bdi>Ada</bdi>" in _message(neither, "good luck")
    assert "<bdi>Bob</bdi>" in _message(neither, "Thanks")


def test_a_speaker_is_named_as_they_are_now_and_titled_as_when_they_spoke(table, drawn):
    """A line said as Great Dalmuti (a flourish of that title, say) reads so in the
    rounds after, on a page open since and on one loaded later alike."""
    game, people, seats = table
    said_as = talk.titles(game, None)
    before = {name: _message(_talk(_page(people[2], game)), f"{name} in round 1")
              for name in seats if talk.post(game, seats[name], f"{name} in round 1")}
    # Shedding their worst cards first, somebody ends round 1 in a new place.
    game = play_until(game, lambda g: g.round_number == 2, choose=shed_worst)
    now = talk.titles(game, None)
    moved = next(name for name, seat in seats.items()
                 if now[seat.player] != said_as[seat.player])
    talk.post(game, Seat.objects.get(pk=seats[moved].pk), "a new round")
    page = _talk(_page(people[2], game))
    assert _message(page, f"{moved} in round 1") == before[moved]
    assert f"title-{said_as[seats[moved].player]}" in before[moved]
    assert f"title-{now[seats[moved].player]}" in _message(page, "a new round")
    # A player who renames themself is named anew on every message they wrote.
    people[0].display_name = "Ada the Great"
    people[0].save()
    renamed = _message(_talk(_page(people[2], game)), "good luck")
    assert "<bdi>Ada the Great</bdi>" in renamed


def _time(message: str) -> str:
    return message[message.index(">", message.index("<time")) + 1:message.index("</time>")]


def test_a_message_shows_its_date_from_the_next_day_on(table, drawn):
    game, people, _ = table
    said = Message.objects.get(text="Thanks, Ada").created
    # Read the moment it was said, and a minute into the reader's next day (wherever in
    # the day the test runs: a minute after it was said may already be the next day).
    next_day = timezone.localtime(said).date() + timedelta(days=1)
    after_midnight = timezone.make_aware(datetime.combine(next_day, datetime.min.time()))
    with time_machine.travel(said, tick=False):
        today = _time(_message(_talk(_page(people[0], game)), "Thanks"))
    with time_machine.travel(after_midnight + timedelta(minutes=1), tick=False):
        tomorrow = _time(_message(_talk(_page(people[0], game)), "Thanks"))
    # The time alone on the day it was said; from the next day on, its date too.
    assert str(said.year) not in today and str(said.year) in tomorrow


def test_a_flourish_reads_in_each_readers_language(table, drawn):
    game, people, seats = table
    title = talk.titles(game, seats["cy"]).get(seats["cy"].player)
    flourish = flourishes.for_title(title)[0]
    Message.objects.create(game=game, seat=seats["cy"], name="Cy", flourish=flourish.key)
    english = _talk(_page(people[0], game))
    people[0].language = "nl"
    people[0].save()
    dutch = _talk(_page(people[0], game))
    from django.utils import translation
    with translation.override("nl"):
        in_dutch = str(flourish.text)
    with translation.override("en"):
        in_english = str(flourish.text)
    assert in_dutch != in_english
    assert in_english in english and in_dutch in dutch and in_english not in dutch


def test_who_is_no_longer_seated_is_named_as_they_spoke(db, drawn):
    """A player who left a table before it began, and a watcher allowed to talk, spoke
    without a seat at it now: their messages keep the name they spoke under."""
    host, guest = make_user("ada"), make_user("bob")
    game = commands.create_table(host, "Lobby", 4, {"rounds": 2})
    commands.join(game.pk, guest)
    talk.post(game, game.seats.get(user=guest), "See you later")
    commands.remove_seat(game.pk, game.seats.get(user=guest).pk)
    assert Message.objects.get(text="See you later").seat is None
    page = _page(host, game)
    assert "<bdi>Bob</bdi>" in _message(_talk(page), "See you later")
    # The talk's own page, every message, names them alike.
    client = Client()
    client.force_login(host)
    whole = client.get(reverse("chat", args=[game.pk])).content.decode()
    assert "<bdi>Bob</bdi>" in _message(_talk(whole), "See you later")


def test_a_speaker_seated_after_the_seats_were_read_is_named(table):
    """A page reads the table's seats, then its talk: a newcomer who sat down and spoke
    in between is looked up, not left nameless."""
    from chat.panel import lines

    game, _, seats = table
    said = list(Message.objects.filter(game=game).order_by("pk"))
    shown = lines(said, None, {}, [seats["ada"]])
    assert [m["name"] for m in shown] == ["Ada", "Bob"]
