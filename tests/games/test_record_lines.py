"""A finished game's record draws every line of its log (hundreds in a long game): each
line is drawn from one shape per kind of line (private or not, with the time play took
up again or not), drawn once per process, its step, words and time put in. The lines
must read exactly as the template drew them one by one: escaped, marked, timed."""

from datetime import UTC, datetime

import pytest
from django.template import Context, Template
from django.utils import timezone, translation
from django.utils.safestring import mark_safe

from games.templatetags import games as game_tags
from tests.helpers import templates_drawn

LINE = Template(
    "{% load games %}<li{% if line.private %} class=\"private\"{% endif %}>{% if line.resumed %}"
    "<time datetime=\"{{ line.time.isoformat }}\">{{ line.time|moment }}</time> {% endif %}"
    "<a class=\"log-step\" href=\"{{ replay_url }}?step={{ line.seq }}\">{{ line.text }}</a></li>")

WHEN = datetime(2026, 11, 20, 21, 5, tzinfo=UTC)


def _lines() -> list[dict]:
    return [
        {"seq": 1, "time": WHEN, "text": "Ada <b>led</b> & won", "private": False,
         "resumed": False},
        {"seq": 2, "time": WHEN, "text": "Bram gave 2 Peasants to Ada", "private": True,
         "resumed": False},
        {"seq": 3, "time": WHEN, "text": mark_safe("Cato <em>passed</em>"), "private": False,
         "resumed": True},
        {"seq": 14, "time": WHEN, "text": "\ue000text\ue001 \ue000step\ue001", "private": True,
         "resumed": True},
        {"seq": 1234, "time": WHEN, "text": "Dirk played 3 Stonecutters", "private": False,
         "resumed": False},
    ]


def _one_by_one(lines, replay_url) -> str:
    return "".join(LINE.render(Context({"line": line, "replay_url": replay_url}))
                   for line in lines)


@pytest.mark.parametrize("language,zone", [("en", "UTC"), ("de", "Europe/Berlin"),
                                           ("nl", "Pacific/Auckland")])
def test_the_record_lines_read_as_drawn_one_by_one(language, zone):
    replay_url = "/history/7/replay/"
    with translation.override(language), timezone.override(zone):
        assert game_tags.record_items(_lines(), replay_url) == _one_by_one(_lines(), replay_url)


def test_each_kind_of_line_is_drawn_once(monkeypatch):
    game_tags.forget_record_lines()
    drawn = templates_drawn(monkeypatch, game_tags)
    game_tags.record_items(_lines(), "/history/7/replay/")
    game_tags.record_items(_lines(), "/history/8/replay/")
    # Four kinds (private or not, resumed or not), each drawn once, for both games.
    assert drawn.count("games/history/_record_line.html") == 4
