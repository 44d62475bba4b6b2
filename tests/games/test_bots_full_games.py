"""Complete games through the web's task path (commands, the play_bots task and the work
it sends after each commit) at 4, 5, 8 and 10 players, with every option of the books,
every bot level at each table, and a person joining and another leaving between rounds:
no bot fails, nobody stalls, and the record rebuilds the stored state."""

from dataclasses import replace
from datetime import timedelta

import pytest
from django.utils import timezone

from games import commands, engine
from games.models import Action, Game, Seat
from games.read import replay
from tests.engine.helpers import BOOK_GAMES, revolution_seed

pytestmark = pytest.mark.django_db

LEVELS = ["expert", "skilled", "basic"]
# The books' games end after ten rounds; seven reach everything this test is about (the
# revolutions of rounds 2 and 3, the seat changes at rounds 3 and 6, taxes and trades in
# every round after) at two thirds of the cost. The engine's own test plays all ten.
ROUNDS = 7


@pytest.fixture
def small_expert(settings):
    """The expert with a fixed, small number of sampled deals: the same search, fast."""
    settings.DALMUTI_EXPERT_SAMPLES = 2


def run(capture, work):
    """Do `work`, then run whatever it sent to the workers (and what that sent), in turn."""
    with capture(execute=True):
        work()


@pytest.mark.parametrize("n", sorted(BOOK_GAMES))
def test_a_whole_game_through_the_task_path(
    n, alice, bob, carol, small_expert, eager_tasks, django_capture_on_commit_callbacks,
    time_machine,
):
    capture = django_capture_on_commit_callbacks
    time_machine.move_to(timezone.now(), tick=True)
    options, changes = BOOK_GAMES[n]
    options = replace(options, rounds=ROUNDS)
    # The host plays too: the bots' chain of moves stops at her turns, where the seat
    # changes are made.
    bots = n - 1 if changes[3] == "join" else n - 2
    game = commands.create_table(alice, f"Book {n}", n, options.to_json())
    Game.objects.filter(pk=game.pk).update(seed=revolution_seed(n, options))
    for i in range(bots):
        commands.add_bot(game.pk, LEVELS[i % 3])
    if bots < n - 1:
        commands.join(game.pk, bob)
    run(capture, lambda: commands.start(game.pk))
    joiner, leaver = (bob, bob) if changes[3] == "join" else (carol, bob)
    changed = set()
    for _step in range(3000):
        game.refresh_from_db()
        if game.is_over:
            break
        change = changes.get(game.round_number)
        if change and change not in changed:
            changed.add(change)
            who = joiner if change == "join" else leaver
            do = commands.join_in_progress if change == "join" else commands.leave_game
            # Rounds apart: far longer than the pause between two seat changes.
            time_machine.shift(timedelta(minutes=10))
            run(capture, lambda: do(game.pk, who))  # noqa: B023 (run at once)
            continue
        people = [s for s in game.seats.select_related("user")
                  if not s.played_by_bot and str(s.player) in game.awaiting]
        assert people, "the table waits for a bot that nobody plays"
        seat = people[0]
        view = game.engine_state().view(seat.player)
        action = engine.choose_action("basic", view, game.seq)
        run(capture, lambda seat=seat, action=action: commands.act(
            game.pk, seat.user, action, game.awaiting[str(seat.player)][0]))
    game.refresh_from_db()
    assert game.is_over and game.status == Game.Status.FINISHED
    assert game.round_number == ROUNDS and len(game.state["results"]) == ROUNDS
    assert replay.rebuild_state(game).to_json() == game.state
    assert changed == {"join", "leave"}
    assert Action.objects.filter(game=game, kind="join").count() == 1
    assert Action.objects.filter(game=game, kind="leave").count() == 1
    seats = Seat.objects.filter(game=game, user=None)
    assert {s.bot_level for s in seats} == set(LEVELS)
    # Every bot decided with its own level: none failed.
    assert sum(s.bot_stand_ins for s in seats) == 0
    for level in LEVELS:
        players = [s.player for s in seats if s.bot_level == level]
        assert Action.objects.filter(game=game, by="bot", player__in=players).exists()
    results = game.state["results"]
    if options.great_revolution == "at_once":
        assert any(r["revolution"] and r["revolution"]["great"] for r in results)
    kinds = set(Action.objects.filter(game=game).values_list("kind", flat=True))
    assert {"give_back", "play", "pass"} <= kinds
    if options.merchant_trade != "off":
        assert "trade" in kinds
