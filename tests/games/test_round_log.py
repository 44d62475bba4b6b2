"""The update drawn after every move reads the round's record from where this process last
read it and narrates only what is new, yet always shows the record as committed: a
record that changed behind its back (a rolled-back move, the last action amended at the
game's end, another table) is read whole again. The table's state is read from its
snapshot once, and afresh for a new one."""

import pytest
from django.db import transaction
from django.utils import translation

from games.models import Action, Game
from games.read import narration
from games.read.narration import log_lines, round_log, spectator_lines
from tests.helpers import act_as, first, legal, make_user, start_table, waiting_humans

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(db):
    people = [make_user(f"rl-{name}") for name in ("ada", "bram", "cato", "dirk")]
    game = start_table(people[0], people[1:], options={"rounds": 3}, seed=11)
    game.refresh_from_db()
    return game


def _move(game: Game) -> Game:
    game.refresh_from_db()
    seat = waiting_humans(game)[0]
    act_as(game, seat, first(legal(game, seat)))
    game.refresh_from_db()
    return game


def _committed(game: Game) -> list[tuple]:
    return [(a.id, a.seq, a.events) for a in
            Action.objects.filter(game=game, round_number=game.round_number).order_by("seq")]


def _kept(game: Game) -> list[tuple]:
    return [(a.id, a.seq, a.events) for a in round_log(game).actions]


def _names(game: Game) -> dict[int, str]:
    return {s.player: s.name for s in game.seats.all()}


def _afresh(game: Game, me, names: dict[int, str]) -> list[dict]:
    """The round's lines as `me` reads them, its whole committed record narrated anew."""
    actions = Action.objects.filter(game=game, round_number=game.round_number).order_by("seq")
    return log_lines(list(actions), me, names)


def test_each_move_reads_and_narrates_only_the_actions_since(game, monkeypatch,
                                                              django_assert_num_queries):
    names = _names(game)
    spectator_lines(round_log(game), names, game.seq)
    narrated = []
    told = narration.lines_for

    def counting(actions, reader, names):
        narrated.extend(action.seq for action in actions)
        return told(actions, reader, names)

    monkeypatch.setattr(narration, "lines_for", counting)
    for _ in range(6):
        before = game.seq
        game = _move(game)
        with django_assert_num_queries(1):
            log = round_log(game)
        lines = spectator_lines(log, names, game.seq)
        assert [a.seq for a in log.actions if a.seq > before] == narrated
        # What the whole round narrated afresh would read, line for line.
        assert lines == _afresh(game, None, names)
        narrated.clear()
        assert _kept(game) == _committed(game)


def test_each_language_narrates_its_own_lines(game):
    game = _move(_move(game))
    names = _names(game)
    english = spectator_lines(round_log(game), names, game.seq)
    with translation.override("nl"):
        dutch = spectator_lines(round_log(game), names, game.seq)
        assert dutch == _afresh(game, None, names)
    assert [line["seq"] for line in dutch] == [line["seq"] for line in english]
    assert [line["text"] for line in dutch] != [line["text"] for line in english]


def test_lines_stop_at_the_version_being_drawn(game):
    earlier = _move(game)
    seq = earlier.seq
    later = _move(Game.objects.get(pk=game.pk))
    names = _names(later)
    lines = spectator_lines(round_log(later), names, seq)
    assert lines and all(line["seq"] <= seq for line in lines)
    assert max(line["seq"] for line in spectator_lines(round_log(later), names, later.seq)) > seq


def test_a_move_rolled_back_after_it_was_read_is_forgotten(game):
    game = _move(game)
    round_log(game)

    class Undone(Exception):
        pass

    with pytest.raises(Undone), transaction.atomic():
        _move(game)
        assert len(_kept(game)) == len(_committed(game))
        raise Undone
    # The next move takes the undone one's place in the record (a new row, the same seq).
    game = _move(Game.objects.get(pk=game.pk))
    assert _kept(game) == _committed(game)


def test_the_last_action_amended_is_read_again(game):
    game = _move(game)
    round_log(game)
    last = Action.objects.filter(game=game).order_by("seq").last()
    last.events = last.events + [{"type": "game_over", "winner": 1}]
    last.save(update_fields=["events"])
    assert round_log(game).actions[-1].events == last.events


def test_a_full_store_begins_afresh(game, monkeypatch):
    monkeypatch.setattr(narration, "_rounds_read", {})
    monkeypatch.setattr(narration, "ROUNDS_KEPT", 2)
    other = start_table(make_user("rl-eva"), [make_user("rl-fay")], bots=2, seed=5)
    third = start_table(make_user("rl-gus"), [make_user("rl-hal")], bots=2, seed=6)
    round_log(game), round_log(other)
    assert len(narration._rounds_read) == 2
    round_log(third)
    assert list(narration._rounds_read) == [(third.pk, third.round_number)]
    assert _kept(game) == _committed(game)


def test_a_snapshot_is_read_once_and_a_new_one_afresh(game):
    """A move's answer asks for the table's state several times: read once per snapshot,
    never the one before it."""
    state = game.engine_state()
    assert game.engine_state() is state
    seat = waiting_humans(game)[0]
    act_as(game, seat, first(legal(game, seat)))
    game.refresh_from_db()
    moved = game.engine_state()
    assert moved is not state and moved.to_json() == game.state != state.to_json()
    game.keep_state(state)
    assert game.engine_state() is state and game.state == state.to_json()


def test_the_one_left_holding_cards_finishes_last_not_out_of_cards(db):
    """The round ends when all but one are out: that one still holds cards, and the log,
    the record and the "just now" line say they finish last, not that they ran out."""
    from tests.helpers import play_until

    host = make_user("host")
    game = start_table(host, bots=3, options={"rounds": 2})
    game = play_until(game, lambda g: g.round_number == 2)
    lines = [line["text"] for line in narration.lines_for(
        list(Action.objects.filter(game=game, round_number=1).order_by("seq")), None,
        {s.player: s.name for s in game.seats_with_users()})]
    outs = [text for text in lines if "finishes" in text]
    assert len(outs) == 4
    assert all("is out of cards" in text for text in outs[:3])
    assert "is left holding cards and finishes last, in place 4" in outs[3]
