import pytest

from chat.models import Message

from .conftest import HTMX, say


@pytest.fixture
def secret(game, alice):
    return say(game, alice, "For the table's ears only")


@pytest.mark.parametrize("htmx", [False, True])
def test_a_non_member_cannot_read(client, mallory, game, secret, htmx):
    client.force_login(mallory)
    for url in (f"/t/{game.pk}/chat/", f"/t/{game.pk}/poll/?v=0&c=0"):
        response = client.get(url, **(HTMX if htmx else {}))
        assert response.status_code == 404
        assert secret.text not in response.content.decode()


@pytest.mark.parametrize("data", [{"text": "Let me in"}, {"flourish": "grovel"}])
def test_a_non_member_cannot_post(client, mallory, game, data):
    client.force_login(mallory)
    assert client.post(f"/t/{game.pk}/chat/post/", data).status_code == 404
    assert client.post(f"/t/{game.pk}/chat/post/", data, **HTMX).status_code == 404
    assert not Message.objects.exists()


def test_a_table_that_does_not_exist_is_a_404_too(client, mallory):
    client.force_login(mallory)
    assert client.get("/t/999999/chat/").status_code == 404
    assert client.post("/t/999999/chat/post/", {"text": "hi"}).status_code == 404


def test_a_member_of_another_table_cannot_reach_this_one(client, mallory, game, secret):
    from .conftest import start_table

    other = start_table(mallory, bots=3)
    client.force_login(mallory)
    assert client.get(f"/t/{game.pk}/chat/").status_code == 404
    assert client.post(f"/t/{game.pk}/chat/post/", {"text": "hi"}).status_code == 404
    assert client.get(f"/t/{other.pk}/chat/").status_code == 200
    assert secret.text not in client.get(f"/t/{other.pk}/chat/").content.decode()


def test_anonymous_visitors_are_sent_to_log_in(client, game, secret):
    for response in (client.get(f"/t/{game.pk}/chat/"),
                     client.post(f"/t/{game.pk}/chat/post/", {"text": "hi"})):
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/")
    assert Message.objects.count() == 1


def test_posting_needs_a_post(client, alice, game):
    client.force_login(alice)
    assert client.get(f"/t/{game.pk}/chat/post/").status_code == 405


def test_posting_needs_the_csrf_token(alice, game):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert client.post(f"/t/{game.pk}/chat/post/", {"text": "forged"}).status_code == 403
    assert not Message.objects.exists()
