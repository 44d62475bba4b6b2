"""The header's count of tables awaiting the player, on a page left open (a table's page
above all, where the count changes with the reader's own moves): the page asks for the
count anew (`data-awaiting-url`, static/js/dalmuti.js), and is answered with the header's
own element as every page draws it, with the number for the tab's title and the app's
badge. Someone logged out is answered with nothing (their pages show no count). A table's
page is brought the count with the reader's own part, when their turn comes or goes."""

import re

import pytest
from django.utils import timezone

from games import commands
from games.core.live import Step
from games.views import updates
from tests.chat.conftest import HTMX
from tests.games.test_shared_updates import Page, _event
from tests.helpers import act_as, legal, play_until, start_table, waiting_humans

pytestmark = pytest.mark.django_db


def _count_in(page: str) -> str:
    """The header's count element of a whole page."""
    return re.search(r'<span id="awaiting-count"[^>]*>(?:<a .*?</a>)?</span>', page, re.S)[0]


def _awaiting(client) -> str:
    answer = client.get("/awaiting/", **HTMX)
    assert answer.status_code == 200
    assert "no-store" in answer["Cache-Control"]
    return answer.content.decode().strip()


def test_the_count_comes_as_the_header_draws_it_and_follows_the_readers_moves(
        client, alice, bob):
    game = start_table(alice, [bob], bots=2, name="Mine")
    me = game.seats.get(user=alice)
    play_until(game, lambda g: str(me.player) in g.awaiting)
    client.force_login(alice)
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert 'data-awaiting-url="/awaiting/"' in page
    count = _awaiting(client)
    assert count == _count_in(page)
    assert "1 table awaits you" in count and 'data-awaiting="1"' in count
    # The reader moves: the table waits for them no more.
    game.refresh_from_db()
    act_as(game, me, legal(game, me)[0])
    count = _awaiting(client)
    assert 'data-awaiting="0"' in count and "awaits you" not in count
    assert count == _count_in(client.get("/rules/").content.decode())


def test_someone_logged_out_is_answered_with_nothing(client):
    answer = client.get("/awaiting/", **HTMX)
    assert answer.status_code == 204 and answer.content == b""
    assert "data-awaiting-url" not in client.get("/rules/").content.decode()


OOB_COUNT = re.compile(r'<span id="awaiting-count"[^>]* data-awaiting="(\d+)" hx-swap-oob="true">')


def _counts(answer) -> list[str]:
    """The header's counts an answer brings out of band."""
    return OOB_COUNT.findall(answer.content.decode() if hasattr(answer, "content") else answer)


def _another_move(game, reader) -> None:
    """One move by someone other than `reader`: a person waited for, else a bot."""
    game.refresh_from_db()
    others = [seat for seat in waiting_humans(game) if seat.user_id != reader.pk]
    if others:
        act_as(game, others[0], legal(game, others[0])[0])
    else:
        assert commands.play_bot_move(game.pk)


@pytest.mark.parametrize("taxes", [False, True])
def test_the_readers_own_part_brings_the_count_so_the_page_asks_for_nothing(
        client, alice, bob, taxes):
    """The reader's turn at the table comes and goes with their own part (their hand and
    dock): the answer to their move, and the poll that brings their turn, bring the
    header's count with it; an answer that leaves their own part as it was brings none
    (nor asks the database for it). With taxes, her hand changes off her turn too."""
    other = start_table(alice, [bob], bots=2, name="Elsewhere")
    play_until(other, lambda g: str(g.seats.get(user=alice).player) in g.awaiting)
    game = start_table(alice, [bob], bots=2, name="Here",
                       options={"first_round_taxes": taxes})
    me = game.seats.get(user=alice)
    game = play_until(game, lambda g: str(me.player) in g.awaiting)
    page = Page(client, game, alice)
    game.refresh_from_db()
    answer = page.move(legal(game, me)[0], game.wait_for(me.player).token)
    assert answer.status_code == 200 and 'id="me"' in answer.content.decode()
    assert _counts(answer) == ["1"]  # the table elsewhere still awaits her
    page.read(answer)
    quiet = 0
    for _ in range(60):
        _another_move(game, alice)
        game.refresh_from_db()
        polled = page.poll()
        if polled.status_code == 204:
            continue
        page.read(polled)
        if str(me.player) in game.awaiting:
            assert 'id="actions"' in polled.content.decode()
            assert _counts(polled) == ["2"]
            break
        # Her hand may change off her turn (a round's new deal, taxes): the count comes
        # with it, whatever she holds; a move that leaves her part alone brings none.
        if 'id="me"' in polled.content.decode():
            assert _counts(polled) == ["1"]
        else:
            assert _counts(polled) == []
            quiet += 1
    else:
        raise AssertionError("her turn never came back")
    if not taxes:  # (with taxes, her hand took the tribute before her turn came back)
        assert quiet


def test_a_stream_brings_the_count_with_the_turn_it_brings(alice, bob):
    """The update a stream brings the reader whose turn it now is (their hand and dock
    drawn with it) brings their header's count; the others' bring none."""
    game = start_table(alice, [bob], bots=2, options={"first_round_taxes": False})
    me = game.seats.get(user=alice)
    for _ in range(200):
        game.refresh_from_db()
        since, since_seq = game.version, game.seq
        _another_move(game, alice)
        game.refresh_from_db()
        if str(me.player) in game.awaiting:
            break
    else:
        raise AssertionError("her turn never came")
    update = updates.prepare(game.pk, Step(game.version, since, since_seq), "en",
                             timezone.get_current_timezone_name())
    head, html = _event(update, me.player)
    assert head["mine"] is True and 'id="actions"' in html
    assert _counts(html) == ["1"]
    for seat in game.seats.exclude(user=alice).exclude(user=None):
        head, html = _event(update, seat.player)
        assert not head.get("mine") and _counts(html) == []


def test_a_watchers_answers_bring_no_count(client, alice, bob, carol):
    """Someone watching a table (no seat at it) is answered with the table alone."""
    game = start_table(alice, [bob], bots=2)
    client.force_login(carol)
    assert _counts(client.get(f"/t/{game.pk}/poll/?v=0&me=", **HTMX)) == []
