"""After the taxes a Peon's best cards are gone and a Dalmuti's hand has changed: each
player who took part reads, with their hand, what they gave and received, all round long;
the others (a Merchant) read nothing of it, and nobody reads another's cards. Before,
while the Dalmutis choose, each Peon reads with their hand which of their cards go and
to whom."""

import re

import pytest

from games.core.words import cards_phrase
from tests.helpers import (
    act_as,
    exchanges_told_with_the_hand,
    hand_of,
    legal,
    make_user,
    play_until,
    start_table,
)

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


def test_a_peon_reads_with_their_hand_which_cards_they_give_before_the_exchange(client):
    """While the Dalmutis choose what they give back, each Peon reads which of their cards
    go (their best, never a jester) and to whom (the felt said only "Tess → Lotte ×2");
    the Dalmutis and the Merchant read no such line, and nobody another's cards."""
    people = [make_user(name, display_name=name.title())
              for name in ("ada", "bob", "cy", "dee", "eve")]
    game = start_table(people[0], people[1:])
    state = game.engine_state()
    assert state.round.phase == "taxes"
    seats = {s.player: s for s in game.seats.select_related("user")}
    plan = {e["from"]: e for e in state.view(None)["taxes"]["exchanges"]}
    told = 0
    for player, seat in seats.items():
        client.force_login(seat.user)
        hand = hand_of(client.get(f"/t/{game.pk}/").content.decode())
        mine = state.view(player)
        exchange = plan.get(mine["seat"])
        if exchange is None:
            assert "best card" not in hand
            continue
        best = sorted(c for c in mine["hand"] if c != 13)[:exchange["count"]]
        taker = seats[mine["seats"][exchange["to"]]].name
        if exchange["count"] == 1:
            assert f"You give {taker} your best card: {cards_phrase(best)}." in hand
        else:
            assert (f"You give {taker} your {exchange['count']} best cards: "
                    f"{cards_phrase(best)}.") in hand
        told += 1
    assert told == 2


def test_a_dalmuti_who_chose_what_to_give_back_sees_those_cards_set_aside_in_the_hand(
        client):
    """While the other Dalmuti still chooses, the cards chosen stay in the hand (the
    exchange is made once both have chosen): they are set aside there, so that the hand
    does not read as if nothing had been chosen. Once the exchange is made, no card is."""
    people = [make_user(name, display_name=name.title())
              for name in ("ada", "bob", "cy", "dee", "eve")]
    game = start_table(people[0], people[1:])
    seats = {s.player: s for s in game.seats.select_related("user")}
    [chooser, other] = [s for s in seats.values()
                        if any(a["type"] == "give_back" for a in legal(game, s))]
    give_back = next(a for a in legal(game, chooser) if a["type"] == "give_back")
    act_as(game, chooser, give_back)
    game.refresh_from_db()
    assert game.engine_state().round.phase == "taxes"
    client.force_login(chooser.user)
    hand = hand_of(client.get(f"/t/{game.pk}/").content.decode())
    aside = re.findall(r'<span class="hcard aside">.*?<span class="num"[^>]*>(\d+)<', hand, re.S)
    assert sorted(map(int, aside)) == sorted(give_back["cards"])
    assert hand.count("(chosen to give back)") == len(give_back["cards"])
    client.force_login(other.user)
    assert "hcard aside" not in hand_of(client.get(f"/t/{game.pk}/").content.decode())
    act_as(game, other, next(a for a in legal(game, other) if a["type"] == "give_back"))
    client.force_login(chooser.user)
    assert "hcard aside" not in hand_of(client.get(f"/t/{game.pk}/").content.decode())
