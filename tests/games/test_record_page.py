"""The game record page reads on a phone: the round-by-round table labels every cell with
its player (so it can stack), and the log names a time only where it helps: when a round
began and when play took up again after a pause, in the reader's zone, zone named."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games.models import Action
from tests.helpers import make_user, play_out, start_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def record(client):
    tess = make_user("tess", time_zone="Asia/Tokyo")
    bram = make_user("bram")
    start = timezone.now() - timedelta(days=3)
    with time_machine.travel(start, tick=False):
        game = start_table(tess, [bram], bots=3, seed=9, options={"rounds": 2})
    # A pause of a day in the middle of the first round.
    actions = list(Action.objects.filter(game=game).order_by("seq"))
    with time_machine.travel(start + timedelta(days=1), tick=False):
        game = play_out(game)
    client.force_login(tess)
    return game, len(actions)


def _round(html: str, number: int) -> str:
    return html.split(f'id="log-round-{number}"', 1)[1].split("</details>", 1)[0]


def test_the_log_names_the_time_where_a_round_begins_and_where_play_resumes(client, record):
    game, _before_pause = record
    html = client.get(f"/history/{game.pk}/?round=1").content.decode()
    first = _round(html, 1)
    lines = first.count("<li")
    times = re.findall(r"<time [^>]*>([^<]*)</time>", first)
    assert lines > 20
    # The round's start (in the summary) and the morning after the pause: not every line.
    assert 2 <= len(times) <= 3, times
    assert all("JST" in t for t in times), times  # the reader's zone, named


def test_each_cell_of_the_round_table_says_whose_it_is(client, record):
    game, _ = record
    html = client.get(f"/history/{game.pk}/").content.decode()
    table = html.split('<table class="rounds', 1)[1].split("</table>", 1)[0]
    cells = re.findall(r"<td[^>]*>", table)
    assert cells and all('data-label="' in c for c in cells)
    assert 'data-label="Bram"' in table and 'data-label="Tess"' in table
