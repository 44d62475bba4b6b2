"""No page or fragment shows a player anything they may not know.

The strongest form of that rule: everything a player is sent must stay byte-for-byte the
same when only the cards hidden from them change. The tests shuffle the other players'
hidden cards in the stored state and compare what each player is sent.
"""

import dataclasses
import random
import re

import pytest

from games import commands, engine
from games.commands.base import save_state
from games.models import Game
from tests.engine.helpers import give_both_jesters
from tests.helpers import legal, one_instant, start_table, waiting_humans

pytestmark = pytest.mark.django_db

# The form tokens, and the table talk's token for the next message: random, drawn afresh
# for every page whatever the cards.
CSRF = re.compile(r'(csrfmiddlewaretoken" value="|X-CSRFToken": "|name="token" value=")[^"]+')


def _sent_to(client, game: Game) -> list[str]:
    pages = [
        client.get(f"/t/{game.pk}/").content.decode(),
        client.get(f"/t/{game.pk}/poll/?v=-1&me=").content.decode(),
        client.get(f"/t/{game.pk}/log/").content.decode(),
    ]
    return [CSRF.sub(r"\1*", page) for page in pages]


def _shuffle_among(hands: list[list[int]], seats, rng: random.Random) -> bool:
    """Shuffle the non-jester cards of `seats` among those seats, each keeping its count
    and its jesters. Returns False if nothing could change."""
    pool = [c for s in seats for c in hands[s] if c != engine.JESTER]
    if len(set(pool)) < 2:
        return False
    rng.shuffle(pool)
    for s in seats:
        jesters = [c for c in hands[s] if c == engine.JESTER]
        keep = len(hands[s]) - len(jesters)
        hands[s] = sorted(pool[:keep] + jesters)
        pool = pool[keep:]
    return True


def _shuffle_hidden_cards(game: Game, player: int, rng: random.Random) -> bool:
    """Shuffle the non-jester cards of every other seat among those seats, keeping each
    seat's count and jesters. Returns False if nothing could change."""
    state = game.state
    rnd = state["round"]
    me = state["seats"].index(player)
    others = [s for s in range(len(rnd["hands"])) if s != me]
    if not _shuffle_among(rnd["hands"], others, rng):
        return False
    game.save(update_fields=["state"])
    return True


