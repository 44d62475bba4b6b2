"""A friend who took a seat in a game in progress waits for the next round: their page
says so, and shows no empty hand, no clock to pause and no game to leave."""

import pytest

from games.models import TurnLimit
from tests.helpers import make_user, start_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def newcomer(client):
    users = [make_user(n) for n in ("ana", "ben", "cas", "dia")]
    game = start_table(users[0], users[1:], options={"rounds": 5}, turn_limit=TurnLimit.DAY)
    eve = make_user("eve")
    client.force_login(eve)
    client.post(f"/join/{game.invite_token}/")
    assert game.seats.get(user=eve).joining
    return game, eve


@pytest.mark.parametrize(("language", "joins", "empty_hand", "pause", "leave"), [
    ("en", "You join at round 2", "No cards left.", "Pause my clock", "Leave this game"),
    ("fr", "Vous rejoignez la table à la manche 2", "Plus de cartes.",
     "Mettre mon horloge en pause", "Quitter cette partie"),
])
def test_a_newcomer_sees_when_they_join_and_nothing_of_a_seat_they_do_not_have_yet(
        client, newcomer, language, joins, empty_hand, pause, leave):
    game, eve = newcomer
    eve.language = language
    eve.save()
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert joins in page
    assert empty_hand not in page
    assert pause not in page
    assert leave not in page
    assert 'name="auto_pass"' not in page
    # Told once, as "you", not also by name like the others at the table are.
    if language == "en":
        assert f"{eve.name} joins at round 2." not in page


def test_a_newcomer_may_give_up_the_place_and_is_told_so(client, newcomer):
    game, eve = newcomer
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert "Give up my place" in page
    answer = client.post(f"/t/{game.pk}/leave-game/", follow=True).content.decode()
    assert "You gave up your place at Test table." in answer
    assert not game.seats.filter(user=eve).exists()
