"""A player's statistics against small games written by hand, the expected figures worked
out by hand in the comments."""

from collections import Counter

import pytest

from games import engine
from games.models import Action, Game, Seat
from leagues.models import Replacement
from players.stats import player_stats
from tests.leagues.helpers import record_game

pytestmark = pytest.mark.django_db


def action(game, seq, round_number, kind, events, player=None):
    return Action.objects.create(game=game, seq=seq, round_number=round_number, kind=kind,
                                 player=player, events=events, by="system")


def taxes(plan, exchanges):
    """The events of a tax phase as the record keeps them, in players: the public plan,
    then each exchange (tribute first)."""
    public = {"type": "taxes",
              "exchanges": [{"from": f, "to": t, "count": n} for f, t, n in plan]}
    return [public] + [{"type": "tax_exchange", "from": f, "to": t, "cards": cards,
                        "visible_to": sorted([f, t])} for f, t, cards in exchanges]


@pytest.fixture
def games(alice, bob, carol, dave):
    # A, 4 players, 2 rounds; Alice (player 0) is Great Dalmuti in both rounds.
    # Round 1 finish 0,1,2,3: Alice 3, Bob 2, Carol 1, bot 0.
    # Round 2 finish 1,0,2,3: Bob 3, Alice 2, Carol 1, bot 0.
    # Totals Alice 5, Bob 5, Carol 2, bot 0; Bob won round 2, so Bob 1st, Alice 2nd.
    a = record_game([alice, bob, carol, None],
                    [([0, 1, 2, 3], [0, 1, 2, 3]), ([0, 1, 2, 3], [1, 0, 2, 3])], name="A")
    # Round 2's taxes: Alice receives a Dalmuti and an Archbishop from the bot and gives
    # back two Peasants (a give-back is not a tax); Bob and Carol trade one card each.
    action(a, 1, 2, "next_round", taxes(
        [(3, 0, 2), (2, 1, 1)],
        [(3, 0, [1, 2]), (0, 3, [12, 12]), (2, 1, [3]), (1, 2, [11])],
    ))
    # B, 5 players: Alice (player 1, Lesser Dalmuti) finishes first: 1st of 5. She
    # declared a revolution.
    b = record_game([bob, alice, carol, dave, None], [([0, 1, 2, 3, 4], [1, 0, 2, 3, 4])],
                    name="B")
    action(b, 1, 1, "revolution", [{"type": "revolution", "player": 1, "great": False}], 1)
    # C, 4 players seated Bob, bot, Carol, Alice: Alice (player 3) is Greater Peon, pays
    # a 2 and a 5 to Bob (player 1), finishes first. Like every event, the public plan
    # names players (Alice sits in seat 3, Bob in seat 0).
    c = record_game([carol, bob, None, alice], [([1, 2, 0, 3], [3, 0, 1, 2])], name="C")
    action(c, 1, 1, "give_back", taxes([(3, 1, 2)], [(3, 1, [2, 5]), (1, 3, [12, 11])]))
    # D, in play: its first round is not over, and nothing of it may count.
    d = record_game([alice, bob, carol, dave], [([0, 1, 2, 3], None)],
                    status=Game.Status.PLAYING, name="D")
    action(d, 1, 1, "start", taxes([(3, 0, 2)], [(3, 0, [1, 1]), (0, 3, [12, 12])])
           + [{"type": "revolution", "player": 0, "great": True}])
    # E, ended early after one round in which Alice was Great Dalmuti (no final place);
    # she declared a Great Revolution at its deal.
    e = record_game([alice, bob, carol, dave], [([0, 1, 2, 3], [0, 1, 2, 3])],
                    status=Game.Status.ABANDONED, name="E")
    action(e, 1, 1, "start", [{"type": "revolution", "player": 0, "great": True}])
    return {"A": a, "B": b, "C": c, "D": d, "E": e}


def test_games_places_and_titles_against_hand_counted_figures(games, alice):
    stats = player_stats(alice)
    assert stats.games_played == 5
    assert stats.games_in_play == 1
    assert stats.games_finished == 3
    assert stats.rounds == 5  # A 2, B 1, C 1, E 1
    assert stats.great_dalmuti == 3  # A round 1 and 2, E round 1
    assert stats.greater_peon == 1  # C
    assert stats.best_streak == 2
    # Final places: A 2nd of 4, B 1st of 5, C 1st of 4.
    assert stats.average_place == pytest.approx(4 / 3)
    assert [(p.players, p.games, p.average) for p in stats.places_by_size] == [
        (4, 2, 1.5), (5, 1, 1.0)]


