"""The page's poll brings new messages along, and stays one query when nothing changed."""

import re

from .conftest import say


def _poll(client, game, c, v=None, me="k"):
    v = game.version if v is None else v
    return client.get(f"/t/{game.pk}/poll/?v={v}&me={me}&c={c}")


def test_an_unchanged_table_and_chat_answer_204_in_one_query(
    client, alice, bob, game, django_assert_num_queries, without_redis
):
    latest = say(game, bob, "Old news")
    client.force_login(alice)
    _poll(client, game, latest.pk)  # warm the session; notes alice is watching (once a minute)
    with django_assert_num_queries(3):  # session, user, and one for version and chat
        response = _poll(client, game, latest.pk)
    assert response.status_code == 204
    assert response.content == b""


def test_an_unchanged_table_without_messages_is_one_query_too(
    client, alice, game, django_assert_num_queries, without_redis
):
    client.force_login(alice)
    _poll(client, game, 0)
    with django_assert_num_queries(3):
        response = _poll(client, game, 0)
    assert response.status_code == 204


def test_a_new_message_comes_with_the_next_poll(client, alice, bob, game):
    client.force_login(alice)
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert 'id="chat-seen" name="c" value="0"' in page
    message = say(game, bob, "Your turn, Great One")
    response = _poll(client, game, 0)
    assert response.status_code == 200
    body = response.content.decode()
    assert "Your turn, Great One" in body
    assert 'id="chat-log" class="chat-log" hx-swap-oob="true"' in body
    assert 'id="chat-latest" class="chat-latest" hx-swap-oob="true"' in body
    assert f'id="chat-seen" name="c" value="{message.pk}"' in body
    assert 'hx-include="#chat-seen, #looked, #changes"' in body
    # The hand and its half-made choices stay as they are: only the chat is news.
    assert 'id="me"' not in _poll(client, game, 0, me=_me_key(page)).content.decode()
    assert _poll(client, game, message.pk).status_code == 204


def test_a_game_update_leaves_the_chat_log_alone_when_the_page_has_it(client, alice, bob, game):
    message = say(game, bob, "Already seen")
    client.force_login(alice)
    body = _poll(client, game, message.pk, v=game.version - 1).content.decode()
    assert 'id="status"' in body
    assert 'id="chat-log"' not in body
    assert "Already seen" not in body
    # The flourishes follow my title, which may change with every round.
    assert 'id="chat-flourishes"' in body


def test_an_action_answer_leaves_the_chat_log_alone(client, alice, bob, game):
    say(game, bob, "Hurry up")
    client.force_login(alice)
    response = client.post(f"/t/{game.pk}/act/", {"action": "pass", "turn": "0"},
                           HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert 'id="status"' in body and 'id="chat-flourishes"' in body
    assert 'id="chat-log"' not in body


def test_a_page_without_the_chat_parameter_polls_as_before(client, alice, bob, game):
    say(game, bob, "Invisible to old pages")
    client.force_login(alice)
    assert client.get(f"/t/{game.pk}/poll/?v={game.version}").status_code == 204


def test_the_poller_sends_the_newest_message_the_page_shows(client, alice, game):
    client.force_login(alice)
    page = client.get(f"/t/{game.pk}/").content.decode()
    poller = page[page.index('id="poller"'):]
    poller = poller[:poller.index("</div>")]
    assert 'hx-include="#chat-seen, #looked, #changes"' in poller
    assert page.count('id="chat-seen"') == 1


def _me_key(page: str) -> str:
    return re.search(r"&amp;me=([^\"&]*)", page).group(1)
