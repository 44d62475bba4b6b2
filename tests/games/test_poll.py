import re

import pytest

from games import commands
from tests.helpers import bots_play_on, make_user, play_out, play_until, start_table

pytestmark = pytest.mark.django_db


def test_an_unchanged_table_answers_204_without_rendering(
    client, alice, game, django_assert_num_queries, without_redis
):
    client.force_login(alice)
    # The first poll notes that alice is watching (a write at most once a minute).
    client.get(f"/t/{game.pk}/poll/?v={game.version}")
    assert game.seats.get(user=alice).last_seen is not None
    with django_assert_num_queries(3):  # session, user, and one for the table's version
        response = client.get(f"/t/{game.pk}/poll/?v={game.version}")
    assert response.status_code == 204
    assert response.content == b""


def test_a_changed_table_answers_with_the_fragments(client, alice, game):
    client.force_login(alice)
    response = client.get(f"/t/{game.pk}/poll/?v={game.version - 1}&me=stale")
    assert response.status_code == 200
    body = response.content.decode()
    for section in ("poller", "status", "table", "me", "panels"):
        assert f'id="{section}"' in body
    assert f"v={game.version}" in body


def test_it_leaves_my_hand_alone_when_it_did_not_change(client, alice, game):
    client.force_login(alice)
    first = client.get(f"/t/{game.pk}/poll/?v=0&me=").content.decode()
    key = first.split("me=", 1)[1].split('"', 1)[0]
    second = client.get(f"/t/{game.pk}/poll/?v=0&me={key}").content.decode()
    assert 'id="me"' in first
    assert 'id="me"' not in second


def test_polling_stops_when_the_game_is_over(client, alice, game):
    play_out(game)
    client.force_login(alice)
    response = client.get(f"/t/{game.pk}/poll/?v=0")
    assert response.status_code == 286
    assert "hx-trigger" not in response.content.decode()


def test_poll_and_page_are_never_cached(client, alice, game):
    client.force_login(alice)
    for url in (f"/t/{game.pk}/", f"/t/{game.pk}/poll/?v=0", f"/t/{game.pk}/log/"):
        assert "no-store" in client.get(url)["Cache-Control"]


def _page_queries(client, game):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    # The first look writes "last seen" and may run the in-process sweep; both happen at
    # most once a minute, so the steady state is what is measured.
    client.get(f"/t/{game.pk}/")
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(f"/t/{game.pk}/").status_code == 200
    return len(ctx.captured_queries)


def test_the_game_page_uses_a_fixed_number_of_queries(client, make_user):
    counts = {}
    for n_bots, rounds_played in ((2, 0), (6, 0), (2, 3), (6, 2)):
        host = make_user(f"host{n_bots}{rounds_played}")
        guest = make_user(f"guest{n_bots}{rounds_played}")
        game = start_table(host, [guest], bots=n_bots, options={"rounds": 10})
        game = play_until(game, lambda g, played=rounds_played: g.round_number > played)
        client.force_login(host)
        counts[(n_bots, rounds_played)] = _page_queries(client, game)
    assert len(set(counts.values())) == 1, counts


def test_the_poll_uses_a_fixed_number_of_queries_when_something_changed(
    client, make_user
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for bots in (2, 6):
        host = make_user(f"h{bots}")
        game = start_table(host, [make_user(f"g{bots}")], bots=bots)
        client.force_login(host)
        client.get(f"/t/{game.pk}/poll/?v=0")
        with CaptureQueriesContext(connection) as ctx:
            client.get(f"/t/{game.pk}/poll/?v=0")
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]


def _lobby_poll_url(page: str) -> str:
    found = re.search(r'id="lobby-poller"[^>]*hx-get="([^"]+)"', page)
    return found[1].replace("&amp;", "&")


def test_the_lobby_shows_a_seat_taken_and_reloads_itself_when_the_game_starts(
    client, alice, bob
):
    game = commands.create_table(alice, "Lobby", 4, {"rounds": 1})
    client.force_login(alice)
    poll_url = _lobby_poll_url(client.get(f"/t/{game.pk}/").content.decode())
    quiet = client.get(poll_url)
    assert quiet.status_code == 204 and "HX-Refresh" not in quiet.headers
    commands.join(game.pk, bob)
    seat_taken = client.get(poll_url)
    assert seat_taken.status_code == 200 and "HX-Refresh" not in seat_taken.headers
    assert "Seats taken: 2 of 4" in seat_taken.content.decode()
    for name in ("carol", "dave"):
        commands.join(game.pk, make_user(name))
    poll_url = _lobby_poll_url(client.get(f"/t/{game.pk}/").content.decode())
    commands.start(game.pk, alice)
    assert client.get(poll_url).headers["HX-Refresh"] == "true"


def test_an_expired_turn_is_enforced_by_the_poll_of_whoever_watches(client, alice, bob):
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    from games.models import Action

    game = bots_play_on(start_table(alice, [bob], bots=2, turn_limit=3600))
    client.force_login(alice)
    with time_machine.travel(timezone.now() + timedelta(hours=2)):
        response = client.get(f"/t/{game.pk}/poll/?v={game.version}")
    assert response.status_code == 200
    assert Action.objects.filter(game=game, by="timeout").exists()


def _page_sql(client, game, query: str = "") -> list[str]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(f"/t/{game.pk}/{query}")
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(f"/t/{game.pk}/{query}").status_code == 200
    return [q["sql"] for q in ctx.captured_queries]


def test_the_game_page_counts_the_seats_it_read_and_reads_them_once(client, make_user):
    host, guest = make_user("counting-host"), make_user("counting-guest")
    game = start_table(host, [guest], bots=2, options={"rounds": 10})
    client.force_login(host)
    sql = _page_sql(client, game)
    assert not [q for q in sql if q.startswith('SELECT COUNT(*)') and '"games_seat"' in q], sql
    # The page reads the seat of its reader and the table's seats; nothing per seat.
    assert len([q for q in sql if q.startswith('SELECT "games_seat"."id"')]) == 2, sql
    # The invitation panel of a game in play is fetched when unfolded, not read here;
    # asked with it open, the page reads who is invited.
    assert not [q for q in sql if '"games_invitation"' in q], sql
    assert [q for q in _page_sql(client, game, "?invite=1") if '"games_invitation"' in q]


def test_without_room_for_newcomers_the_page_reads_no_invitations(client, make_user):
    host, guest = make_user("full-host"), make_user("full-guest")
    game = start_table(host, [guest], bots=2, options={"rounds": 1})
    client.force_login(host)
    sql = _page_sql(client, game)
    assert not [q for q in sql if '"games_invitation"' in q], sql
    assert "Invite friends" not in client.get(f"/t/{game.pk}/").content.decode()
