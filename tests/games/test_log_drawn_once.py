"""A page draws its round's whole log: each reader's lines are narrated once per process
from the record it keeps, and each line is drawn once and kept. Kept, they must still be
each reader's own (a private line for those it concerns), in the reader's language, with
the date from the next day on, and escaped as drawn afresh."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.safestring import mark_safe

from games.core.words import moment
from games.models import Action, Game
from games.read import narration
from games.read.narration import lines_of_round, log_lines
from games.templatetags.games import log_time
from tests.helpers import make_user, play_until, start_table

pytestmark = pytest.mark.django_db


def _names(game: Game) -> dict[int, str]:
    return {s.player: s.name for s in game.seats.all()}


def _afresh(game: Game, seat, names: dict[int, str]) -> list[dict]:
    actions = Action.objects.filter(game=game, round_number=game.round_number).order_by("seq")
    return log_lines(list(actions), seat, names)


@pytest.fixture
def taxed(db):
    """A table in its second round's play: the taxes' exchanges are private lines, each
    read by the two players it concerns."""
    people = [make_user(f"ld-{name}") for name in ("ada", "bram", "cato", "dirk")]
    game = start_table(people[0], people[1:], options={"rounds": 3}, seed=11)
    return play_until(game, lambda g: g.round_number == 2
                      and g.engine_state().view(0)["phase"] == "play")


def test_each_reader_reads_their_own_lines_of_the_round(taxed, monkeypatch,
                                                        django_assert_num_queries):
    game, names = taxed, _names(taxed)
    seats = list(game.seats.order_by("player"))
    for seat in seats:
        assert lines_of_round(game, seat, names) == _afresh(game, seat, names)
    assert lines_of_round(game, None, names) == _afresh(game, None, names)
    # Each reads the exchange they were part of, and not the other one.
    private = [{line["text"] for line in lines_of_round(game, seat, names) if line["private"]}
               for seat in seats]
    assert all(private) and len({frozenset(texts) for texts in private}) > 1
    # Read again: one query for what is new (nothing), nothing narrated again.
    expected = _afresh(game, seats[0], names)
    narrated = []
    told = narration.lines_for
    monkeypatch.setattr(narration, "lines_for",
                        lambda actions, reader, names: narrated.append(reader)
                        or told(actions, reader, names))
    with django_assert_num_queries(1):
        again = lines_of_round(game, seats[0], names)
    assert again == expected and narrated == []


def test_a_readers_lines_that_read_as_a_spectators_are_kept_once(taxed):
    game, names = taxed, _names(taxed)
    log = narration.round_log(game)
    spectator = {id(line["event"]): line for line in narration._told(log, names, None)}
    mine = narration._told(log, names, 0)
    kept_once = [line for line in mine if spectator.get(id(line["event"])) is line]
    for line in mine:
        public = spectator.get(id(line["event"]))
        assert (public is line) == (public == line)
    assert any(line["private"] for line in mine)
    assert len(kept_once) > len(mine) // 2


def test_a_players_page_shows_their_private_lines_and_nobody_elses(taxed, client):
    game, names = taxed, _names(taxed)
    seats = list(game.seats.select_related("user").order_by("player"))
    pages = {}
    for seat in seats:
        client.force_login(seat.user)
        pages[seat.player] = client.get(game.get_absolute_url()).content.decode()
    private = 0
    for seat in seats:
        for line in _afresh(game, seat, names):
            if line["private"]:
                private += 1
                # Each of the two reads an exchange of theirs as "you": their own words.
                assert line["text"] in pages[seat.player]
                for other in seats:
                    if other.player not in line["event"]["visible_to"]:
                        assert line["text"] not in pages[other.player]
    assert private


def _line(text, when, private=False, number=1) -> dict:
    return {"number": number, "time": when, "text": text, "private": private, "slot": ""}


def _drawn(lines, round_number=1) -> str:
    return render_to_string("games/table/_log_lines.html",
                            {"lines": lines, "round_number": round_number})


def test_a_line_shows_its_date_from_the_next_day_on():
    drawn_at = datetime(2026, 11, 20, 10, 0, tzinfo=UTC)
    line = _line("Ada passed", drawn_at)
    with timezone.override("UTC"):
        with time_machine.travel(drawn_at + timedelta(minutes=5), tick=False):
            today = _drawn([line])
            assert f">{log_time(drawn_at)}</time>" in today
        with time_machine.travel(drawn_at + timedelta(days=1), tick=False):
            tomorrow = _drawn([line])
        assert f">{moment(drawn_at)}</time>" in tomorrow and tomorrow != today


def test_a_line_is_drawn_in_each_readers_language_and_zone():
    when = timezone.now()
    line = _line("Ada gave 2 Peasants to Bram", when, private=True)
    english, dutch = _drawn([line]), None
    with translation.override("nl"):
        dutch = _drawn([line])
    assert "only you can see this" in english and "only you can see this" not in dutch
    # The same day in both zones, an hour apart.
    noon = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
    line = _line("Ada passed", noon)
    with time_machine.travel(noon, tick=False):
        with timezone.override("Europe/London"):
            london = _drawn([line])
            assert f">{log_time(noon)}</time>" in london
        with timezone.override("Europe/Amsterdam"):
            amsterdam = _drawn([line])
            assert f">{log_time(noon)}</time>" in amsterdam
    assert london != amsterdam


def test_a_lines_words_are_escaped_as_drawn_afresh():
    when = timezone.now()
    markup = "<b>Ada</b> passed"
    kept_safe = _drawn([_line(mark_safe(markup), when)])
    plain = _drawn([_line(markup, when)])
    assert "<b>Ada</b>" in kept_safe
    assert "<b>Ada</b>" not in plain and "&lt;b&gt;Ada&lt;/b&gt; passed" in plain


def test_lines_are_drawn_newest_first_each_with_its_round_and_number():
    when = timezone.now()
    drawn = _drawn([_line("first", when, number=1), _line("second", when, number=2)], 4)
    assert drawn.index("second") < drawn.index("first")
    assert 'data-round="4" data-line="2"' in drawn and 'data-round="4" data-line="1"' in drawn
