"""French writes a no-break space before a colon: the game page's names before what they
said, played or drew, and the game's record in text, keep it as every sentence does."""

import pytest
from django.urls import reverse

from chat import services as chat
from games.core.turns import trick_key
from tests.helpers import (
    colons_without_space,
    make_user,
    play_out,
    play_until,
    start_table,
    words_of,
)

pytestmark = pytest.mark.django_db


def _french_table():
    ana = make_user("ana", display_name="Ana", language="fr")
    rosa = make_user("rosa", display_name="Rosa", language="fr")
    return ana, start_table(ana, [rosa], bots=2)


def _a_trick_won_and_one_led(view) -> bool:
    round_number, played_before = trick_key(view).split(":")
    return round_number == "1" and int(played_before) > 0 and bool(view["trick"]["plays"])


def test_the_game_page_puts_a_no_break_space_before_a_names_colon(client):
    ana, game = _french_table()
    chat.post(game, game.seats.get(user=ana), "On joue ?")
    # A trick won and the next one under way: the last trick to peek at beside the play
    # to beat, in the first round, whose seating draw the page tells.
    game = play_until(game, lambda g: _a_trick_won_and_one_led(g.engine_state().view(0)))
    client.force_login(ana)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    for part in ('class="peek"', 'class="panel seating-draw"', 'id="chat-latest"'):
        assert part in page
    assert "Ana\u00a0: On joue ?" in words_of(page)
    assert colons_without_space(words_of(page)) == []


def test_the_record_in_text_puts_a_no_break_space_before_its_colons(client):
    ana, game = _french_table()
    game = play_out(game)
    client.force_login(ana)
    text = client.get(reverse("record_text", args=[game.pk])).content.decode()
    assert "Mains distribuées\u00a0:" in text
    assert colons_without_space(text) == []
