"""The merchant trade at a table of six, through the pages."""

import pytest

from games.core.words import cards_phrase
from tests.helpers import (
    act_as,
    exchanges_told_with_the_hand,
    form_for,
    play_until,
    start_table,
    waiting_humans,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_user):
    users = [make_user(name) for name in ("ana", "ben", "cas", "dia", "eli", "fay")]
    game = start_table(users[0], users[1:], options={"merchant_trade": "chosen"})
    return play_until(game, lambda g: g.engine_state().round.phase == "trade")


def test_the_best_placed_merchant_is_offered_the_trade(client, table):
    chooser = waiting_humans(table)[0]
    client.force_login(chooser.user)
    page = client.get(f"/t/{table.pk}/").content.decode()
    assert "As the best placed Merchant you may trade" in page
    # The table's kind of trade, said with the offer and on the felt.
    assert "Each of you gives a card of your choice, at the same time." in page
    assert "If you trade, each of you gives a card of your choice" in page
    assert page.count('name="partner"') == 2  # the other Merchant, and "No trade"


def test_a_declined_trade_is_shown_to_the_table(client, table):
    chooser = waiting_humans(table)[0]
    client.force_login(chooser.user)
    turn = table.awaiting[str(chooser.player)][0]
    client.post(f"/t/{table.pk}/act/", form_for({"type": "trade", "partner": None}, turn))
    other = table.seats.exclude(pk=chooser.pk).first()
    client.force_login(other.user)
    assert f"{chooser.name} chose not to trade." in client.get(f"/t/{table.pk}/").content.decode()


def test_the_two_merchants_each_choose_a_card_and_only_they_see_them(client, table):
    chooser = waiting_humans(table)[0]
    client.force_login(chooser.user)
    view = table.engine_state().view(chooser.player)
    partner = next(a for a in view["legal_actions"] if a["type"] == "trade" and a["partner"])
    turn = table.awaiting[str(chooser.player)][0]
    client.post(f"/t/{table.pk}/act/", form_for(partner, turn))
    table.refresh_from_db()
    traders = waiting_humans(table)
    assert len(traders) == 2
    for seat in traders:
        client.force_login(seat.user)
        assert "Choose the card you give in the trade" in client.get(
            f"/t/{table.pk}/").content.decode()
        card = next(a for a in table.engine_state().view(seat.player)["legal_actions"])
        client.post(f"/t/{table.pk}/act/", form_for(card, table.awaiting[str(seat.player)][0]))
        table.refresh_from_db()
        if seat is traders[0]:
            # Waiting for the other's card, the first says which one they chose.
            page = client.get(f"/t/{table.pk}/").content.decode()
            assert f"You chose to give {cards_phrase([card['card']])}." in page
    client.force_login(traders[0].user)
    page = client.get(f"/t/{table.pk}/").content.decode()
    assert "traded a card" in page and "You gave" in page and "You received" in page
    bystander = table.seats.exclude(pk__in=[s.pk for s in traders]).first()
    client.force_login(bystander.user)
    trade_box = client.get(f"/t/{table.pk}/").content.decode().split('<div class="trade">')[1]
    trade_box = trade_box.split("</div>")[0]
    assert "traded a card" in trade_box
    assert "You gave" not in trade_box and "You received" not in trade_box


def test_a_random_trade_says_so(client, make_user):
    users = [make_user(name) for name in ("gus", "hal", "ivy", "jon", "kim", "lou")]
    game = play_until(start_table(users[0], users[1:], options={"merchant_trade": "random"}),
                      lambda g: g.engine_state().round.phase == "trade")
    client.force_login(waiting_humans(game)[0].user)
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert "A random card goes each way." in page
    assert "If you trade, a random card goes each way (never a Jester)." in page


def test_each_trader_reads_with_their_hand_what_they_gave_and_received(client, table):
    """Once the trade is done, each of the two Merchants reads under their hand, all round
    long, the card they gave and the card they got (as the taxes are told); the others read
    nothing of it."""
    chooser = waiting_humans(table)[0]
    view = table.engine_state().view(chooser.player)
    partner = next(a for a in view["legal_actions"] if a["type"] == "trade" and a["partner"])
    act_as(table, chooser, partner)
    table.refresh_from_db()
    for seat in waiting_humans(table):
        act_as(table, seat, table.engine_state().view(seat.player)["legal_actions"][0])
        table.refresh_from_db()
    assert table.engine_state().round.phase == "play"
    told = exchanges_told_with_the_hand(client, table, "trade", "In the merchants' trade",
                                        absent="merchants' trade")
    assert told == 2


def _trade_box(client, game) -> str:
    page = client.get(f"/t/{game.pk}/").content.decode()
    return page.split('<div class="trade">')[1].split("</div>")[0]


def _each_reads(client, game, words_of: dict) -> None:
    for seat, words in words_of.items():
        client.force_login(seat.user)
        assert words in _trade_box(client, game), seat.name


def test_the_trade_box_speaks_to_each_reader(client, table):
    """The two Merchants read the trade about themselves as "you"; the others by name."""
    chooser = waiting_humans(table)[0]
    bystander = next(s for s in table.seats.select_related("user")
                     if s.pk != chooser.pk and s.user is not None)
    client.force_login(chooser.user)
    box = _trade_box(client, table)
    assert "You may trade with another Merchant." in box and "If you trade," in box
    assert chooser.name not in box
    client.force_login(bystander.user)
    box = _trade_box(client, table)
    assert f"{chooser.name} may trade with another Merchant." in box
    assert "If they trade," in box

    view = table.engine_state().view(chooser.player)
    offer = next(a for a in view["legal_actions"] if a["type"] == "trade" and a["partner"])
    act_as(table, chooser, offer)
    table.refresh_from_db()
    partner = next(s for s in waiting_humans(table) if s.pk != chooser.pk)
    if bystander.pk == partner.pk:
        bystander = next(s for s in table.seats.select_related("user")
                         if s.pk not in (chooser.pk, partner.pk))
    _each_reads(client, table, {chooser: f"You trade with {partner.name}.",
                                partner: f"{chooser.name} trades with you.",
                                bystander: f"{chooser.name} trades with {partner.name}."})

    for seat in waiting_humans(table):
        act_as(table, seat, table.engine_state().view(seat.player)["legal_actions"][0])
        table.refresh_from_db()
    _each_reads(client, table, {chooser: f"You traded a card with {partner.name}.",
                                partner: f"You traded a card with {chooser.name}.",
                                bystander: f"{chooser.name} and {partner.name} traded a card."})


def test_the_merchant_who_declined_reads_it_as_their_own_choice(client, table):
    chooser = waiting_humans(table)[0]
    act_as(table, chooser, {"type": "trade", "partner": None})
    client.force_login(chooser.user)
    assert "You chose not to trade." in _trade_box(client, table)
