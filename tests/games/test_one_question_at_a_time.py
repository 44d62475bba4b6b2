"""A Great Dalmuti dealt both Jesters has two decisions before the first trick: whether to
declare a revolution, and (if not) which cards to give back. The dock asks them one at a
time: the revolution first, with the hand as it was dealt (Jesters not greyed out as cards
that cannot be given), then the cards to give back."""

import pytest
from django.template.loader import render_to_string

from games.read.hand import my_actions

HAND = [1, 2, 3, 3, 5, 8, 8, 11, 12, 13, 13]


TITLES = ["great_dalmuti", "lesser_dalmuti", "merchant", "lesser_peon", "greater_peon"]


def _view(*legal, seat: int = 0) -> dict:
    return {"legal_actions": list(legal), "hand": HAND, "taxes": {"to_give_back": 2},
            "seats": [], "seat": seat, "titles": TITLES, "options": {}}


GIVE_BACKS = [{"type": "give_back", "cards": [a, b]} for a, b in ((11, 12), (8, 8), (12, 12))]


def test_the_revolution_is_asked_first_and_the_hand_shown_as_dealt():
    actions = my_actions(_view(*GIVE_BACKS, {"type": "revolution", "declare": True},
                               {"type": "revolution", "declare": False}), str)
    assert actions["revolution_offer"]
    assert actions.get("pick") is None
    assert actions["give_back"] is None
    assert all(card["ok"] and not card["checked"] for card in actions["hand_cards"])


def test_once_quiet_the_cards_to_give_back_are_asked():
    actions = my_actions(_view(*GIVE_BACKS), str)
    assert not actions["revolution_offer"]
    assert actions["pick"] == "give_back" and actions["give_back"] == {"count": 2, "worst": False}
    jesters = [card for card in actions["hand_cards"] if card["rank"] == 13]
    assert jesters and not any(card["ok"] for card in jesters)


REVOLUTION = [{"type": "revolution", "declare": True}, {"type": "revolution", "declare": False}]


@pytest.mark.parametrize("seat", range(5))
def test_the_offer_tells_the_holder_what_their_own_revolution_does(seat):
    """Declared by the Greater Peon, a revolution turns the table round; by anyone else it
    cancels the taxes: each holder is told what theirs does, not both."""
    actions = my_actions(_view(*REVOLUTION, seat=seat), str)
    assert actions["revolution_offer"]
    words = " ".join(render_to_string("games/table/_revolution_offer.html", actions).split())
    great = TITLES[seat] == "greater_peon"
    assert ("Great Revolution" in words) == great
    assert ("the places are reversed" in words) == great
    assert "no taxes this round" in words
    assert "if you are" not in words
