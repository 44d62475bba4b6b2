"""A person dealt both jesters may call a revolution until the Dalmutis have chosen what
they give back, never after: the table does not wait on that decision alone (it would
tell everybody that somebody holds them). The Dalmutis' choices that nobody makes by hand
(a bot's, a standing order's) are held for a while after the deal, so that the holder has
the time to decide, at every table where a person plays, whether anybody holds both
jesters or not."""

import dataclasses
import time
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import transaction

from games import commands, engine
from games.commands.base import save_state
from games.commands.moves import run_automatic
from games.core.clock import dalmutis_hold_until, revolution_window
from games.models import Action, Game, Seat
from games.views import updates
from tests.engine.helpers import give_both_jesters, one_jester_each
from tests.helpers import act_as, make_user, play_until, start_table

WINDOW = 20
DEALT = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
# Positions in the round: the bots are the Dalmutis, Ana the Merchant, Bo the Lesser
# Peon, Cy the Greater Peon.
DALMUTIS = (0, 1)


@pytest.fixture
def window(settings):
    settings.REVOLUTION_WINDOW_SECONDS = WINDOW


def _table(holder: int | None, first_round: bool = False, people_at=(2, 3, 4),
           world: str = "", orders: tuple[int, ...] = (), level: str = "basic",
           revolution_orders: tuple[int, ...] = ()) -> tuple[Game, dict[int, object]]:
    """A table of five: bots of `level` at the other positions, people at `people_at`
    (those at `orders` with the standing order "give back my worst cards", those at
    `revolution_orders` with "call a revolution as a Peon"), dealt a round
    whose both jesters are at `holder` (None: one each with the two Dalmutis), as a move
    deals one; a first round without taxes if `first_round`."""
    people = [make_user(name + world, display_name=name.title())
              for name in ("ana", "bo", "cy")[:len(people_at)]]
    options = {"first_round_taxes": False} if first_round else {}
    game = start_table(people[0], people[1:], bots=5 - len(people), options=options)
    state = game.engine_state()
    by_user = {s.user_id: s.player for s in game.seats.all() if s.user_id}
    bots = [s.player for s in game.seats.all() if not s.user_id]
    seats = [None] * 5
    for position, user in zip(people_at, people, strict=True):
        seats[position] = by_user[user.pk]
    for position in range(5):
        if seats[position] is None:
            seats[position] = bots.pop()
    game.seats.filter(user=None).update(bot_level=level)
    for position in orders:
        Seat.objects.filter(game=game, player=seats[position]).update(auto_tax_worst=True)
    for position in revolution_orders:
        Seat.objects.filter(game=game, player=seats[position]).update(auto_revolution=True)
    hands = engine.deal(5, state.options, 11)
    hands = one_jester_each(hands, 0, 1) if holder is None else give_both_jesters(hands, holder)
    rnd = engine.Round.start([sorted(h) for h in hands], state.options,
                             first_round=first_round, seed=3)
    game.awaiting = {}
    with transaction.atomic():
        dealt = dataclasses.replace(state, seats=tuple(seats), round=rnd,
                                    round_number=1 if first_round else 2)
        save_state(game, run_automatic(game, dealt))
        commands.wake_bots(game)
    game.refresh_from_db()
    return game, dict(zip(people_at, people, strict=True))


def _revolution_records(game: Game) -> list[tuple[str, bool]]:
    return [(a.by, a.payload["declare"]) for a in game.actions.filter(kind="revolution")]


