"""Nobody learns who holds both jesters before a revolution is declared: not from a page,
not from the version a page polls with, not from the poll's status; neither a player nor
somebody watching by link.

The same table is played in several worlds that differ only in where the jesters are
and in what the holder (a bot, or a human who declines at once, or a human who has not
decided yet) does about them. A player who holds neither jester polls the table after
every step, as an open page would; what they observe — every answer that is not "nothing
changed", byte for byte, and the versions in it — must be the same in every world.
"""

import dataclasses
import re
from datetime import UTC, datetime

import pytest
import time_machine
from django.test import Client

from games import commands, engine
from games.commands.base import save_state
from games.models import Game, Seat
from tests.engine.helpers import give_both_jesters, one_jester_each
from tests.helpers import make_user, start_table

pytestmark = pytest.mark.django_db

# The form tokens, and the table talk's token for the next message: random, drawn afresh
# for every page whatever the cards.
CSRF = re.compile(r'(csrfmiddlewaretoken" value="|X-CSRFToken": "|name="token" value=")[^"]+')
# Each table's join link is a random token of its own, drawn before any card is dealt.
JOIN_LINK = re.compile(r"(/join/)[A-Za-z0-9_-]+/")
FROZEN = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
# Seats by position in the round: 0 Great Dalmuti, 1 Lesser Dalmuti, 2 Merchant (the
# observer), 3 Lesser Peon, 4 Greater Peon.
BOT_SEATS = (0, 1)
OBSERVER_SEAT = 2
HUMAN_SEATS = (3, 4)


@pytest.fixture
def people(db):
    return {name: make_user(f"js-{name}") for name in ("host", "a", "b")}


def _seat_people(game: Game, people: dict) -> dict[int, Seat]:
    """Put the bots, the observer and the two other humans at the positions named above,
    whatever the seating draw gave (only who sits where changes, not the cards)."""
    state = game.engine_state()
    seats = {s.player: s for s in game.seats.all()}
    wanted = {
        state.seats[0]: ("bot", "Ada"), state.seats[1]: ("bot", "Bram"),
        state.seats[2]: ("user", people["host"]), state.seats[3]: ("user", people["a"]),
        state.seats[4]: ("user", people["b"]),
    }
    for player, (kind, who) in wanted.items():
        seat = seats[player]
        seat.user = who if kind == "user" else None
        seat.bot_level = "" if kind == "user" else "basic"
        seat.bot_name = "" if kind == "user" else who
    # Two steps: a swap in one statement would meet itself in the one-seat-per-user rule.
    Seat.objects.filter(game=game).update(user=None, bot_level="basic", bot_name="?")
    Seat.objects.bulk_update(seats.values(), ["user", "bot_level", "bot_name"])
    return {position: seats[state.seats[position]] for position in range(5)}


def _deal(game: Game, hands: list[list[int]]) -> None:
    state = game.engine_state()
    rnd = engine.Round.start(hands, state.options, first_round=False, seed=3)
    state = dataclasses.replace(state, round=rnd, round_number=2)
    game.awaiting = {}
    save_state(game, state)


def _base_hands() -> list[list[int]]:
    """A deal whose jesters sit with the two bots, one each: the observer's hand then
    stays the same whichever non-observer seat the jesters are moved to."""
    return one_jester_each(engine.deal(5, engine.Options(), 11), 0, 1)


class Observer:
    """An open page of the player at OBSERVER_SEAT: polls with the version it shows."""

    def __init__(self, client, game: Game, user):
        self.client, self.game, self.user = client, game, user
        self.version = None
        self.seen: list[tuple[int, list[str]]] = []

    def _pages(self) -> list[str]:
        pk = self.game.pk
        pages = [
            self.client.get(f"/t/{pk}/").content.decode(),
            self.client.get(f"/t/{pk}/poll/?v=-1&me=").content.decode(),
            self.client.get(f"/t/{pk}/log/").content.decode(),
        ]
        # What somebody watching by link sees (another browser: no session).
        token = self.game.watch_token
        watcher = Client()
        watched = [watcher.get(f"/watch/{token}/{path}") for path in ("", "poll/?v=-1", "log/")]
        assert [answer.status_code for answer in watched] == [200, 200, 200]
        pages += [answer.content.decode() for answer in watched]
        return [JOIN_LINK.sub(r"\1*/", CSRF.sub(r"\1*", page))
                .replace(f"/{pk}/", "/N/").replace(token, "W") for page in pages]

    def look(self) -> None:
        self.client.force_login(self.user)
        if self.version is not None:
            answer = self.client.get(f"/t/{self.game.pk}/poll/?v={self.version}&me=x")
            if answer.status_code == 204:
                # "Nothing changed" must be true: the page would be the same.
                assert self._pages() == self.seen[-1][1]
                return
        self.game.refresh_from_db()
        self.version = self.game.version
        self.seen.append((self.version, self._pages()))


