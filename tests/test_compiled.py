"""A compiled query gives what the same QuerySet gives, compiles its SQL once per process
and database, and refuses what would make it run other SQL than it compiled."""

import threading

import pytest
from django.db import connection, connections, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from chat.models import Message
from dalmuti_site.compiled import CompiledQuery
from games.models import Action, Game, Seat
from games.read import access
from tests.helpers import (
    act_as,
    first,
    legal,
    make_user,
    sql_compiles,
    start_table,
    waiting_humans,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def tables(db):
    people = [make_user(f"cq-{name}") for name in ("ada", "bram", "cato", "dirk", "eva")]
    one = start_table(people[0], people[1:4], options={"rounds": 3}, seed=5)
    other = start_table(people[4], people[:3], options={"rounds": 3}, seed=6)
    for game in (one, other):
        game.refresh_from_db()
        seat = waiting_humans(game)[0]
        act_as(game, seat, first(legal(game, seat)))
    return Game.objects.get(pk=one.pk), Game.objects.get(pk=other.pk)


def test_the_rows_are_the_querysets_with_their_joins(tables):
    seats = CompiledQuery(
        lambda game_id: Seat.objects.filter(game_id=game_id).select_related("user"))
    for game in tables:
        expected = list(game.seats.select_related("user"))
        found = seats(game.pk)
        assert [s.pk for s in found] == [s.pk for s in expected]
        assert [s.__dict__.keys() for s in found] == [s.__dict__.keys() for s in expected]
        # The users came with the seats: reading them asks nothing more.
        with CaptureQueriesContext(connection) as asked:
            assert [s.user.username if s.user_id else None for s in found] == \
                [s.user.username if s.user_id else None for s in expected]
        assert len(asked) == 0


def test_values_and_arguments_in_their_places(tables):
    record = CompiledQuery(
        lambda game_id, round_number, seq: Action.objects
        .filter(game_id=game_id, round_number=round_number, seq__gte=seq)
        .order_by("seq").values_list("seq", "events", named=True))
    for game in tables:
        for since in (0, 1, game.seq, game.seq + 1):
            expected = list(Action.objects.filter(
                game=game, round_number=game.round_number, seq__gte=since)
                .order_by("seq").values_list("seq", "events", named=True))
            assert record(game.pk, game.round_number, since) == expected
        assert record(game.pk, game.round_number + 5, 0) == []


def test_compiled_once(tables, monkeypatch):
    seats = CompiledQuery(
        lambda game_id: Seat.objects.filter(game_id=game_id).select_related("user"))
    compiles = sql_compiles(monkeypatch)
    seats(tables[0].pk)
    assert compiles == [Seat]
    with CaptureQueriesContext(connection) as asked:
        for game in (*tables, *tables):
            seats(game.pk)
    assert compiles == [Seat]
    assert len(asked) == 4


def test_the_converters_are_found_once_and_convert_as_the_querysets(tables, monkeypatch):
    """Which columns need converting (a JSON document, a time in the active zone...) is
    found with the SQL, not again at every call; the values come out as the QuerySet's."""
    seats = CompiledQuery(
        lambda game_id: Seat.objects.filter(game_id=game_id).select_related("user", "game"))
    record = CompiledQuery(
        lambda game_id: Action.objects.filter(game_id=game_id).order_by("seq")
        .values_list("seq", "events", "created", named=True))
    def shown(seats):
        return [(s.pk, s.joined, s.user and s.user.date_joined, s.game.state, s.game.options)
                for s in seats]

    expected = {game.pk: (shown(game.seats.select_related("user", "game")), list(
        Action.objects.filter(game=game).order_by("seq")
        .values_list("seq", "events", "created", named=True))) for game in tables}
    seats(tables[0].pk)
    record(tables[0].pk)
    found = []
    finding = type(connection.ops).get_db_converters
    monkeypatch.setattr(type(connection.ops), "get_db_converters",
                        lambda ops, expression: found.append(expression) or finding(
                            ops, expression))
    for game in tables:
        assert (shown(seats(game.pk)), record(game.pk)) == expected[game.pk]
    assert found == []


def test_the_pages_seat_and_the_tables_seats_are_read_without_compiling(tables, monkeypatch,
                                                                       rf):
    game = tables[0]
    seat = game.seats.exclude(user=None).select_related("user").first()
    request = rf.get("/")
    request.user = seat.user
    access.seat_for_user(request, game.pk)
    access.seat_to_act(request, game.pk)
    game.seats_with_users()
    in_order = [s.pk for s in game.seats.all()]
    compiles = sql_compiles(monkeypatch)
    found_game, found = access.seat_for_user(request, game.pk)
    assert (found_game.pk, found.pk) == (game.pk, seat.pk)
    assert access.seat_to_act(request, game.pk).pk == seat.pk
    seats = game.seats_with_users()
    assert [s.pk for s in seats] == in_order
    assert all(s.game is game for s in seats)
    assert compiles == []


def test_only_integers(tables):
    seats = CompiledQuery(lambda game_id: Seat.objects.filter(game_id=game_id))
    with pytest.raises(TypeError):
        seats(None)
    with pytest.raises(TypeError):
        seats(tables[0])
    with pytest.raises(TypeError):
        seats()


def test_an_argument_used_twice_or_never_is_refused():
    with pytest.raises(ValueError):
        CompiledQuery(lambda game_id: Seat.objects.filter(game_id=game_id, player=game_id))(1)
    with pytest.raises(ValueError):
        CompiledQuery(lambda game_id: Seat.objects.all())(1)


def _in_a_thread(call):
    """What `call` returns or raises in a thread of its own: a thread has its own
    connection, in autocommit (outside the test's transaction)."""
    outcome = []

    def run():
        own = connections["default"]
        try:
            outcome.append(("returned", call(own)))
        except Exception as error:  # noqa: BLE001 - compared by the caller
            outcome.append(("raised", type(error)))
        finally:
            own.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    return outcome[0]


def test_a_lock_outside_a_transaction_is_refused_where_django_refuses_it(tables):
    locked = CompiledQuery(lambda game_id: Game.objects.select_for_update().filter(pk=game_id))
    with transaction.atomic():
        assert [g.pk for g in locked(tables[0].pk)] == [tables[0].pk]
    plain = _in_a_thread(
        lambda own: len(Game.objects.select_for_update().filter(pk=tables[0].pk)))
    compiled = _in_a_thread(lambda own: len(locked(tables[0].pk)))
    assert compiled[0] == plain[0]
    if connection.features.has_select_for_update:
        assert compiled == ("raised", TransactionManagementError)


def test_each_thread_asks_on_its_own_connection(tables):
    """The compiled query keeps no connection: a thread's call runs on that thread's."""
    seats = CompiledQuery(lambda game_id: Seat.objects.filter(game_id=game_id))
    seats(tables[0].pk)
    mine = connections["default"]

    def asked(own):
        with CaptureQueriesContext(own) as captured:
            seats(tables[0].pk)
        return own is not mine, len(captured)

    assert _in_a_thread(asked) == ("returned", (True, 1))


def test_the_locked_table_is_read_as_get_reads_it(tables):
    with transaction.atomic():
        assert Game.locked(tables[1].pk) == Game.objects.get(pk=tables[1].pk)
        assert Game.locked(str(tables[1].pk)).pk == tables[1].pk
        with pytest.raises(Game.DoesNotExist):
            Game.locked(max(g.pk for g in tables) + 1000)
        assert Game.locked_if_there(tables[0].pk) == tables[0]
        assert Game.locked_if_there(max(g.pk for g in tables) + 1000) is None


def test_a_players_devices_are_asked_after_without_compiling(make_user, monkeypatch):
    """Every new turn asks whether its player switched a device on for push."""
    from games.commands.notifications import channels_for
    from games.models import Notification
    from push.models import PushSubscription

    player = make_user("devices")
    player.notify_by = player.Channel.PUSH
    player.save()
    channels_for(player)
    compiles = sql_compiles(monkeypatch)
    assert channels_for(player) == []
    PushSubscription.objects.create(user=player, endpoint="https://push.example/1",
                                    p256dh="k", auth="a")
    assert channels_for(player) == [Notification.Channel.PUSH]
    assert compiles == []


def test_first_calls_at_once_compile_once_and_one_at_a_time(tables, monkeypatch):
    """A web process's first requests come at once, each in its thread. Two threads that
    compiled one query together worked on the same Django query, one resetting the joins'
    counts while the other read them, and the SQL kept (for the life of the process) could
    lack a join: every table page answered 500. One compiles; the others wait for it."""
    newest = CompiledQuery(
        lambda game_id: Message.objects.filter(game_id=game_id).order_by("-pk")
        .select_related("seat__user")[:20])
    inside, together, compiled = [], [], []
    other_came_in = threading.Event()
    compile_now = CompiledQuery._compile

    def watched(self, proto, alias):
        compiled.append(alias)
        inside.append(alias)
        if len(inside) > 1:
            together.append(len(inside))
            other_came_in.set()
        else:
            # Long enough for a second thread to come in, were it let in.
            other_came_in.wait(timeout=1)
        try:
            return compile_now(self, proto, alias)
        finally:
            inside.pop()

    monkeypatch.setattr(CompiledQuery, "_compile", watched)
    start = threading.Barrier(2)
    found = []

    def first_request():
        try:
            start.wait()
            found.append([m.pk for m in newest(tables[0].pk)])
        finally:
            connections["default"].close()

    threads = [threading.Thread(target=first_request) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert together == [] and len(compiled) == 1
    # Both answered, as the QuerySet answers (the threads read outside this test's
    # transaction, where the table has no talk yet).
    assert found == [[], []]
    expected = list(Message.objects.filter(game_id=tables[0].pk).order_by("-pk")
                    .select_related("seat__user")[:20])
    assert newest(tables[0].pk) == expected
