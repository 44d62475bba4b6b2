"""A message sent again (its answer lost on a flaky connection, the player tapping Send
once more) is said once: the form carries a token per message, and the same token from
the same player at the same table stores nothing new and answers as a success."""

import re
import threading

import pytest
from django.db import connection

from chat import services as chat
from chat.models import Message

from .conftest import HTMX, seat_of


def _post(client, game, text, token):
    return client.post(f"/t/{game.pk}/chat/post/", {"text": text, "token": token}, **HTMX)


def test_the_same_message_sent_twice_is_said_once(client, alice, game):
    client.force_login(alice)
    first = _post(client, game, "Who has the Jester?", "a1b2c3d4e5f6")
    again = _post(client, game, "Who has the Jester?", "a1b2c3d4e5f6")
    assert (first.status_code, again.status_code) == (200, 200)
    assert list(Message.objects.values_list("text", flat=True)) == ["Who has the Jester?"]
    # The answer shows the message in the log, once, and no error.
    body = again.content.decode()
    assert body.count('class="chat-msg') == 1
    assert re.search(r'id="chat-error"[^>]*></p>', body)


def test_two_messages_with_their_own_tokens_are_both_said(client, alice, game):
    client.force_login(alice)
    _post(client, game, "Pass", "token-one")
    _post(client, game, "Pass", "token-two")
    assert list(Message.objects.values_list("text", flat=True)) == ["Pass", "Pass"]


def test_a_token_is_the_speakers_own(client, alice, bob, game):
    client.force_login(alice)
    _post(client, game, "Hello", "same-token")
    client.force_login(bob)
    _post(client, game, "Hello", "same-token")
    assert Message.objects.count() == 2


def test_a_repeat_is_not_counted_as_talking_too_fast(client, alice, game, settings):
    settings.CHAT_RATE_LIMIT = 2
    client.force_login(alice)
    _post(client, game, "One", "t1")
    _post(client, game, "Two", "t2")
    again = _post(client, game, "Two", "t2")
    assert again.status_code == 200
    assert Message.objects.count() == 2


def test_a_plain_form_sent_twice_is_said_once(client, alice, game):
    client.force_login(alice)
    for _ in range(2):
        answer = client.post(f"/t/{game.pk}/chat/post/", {"text": "No scripts", "token": "plain1"})
        assert answer.status_code == 302
    assert Message.objects.count() == 1


def test_each_drawing_of_the_form_carries_a_fresh_token(client, alice, game):
    client.force_login(alice)
    tokens = [re.search(r'name="token" value="([\w-]+)"', client.get(f"/t/{game.pk}/")
                        .content.decode()).group(1) for _ in range(2)]
    assert tokens[0] != tokens[1]
    assert all(len(token) >= 16 for token in tokens)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_sends_of_one_message_store_it_once(alice, bob):
    from .conftest import start_table

    game = start_table(alice, [bob], bots=2)
    seat = seat_of(game, alice)
    barrier = threading.Barrier(2)
    said = []

    def send():
        try:
            barrier.wait()
            said.append(chat.post(game, seat, "Together", token="at-once-1").pk)
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Message.objects.filter(game=game).count() == 1
    # Both were answered with the one message.
    assert len(said) == 2 and said[0] == said[1]
