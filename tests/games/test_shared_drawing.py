"""The seats round the felt are drawn from the spectator's view, each seat once for what it
shows, and shared by every page of the table: one drawing for all the readers, holding
nothing private (two worlds that differ only in hidden cards draw byte-identical
rings), and each page still seats its reader at the bottom. A move redraws only the
seats it changed, and the ring is always what drawing it whole would give."""

import dataclasses

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from dalmuti_site import drawings
from games import engine
from games.commands.base import save_state
from games.views import drawn as table_page
from tests.helpers import (
    act_as,
    legal,
    make_user,
    play_until,
    start_table,
    templates_drawn,
    waiting_humans,
)
from tools import felt_css

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(db):
    return [make_user(f"sd-{name}") for name in ("ada", "bram", "cato", "dirk", "eva")]


def _table(people, hands: list[list[int]]):
    """The five people at a table whose second round was dealt `hands` (seat by seat)."""
    game = start_table(people[0], people[1:], options={"rounds": 5}, seed=7)
    state = game.engine_state()
    rnd = engine.Round.start(hands, state.options, first_round=False, seed=3)
    game.awaiting = {}
    save_state(game, dataclasses.replace(state, round=rnd, round_number=2))
    game.refresh_from_db()
    return game


def _hands(swap: bool) -> list[list[int]]:
    """A deal without a revolution; with `swap`, two of the hands trade a card of
    different ranks (the same counts: only hidden cards differ)."""
    hands = [sorted(h) for h in engine.deal(5, engine.Options(), 4)]
    assert all(h.count(engine.JESTER) < 2 for h in hands)
    if swap:
        a = next(c for c in hands[3] if c != engine.JESTER and c not in hands[4])
        b = next(c for c in hands[4] if c != engine.JESTER and c not in hands[3])
        hands[3].remove(a), hands[4].remove(b)
        hands[3], hands[4] = sorted(hands[3] + [b]), sorted(hands[4] + [a])
    return hands


def _rings(client, game, people) -> list[str]:
    """The shared drawing of the seats on each player's page, in each player's order."""
    rings = []
    for user in people:
        client.force_login(user)
        response = client.get(f"/t/{game.pk}/")
        assert response.status_code == 200
        ring = response.context["seat_ring"]
        assert ring in response.content.decode()
        rings.append(ring)
    return rings


def test_every_page_of_a_table_shows_one_shared_drawing_of_the_seats(client, people):
    game = _table(people, _hands(swap=False))
    rings = _rings(client, game, people)
    assert len(set(rings)) == 1
    # Nobody's seat is marked in it: the felt around it says whose page it is.
    assert "is-me" not in rings[0] and "slot-" not in rings[0]
    assert rings[0].count('<span class="you">') == 5
    positions = {row.player: row.position for row in
                 client.get(f"/t/{game.pk}/").context["seat_rows"]}
    for user in people:
        client.force_login(user)
        page = client.get(f"/t/{game.pk}/").content.decode()
        me = positions[game.seats.get(user=user).player]
        assert f'class="felt seats-5 me-{me} seated"' in page
    # Each language has its own drawing.
    with translation.override("nl"):
        client.force_login(people[0])
        dutch = client.get(f"/t/{game.pk}/", headers={"accept-language": "nl"})
    assert dutch.context["seat_ring"] != rings[0]
    assert "(jij)" in dutch.context["seat_ring"]


def test_two_worlds_that_differ_only_in_hidden_cards_share_identical_drawings(client, people):
    first = _rings(client, _table(people, _hands(swap=False)), people)
    drawings.forget()  # the second world draws its own
    second = _rings(client, _table(people, _hands(swap=True)), people)
    assert first == second


def test_a_watcher_gets_the_same_drawing_with_nobody_marked(client, people):
    game = _table(people, _hands(swap=False))
    rings = _rings(client, game, people)
    game.watch_token = "sd-watch"
    game.save(update_fields=["watch_token"])
    client.logout()
    page = client.get("/watch/sd-watch/")
    assert page.status_code == 200
    assert page.context["seat_ring"] == rings[0]
    assert 'class="felt seats-5 me-1"' in page.content.decode()


def test_the_stylesheet_that_seats_each_reader_is_up_to_date():
    assert felt_css.PATH.read_text() == felt_css.css(), "run python -m tools.felt_css"


def _seats_drawn_on_page(client, game, user, monkeypatch) -> tuple[int, str]:
    """How many seats the reader's page drew (the others were drawn before), and its ring."""
    with monkeypatch.context() as patched:
        drawn = templates_drawn(patched, table_page)
        client.force_login(user)
        response = client.get(f"/t/{game.pk}/")
    return drawn.count("games/table/_seat.html"), response.context


def test_a_move_redraws_only_the_seats_it_changed(client, people, monkeypatch):
    game = play_until(start_table(people[0], people[1:], options={"rounds": 5}, seed=7),
                      lambda g: g.engine_state().round.phase == "play")
    drawings.forget()
    drawn, before = _seats_drawn_on_page(client, game, people[0], monkeypatch)
    assert drawn == 5
    # Every other page takes the same five drawings.
    assert _seats_drawn_on_page(client, game, people[1], monkeypatch)[0] == 0
    seat = waiting_humans(game)[0]
    act_as(game, seat, next(a for a in legal(game, seat) if a["type"] == "play"))
    redrawn, after = _seats_drawn_on_page(client, game, people[2], monkeypatch)
    changed = [row for row in after["seat_rows"] if row not in before["seat_rows"]]
    # The seat that played (its cards left), whom the table waits on now, and those who
    # could not beat it and passed; the rest are as they were.
    assert 2 <= len(changed) < 5
    assert redrawn == len(changed)
    # And the ring is the one drawing it whole gives.
    whole = render_to_string("games/table/_seats.html", {
        "players": after["seat_rows"], "phase": after["phase"], "scoring": after["scoring"]})
    assert after["seat_ring"] == whole


def test_each_language_draws_its_own_seats(client, people, monkeypatch):
    game = _table(people, _hands(swap=False))
    english = _seats_drawn_on_page(client, game, people[0], monkeypatch)[1]["seat_ring"]
    with translation.override("nl"):
        dutch = client.get(f"/t/{game.pk}/", headers={"accept-language": "nl"})
    assert "(jij)" in dutch.context["seat_ring"] and "(jij)" not in english
