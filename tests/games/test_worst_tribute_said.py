"""At a table whose Dalmutis give back their worst cards, the page says that rule, not
"cards of their choice": on the felt while the taxes are paid, in each exchange, and in
the Dalmuti's dock, whose only move is to confirm the cards already chosen."""

import dataclasses

import pytest

from games import engine
from games.commands.base import save_state
from tests.engine.helpers import give_both_jesters
from tests.helpers import make_user, start_table

pytestmark = pytest.mark.django_db


def _taxes_at(tribute_return: str):
    """Four people in round 2, the taxes to pay (the jesters with a Peon, so that both
    Dalmutis are asked for their cards alone); the game and its people."""
    users = [make_user(f"{tribute_return}{i}") for i in range(4)]
    game = start_table(users[0], users[1:],
                       options={"rounds": 3, "tribute_return": tribute_return})
    game.seats.update(first_game=False, auto_pass=False, auto_tax_worst=False)
    state = game.engine_state()
    hands = give_both_jesters(engine.deal(4, state.options, 7), 3)
    rnd = engine.Round.start(hands, state.options, first_round=False, seed=1)
    game.awaiting = {}
    save_state(game, dataclasses.replace(state, round=rnd, round_number=2))
    game.refresh_from_db()
    return game, users


def _great_dalmutis_page(client, game, users) -> str:
    """The page of the Dalmuti who gives back two cards."""
    for user in users:
        client.force_login(user)
        page = client.get(f"/t/{game.pk}/").content.decode()
        if 'value="give_back"' in page and "Choose the card to give back" not in page \
                and "yours is chosen" not in page:
            return page
    raise AssertionError("no Great Dalmuti asked")


def test_worst_cards_said_everywhere(client):
    game, users = _taxes_at("worst")
    page = _great_dalmutis_page(client, game, users)
    assert "the Dalmutis give back their worst cards." in page
    assert "who gives back their 2 worst cards" in page
    assert "At this table the Dalmutis give back their worst cards: your 2 are chosen." in page
    assert "of their choice" not in page and "Choose the 2 cards to give back" not in page


def test_cards_of_their_choice_otherwise(client):
    game, users = _taxes_at("choice")
    page = _great_dalmutis_page(client, game, users)
    assert "the Dalmutis give back cards of their choice." in page
    assert "Choose the 2 cards to give back" in page and "their worst cards" not in page
