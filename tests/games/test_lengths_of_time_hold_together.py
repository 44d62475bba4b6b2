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


@pytest.mark.parametrize(("length", "words"), [
    (timedelta(hours=6), {"en": "6\u00a0h", "nl": "6\u00a0u", "de": "6\u00a0Std.",
                          "fr": "6\u00a0h"}),
    (timedelta(days=1), {"en": "1\u00a0d", "nl": "1\u00a0d", "de": "1\u00a0Tg.",
                         "fr": "1\u00a0j"}),
    (timedelta(days=2, minutes=59), {"en": "2\u00a0d", "nl": "2\u00a0d", "de": "2\u00a0Tg.",
                                     "fr": "2\u00a0j"}),
], ids=str)
def test_a_whole_number_of_hours_or_days_is_said_without_a_zero(length, words):
    """A time bank of three hours reads "3 h", not "3 h 0 min"; a day left "1 d", not
    "1 d 0 h" (the minutes a day leaves out are not said either way)."""
    for language, expected in words.items():
        with translation.override(language):
            assert span(length) == expected, language
