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


def test_the_log_tells_each_of_the_two_their_own_exchange_as_you(client):
    """The log's private lines of the taxes read as the lines of standing orders do, to
    whoever they concern: "You gave … to Bob", "Ada gave … to you"."""
    from games.core.words import cards_phrase
    from games.models import Action

    people = [make_user(name) for name in ("ada", "bob", "cy", "dee", "eve")]
    game = play_until(start_table(people[0], people[1:]),
                      lambda g: g.state["round"]["phase"] == "play")
    names = {s.player: s.name for s in game.seats.all()}
    users = {s.player: s.user for s in game.seats.select_related("user")}
    exchanges = [e for a in Action.objects.filter(game=game) for e in a.events
                 if e["type"] == "tax_exchange"]
    assert len(exchanges) == 4
    for exchange in exchanges:
        giver, taker, cards = exchange["from"], exchange["to"], cards_phrase(exchange["cards"])
        client.force_login(users[giver])
        log = client.get(f"/t/{game.pk}/log/").content.decode()
        assert f"You gave {cards} to {names[taker]}" in log
        assert f"{names[giver]} gave {cards} to {names[taker]}" not in log
        client.force_login(users[taker])
        log = client.get(f"/t/{game.pk}/log/").content.decode()
        assert f"{names[giver]} gave {cards} to you" in log