@pytest.mark.django_db
class TestTheHold:
    def test_the_bots_hold_their_choice_whether_or_not_anybody_holds_both_jesters(
            self, window):
        holds = []
        for holder in (None, 2, 4):
            with time_machine.travel(DEALT, tick=False):
                game, _people = _table(holder, world=str(holder))
                holds.append(dalmutis_hold_until(game, game.engine_state(),
                                                 game.seats.all()))
                assert commands.play_bot_move(game.pk) is False
            game.refresh_from_db()
            assert game.engine_state().round.phase == "taxes"
        assert holds == [DEALT + timedelta(seconds=WINDOW)] * 3

    def test_a_holder_calls_a_great_revolution_while_the_bots_hold(self, window):
        with time_machine.travel(DEALT, tick=False) as clock:
            game, people = _table(4)
            clock.shift(WINDOW - 1)
            act_as(game, game.seats.get(user=people[4]), {"type": "revolution",
                                                           "declare": True})
        game.refresh_from_db()
        assert game.engine_state().round.records.revolution == (4, True)
        assert _revolution_records(game) == [("player", True)]

    def test_once_the_bots_have_chosen_the_holder_has_kept_quiet(self, client, window):
        with time_machine.travel(DEALT, tick=False) as clock:
            game, people = _table(2)
            client.force_login(people[2])
            offer = client.get(f"/t/{game.pk}/").content.decode()
            assert "Declare a revolution" in offer
            assert "You may decide until the Dalmutis have chosen" in offer
            clock.shift(WINDOW)
            while commands.play_bot_move(game.pk):
                pass
        game.refresh_from_db()
        rnd = game.engine_state().round
        assert rnd.phase != "taxes" and rnd.records.revolution is None
        assert _revolution_records(game) == [("closed", False)]
        holder_seat = game.seats.get(user=people[2])
        assert not game.wait_for(holder_seat.player) or not game.wait_for(
            holder_seat.player).secret
        holder_seat.refresh_from_db()
        assert holder_seat.timeouts_in_row == 0  # no missed turn
        said = ("The taxes are due: the Dalmutis have chosen what they give back, and you "
                "kept your two Jesters to yourself.")
        # Signed in again today: the session made on the day of the deal has lapsed since.
        client.force_login(people[2])
        assert said in client.get(f"/t/{game.pk}/log/").content.decode()
        client.force_login(people[3])
        assert "Jesters to yourself" not in client.get(f"/t/{game.pk}/log/").content.decode()

    def test_a_decision_sent_after_the_taxes_is_refused_as_too_late(self, client, window):
        with time_machine.travel(DEALT, tick=False) as clock:
            game, people = _table(4)
            holder = game.seats.get(user=people[4])
            token = game.wait_for(holder.player).token
            clock.shift(WINDOW)
            while commands.play_bot_move(game.pk):
                pass
            game.refresh_from_db()
            before = game.seq
            client.force_login(people[4])
            answer = client.post(f"/t/{game.pk}/act/", {
                "action": "revolution", "declare": "yes", "turn": token},
                headers={"HX-Request": "true"})
        assert answer.status_code == 409
        assert "Too late: the Dalmutis had chosen" in answer.content.decode()
        game.refresh_from_db()
        assert game.seq == before and game.engine_state().round.records.revolution is None
        # Anybody else's forged decision is told what it always is.
        client.force_login(people[3])
        other = client.post(f"/t/{game.pk}/act/", {
            "action": "revolution", "declare": "yes", "turn": token},
            headers={"HX-Request": "true"})
        assert other.status_code == 409
        assert "Too late" not in other.content.decode()

    def test_the_page_that_asks_when_the_hold_ends_has_the_bots_choose(
            self, client, window, django_capture_on_commit_callbacks, eager_tasks):
        """Without a broker nothing else wakes them on time: every open page is told when
        (the same for everybody) and asks then."""
        with time_machine.travel(DEALT, tick=False) as clock:
            game, people = _table(None)
            client.force_login(people[3])
            page = client.get(f"/t/{game.pk}/").content.decode()
            ends = int((DEALT + timedelta(seconds=WINDOW)).timestamp())
            assert f'id="changes" name="t" value="{ends}"' in page
            game.refresh_from_db()
            assert game.engine_state().round.phase == "taxes"
            clock.shift(WINDOW)
            with django_capture_on_commit_callbacks(execute=True):
                client.get(f"/t/{game.pk}/")
        game.refresh_from_db()
        assert game.engine_state().round.phase != "taxes"
        assert game.actions.filter(kind="give_back", by="bot").count() == 2

    def test_a_person_dalmuti_who_gave_back_first_is_not_waited_for(self, window):
        """A Dalmuti dealt both jesters may choose the cards first (the page asks the
        revolution first, a hand-made request need not): once both Dalmutis have chosen,
        that decision too is over."""
        with time_machine.travel(DEALT, tick=False):
            game, people = _table(1, people_at=(1, 2, 3))
            seat = game.seats.get(user=people[1])
            view = game.engine_state().view(seat.player)
            gives = [a for a in view["legal_actions"] if a["type"] == "give_back"]
            act_as(game, seat, gives[0])
            game.refresh_from_db()
            assert seat.player in game.engine_state().awaiting_players
            assert seat.player not in game.engine_state().publicly_awaited
        with time_machine.travel(DEALT + timedelta(seconds=WINDOW), tick=False):
            while commands.play_bot_move(game.pk):
                pass
        game.refresh_from_db()
        assert game.engine_state().round.phase != "taxes"
        assert _revolution_records(game) == [("closed", False)]

    def test_the_greater_peon_asked_in_a_first_round_without_taxes_is_waited_for(
            self, window, settings):
        """There the question is public (asked every time), so the table waits for it."""
        with time_machine.travel(DEALT, tick=False) as clock:
            game, people = _table(4, first_round=True)
            assert dalmutis_hold_until(game, game.engine_state(), game.seats.all()) is None
            clock.shift(3600)
            assert commands.play_bot_move(game.pk) is False
        game.refresh_from_db()
        assert game.engine_state().round.phase == "taxes"
        assert _revolution_records(game) == []

    def test_standing_orders_to_give_back_are_held_as_the_bots_are(self, window):
        """People who are Dalmutis and let their standing order give back: made at the
        deal, those choices would close the holder's decision before it was asked."""
        with time_machine.travel(DEALT, tick=False) as clock:
            game, people = _table(2, people_at=(0, 1, 2), orders=(0, 1))
            assert game.actions.filter(kind="give_back").count() == 0
            assert set(game.engine_state().publicly_awaited) == {
                game.seats.get(user=people[0]).player, game.seats.get(user=people[1]).player}
            assert commands.end_of_hold(game.pk) is False  # not yet
            clock.shift(WINDOW - 1)
            act_as(game, game.seats.get(user=people[2]), {"type": "revolution",
                                                           "declare": False})
            clock.shift(1)
            assert commands.end_of_hold(game.pk) is True
        game.refresh_from_db()
        assert list(game.actions.filter(kind="give_back").values_list("by", flat=True)) == [
            "standing_order", "standing_order"]
        assert _revolution_records(game) == [("player", False)]
        assert game.engine_state().round.phase != "taxes"

    def test_the_sweep_ends_a_hold_nobody_ended(self, window, eager_tasks, settings,
                                                 django_capture_on_commit_callbacks):
        """The work sent for the end of the hold was lost and no page asked."""
        from games import tasks

        settings.CELERY_TASK_ALWAYS_EAGER = True
        with time_machine.travel(DEALT, tick=False) as clock:
            game, _people = _table(4, people_at=(0, 1, 4), orders=(0, 1))
            clock.shift(WINDOW - 1)
            assert not commands.hold_due(Game.objects.get(pk=game.pk))
            clock.shift(3600)
            assert commands.hold_due(Game.objects.get(pk=game.pk))
            with django_capture_on_commit_callbacks(execute=True):
                tasks.sweep()
        game.refresh_from_db()
        assert game.engine_state().round.phase != "taxes"
        assert _revolution_records(game) == [("closed", False)]

    def test_a_bot_holder_decides_at_once_at_the_skilled_level(self, window, monkeypatch):
        """Its decision is made inside the move that ends the taxes, whose answer anybody
        may time: the expert's half a second of sampling would tell that a bot holds both
        jesters."""
        from games.commands import moves

        levels = []
        decide = moves._decide

        def spy(game, seat, view, level=None):
            levels.append((level or seat.bot_to_play,
                           {a["type"] for a in view["legal_actions"]}))
            return decide(game, seat, view, level)

        monkeypatch.setattr(moves, "_decide", spy)
        with time_machine.travel(DEALT, tick=False) as clock:
            game, _people = _table(2, people_at=(3, 4), level="expert")
            clock.shift(WINDOW)
            while commands.play_bot_move(game.pk) and game.engine_state().round.phase == "taxes":
                game.refresh_from_db()
        assert ("skilled", {"revolution"}) in levels
        assert not [kinds for level, kinds in levels
                    if level == "expert" and "revolution" in kinds]

    def test_the_holder_is_promised_no_time_the_dalmutis_may_cut_short(self, client,
                                                                       window):
        with time_machine.travel(DEALT, tick=False):
            game, people = _table(2)
            client.force_login(people[2])
            page = client.get(f"/t/{game.pk}/").content.decode()
            assert "You may decide until the Dalmutis have chosen" in page
            assert "Your time to decide runs out" not in page
            assert game.wait_for(game.seats.get(user=people[2]).player).deadline is not None

    def test_no_hold_where_only_bots_play(self, window):
        with time_machine.travel(DEALT, tick=False):
            game, _people = _table(None)
            seats = list(game.seats.all())
            assert dalmutis_hold_until(game, game.engine_state(), seats) is not None
            for seat in seats:
                seat.stand_in = True  # the bots play every seat, the people's too
            assert dalmutis_hold_until(game, game.engine_state(), seats) is None


