"""What a watcher (someone without a seat, by the table's link) is offered and told:
nothing that is the players' alone, and the talk in the reader's own words."""

import pytest
from django.utils import translation

from chat import services as chat
from games import commands
from games.models import Game
from tests.helpers import PASSWORD, make_user, play_out, start_table

pytestmark = pytest.mark.django_db



def _players_alone(game: Game) -> tuple[str, ...]:
    """The finished game's links that only its players may follow."""
    return (f"/history/{game.pk}/rematch/", f"/tables/new/?from={game.pk}",
            f"/history/{game.pk}/")


def _watched(host, others=(), **options) -> Game:
    game = start_table(host, others, bots=2, **options)
    commands.set_watchable(game.pk, host, True, talk=True)
    game.refresh_from_db()
    return game


def test_a_finished_games_watcher_is_offered_no_rematch_or_record(client):
    host, watcher = make_user("hosting"), make_user("watcher")
    game = play_out(_watched(host, [make_user("other")]))
    assert game.is_over
    client.force_login(host)
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert all(link in page for link in _players_alone(game))  # the players have them
    for reader in (watcher, None):
        if reader is None:
            client.logout()
        else:
            client.force_login(reader)
        page = client.get(f"/watch/{game.watch_token}/").content.decode()
        assert "Final standings" in page
        # Each would answer them "Page not found": they are the players' alone.
        assert not any(link in page for link in _players_alone(game)), reader
        assert "Rematch" not in page
        # Their way on: a game of their own (an account first, for a visitor).
        final = page[page.index('id="final"'):]
        way = '<a class="button secondary" href="/tables/new/">Open a new table</a>' \
            if reader else '<a class="button secondary" href="/accounts/signup/">Sign up</a>'
        assert way in final, reader


def test_a_watchers_words_are_marked_watching_in_each_readers_language(client):
    host, watcher = make_user("hosting", language="de"), make_user("friend")
    game = _watched(host, [make_user("other")])
    with translation.override("en"):
        chat.post_as_watcher(game, watcher, "Go Bram!")
    client.force_login(host)
    talk = client.get(f"/t/{game.pk}/chat/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Friend (sieht zu)" in talk and "(watching)" not in talk
    client.force_login(watcher)
    talk = client.get(f"/watch/{game.watch_token}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Friend (watching)" in talk


def test_a_watchers_own_words_are_marked_theirs_and_never_unread_to_them(client):
    """Their page counts the messages not theirs it has not shown as unread: a watcher's
    own line is theirs on their page (alone: to other watchers it is anyone's)."""
    host, watcher, other = make_user("hosting"), make_user("friend"), make_user("other")
    game = _watched(host, [make_user("player")])
    chat.post_as_watcher(game, watcher, "Go Bram!")
    page = client.get(f"/watch/{game.watch_token}/")  # signed out
    assert 'class="chat-msg mine"' not in page.content.decode()
    for reader, mine in ((watcher, True), (other, False)):
        client.force_login(reader)
        page = client.get(f"/watch/{game.watch_token}/").content.decode()
        assert ('class="chat-msg mine"' in page) == mine


def test_an_empty_talk_asks_watchers_for_no_rank(client):
    host, watcher = make_user("hosting"), make_user("watcher")
    game = _watched(host, [make_user("other")])
    client.force_login(host)
    assert "acts their rank" in client.get(f"/t/{game.pk}/").content.decode()
    client.force_login(watcher)
    page = client.get(f"/watch/{game.watch_token}/").content.decode()
    assert 'id="chat"' in page and "acts their rank" not in page
    assert "Nobody has said anything yet." in page


def test_the_marks_stored_with_watchers_names_are_taken_off():
    from importlib import import_module

    from django.apps import apps

    from chat.models import Message

    game = _watched(make_user("hosting"), [make_user("other")])
    said = [Message.objects.create(game=game, name=name, text="Hi", by_watcher=watcher)
            for name, watcher in [("Friend (sieht zu)", True), ("Ann (regarde)", True),
                                  ("Bo (watching)", True), ("Cy (kijkt mee)", True),
                                  ("Dee (watching)", False), ("Eve", True)]]
    import_module("chat.migrations.0004_watchers_plain_names").take_marks_off(apps, None)
    assert [Message.objects.get(pk=m.pk).name for m in said] == [
        "Friend", "Ann", "Bo", "Cy", "Dee (watching)", "Eve"]


def test_a_watcher_who_logs_in_or_signs_up_comes_back_to_the_table(client):
    """Not signed in, a watcher who wants to talk logs in (or signs up) from the watch
    page, and lands on it again, now able to talk."""
    host = make_user("hosting")
    make_user("nora", display_name="Nora")
    game = _watched(host, [make_user("other")])
    address = f"/watch/{game.watch_token}/"
    page = client.get(address).content.decode()
    back = f"?next={address.replace('/', '%2F')}"
    # The talk's invitation to log in, and the header's ways in, lead back here.
    assert f'<a href="/accounts/login/{back}">Log in to talk at the table.</a>' in page
    assert f'href="/accounts/login/{back}"' in page.split("</header>")[0]
    assert f'href="/accounts/signup/{back}"' in page.split("</header>")[0]
    answer = client.post(f"/accounts/login/{back}", {
        "username": "nora", "password": PASSWORD, "next": address})
    assert answer.status_code == 302 and answer["Location"] == address
    assert 'id="chat-form"' in client.get(address).content.decode()


def test_the_headers_ways_in_lead_nowhere_else_from_home_and_the_account_pages(client):
    for address in ("/", "/accounts/login/", "/accounts/signup/"):
        header = client.get(address).content.decode().split("</header>")[0]
        assert 'href="/accounts/login/"' in header and "next=" not in header, address
