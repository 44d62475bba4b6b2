"""Ratings: a finished game moves them by the Plackett-Luce update (worked out here in
closed form for players who start equal), in the transaction that records the game's end;
bots of a level share one rating; leavers share the last place; the rebuild command gets
the same numbers from the action records alone."""

import math

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from games.models import Game
from players import services
from players.models import BETA, MU, SIGMA, TAU, Rating, RatingChange, shown
from tests.helpers import play_out, start_table

pytestmark = pytest.mark.django_db


def first_game(n: int) -> list[tuple[float, float]]:
    """(mu, sigma) after one game of n newcomers, by finishing place, from Weng and Lin's
    Plackett-Luce update (their Algorithm 4) with every prior equal: each player's share
    of the strength is 1/(n-q) among the q-th and the players below them."""
    s2 = SIGMA**2 + TAU**2
    c = math.sqrt(n * (s2 + BETA**2))
    gamma = math.sqrt(s2) / c
    out = []
    for i in range(n):
        omega = s2 / c * ((1 - 1 / (n - i)) - sum(1 / (n - q) for q in range(i)))
        delta = gamma * s2 / c**2 * sum((1 / (n - q)) * (1 - 1 / (n - q)) for q in range(i + 1))
        out.append((MU + omega, math.sqrt(s2) * math.sqrt(max(1 - delta, 0.0001))))
    return out


def standings_users(game):
    seats = {s.player: s for s in game.seats.all()}
    return [seats[row["player"]] for row in game.engine_state().standings]


def test_a_first_game_moves_each_rating_by_the_plackett_luce_update(alice, bob, carol, dave):
    game = play_out(start_table(alice, [bob, carol, dave], options={"rounds": 2}))
    assert game.status == Game.Status.FINISHED
    expected = first_game(4)
    for place, seat in enumerate(standings_users(game)):
        rating = Rating.objects.get(user=seat.user)
        assert rating.mu == pytest.approx(expected[place][0], rel=1e-12)
        assert rating.sigma == pytest.approx(expected[place][1], rel=1e-12)
        assert rating.games == 1
        change = rating.changes.get()
        assert (change.game_id, change.place, change.players) == (game.pk, place + 1, 4)
        assert (change.mu_before, change.sigma_before) == (MU, SIGMA)
    # The winner gains what the formula says: 1500 + 223.6 * 3/4.
    winner = Rating.objects.get(user=standings_users(game)[0].user)
    assert round(winner.mu) == 1668


def test_bots_of_one_level_share_a_rating_that_takes_every_copys_change(alice):
    game = play_out(start_table(alice, bots=3, options={"rounds": 2}))
    expected = first_game(4)
    places = {s.user_id or s.pk: i for i, s in enumerate(standings_users(game))}
    mine = places[alice.pk]
    bot_places = [i for key, i in places.items() if key != alice.pk]
    basic = Rating.objects.get(bot_level="basic")
    assert basic.user is None and basic.games == 1
    assert basic.mu == pytest.approx(MU + sum(expected[i][0] - MU for i in bot_places),
                                     rel=1e-12)
    assert basic.sigma == pytest.approx(min(expected[i][1] for i in bot_places), rel=1e-12)
    assert Rating.objects.get(user=alice).mu == pytest.approx(expected[mine][0], rel=1e-12)


def test_the_rating_is_recorded_with_the_end_of_the_game(alice):
    game = start_table(alice, bots=3, options={"rounds": 1})
    game = play_out(game)
    change = RatingChange.objects.get(game=game, rating__user=alice)
    assert game.finished is not None and change.created <= game.finished
    # An abandoned game rates nobody.
    other = start_table(alice, bots=3, options={"rounds": 1}, name="Stalled")
    from leagues.services import end_game

    end_game(other.pk, "Nobody came back")
    assert not RatingChange.objects.filter(game=other).exists()


def test_a_game_end_that_fails_to_commit_moves_no_rating(alice, monkeypatch):
    from games.commands import BotsStuck, base

    real = base.notifications.for_everyone

    def broken(game, kind, *args):
        if kind == base.notifications.Kind.OVER:
            raise RuntimeError("the end of the game could not be recorded")
        return real(game, kind, *args)

    monkeypatch.setattr(base.notifications, "for_everyone", broken)
    game = start_table(alice, bots=3, options={"rounds": 1})
    # The last move is a bot's: the failure comes back as the table's bots being stuck.
    with pytest.raises(BotsStuck) as stuck:
        play_out(game)
    assert isinstance(stuck.value.__cause__, RuntimeError)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_leavers_share_the_last_place_and_their_seat_goes_unrated(alice, bob, carol, dave):
    game = play_out(start_table(alice, [bob, carol, dave], bots=1, options={"rounds": 1}))
    state = game.engine_state()
    order = standings_users(game)
    leaver = next(s for s in order[:2] if s.user_id)
    leaver.left = True
    leaver.save()
    entrants = services.entrants(game, state)
    keys = [key for key, _place in entrants]
    assert keys[-1] == ("user", leaver.user_id)
    assert [place for _key, place in entrants] == [1, 2, 3, 4, 5]
    assert len(keys) == 5  # four seats still rated, then the leaver