@pytest.mark.django_db
def test_the_window_follows_the_tables_pace(settings):
    settings.REVOLUTION_WINDOW_SECONDS = 20
    game = Game(turn_limit=0)
    assert revolution_window(game) == timedelta(seconds=20)
    game.turn_limit = 60
    assert revolution_window(game) == timedelta(seconds=20)
    game.turn_limit = 600
    assert revolution_window(game) == timedelta(seconds=150)
    game.turn_limit = 3 * 24 * 3600
    assert revolution_window(game) == timedelta(hours=1)
    settings.REVOLUTION_WINDOW_SECONDS = 0
    assert revolution_window(game) == timedelta(0)


@pytest.mark.postgres
@pytest.mark.celery_worker
def test_a_real_worker_gets_the_bots_choice_when_the_hold_ends(celery_worker, settings):
    """The work is handed to the broker for the end of the hold: the worker takes it
    then, not before (the moves' times in the record say when)."""
    settings.REVOLUTION_WINDOW_SECONDS = 2
    game, _people = _table(None)
    hold_ends = dalmutis_hold_until(game, game.engine_state(), game.seats.all())
    assert hold_ends is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if game.actions.filter(kind="give_back").count() == 2:
            break
        time.sleep(0.1)
    made = list(game.actions.filter(kind="give_back").values_list("created", flat=True))
    assert len(made) == 2
    assert min(made) >= hold_ends
    assert _revolution_records(game) == []
    assert Action.objects.filter(game=game, kind="revolution").count() == 0


