"""Game.awaiting keeps each wait as the JSON list [token, since, deadline]; Wait reads and
writes it without changing a character of it."""

from datetime import UTC, datetime

from games.models import Game, Wait


def test_a_stored_wait_reads_by_name_and_is_stored_back_unchanged():
    stored = [48, "2026-11-24T19:53:32.123456+00:00", "2026-11-25T19:53:32+00:00"]
    wait = Wait.from_stored(stored)
    assert wait.token == 48
    assert wait.since == datetime(2026, 11, 24, 19, 53, 32, 123456, tzinfo=UTC)
    assert wait.deadline == datetime(2026, 11, 25, 19, 53, 32, tzinfo=UTC)
    assert wait.stored_deadline == stored[2]
    assert wait.to_stored() == stored


def test_a_wait_without_a_clock_or_from_before_deadlines_has_no_deadline():
    assert Wait.from_stored([16, "2026-11-24T19:53:32+00:00", None]).deadline is None
    old = Wait.from_stored([16, "2026-11-24T19:53:32+00:00"])
    assert old.deadline is None and old.stored_deadline is None
    assert old.to_stored() == [16, "2026-11-24T19:53:32+00:00", None]


def test_the_game_gives_its_waits_by_player():
    game = Game(awaiting={"2": [32, "2026-11-24T19:53:32+00:00", None]})
    assert game.wait_for(2) == Wait(32, datetime(2026, 11, 24, 19, 53, 32, tzinfo=UTC))
    assert game.wait_for(1) is None and game.wait_for(None) is None
    game.set_waits({p: Wait(w.token + 1, w.since) for p, w in game.waits().items()})
    assert game.awaiting == {"2": [33, "2026-11-24T19:53:32+00:00", None]}
