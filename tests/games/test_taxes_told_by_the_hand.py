"""After the taxes a Peon's best cards are gone and a Dalmuti's hand has changed: each
player who took part reads, with their hand, what they gave and received, all round long;
the others (a Merchant) read nothing of it, and nobody reads another's cards."""

import pytest

from tests.helpers import exchanges_told_with_the_hand, make_user, play_until, start_table

pytestmark = pytest.mark.django_db


def test_each_player_of_the_taxes_reads_with_their_hand_what_they_gave_and_received(client):
    people = [make_user(name) for name in ("ada", "bob", "cy", "dee", "eve")]
    game = play_until(start_table(people[0], people[1:]),
                      lambda g: g.state["round"]["phase"] == "play")
    told = exchanges_told_with_the_hand(client, game, "taxes", "In the taxes",
                                        absent="In the taxes")
    assert told == 4  # both Peons and both Dalmutis; the Merchant took no part