@pytest.mark.django_db
class TestAStandingOrderCallsIt:
    """"Call a revolution when I am dealt both Jesters as a Peon": a player who cannot be
    there in time says beforehand what they would do. A revolution tells itself, so the
    order acts at once at the deal, and nothing waits for it."""

    @pytest.mark.parametrize(("holder", "great"), [(3, False), (4, True)])
    def test_a_peon_dealt_both_jesters_calls_it_at_the_deal(self, client, window, holder,
                                                             great):
        with time_machine.travel(DEALT, tick=False):
            game, people = _table(holder, revolution_orders=(2, 3, 4), world=str(holder))
        rnd = game.engine_state().round
        assert rnd.records.revolution == (holder, great)
        assert rnd.phase != "taxes"
        assert _revolution_records(game) == [("standing_order", True)]
        assert game.actions.filter(kind="give_back").count() == 0
        client.force_login(people[holder])
        mine = client.get(f"/t/{game.pk}/log/").content.decode()
        assert "You revealed both Jesters by your standing order" in mine
        client.force_login(people[2])
        theirs = client.get(f"/t/{game.pk}/log/").content.decode()
        assert "reveals both Jesters: a" in theirs
        assert "standing order" not in theirs

    def test_a_merchant_dealt_both_jesters_is_asked_as_ever(self, window):
        with time_machine.travel(DEALT, tick=False):
            game, people = _table(2, revolution_orders=(2, 3, 4))
        rnd = game.engine_state().round
        assert rnd.phase == "taxes" and rnd.records.revolution is None
        holder = game.seats.get(user=people[2])
        assert game.wait_for(holder.player).secret
        assert _revolution_records(game) == []

    def test_without_the_order_a_peon_decides_for_themselves(self, window):
        with time_machine.travel(DEALT, tick=False):
            game, people = _table(4, revolution_orders=(2, 3))
        assert game.engine_state().round.records.revolution is None
        assert game.wait_for(game.seats.get(user=people[4]).player).secret

    def test_set_while_deciding_it_calls_the_revolution_at_once(self, client, window):
        with time_machine.travel(DEALT, tick=False):
            game, people = _table(3)
            client.force_login(people[3])
            answer = client.post(f"/t/{game.pk}/orders/", {
                "auto_pass": "on", "auto_revolution": "on"})
        assert answer.status_code == 302
        game.refresh_from_db()
        assert game.engine_state().round.records.revolution == (3, False)
        assert _revolution_records(game) == [("standing_order", True)]

    def test_the_greater_peon_of_a_first_round_without_taxes_calls_a_great_one(self, window):
        with time_machine.travel(DEALT, tick=False):
            game, _people = _table(4, first_round=True, revolution_orders=(4,))
        assert game.engine_state().round.records.revolution == (4, True)

    def test_the_panel_and_the_profile_offer_it_and_new_seats_take_it(self, client):
        user = make_user("dee", display_name="Dee")
        client.force_login(user)
        profile = client.get("/accounts/profile/").content.decode()
        assert 'name="auto_revolution"' in profile
        client.post("/accounts/profile/standing-orders/", {"auto_pass": "on",
                                                           "auto_revolution": "on"})
        user.refresh_from_db()
        assert user.auto_revolution and not user.auto_tax_worst
        game = start_table(user, [make_user("eve")], bots=2)
        seat = game.seats.get(user=user)
        assert seat.auto_revolution
        page = client.get(f"/t/{game.pk}/").content.decode()
        assert 'name="auto_revolution" checked' in page


