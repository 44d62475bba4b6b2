"""Hints at tables that allow them: from the player's own view only, once per decision,
refused elsewhere, and such games are not rated."""

import pytest
from django.urls import reverse
from django.utils import translation

from games import commands, engine
from games.commands import hints
from games.models import Game
from games.read.hints import hint_line
from players.models import Rating, RatingChange
from tests.helpers import make_user, play_out, play_until, waiting_humans

pytestmark = pytest.mark.django_db

# The first word of a hint in German: its move (play, pass, give back, declare, keep quiet).
GERMAN_MOVES = ("Spiele", "Passen", "Gib", "Rufe", "Schweigen")
FEW = engine.Effort(samples=6)  # enough deals to rank the moves, cheap in a test


def _lead_of_round_one(seed=1) -> tuple[engine.Game, int]:
    """A game at its first lead, and the player who leads."""
    state = engine.Game.new(5, engine.Options(first_round_taxes=False), seed)
    while True:
        waiting = [p for p in range(5) if state.view(p)["legal_actions"]]
        view = state.view(waiting[0])
        if view["phase"] == "play":
            return state, waiting[0]
        state = state.apply(waiting[0], engine.action_from_json(view["legal_actions"][0]))


def _other_hidden_cards(state: engine.Game, player: int) -> engine.Game:
    """The same game with one card swapped between two other hands: nothing the player
    sees has changed."""
    data = state.to_json()
    hands = data["round"]["hands"]
    me = state.view(player)["seat"]
    a, b = [s for s in range(len(hands)) if s != me][:2]
    give = next(c for c in hands[a] if c not in hands[b])
    take = next(c for c in hands[b] if c not in hands[a])
    hands[a] = sorted([c for c in hands[a] if c != give] + [take])
    hands[b] = sorted([c for c in hands[b] if c != take] + [give])
    return engine.Game.from_json(data)


def test_a_hint_never_uses_another_players_hidden_cards():
    state, player = _lead_of_round_one()
    other = _other_hidden_cards(state, player)
    assert other.to_json() != state.to_json()
    assert other.view(player) == state.view(player)
    first = hints.advise(state.view(player), FEW)
    second = hints.advise(other.view(player), FEW)
    assert repr(first).encode() == repr(second).encode()
    line = hint_line(first, lambda seat: "?")
    assert line.startswith(("Play", "Pass")), line


def test_a_hint_is_given_once_per_decision_in_the_players_language_and_unrated(
        client, settings, monkeypatch):
    settings.DALMUTI_EXPERT_SAMPLES = 4
    host = make_user("hinted", language="de")
    game = commands.create_table(host, "Hints", 5, {"rounds": 1}, hints_allowed=True)
    for _ in range(4):
        commands.add_bot(game.pk, "basic")
    commands.start(game.pk)
    game = play_until(Game.objects.get(pk=game.pk), lambda g: bool(waiting_humans(g)))
    client.force_login(host)
    page = client.get(game.get_absolute_url()).content.decode()
    assert reverse("hint", args=[game.pk]) in page
    calls = []
    real = hints.advise
    monkeypatch.setattr(hints, "advise", lambda view, effort: calls.append(1) or real(view, effort))
    first = client.post(reverse("hint", args=[game.pk]), HTTP_HX_REQUEST="true")
    again = client.post(reverse("hint", args=[game.pk]), HTTP_HX_REQUEST="true")
    assert first.status_code == 200 and first.content == again.content
    assert calls == [1]  # the second ask of the same decision is answered from the seat
    # In the player's language (German): the move, then why.
    assert b'id="advice"' in first.content and b"Hinweis:" in first.content
    line = first.content.decode().split("</strong>")[1].split("</p>")[0].strip()
    assert line.split()[0] in GERMAN_MOVES, line
    with translation.override("de"):
        assert line == hint_line(game.seats.get(user=host).hint, lambda s: "?")
    # Without JavaScript the table shows the same hint.
    assert client.post(reverse("hint", args=[game.pk])).status_code == 302
    assert line in client.get(game.get_absolute_url()).content.decode()
    # The game ends unrated, and its record says hints were allowed.
    play_out(game)
    assert not RatingChange.objects.filter(game=game).exists()
    assert not Rating.objects.exists()
    allowed = "In dieser Partie waren Hinweise erlaubt"
    assert allowed in client.get(reverse("game_record", args=[game.pk])).content.decode()
    assert allowed in client.get(reverse("record_text", args=[game.pk])).content.decode()
    assert client.get(reverse("record_json", args=[game.pk])).json()["game"]["hints_allowed"]


def test_the_new_table_form_offers_hints_and_says_such_games_are_not_rated(client, alice):
    client.force_login(alice)
    assert "Games with hints are not rated." in client.get(reverse("new_table")).content.decode()


def test_hints_are_refused_at_a_table_without_them(client):
    host = make_user("plain")
    game = commands.create_table(host, "No hints", 5, {"rounds": 1})
    for _ in range(4):
        commands.add_bot(game.pk, "basic")
    commands.start(game.pk)
    game = play_until(Game.objects.get(pk=game.pk), lambda g: bool(waiting_humans(g)))
    client.force_login(host)
    assert reverse("hint", args=[game.pk]) not in client.get(game.get_absolute_url()).content \
        .decode()
    before = (game.seq, game.version, list(game.seats.values_list("hint", "hint_turn")))
    answer = client.post(reverse("hint", args=[game.pk]), HTTP_HX_REQUEST="true")
    assert answer.status_code == 403
    game.refresh_from_db()
    assert (game.seq, game.version, list(game.seats.values_list("hint", "hint_turn"))) == before