def _bots_move(game: Game, observer: Observer) -> None:
    """The bots move until the first lead is due (the lead itself depends on the cards)."""
    while game.engine_state().round.phase != "play" and commands.play_bot_move(game.pk):
        game.refresh_from_db()
        observer.look()


def _play_world(client, people, holder: int | None, human_holder: str,
                window: int = 0) -> list:
    """The tax phase of one deal, up to the first lead, as the observer sees it; the bots
    that are Dalmutis hold their choice for `window` seconds after the deal (the observer
    looks once more when that time has come)."""
    with time_machine.travel(FROZEN, tick=False) as clock:
        game = start_table(people["host"], [people["a"], people["b"]], bots=2,
                           options={"rounds": 3})
        # The worlds are the same people's later tables, never their first one: the
        # first-table explanation of standing orders would tell the worlds apart (by
        # which ran first), not the jesters.
        game.seats.update(first_game=False)
        commands.set_watchable(game.pk, people["host"], True)
        game.refresh_from_db()
        seats = _seat_people(game, people)
        hands = _base_hands()
        if holder is not None:
            hands = give_both_jesters(hands, holder)
        _deal(game, hands)
        game.refresh_from_db()
        observer = Observer(client, game, people["host"])
        observer.look()
        if holder in HUMAN_SEATS and human_holder == "declines":
            seat = seats[holder]
            commands.act(game.pk, seat.user, engine.Revolution(False),
                         game.awaiting[str(seat.player)][0])
            observer.look()
        if window:
            assert not commands.play_bot_move(game.pk)  # held
            clock.shift(window)
            # The page drawn now shows no time to ask again at (it came): looked at afresh.
            observer.version = None
            observer.look()
        _bots_move(game, observer)
        game.refresh_from_db()
        assert game.engine_state().round.revolution is None
        return observer.seen


@pytest.mark.parametrize("window", [0, 20])
def test_the_jester_holder_cannot_be_told_from_what_others_see(client, people, settings,
                                                                window):
    settings.REVOLUTION_WINDOW_SECONDS = window
    control = _play_world(client, people, None, "", window)
    assert len(control) >= 2  # the deal, then the Dalmutis' choices and the first lead
    for holder in BOT_SEATS + HUMAN_SEATS:
        world = _play_world(client, people, holder, "declines", window)
        assert [v for v, _ in world] == [v for v, _ in control], f"holder at seat {holder}"
        assert world == control, f"holder at seat {holder}"


@pytest.mark.parametrize("window", [0, 20])
def test_the_table_never_waits_on_an_undecided_holder(client, people, settings, window):
    """Once the Dalmutis have chosen, the taxes are paid as they are where nobody holds
    both jesters: a table that waited on the holder's decision would tell that somebody
    holds them (and, among the people the table is not seen to wait for, who). With the
    bots' hold, the pages tell the same time to ask again in every world."""
    settings.REVOLUTION_WINDOW_SECONDS = window
    control = _play_world(client, people, None, "", window)
    for holder in HUMAN_SEATS:
        world = _play_world(client, people, holder, "undecided", window)
        assert [v for v, _ in world] == [v for v, _ in control], f"holder at seat {holder}"
        assert world == control, f"holder at seat {holder}"


def _first_round_world(client, people, gp_holds_both: bool) -> list:
    """A first round without taxes, the Greater Peon (a human) not yet decided."""
    with time_machine.travel(FROZEN, tick=False):
        game = start_table(people["host"], [people["a"], people["b"]], bots=2,
                           options={"rounds": 3, "first_round_taxes": False})
        game.seats.update(first_game=False)  # as in _play_world
        commands.set_watchable(game.pk, people["host"], True)
        game.refresh_from_db()
        _seat_people(game, people)
        hands = _base_hands()
        if gp_holds_both:
            hands = give_both_jesters(hands, 4)
        state = game.engine_state()
        rnd = engine.Round.start(hands, state.options, first_round=True, seed=3)
        game.awaiting = {}
        save_state(game, dataclasses.replace(state, round=rnd))
        game.refresh_from_db()
        observer = Observer(client, game, people["host"])
        observer.look()
        _bots_move(game, observer)
        return observer.seen


def test_a_first_round_without_taxes_does_not_tell_whether_the_greater_peon_may_rise(
    client, people
):
    holds = _first_round_world(client, people, True)
    does_not = _first_round_world(client, people, False)
    assert holds == does_not
    # The table is waiting for the Greater Peon in both, by name.
    assert "Waiting for Js-B" in holds[-1][1][0]