@pytest.mark.parametrize(("great", "words"), [(True, "a Great Revolution"),
                                              (False, "a revolution")])
def test_while_you_were_away_says_whose_revolution_and_by_what(great, words):
    from games.read.narration import since_you_looked

    names = {0: "Ada", 3: "Cy"}
    dealt = {"event": {"type": "round_starts", "round": 2}, "by": "", "actor": None}

    def called(by: str) -> list[dict]:
        return [dealt, {"event": {"type": "revolution", "player": 3, "great": great},
                        "by": by, "actor": 3}]

    assert f"you called {words} by your standing order" in since_you_looked(
        called("standing_order"), 3, names)
    assert f"you declared {words}" in since_you_looked(called("player"), 3, names)
    for by in ("standing_order", "player"):
        said = since_you_looked(called(by), 0, names)
        assert f"Cy declared {words}" in said and "standing order" not in said


@pytest.mark.django_db
@pytest.mark.parametrize(("holder", "button", "own", "others"), [
    (3, "Declare a revolution", "Revolution! You revealed both Jesters: no taxes this round.",
     "Revolution! Bo revealed both Jesters: no taxes this round."),
    (4, "Declare a Great Revolution",
     "Great Revolution! You revealed both Jesters: the table is turned upside down",
     "Great Revolution! Cy revealed both Jesters: the table is turned upside down"),
])
def test_a_revolution_is_asked_and_told_in_its_own_words(client, window, holder, button,
                                                         own, others):
    """The button says what the question asks (a Great Revolution for the Greater Peon);
    the news speaks to the holder as "you", and leaves the top of the table once the first
    trick is won (the log and the summary keep it)."""
    with time_machine.travel(DEALT, tick=False):
        game, people = _table(holder)
        client.force_login(people[holder])
        offer = client.get(f"/t/{game.pk}/").content.decode()
        assert f'value="yes">{button}</button>' in offer
        act_as(game, game.seats.get(user=people[holder]), {"type": "revolution",
                                                            "declare": True})

        def news(user) -> str:
            client.force_login(user)
            return " ".join(client.get(f"/t/{game.pk}/").content.decode().split())

        assert own in news(people[holder])
        assert others in news(people[2])
        game.refresh_from_db()
        play_until(game, lambda g: g.engine_state().round.trick)
        assert "revealed both Jesters" in news(people[2])  # the first trick goes on

        def first_trick_won(g: Game) -> bool:
            r = g.engine_state().round
            return len(r.history) > (1 if r.trick else 0)

        play_until(game, first_trick_won)
        assert "revealed both Jesters" not in news(people[holder])
        assert "revealed both Jesters" not in news(people[2])


