"""The update a stream brings an open page is drawn once for the table's pages and shared
(games.views.updates): each page gets exactly what its own poll would have answered, it
holds nothing private (two worlds that differ only in hidden cards draw byte-identical
updates), and a page it does not fit is told to ask."""

import json
import random
import re
from contextlib import contextmanager

import pytest
from django.core.cache import cache
from django.utils import timezone, translation

from games import commands
from games.core import live
from games.core.live import Step
from games.views import updates
from tests.games.test_privacy import CSRF, _shuffle_hidden_cards
from tests.helpers import (
    act_as,
    bots_play_on,
    form_for,
    legal,
    make_user,
    one_instant,
    start_table,
    waiting_humans,
)
from tools.bench_load import fits
from tools.bench_poll import Shown

pytestmark = pytest.mark.django_db


class Page(Shown):
    """An open page of one player: what it shows, read from its answers as its script
    reads them (tools.bench_poll.Shown), and the poll and move it sends."""

    def __init__(self, client, game, user):
        super().__init__()
        self.client, self.game, self.user = client, game, user
        self.read(self._as_me(lambda: client.get(f"/t/{game.pk}/")))

    def _as_me(self, request):
        self.client.force_login(self.user)
        return request()

    def read(self, answer) -> None:
        super().read(answer.content)

    def poll(self, key: str | None = None):
        url = super().poll()
        if key is not None:
            url = url.replace(f"me={self.key}", f"me={key}")
        return self._as_me(lambda: self.client.get(url, headers={"HX-Request": "true"}))

    def move(self, action: dict, turn: int):
        return self._as_me(lambda: self.client.post(
            f"/t/{self.game.pk}/act/", {**form_for(action, turn), **self.looked_query()},
            headers={"HX-Request": "true"}))


@contextmanager
def drawn_alone():
    """Every answer drawn for its page alone, as before pages shared an update."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(updates, "answer", lambda *args, **kwargs: None)
        yield


def _same_page(html: str) -> str:
    """An answer as a page takes it in: whitespace between tags as one space (and each
    answer's own mask of the session's form token as one)."""
    return re.sub(r"\s+", " ", CSRF.sub(r"\1*", html)).strip()


def _pushed(html: str, shown: int) -> str:
    """An update a stream brought, as the page takes it in: its lines numbered after the
    page's own, and the poller swapped in out of band."""
    html = re.sub(r'data-line="\+(\d+)"', lambda m: f'data-line="{shown + int(m[1])}"', html)
    return html.replace('<div id="poller" aria-hidden="true" hx-swap-oob="true"',
                        '<div id="poller" aria-hidden="true"')


def _without_looked(html: str) -> str:
    """An update the stream brought leaves #looked as it is (the script counts lines)."""
    return re.sub(r'<div id="looked".*?</div>', "", html, flags=re.S)


def _event(update: updates.Update, player: int) -> tuple[dict, str]:
    event = update.event_for(player, "test-form-token")
    lines = [line.removeprefix("data: ") for line in event.split("\n") if line.startswith("data")]
    return json.loads(lines[0]), "\n".join(lines[1:])


