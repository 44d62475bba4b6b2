"""The seats round the felt are drawn once per table, version and language, from the
spectator's view, and shared by every page of the table through the cache: one entry for
all the readers, holding nothing private (two worlds that differ only in hidden cards
draw byte-identical entries), and each page still seats its reader at the bottom."""

import dataclasses

import pytest
from django.core.cache import cache
from django.utils import translation

from games import engine
from games.commands.base import save_state
from games.views import drawn as table_page
from tests.helpers import make_user, start_table
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
    cache.clear()  # the second world draws its own
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


def test_a_drawing_of_an_earlier_release_is_drawn_again(client, people, monkeypatch):
    """The cache outlives a release: a process with other templates draws its own."""
    game = _table(people, _hands(swap=False))
    monkeypatch.setattr(table_page, "drawn_by", lambda: "release 1")
    first = _rings(client, game, people[:1])[0]
    drawn = table_page.render_to_string
    monkeypatch.setattr(table_page, "render_to_string",
                        lambda *args, **kwargs: drawn(*args, **kwargs) + "<!-- release 2 -->")
    monkeypatch.setattr(table_page, "drawn_by", lambda: "release 2")
    again = _rings(client, game, people[:1])[0]
    assert again == first + "<!-- release 2 -->"