def test_revolutions_and_taxes_count_only_games_that_are_over(games, alice):
    stats = player_stats(alice)
    assert (stats.revolutions, stats.great_revolutions) == (1, 1)
    assert stats.taxes_paid == Counter({2: 1, 5: 1})
    assert stats.taxes_received == Counter({1: 1, 2: 1})
    assert stats.taxes == [{"rank": 1, "paid": 0, "received": 1},
                           {"rank": 2, "paid": 1, "received": 1},
                           {"rank": 5, "paid": 1, "received": 0}]


def test_head_to_head_counts_who_finished_above_whom(games, alice, bob, carol, dave):
    # A: Bob above Alice, Alice above Carol. B: Alice above Bob, Carol, Dave.
    # C: Alice above Carol and Bob. Bots are not opponents.
    table = {h.user.username: (h.above, h.below) for h in player_stats(alice).head_to_head}
    assert table == {"bob": (2, 1), "carol": (3, 0), "dave": (1, 0)}
    assert {h.user.username: (h.above, h.below) for h in player_stats(bob).head_to_head}[
        "alice"] == (1, 2)


def test_favourite_rules_and_recent_rounds(games, alice):
    stats = player_stats(alice)
    # A, B and C: the games she played to the end.
    assert stats.favourite_options == [(engine.Options().to_json(), 3)]
    recent = {entry["game"].name: entry["rounds"] for entry in stats.recent}
    assert set(recent) == {"A", "B", "C", "E"}
    assert recent["A"] == [{"round": 1, "place": 1, "players": 4},
                           {"round": 2, "place": 2, "players": 4}]
    assert recent["B"] == [{"round": 1, "place": 1, "players": 5}]


def test_favourite_rules_are_those_of_the_games_played_to_the_end(alice, bob, carol, dave):
    people = [alice, bob, carol, dave]
    record_game(people, [([0, 1, 2, 3], [0, 1, 2, 3])], name="Played out")
    seven = {"rounds": 7}
    for name, status, left in (("In play", Game.Status.PLAYING, False),
                               ("Left", Game.Status.FINISHED, True),
                               ("Ended early", Game.Status.ABANDONED, False)):
        game = record_game(people, [([0, 1, 2, 3], [0, 1, 2, 3])], status=status, name=name)
        Game.objects.filter(pk=game.pk).update(options=seven)
        Seat.objects.filter(game=game, user=alice).update(left=left)
    assert player_stats(alice).favourite_options == [(engine.Options().to_json(), 1)]
    # Once played to the end, a game's rules count.
    Game.objects.filter(name="In play").update(status=Game.Status.FINISHED)
    assert player_stats(alice).favourite_options == [
        (engine.Options().to_json(), 1), (engine.Options.from_json(seven).to_json(), 1)]


def test_a_player_replaced_by_a_bot_keeps_only_the_rounds_before(alice, bob, carol, dave):
    game = record_game([alice, bob, carol, dave],
                       [([0, 1, 2, 3], [0, 1, 2, 3]), ([0, 1, 2, 3], [1, 2, 3, 0])], name="R")
    seat = game.seats.get(user=alice)
    Replacement.objects.create(game=game, player=0, user=alice, round_number=2,
                               bot_level="basic", bot_name="Ada")
    seat.user, seat.bot_level, seat.bot_name = None, "basic", "Ada"
    seat.save()
    stats = player_stats(alice)
    assert (stats.games_played, stats.rounds, stats.great_dalmuti) == (1, 1, 1)
    # The bot finished the game for her: she did not play it out.
    assert (stats.games_finished, stats.games_left) == (0, 1)
    assert [h.user.username for h in player_stats(bob).head_to_head] == ["carol", "dave"]


def test_each_game_counts_once_and_a_game_left_counts_as_left(alice, bob, carol, dave):
    people = [alice, bob, carol, dave]
    one_round = [([0, 1, 2, 3], [0, 1, 2, 3])]
    record_game(people, one_round, name="Played out")  # Alice 1st of 4
    # Finished after she left (a bot played her cards to the round's end): no game she
    # finished, but one whose end ranks her last.
    left = record_game(people, one_round, name="Left")
    # She said she leaves in a game in play: a bot plays her cards to the round's end.
    leaving = record_game(people, [([0, 1, 2, 3], None)], status=Game.Status.PLAYING,
                          name="Leaving")
    # Left, then an organiser ended the game early.
    left_early = record_game(people, one_round, status=Game.Status.ABANDONED,
                             name="Left, then ended early")
    Seat.objects.filter(game__in=[left, left_early], user=alice).update(left=True)
    Seat.objects.filter(game=leaving, user=alice).update(leaving=True)
    record_game(people, one_round, status=Game.Status.ABANDONED, name="Ended early")
    record_game(people, [([0, 1, 2, 3], None)], status=Game.Status.PLAYING, name="In play")

    stats = player_stats(alice)
    assert stats.games_played == 6
    assert (stats.games_finished, stats.games_left, stats.games_ended_early,
            stats.games_in_play) == (1, 3, 1, 1)
    # The final places and the head to head: the game she played out (1st) and the one
    # she left that reached its end, where she shares the last place (4th): leaving spares
    # her no average. Neither the game ended early nor those in play count.
    assert [(p.players, p.games, p.average) for p in stats.places_by_size] == [(4, 2, 2.5)]
    assert {h.user.username: (h.above, h.below) for h in stats.head_to_head} == {
        "bob": (1, 1), "carol": (1, 1), "dave": (1, 1)}


