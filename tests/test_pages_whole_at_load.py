"""Every page is whole at its "load" event: no part of it is fetched as it loads or comes
into view (htmx's "load", "revealed" and "intersect" triggers). The browser crawl
(tests/e2e/test_site_crawl.py) checks each page as drawn at that event; a page that
fetched a part afterwards would be checked without it."""

import re
from pathlib import Path

from django.conf import settings

TEMPLATES = Path(settings.BASE_DIR) / "templates"
# hx-trigger="load", "revealed", "intersect once", and each among several ("every 3s, load").
FETCHED_LATER = re.compile(r'hx-trigger="(?:[^"]*[\s,])?(load|revealed|intersect)\b')


def test_the_rule_finds_a_part_fetched_as_the_page_loads():
    assert FETCHED_LATER.search('<div hx-get="/x/" hx-trigger="load">')
    assert FETCHED_LATER.search('<div hx-get="/x/" hx-trigger="every 3s, revealed">')
    assert FETCHED_LATER.search('<div hx-get="/x/" hx-trigger="intersect once">')
    assert not FETCHED_LATER.search('<div hx-get="/x/" hx-trigger="every 60s, refresh">')
    assert not FETCHED_LATER.search('<div hx-get="/x/" hx-trigger="sse:reload">')


def test_no_page_fetches_a_part_of_itself_as_it_loads():
    found = [f"{path.relative_to(TEMPLATES)}: {match.group(0)}"
             for path in sorted(TEMPLATES.rglob("*.html"))
             for match in FETCHED_LATER.finditer(path.read_text())]
    assert found == []
