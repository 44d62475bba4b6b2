"""A table's page left open while what it shows changes with time alone, nothing moving
at the table: a nudge opens once a turn has lasted long enough, a vote on a stand-in once
a table without a clock has waited two days, a vacation or an absence ends. The page says
when (#changes, which its poll includes); its first poll after that time brings the table
drawn again (with Redis, the poll Redis alone answers too), and the poll after that finds
nothing new. The time comes from what every reader may see: never from a secret wait."""

import math
import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.utils import timezone

from games import commands
from games.models import Game, TurnLimit
from tests.helpers import make_user, poll_path, start_table, waiting_humans
from tools.bench_load import hooks

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _whole_second(moment: datetime) -> datetime:
    """The time as the page writes it: the next whole second (never before the change)."""
    return datetime.fromtimestamp(math.ceil(moment.timestamp()), UTC)


def _changes_at(body: bytes) -> int | None:
    found = hooks(body).changes
    return int(found) if found is not None else None


@pytest.fixture
def friends(db):
    return [make_user(name) for name in ("ana", "ben", "cas", "dia")]


def _waiting_and_other(game):
    waiting = waiting_humans(game)[0]
    other = game.seats.exclude(pk=waiting.pk).exclude(user=None).first()
    return waiting, other


def _open_page_until(client, game, page_path: str, before, after) -> str:
    """Draw the page at `before` (it says the time is `after`, to the second), poll
    (nothing new) and poll again at `after`: the answer, drawn again though the table's
    version did not change."""
    with time_machine.travel(before, tick=False):
        page = client.get(page_path).content
        assert _changes_at(page) == int(after.timestamp())
        path = poll_path(page)
        # The first poll reads the database (and tells Redis the seat), the next Redis alone.
        assert [client.get(path, **HTMX).status_code for _ in range(2)] == [204, 204]
    with time_machine.travel(after, tick=False):
        answer = client.get(path, **HTMX)
        assert answer.status_code == 200
        assert Game.objects.get(pk=game.pk).version == int(re.search(r"\?v=(\d+)", path)[1])
        again = poll_path(answer.content)
        assert client.get(again, **HTMX).status_code == 204
    return answer.content.decode()


def test_an_open_page_offers_the_nudge_once_the_turn_has_lasted_an_hour(client, friends):
    game = start_table(friends[0], friends[1:], turn_limit=TurnLimit.DAY)
    waiting, other = _waiting_and_other(game)
    since = game.wait_for(waiting.player).since
    client.force_login(other.user)
    opens = since + timedelta(hours=1)
    with time_machine.travel(since + timedelta(minutes=5), tick=False):
        assert f"Nudge {waiting.name}" not in client.get(f"/t/{game.pk}/").content.decode()
    answer = _open_page_until(client, game, f"/t/{game.pk}/", since + timedelta(minutes=5),
                              _whole_second(opens))
    assert f"Nudge {waiting.name}" in answer


def test_an_open_page_offers_the_vote_once_an_untimed_table_waited_two_days(client, friends):
    game = start_table(friends[0], friends[1:], turn_limit=0)
    waiting, other = _waiting_and_other(game)
    since = game.wait_for(waiting.player).since
    client.force_login(other.user)
    opens = since + timedelta(days=2)
    answer = _open_page_until(client, game, f"/t/{game.pk}/", since + timedelta(days=1, hours=1),
                              _whole_second(opens))
    assert f"The table has waited two days for {waiting.name}." in answer


@pytest.mark.parametrize("pause", ["vacation", "away"])
def test_an_open_page_shows_the_player_back_once_their_pause_ends(client, friends, pause):
    # Three days a turn: nobody else's turn runs out meanwhile.
    game = start_table(friends[0], friends[1:], turn_limit=TurnLimit.THREE_DAYS)
    waiting, other = _waiting_and_other(game)
    if pause == "vacation":
        commands.start_vacation(game.pk, waiting.user, 1)
        waiting.refresh_from_db()
        back = waiting.paused_until
        badge = '<span class="tag">on vacation</span>'
    else:
        back = timezone.now() + timedelta(hours=5)
        commands.set_away(waiting.user, back)
        badge = '<span class="tag">away</span>'
    client.force_login(other.user)
    with time_machine.travel(back - timedelta(minutes=1), tick=False):
        page = client.get(f"/t/{game.pk}/").content.decode()
        # The seat's tags carry soft hyphens where they may break.
        assert badge in page.replace("\u00ad", "")
    answer = _open_page_until(client, game, f"/t/{game.pk}/", back - timedelta(minutes=1),
                              _whole_second(back))
    assert badge not in answer.replace("\u00ad", "")


def test_a_watchers_page_shows_a_player_back_from_vacation(client, friends):
    game = start_table(friends[0], friends[1:], turn_limit=TurnLimit.THREE_DAYS)
    Game.objects.filter(pk=game.pk).update(watch_token="back-from-vacation")
    waiting, _other = _waiting_and_other(game)
    commands.start_vacation(game.pk, waiting.user, 1)
    waiting.refresh_from_db()
    back = waiting.paused_until
    answer = _open_page_until(client, game, "/watch/back-from-vacation/",
                              back - timedelta(minutes=1),
                              _whole_second(back))
    assert "on vacation" not in answer.replace("\u00ad", "")