def _advance(game: Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        game.refresh_from_db()
        if not game.is_playing:
            return
        humans = waiting_humans(game)
        if humans:
            seat = rng.choice(humans)
            action = rng.choice(legal(game, seat))
            commands.act(game.pk, seat.user, engine.action_from_json(action),
                         game.awaiting[str(seat.player)][0])
        else:
            commands.play_bot_move(game.pk)


@pytest.mark.parametrize("seed", range(12))
def test_what_a_player_is_sent_does_not_depend_on_hidden_cards(client, make_user, seed):
    rng = random.Random(seed)
    humans = [make_user(f"p{seed}x{i}") for i in range(rng.choice((2, 3)))]
    bots = rng.choice((2, 3, 5))
    options = {"rounds": 3, "merchant_trade": rng.choice(["off", "chosen", "random"]),
               "first_round_taxes": rng.random() < 0.7}
    game = start_table(humans[0], humans[1:], bots=bots, options=options)
    for checkpoint in range(4):
        _advance(game, rng, rng.randrange(1, 25))
        game.refresh_from_db()
        if not game.is_playing:
            break
        original = game.state
        for user in humans:
            player = game.seats.get(user=user).player
            client.force_login(user)
            with one_instant():
                before = _sent_to(client, game)
                if not _shuffle_hidden_cards(game, player, rng):
                    continue
                after = _sent_to(client, game)
            game.state = original
            game.save(update_fields=["state"])
            assert before == after, f"seed {seed}, checkpoint {checkpoint}, player {player}"


def _deal_both_jesters_to(game: Game, seat: int) -> None:
    """Replace the current round with a fresh one in which `seat` holds both jesters."""
    state = game.engine_state()
    n = len(state.seats)
    hands = give_both_jesters(engine.deal(n, state.options, 7), seat)
    rnd = engine.Round.start(hands, state.options, first_round=False, seed=1)
    state = dataclasses.replace(state, round=rnd, round_number=2)
    game.awaiting = {}
    save_state(game, state)


def test_nobody_learns_who_holds_both_jesters_before_the_revolution(client, make_user):
    users = [make_user(f"j{i}") for i in range(5)]
    game = start_table(users[0], users[1:], options={"rounds": 3})
    state = game.engine_state()
    seat_user = {s.player: s.user for s in game.seats.select_related("user")}
    dalmutis = [seat_user[state.seats[0]], seat_user[state.seats[1]]]
    merchant = seat_user[state.seats[2]]
    holder_a = seat_user[state.seats[3]]  # the Lesser Peon
    pages = {}
    with one_instant():
        for holder_seat in (3, 2):
            _deal_both_jesters_to(game, holder_seat)
            game.refresh_from_db()
            holder = seat_user[state.seats[holder_seat]]
            assert str(holder.seats.get(game=game).player) in game.awaiting
            for user in dalmutis:
                client.force_login(user)
                pages[(holder_seat, user.pk)] = _sent_to(client, game)
    # The Dalmutis are sent exactly the same whoever holds the jesters.
    for user in dalmutis:
        assert pages[(3, user.pk)] == pages[(2, user.pk)]
    # The holder is privately offered the revolution; the others see only the Dalmutis
    # deciding.
    client.force_login(merchant)
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert "Declare a revolution" in page  # the merchant holds them in the last deal
    client.force_login(holder_a)
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert "Declare a revolution" not in page
    # (Seat states carry soft hyphens between their syllables.)
    assert page.replace("\u00ad", "").count("deciding") == 2


def test_a_declined_revolution_stays_private(client, make_user):
    users = [make_user(f"d{i}") for i in range(4)]
    game = start_table(users[0], users[1:], options={"rounds": 3})
    _deal_both_jesters_to(game, 2)
    game.refresh_from_db()
    state = game.engine_state()
    holder = game.seats.get(player=state.seats[2])
    commands.act(game.pk, holder.user, engine.Revolution(False),
                 game.awaiting[str(holder.player)][0])
    client.force_login(holder.user)
    assert "kept your two Jesters" in client.get(f"/t/{game.pk}/log/").content.decode()
    for other in game.seats.exclude(pk=holder.pk).select_related("user"):
        client.force_login(other.user)
        for page in _sent_to(client, game):
            assert "Jesters to yourself" not in page


def _sent_to_a_watcher(client, game: Game) -> list[str]:
    token = game.watch_token
    pages = [
        client.get(f"/watch/{token}/").content.decode(),
        client.get(f"/watch/{token}/poll/?v=-1&me=").content.decode(),
        client.get(f"/watch/{token}/log/").content.decode(),
    ]
    return [CSRF.sub(r"\1*", page) for page in pages]


def _shuffle_every_hand(game: Game, rng: random.Random) -> bool:
    """For a watcher every card not on the table is hidden: shuffle the non-jester cards
    of all seats (each keeping its count and jesters), and put other cards in every private
    record (the taxes and trades as given, the Dalmutis' choices to give back, the private
    lines of the log). Returns False if nothing could change."""
    rnd = game.state["round"]
    if not _shuffle_among(rnd["hands"], range(len(rnd["hands"])), rng):
        return False

    def other(cards):
        return sorted(rng.randint(1, 12) for _ in cards)

    records = rnd["records"]
    for key in ("taxes", "trades"):
        records[key] = [[a, b, other(cards)] for a, b, cards in records[key]]
    if rnd["decide"]:
        rnd["decide"]["choices"] = [None if c is None else other(c)
                                    for c in rnd["decide"]["choices"]]
    game.save(update_fields=["state"])
    for action in game.actions.all():
        events = [{**e, "cards": other(e["cards"])}
                  if e.get("visible_to") is not None and "cards" in e else e
                  for e in action.events]
        if events != action.events:
            action.events = events
            action.save(update_fields=["events"])
    return True


@pytest.mark.parametrize("seed", range(6))
def test_a_watcher_is_sent_nothing_that_depends_on_any_hidden_card(client, make_user, seed):
    rng = random.Random(seed)
    humans = [make_user(f"w{seed}x{i}") for i in range(2)]
    options = {"rounds": 3, "merchant_trade": rng.choice(["off", "chosen", "random"]),
               "first_round_taxes": rng.random() < 0.7}
    game = start_table(humans[0], humans[1:], bots=rng.choice((2, 4)), options=options)
    commands.set_watchable(game.pk, humans[0], True)
    watcher = make_user(f"watcher{seed}")
    compared = 0
    for _checkpoint in range(4):
        _advance(game, rng, rng.randrange(1, 25))
        game.refresh_from_db()
        if not game.is_playing:
            break
        original = game.state
        events = {a.pk: a.events for a in game.actions.all()}
        for login in (None, watcher):  # signed out, or signed in without a seat
            client.logout()
            if login is not None:
                client.force_login(login)
            with one_instant():
                before = _sent_to_a_watcher(client, game)
                assert all("hcard" not in page for page in before)
                if not _shuffle_every_hand(game, rng):
                    continue
                after = _sent_to_a_watcher(client, game)
            game.state = original
            game.save(update_fields=["state"])
            for action in game.actions.all():
                action.events = events[action.pk]
                action.save(update_fields=["events"])
            assert before == after, f"seed {seed}"
            compared += 1
    assert compared


def test_a_watch_link_works_only_while_the_host_shares_it(client, make_user):
    host, other = make_user("hosting"), make_user("other")
    game = start_table(host, [other], bots=2)
    client.force_login(other)
    assert client.post(f"/t/{game.pk}/watchable/", {"watch": "yes"}).status_code == 403
    game.refresh_from_db()
    assert game.watch_token == ""  # only the host may share it
    client.force_login(host)
    client.post(f"/t/{game.pk}/watchable/", {"watch": "yes"})
    game.refresh_from_db()
    token = game.watch_token
    client.logout()
    page = client.get(f"/watch/{token}/")
    assert page.status_code == 200 and "Watching" in page.content.decode()
    assert game.seats.count() == 4  # a watcher takes no seat
    client.force_login(host)
    client.post(f"/t/{game.pk}/watchable/", {"watch": "no"})
    client.logout()
    assert client.get(f"/watch/{token}/").status_code == 404
    assert client.get("/watch//").status_code == 404


@pytest.mark.parametrize("debug", [False, True])
def test_a_watcher_reads_that_the_link_stopped_working(debug, client, make_user, settings):
    """The host stops sharing while a watcher's page is open: its next poll reloads it,
    and the page says why there is nothing to watch (as it does for a link never shared,
    so it tells nobody whether a table was there), whatever the server's DEBUG."""
    settings.DEBUG = debug
    host = make_user("hosting")
    game = start_table(host, bots=3)
    commands.set_watchable(game.pk, host, True)
    game.refresh_from_db()
    token = game.watch_token
    commands.set_watchable(game.pk, host, False)
    poll = client.get(f"/watch/{token}/poll/?v=0", headers={"HX-Request": "true"})
    assert poll.status_code == 204 and poll["HX-Refresh"] == "true"
    for address in (f"/watch/{token}/", f"/watch/{token}/log/", "/watch/nothing-here/"):
        page = client.get(address)
        assert page.status_code == 404
        assert "Nobody can watch this table with this link" in page.content.decode()


def test_watchers_talk_only_where_the_host_lets_them(client, make_user):
    host, other, watcher = make_user("hostess"), make_user("player"), make_user("friend")
    game = start_table(host, [other], bots=2)
    commands.set_watchable(game.pk, host, True)
    game.refresh_from_db()
    token = game.watch_token
    client.force_login(watcher)
    page = client.get(f"/watch/{token}/").content.decode()
    assert 'id="chat"' not in page  # no table talk for watchers by default
    answer = client.post(f"/watch/{token}/chat/", {"text": "Go Bram!"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 403
    client.force_login(host)
    client.post(f"/t/{game.pk}/watchable/", {"watch": "yes", "talk": "on"})
    game.refresh_from_db()
    assert game.watch_token == token and game.watchers_talk  # the link stays the same
    client.force_login(watcher)
    assert 'id="chat"' in client.get(f"/watch/{token}/").content.decode()
    client.post(f"/watch/{token}/chat/", {"text": "Go Bram!"})
    client.force_login(other)
    assert "Friend (watching)" in client.get(f"/t/{game.pk}/chat/").content.decode()
    client.logout()
    assert "Log in to talk at the table." in client.get(f"/watch/{token}/").content.decode()