@pytest.mark.parametrize("seed", range(4))
def test_every_page_gets_what_it_would_be_drawn_alone(client, seed):
    """After each move, from the update drawn once for the table: the mover's answer, each
    other page's stream event (when it fits the page) and each page's poll are what the
    page would be sent were it drawn for it alone."""
    rng = random.Random(seed)
    people = [make_user(f"su{seed}x{i}") for i in range(rng.choice((3, 4, 5)))]
    game = start_table(people[0], people[1:], bots=4 - len(people) + rng.choice((0, 1, 2)),
                       seed=seed,
                       options={"rounds": 3, "merchant_trade": rng.choice(["off", "chosen"])})
    # Some players pass by their standing orders, some by hand.
    for seat in game.seats.exclude(user=None):
        seat.auto_pass = rng.random() < 0.5
        seat.save(update_fields=["auto_pass"])
    pages = {user.pk: Page(client, game, user) for user in people}
    players = {s.user_id: s.player for s in game.seats.exclude(user=None)}
    zone = timezone.get_current_timezone_name()
    counts = {"pushed": 0, "asked": 0, "answers": 0, "polls": 0}
    for _ in range(70):
        with one_instant():
            game.refresh_from_db()
            if not game.is_playing:
                break
            since, since_seq, mover = game.version, game.seq, None
            waiting = waiting_humans(game)
            if waiting:
                seat = rng.choice(waiting)
                mover = seat.user_id
                actions = legal(game, seat)
                plays = [a for a in actions if a["type"] == "play"]
                action = rng.choice(plays) if plays and rng.random() < 0.8 else rng.choice(actions)
                page = pages[mover]
                before = dict(page.looked), page.version
                with pytest.MonkeyPatch.context() as patch:
                    patch.setattr(updates, "sharing", lambda request: True)
                    answer = page.move(action, game.wait_for(seat.player).token)
                assert answer.status_code == 200
                game.refresh_from_db()
                if game.version != since and before[1] == since:
                    # The same page asked, drawn alone: what the move's answer draws.
                    page.looked, page.poll_url = before[0], page.poll_url.replace(
                        f"v={game.version}", f"v={since}")
                    with drawn_alone():
                        alone = page.poll(key="")
                    counts["answers"] += 1
                    assert _same_page(answer.content.decode()) == _same_page(alone.content.decode())
                page.read(answer)
            else:
                assert commands.play_bot_move(game.pk)
                game.refresh_from_db()
            if game.version == since:
                continue  # nothing anybody else may see
            update = updates.prepare(game.pk, Step(game.version, since, since_seq), "en", zone)
            for user in people:
                page = pages[user.pk]
                if user.pk == mover:
                    continue
                with drawn_alone():
                    alone = page.poll()
                if page.version == since and update is not None:
                    head, pushed = _event(update, players[user.pk])
                    assert head["v"] == game.version
                    if not head.get("ask") and fits(head, page.version, page.key, page.looked):
                        counts["pushed"] += 1
                        assert _same_page(_pushed(pushed, int(page.looked["n"]))) == _same_page(
                            _without_looked(alone.content.decode()))
                    else:
                        counts["asked"] += 1
                shared = page.poll()
                counts["polls"] += 1
                assert _same_page(shared.content.decode()) == _same_page(alone.content.decode())
                page.read(shared)
    assert counts["pushed"] > 20 and counts["answers"] > 10, counts


def _two_worlds(people, swap: bool):
    """A table of people in its second round's play, one of them to move; with `swap`,
    the same but for cards hidden from whoever is not the mover."""
    from tests.games.test_shared_drawing import _hands, _table

    game = _table(people, _hands(swap=False))
    bots_play_on(game)
    game.refresh_from_db()
    while game.engine_state().round.phase != "play" or not waiting_humans(game):
        seat = waiting_humans(game)[0]
        act_as(game, seat, legal(game, seat)[0])
        game.refresh_from_db()
    return game


def test_two_worlds_that_differ_only_in_hidden_cards_draw_identical_updates(people):
    rng = random.Random(5)
    game = _two_worlds(people, swap=False)
    seat = waiting_humans(game)[0]
    since, since_seq = game.version, game.seq
    act_as(game, seat, next(a for a in legal(game, seat) if a["type"] == "play"))
    game.refresh_from_db()
    with one_instant(), translation.override("en"):
        first, own = updates.draw(game, since, since_seq)
        assert _shuffle_hidden_cards(game, seat.player, rng)
        cache.clear()
        second, _ = updates.draw(game, since, since_seq)
    assert not first["ask"]

    def unmarked(shared):
        return json.dumps(shared).replace(shared["nonce"], "*")

    assert unmarked(first) == unmarked(second)
    # Nothing of a form (no token of anybody's) is in what every page shares.
    assert "csrfmiddlewaretoken" not in first["html"]
    # Each player's own key is kept apart from it.
    assert all(part["key"] not in json.dumps(first) for part in own.values())


@pytest.fixture
def people(db):
    return [make_user(f"sd-{name}") for name in ("ada", "bram", "cato", "dirk", "eva")]


