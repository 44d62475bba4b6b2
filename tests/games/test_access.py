"""Every game URL, tried by an anonymous visitor, a stranger and another seat."""

import pytest

pytestmark = pytest.mark.django_db


def _urls(game, seat_pk):
    return [
        ("get", f"/t/{game.pk}/"),
        ("get", f"/t/{game.pk}/poll/?v=0"),
        ("get", f"/t/{game.pk}/log/"),
        ("post", f"/t/{game.pk}/act/"),
        ("post", f"/t/{game.pk}/invite/"),
        ("post", f"/t/{game.pk}/bots/"),
        ("post", f"/t/{game.pk}/seats/{seat_pk}/remove/"),
        ("post", f"/t/{game.pk}/leave/"),
        ("post", f"/t/{game.pk}/start/"),
    ]


def test_an_anonymous_visitor_is_sent_to_log_in(client, game):
    for method, url in _urls(game, game.seats.first().pk):
        response = getattr(client, method)(url)
        assert response.status_code == 302, url
        assert response.url.startswith("/accounts/login/"), url


def test_a_stranger_finds_nothing(client, game, mallory):
    client.force_login(mallory)
    for method, url in _urls(game, game.seats.first().pk):
        assert getattr(client, method)(url).status_code == 404, url


def test_an_unknown_table_looks_the_same_as_a_private_one(client, mallory):
    client.force_login(mallory)
    assert client.get("/t/999999/").status_code == 404


def test_a_seated_player_sees_only_their_own_hand(client, game, alice, bob):

    client.force_login(alice)
    page = client.get(f"/t/{game.pk}/").content.decode()
    alice_player = game.seats.get(user=alice).player
    state = game.engine_state()
    assert page.count('class="hcard') == len(state.round.hand(state.seat_of(alice_player)))
