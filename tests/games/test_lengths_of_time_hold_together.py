"""A length of time never parts a number from its unit where a line breaks: a narrow
seat on a phone showed "to play 23 h 59" with "min" alone on the next line. The page's
script writes the clock on in the same words (tests/e2e/test_running_times.py compares
the two)."""

import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import translation

from games.templatetags.games import span

LENGTHS = [timedelta(minutes=5), timedelta(hours=23, minutes=59),
           timedelta(days=2, hours=4), timedelta(seconds=20)]


@pytest.mark.parametrize("language", [code for code, _ in settings.LANGUAGES])
@pytest.mark.parametrize("length", LENGTHS, ids=str)
def test_a_number_and_its_unit_share_one_line(language, length):
    with translation.override(language):
        said = span(length)
    assert said
    # A number followed by a breakable space parts from what follows it.
    assert not re.search(r"\d[ \t]", said), said
    if length >= timedelta(minutes=1):
        assert re.search(r"\d\u00a0\w", said), said


def test_the_pairs_may_still_part_from_each_other():
    """"23 h 59 min" may break between its two pairs in a seat too narrow for all of it,
    never inside one."""
    with translation.override("nl"):
        said = span(timedelta(hours=23, minutes=59))
    assert said == "23\u00a0u 59\u00a0min"