def test_an_update_is_not_drawn_for_what_differs_from_reader_to_reader(people):
    """Taxes (each sees their own cards) are asked for; so is the end of the game."""
    from tests.games.test_shared_drawing import _hands, _table

    game = _table(people, _hands(swap=False))
    assert game.engine_state().round.phase == "taxes"
    shared, own = updates.draw(game, game.version - 1, 0)
    assert shared["ask"] and own == {}
    event = updates.Update.read(shared, own).event_for(0, "t")
    assert json.loads(event.split("data: ", 1)[1].split("\n", 1)[0]) == {
        "v": game.version, "ask": True}


def test_the_step_a_change_announces_names_where_it_started(people):
    from games.core.live import Held, _held

    game = _two_worlds(people, swap=False)
    seat = waiting_humans(game)[0]
    since, since_seq = game.version, game.seq
    held = Held()
    token = _held.set(held)
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr("django.conf.settings.REDIS_URL", "redis://127.0.0.1:1/0")
            from django.test import TestCase

            with TestCase.captureOnCommitCallbacks(execute=True):
                act_as(game, seat, legal(game, seat)[0])
    finally:
        _held.reset(token)
    game.refresh_from_db()
    assert held.steps(game.pk) == [Step(game.version, since, since_seq, seat.player)]
    assert Step.read(Step(7, 5, 31, 2).message()) == Step(7, 5, 31, 2)
    assert Step.read("c12") is None


def _play_until(game, choose, reached, failure: str) -> tuple[int, int]:
    """Play on, each waiting player taking `choose`'s action, until `reached(since_seq)`
    after a move: the version and record number that move started from."""
    for _ in range(200):
        game.refresh_from_db()
        since, since_seq = game.version, game.seq
        seat = waiting_humans(game)[0]
        act_as(game, seat, choose(legal(game, seat)))
        game.refresh_from_db()
        if reached(since_seq):
            return since, since_seq
    raise AssertionError(failure)


def test_a_standing_orders_pass_reads_as_such_to_its_owner_alone(client):
    """What a standing order did is its owner's business: the update every page shares
    says an ordinary pass, and only the owner's own part (sent to them alone) says it
    was their standing order."""
    people = [make_user(f"so{i}") for i in range(5)]
    game = start_table(people[0], people[1:], seed=3, options={"first_round_taxes": False})
    game.seats.update(auto_pass=True)
    rng = random.Random(2)

    def passed_by_order(since_seq: int) -> set[int]:
        return {a.player for a in game.actions.filter(seq__gt=since_seq, by="standing_order")}

    since, since_seq = _play_until(
        game, rng.choice,
        lambda since_seq: passed_by_order(since_seq)
        and game.engine_state().round.phase == "play", "no standing order passed")
    owners = passed_by_order(since_seq)
    with translation.override("en"):
        shared, own = updates.draw(game, since, since_seq)
    assert not shared["ask"]
    assert "standing order" not in json.dumps(shared)
    for owner in owners:
        mine = updates.Update.read(shared, own).event_for(owner, "t")
        assert "by your standing order" in mine
    for player in set(map(int, own)) - owners:
        event = updates.Update.read(shared, own).event_for(player, "t")
        # The player whose turn it is gets their own standing orders' panel; beside it,
        # nothing says so.
        assert "standing order" not in re.sub(r'<section id="me".*?</section>', "", event,
                                              flags=re.S)


def test_the_host_of_a_watched_table_asks_for_their_own_part_at_their_turn(people):
    """The next player's own part comes with the update, but for the host of a table
    people watch: their panel shows the watch link, drawn from their page's address,
    which an update drawn in another request has not got. They are told to ask."""
    game = _two_worlds(people, swap=False)
    host = game.seats.get(user=game.host)
    for watched in (False, True):
        game.watch_token = "watch-me" if watched else ""
        game.save(update_fields=["watch_token"])
        # Play on until the table waits for the host, then draw what that move brought.
        since, since_seq = _play_until(
            game, lambda actions: actions[0],
            lambda _since_seq: host.player in game.engine_state().awaiting_players
            and game.engine_state().round.phase == "play", "the turn never came to the host")
        with translation.override("en"):
            shared, own = updates.draw(game, since, since_seq)
        assert not shared["ask"]
        event = updates.Update.read(shared, own).event_for(host.player, "t")
        if watched:
            assert own[str(host.player)]["ask"] and "mine" not in own[str(host.player)]
            assert event == live.ask_event(game.version)
        else:
            assert own[str(host.player)]["mine"] and '"mine": true' in event
