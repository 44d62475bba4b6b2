"""After the taxes a Peon's best cards are gone and a Dalmuti's hand has changed: each
player who took part reads, with their hand, what they gave and received, all round long;
the others (a Merchant) read nothing of it, and nobody reads another's cards."""

import pytest

from games.core.words import cards_phrase
from tests.helpers import hand_of, make_user, play_until, start_table

pytestmark = pytest.mark.django_db


def test_each_player_of_the_taxes_reads_with_their_hand_what_they_gave_and_received(client):
    people = [make_user(name) for name in ("ada", "bob", "cy", "dee", "eve")]
    game = play_until(start_table(people[0], people[1:]),
                      lambda g: g.state["round"]["phase"] == "play")
    state = game.engine_state()
    told = 0
    for seat in game.seats.select_related("user"):
        client.force_login(seat.user)
        hand = hand_of(client.get(f"/t/{game.pk}/").content.decode())
        taxes = state.view(seat.player)["taxes"]
        if taxes["gave"]:
            told += 1
            assert (f"In the taxes you gave {cards_phrase(taxes['gave'])} and received "
                    f"{cards_phrase(taxes['received'])}.") in hand
        else:
            assert "In the taxes" not in hand
    assert told == 4  # both Peons and both Dalmutis; the Merchant took no part