@pytest.mark.django_db
@pytest.mark.parametrize("holder", [None, 3])
def test_a_bot_dalmuti_held_after_the_deal_shows_when_it_gives_back(client, settings, holder):
    """A day a turn holds the bots' choices an hour: their seats count it down, as a
    person's turn is, so that nobody takes the bot for stuck; alike whoever holds the
    jesters (the hold is the same at every deal)."""
    settings.REVOLUTION_WINDOW_SECONDS = 3600
    with time_machine.travel(DEALT, tick=False):
        game, people = _table(holder, world=str(holder))
        client.force_login(people[2])
        page = client.get(f"/t/{game.pk}/").content.decode()
    held = (DEALT + timedelta(hours=1)).isoformat()
    assert page.count(f'<time class="clock" datetime="{held}" data-left>') == 2
    assert "The bots give back their cards when their seats’ countdown ends" in page
    # Once they have, neither is said.
    with time_machine.travel(DEALT + timedelta(hours=1, seconds=1), tick=False):
        while commands.play_bot_move(game.pk):
            pass
        page = client.get(f"/t/{game.pk}/").content.decode()
    assert held not in page
    assert "countdown ends" not in page


@pytest.mark.django_db
def test_the_update_after_a_revolution_speaks_to_its_holder_as_the_page_does(window):
    """The update every open page of the table shares is drawn from the spectator's view
    (games.views.updates): its news of the revolution names the holder, and reaches the
    holder as "you", as their page says it."""
    with time_machine.travel(DEALT, tick=False):
        game, people = _table(3)
        act_as(game, game.seats.get(user=people[3]), {"type": "revolution", "declare": True})
        game.refresh_from_db()
        before, before_seq = game.version, game.seq
        assert commands.play_bot_move(game.pk)  # the Great Dalmuti, a bot, leads
        game.refresh_from_db()
        assert game.engine_state().round.trick  # the first trick, not won yet
        shared, _own = updates.draw(game, before, before_seq)
    holder = str(game.seats.get(user=people[3]).player)
    news = shared["slots"]["revolution"]
    assert "Revolution! Bo revealed both Jesters" in news["*"]
    assert "Revolution! You revealed both Jesters" in news[holder]
    assert set(news) == {"*", holder}
