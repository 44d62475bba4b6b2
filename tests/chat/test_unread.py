from django.db import connection
from django.test.utils import CaptureQueriesContext

from chat.models import ReadMarker

from .conftest import HTMX, say, seat_of


def _unread(client) -> str:
    return client.get("/").content.decode()


def test_my_games_counts_the_messages_i_have_not_seen(client, alice, bob, game):
    say(game, bob, "One")
    say(game, bob, "Two")
    client.force_login(alice)
    page = _unread(client)
    assert "2 unread messages" in page
    assert f'href="/t/{game.pk}/?chat=open#chat" class="chat-unread"' in page


def test_my_own_messages_are_never_unread(client, alice, bob, game):
    say(game, alice, "Talking to myself")
    client.force_login(alice)
    assert "unread message" not in _unread(client)
    client.force_login(bob)
    assert "1 unread message" in _unread(client)


def test_opening_the_table_reads_them(client, alice, bob, game):
    say(game, bob, "One")
    client.force_login(alice)
    client.get(f"/t/{game.pk}/")
    assert "unread message" not in _unread(client)
    say(game, bob, "Two")
    say(game, bob, "Three")
    assert "2 unread messages" in _unread(client)


def test_opening_the_table_again_with_nothing_new_writes_no_read_mark(client, alice, bob, game):
    say(game, bob, "One")
    client.force_login(alice)
    client.get(f"/t/{game.pk}/")  # reads it
    with CaptureQueriesContext(connection) as again:
        client.get(f"/t/{game.pk}/")
    marks = [q["sql"] for q in again.captured_queries if "chat_readmarker" in q["sql"]]
    assert len(marks) == 1 and marks[0].startswith("SELECT")  # what the page had read
    # Something new: the page reads it, and the mark moves on.
    latest = say(game, bob, "Two")
    client.get(f"/t/{game.pk}/")
    assert ReadMarker.objects.get(seat=seat_of(game, alice)).last_read == latest.pk


def _talk_read(client, game) -> tuple[str, list[str]]:
    """The table's page, and the queries it read the talk with."""
    with CaptureQueriesContext(connection) as ctx:
        page = client.get(f"/t/{game.pk}/").content.decode()
    return page, [q["sql"] for q in ctx.captured_queries
                  if q["sql"].startswith("SELECT") and "chat_" in q["sql"]]


def test_a_page_reads_the_talk_and_what_its_reader_had_read_in_one_query(
        client, alice, bob, game):
    client.force_login(alice)
    # Nobody has talked: nothing to have read.
    page, reads = _talk_read(client, game)
    assert 'data-read-before="0"' in page and len(reads) == 1
    first = say(game, bob, "One")
    client.get(f"/t/{game.pk}/")  # reads "One" (her first mark, made here)
    second = say(game, bob, "Two")
    # Read up to "One" by the look before: "Two" counts as new.
    page, reads = _talk_read(client, game)
    assert f'data-read-before="{first.pk}"' in page and len(reads) == 1
    page, reads = _talk_read(client, game)
    assert f'data-read-before="{second.pk}"' in page and len(reads) == 1
    # Each reader's own mark: Bob's page reads his, not Alice's.
    client.force_login(bob)
    client.get(f"/t/{game.pk}/")
    third = say(game, alice, "Three")
    page, reads = _talk_read(client, game)
    assert f'data-read-before="{second.pk}"' in page and len(reads) == 1
    assert ReadMarker.objects.get(seat=seat_of(game, bob)).last_read == third.pk


def test_a_poll_that_brings_new_messages_reads_them(client, alice, bob, game):
    client.force_login(alice)
    client.get(f"/t/{game.pk}/")
    latest = say(game, bob, "Psst")
    response = client.get(f"/t/{game.pk}/poll/?v={game.version}&me=x&c=0")
    assert "Psst" in response.content.decode()
    assert ReadMarker.objects.get(seat=seat_of(game, alice)).last_read == latest.pk
    assert "unread message" not in _unread(client)


def test_posting_reads_what_came_before(client, alice, bob, game):
    say(game, bob, "Your move, Dalmuti")
    client.force_login(alice)
    client.post(f"/t/{game.pk}/chat/post/", {"text": "Patience"}, **HTMX)
    assert "unread message" not in _unread(client)
    client.force_login(bob)
    assert "1 unread message" in _unread(client)


def test_the_read_marker_never_moves_back(alice, bob, game):
    from chat.services import mark_read

    seat = seat_of(game, alice)
    mark_read(seat, 10)
    mark_read(seat, 5)
    assert ReadMarker.objects.get(seat=seat).last_read == 10


def test_counts_are_per_table_and_cost_no_extra_query(client, alice, bob, game):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from .conftest import start_table

    other = start_table(bob, [alice], bots=2)
    client.force_login(alice)
    with CaptureQueriesContext(connection) as quiet:
        _unread(client)
    say(game, bob, "Here")
    for text in ("There", "and", "everywhere"):
        say(other, bob, text)
    with CaptureQueriesContext(connection) as chatty:
        page = _unread(client)
    assert "1 unread message<" in page and "3 unread messages" in page
    assert len(chatty.captured_queries) == len(quiet.captured_queries)


def test_unread_messages_in_the_lobby_link_to_the_chat_page(client, alice, bob, lobby):
    say(lobby, bob, "Hello host")
    client.force_login(alice)
    assert f'href="/t/{lobby.pk}/chat/" class="chat-unread"' in _unread(client)
    client.get(f"/t/{lobby.pk}/chat/")
    assert "unread message" not in _unread(client)