def test_leavers_share_the_games_last_place_and_the_others_ratings_move_as_before(
        alice, bob, carol, dave, mallory):
    """Two of five leave: they share the fifth place (the game's last), never the fourth
    after the three who played it out. Only the order of the places moves a rating, so
    those who played it out gain or lose what they would with the leavers at the fourth."""
    game = play_out(start_table(alice, [bob, carol, dave, mallory], options={"rounds": 1}))
    state = game.engine_state()
    leavers = standings_users(game)[:2]
    for seat in leavers:
        seat.left = True
        seat.save()
    entrants = services.entrants(game, state)
    assert [place for _key, place in entrants] == [1, 2, 3, 5, 5]
    assert {key for key, place in entrants if place == 5} == {
        ("user", seat.user_id) for seat in leavers}
    steps = services.compute(entrants, {})
    before = services.compute([(key, min(place, 4)) for key, place in entrants], {})
    assert {key: (step.mu, step.sigma) for key, step in steps.items()} == {
        key: (step.mu, step.sigma) for key, step in before.items()}
    assert {step.place for step in steps.values()} == {1, 2, 3, 5}


def test_a_game_everybody_left_ranks_them_all_at_its_last_place():
    from games.core.standing import final_order, winner

    everybody = final_order({0: 6, 1: 3, 2: 2, 3: 1}, {0: 1, 1: 2, 2: 3, 3: 4}, {0, 1, 2, 3})
    assert [(row["player"], row["rank"], row["left"]) for row in everybody] == [
        (0, 4, True), (1, 4, True), (2, 4, True), (3, 4, True)]
    some = final_order({0: 6, 1: 3, 2: 2, 3: 1, 4: 0}, {0: 1, 1: 2, 2: 3, 3: 4, 4: 5}, {0, 3})
    assert [(row["player"], row["rank"]) for row in some] == [
        (1, 1), (2, 2), (4, 3), (0, 5), (3, 5)]
    standings = [{"player": p} for p in (0, 1, 2, 3)]
    assert winner(standings, {0, 1, 2, 3}) is None
    assert winner(standings, {0, 2}) == 1


def test_the_rebuild_gets_the_stored_numbers_from_the_records_alone(alice, bob, carol, dave):
    # Three games with people in common, so each starts from the ratings the one before
    # left behind.
    play_out(start_table(alice, [bob, carol], bots=1, options={"rounds": 2}, seed=1))
    play_out(start_table(bob, [carol, dave], bots=2, options={"rounds": 2}, seed=2))
    play_out(start_table(dave, [alice, bob, carol], options={"rounds": 1}, seed=3))
    stored = {services.key_of(r): (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    history = sorted((services.key_of(c.rating), c.game_id, c.mu, c.sigma)
                     for c in RatingChange.objects.select_related("rating"))
    assert stored[("user", bob.pk)][2] == 3
    call_command("rebuild_ratings", "--check")
    call_command("rebuild_ratings")
    assert {services.key_of(r): (r.mu, r.sigma, r.games) for r in Rating.objects.all()} == stored
    assert sorted((services.key_of(c.rating), c.game_id, c.mu, c.sigma)
                  for c in RatingChange.objects.select_related("rating")) == history


def test_the_rebuild_check_fails_when_a_stored_rating_is_off(alice):
    play_out(start_table(alice, bots=3, options={"rounds": 1}))
    Rating.objects.filter(user=alice).update(mu=1234.5)
    with pytest.raises(CommandError):
        call_command("rebuild_ratings", "--check")
    call_command("rebuild_ratings")
    call_command("rebuild_ratings", "--check")
    assert Rating.objects.get(user=alice).mu != 1234.5


def test_a_rating_reads_as_number_plus_minus_uncertainty_in_the_readers_language():
    assert shown(1540.4, 80.2) == "1,540\u00a0±\u00a080"
    with translation.override("nl"):
        assert shown(1540.4, 80.2) == "1.540\u00a0±\u00a080"
    rating = Rating(mu=1540.4, sigma=80.2, games=4, bot_level="basic")
    assert rating.provisional
    rating.games = 5
    assert not rating.provisional
