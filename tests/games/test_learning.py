"""The guided first game ("Learn by playing"): its table, its tips, their dismissal."""

import pytest
from django.urls import reverse

from games import commands, engine
from games.commands import learning
from games.models import DismissedTip, Game
from games.read.tips import TIPS, tip_for
from players.models import Rating
from tests.helpers import make_user, play_until, start_table, waiting_humans

pytestmark = pytest.mark.django_db


SEED = 20261122


def _dealt_from(seed):
    """create_table, the shuffles coming from `seed` (the same game every run)."""
    def create(*args, **kwargs):
        game = commands.create_table(*args, **kwargs)
        Game.objects.filter(pk=game.pk).update(seed=seed)
        return game
    return create


def _my_view(game: Game, user) -> dict:
    seat = game.seats.get(user=user)
    return game.engine_state().view(seat.player)


def test_learn_by_playing_opens_a_started_table_with_bots_and_it_plays_out(client, monkeypatch):
    monkeypatch.setattr(learning, "GUIDED_ROUNDS", 2)  # enough for a round's result
    monkeypatch.setattr(learning, "create_table", _dealt_from(SEED))
    newcomer = make_user("newcomer")
    client.force_login(newcomer)
    page = client.get(reverse("home"))
    assert reverse("learn") in page.content.decode()  # offered while there are no games
    response = client.post(reverse("learn"))
    game = Game.objects.get(host=newcomer)
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert game.guided and game.hints_allowed and game.is_playing
    seats = list(game.seats.all())
    assert len(seats) == 5 and sum(s.bot_level == "basic" for s in seats) == 4
    # Asking again goes back to the same game rather than opening another.
    assert client.post(reverse("learn"))["Location"] == game.get_absolute_url()
    assert client.get(reverse("home")).content.decode().count(reverse("learn")) == 0

    seen = set()

    def note_tips(g):
        if g.is_playing:
            view = _my_view(g, newcomer)
            seen.update(tip.key for tip in TIPS if tip.applies(view))
        return False

    game = play_until(game, note_tips)
    assert game.status == Game.Status.FINISHED
    assert {"lead", "follow", "passed", "round_result", "give_back", "jesters"} <= seen, seen
    # Hints were allowed: the game moved nobody's rating.
    assert not Rating.objects.exists()


def test_tips_come_from_the_players_own_view_and_a_dismissal_is_kept(client):
    player = make_user("player")
    game = learning.start_guided_game(player)
    game = play_until(game, lambda g: bool(waiting_humans(g)))
    client.force_login(player)
    view = _my_view(game, player)
    tip = tip_for(view, set())
    assert tip is not None
    page = client.get(game.get_absolute_url()).content.decode()
    assert str(tip.title) in page
    client.post(reverse("dismiss_tip", args=[game.pk, tip.key]), HTTP_HX_REQUEST="true")
    assert DismissedTip.objects.filter(user=player, key=tip.key).exists()
    assert str(tip.title) not in client.get(game.get_absolute_url()).content.decode()
    # Remembered for the user, at any guided table.
    assert tip_for(view, {tip.key}) is not tip
    assert client.post(reverse("dismiss_tip", args=[game.pk, "nonsense"])).status_code == 404


def test_each_situation_has_its_tip():
    state = engine.Game.new(5, engine.Options(), 11)
    view = state.view(0)
    offer = {**view, "legal_actions": [{"type": "revolution", "declare": True},
                                       {"type": "revolution", "declare": False}]}
    assert tip_for(offer, set()).key == "revolution"
    lead = {**view, "phase": "play", "legal_actions": [{"type": "play", "cards": [12]}],
            "hand": [12], "trick": {**view["trick"], "plays": [], "passed": []}}
    assert tip_for(lead, set()).key == "lead"
    assert tip_for({**lead, "hand": [12, 13]}, {"lead"}).key == "jesters"
    passed = {**lead, "legal_actions": [], "trick": {**lead["trick"], "passed": [view["seat"]]}}
    assert tip_for(passed, set()).key == "passed"
    assert tip_for(passed, {t.key for t in TIPS}) is None


def test_a_table_without_guidance_shows_no_tips(client, alice, bob):
    game = start_table(alice, [bob], bots=2)
    client.force_login(alice)
    assert 'class="tip"' not in client.get(game.get_absolute_url()).content.decode()
    assert commands  # the same commands make both kinds of table