def test_taxes_of_a_real_game_match_what_the_engine_exchanged(alice):
    from games.read.replay import replay
    from tests.helpers import play_out, start_table

    game = play_out(start_table(alice, bots=3, options={"rounds": 4}, seed=5))
    me = game.seats.get(user=alice).player
    paid, received = Counter(), Counter()
    seen = set()
    for _action, state in replay(game):
        records = state.round.to_json()["records"]
        if records["taxes_status"] != "done" or state.round_number in seen:
            continue
        seen.add(state.round_number)
        # The engine's own list: (giver, taker, cards) in round seats, tribute first.
        for i, (giver, taker, cards) in enumerate(records["taxes"]):
            if i % 2 == 0 and state.seats[giver] == me:
                paid.update(cards)
            elif i % 2 == 0 and state.seats[taker] == me:
                received.update(cards)
    assert paid or received  # the seed gives Alice taxes to pay or to receive
    stats = player_stats(alice)
    assert (stats.taxes_paid, stats.taxes_received) == (paid, received)


def test_the_rounds_a_bot_played_after_she_left_are_the_bots(alice, bob, carol, dave):
    """At a table where a bot takes the seat of whoever leaves, Alice said she leaves in
    round 2 (the "leaving" note records the round): from it on the seat's rounds are the
    bot's. Round 1 is hers alone; the game still counts at its last place for her. A game
    left before that note was kept counts every round of the seat, as it always did."""
    rounds = [([0, 1, 2, 3], [0, 1, 2, 3]), ([0, 1, 2, 3], [0, 1, 2, 3]),
              ([0, 1, 2, 3], [0, 1, 2, 3])]
    game = record_game([alice, bob, carol, dave], rounds, name="Left with a bot")
    Seat.objects.filter(game=game, user=alice).update(left=True)
    action(game, 1, 2, "leaving", [{"type": "leaving", "player": 0, "bot": True}], 0)
    # The bot called a revolution in her seat in round 3: not hers either.
    action(game, 2, 3, "revolution", [{"type": "revolution", "player": 0, "great": False}], 0)
    stats = player_stats(alice)
    assert (stats.rounds, stats.great_dalmuti, stats.best_streak) == (1, 1, 1)
    assert (stats.revolutions, stats.great_revolutions) == (0, 0)
    assert stats.recent[0]["rounds"] == [{"round": 1, "place": 1, "players": 4}]
    # Its picture says why it stops there.
    assert stats.recent[0]["left_in"] == 2
    assert [(p.players, p.games, p.average) for p in stats.places_by_size] == [(4, 1, 4)]
    assert (stats.games_played, stats.games_left) == (1, 1)
    # The others' rounds are theirs as before.
    assert player_stats(bob).rounds == 3

    older = record_game([alice, bob, carol, dave], rounds, name="Left before the note")
    Seat.objects.filter(game=older, user=alice).update(left=True)
    assert player_stats(alice).rounds == 1 + 3


def test_two_who_left_one_game_finished_neither_above_nor_below_each_other(
        alice, bob, carol, dave):
    """They share its last place: the game counts as one played together, in neither
    column (it counted as "below" for each of the two)."""
    game = record_game([alice, bob, carol, dave], [([0, 1, 2, 3], [0, 1, 2, 3])],
                       name="Both left")
    Seat.objects.filter(game=game, user__in=[alice, bob]).update(left=True)
    table = {h.user.username: (h.games, h.above, h.below)
             for h in player_stats(alice).head_to_head}
    assert table == {"bob": (1, 0, 0), "carol": (1, 0, 1), "dave": (1, 0, 1)}
    assert {h.user.username: (h.games, h.above, h.below)
            for h in player_stats(carol).head_to_head}["alice"] == (1, 1, 0)
