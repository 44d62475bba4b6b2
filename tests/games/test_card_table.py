"""The card table's reading of the game: where each seat sits around the table, the trick
a page keeps showing after it is won, and the one-line summary of what happened since a
page last looked (and that it tells a player nothing their own log does not)."""

from types import SimpleNamespace

import pytest
import time_machine
from django.utils import timezone, translation

from games import commands
from games.core.words import cards_phrase
from games.models import Game
from games.read.narration import last_trick, since_you_looked
from games.read.seat import SLOTS, seat_slots
from tests.helpers import (
    form_for,
    legal,
    make_user,
    play_until,
    shed_worst,
    start_on_the_clock,
    start_table,
)

NAMES = {0: "Ada", 1: "Bram", 2: "Cato", 3: "Tess"}


def _rows(n: int) -> list[SimpleNamespace]:
    return [SimpleNamespace(player=p, slot="") for p in range(n)]


@pytest.mark.parametrize("n", range(2, 11))
def test_every_seat_has_its_own_place_and_mine_is_at_the_bottom(n):
    rows = _rows(n)
    seat_slots(rows, my_player=2 % n)
    assert rows[2 % n].slot == "me"
    others = [r.slot for r in rows if r.slot != "me"]
    assert len(set(others)) == n - 1 and "" not in others
    # Clockwise from me, in turn order: the player after me sits first in the list.
    after_me = rows[(2 % n) + 1:] + rows[:2 % n]
    assert [r.slot for r in after_me] == SLOTS[n - 1]


def test_a_spectator_sees_the_first_seat_at_the_bottom():
    rows = _rows(5)
    seat_slots(rows, my_player=None)
    assert rows[0].slot == "me" and [r.slot for r in rows[1:]] == SLOTS[4]


def _line(event: dict) -> dict:
    return {"event": event}


def test_the_summary_groups_passes_and_says_who_won_the_trick_with_what():
    lines = [_line(e) for e in (
        {"type": "pass", "player": 0},
        {"type": "pass", "player": 1},
        {"type": "play", "player": 2, "title": "merchant", "cards": [8, 8]},
        {"type": "pass", "player": 3},
        {"type": "pass", "player": 0},
        {"type": "pass", "player": 1},
        {"type": "trick_won", "player": 2, "leader": 2},
    )]
    summary = since_you_looked(lines, my_player=3, names=NAMES)
    assert summary == "Ada and Bram passed; Cato won the trick with 2 Masons"
    lines.insert(3, _line({"type": "out", "player": 2, "place": 1}))
    assert since_you_looked(lines, my_player=3, names=NAMES) == (
        "Ada and Bram passed; Cato played 2 Masons; Cato went out in place 1; "
        "you, Ada and Bram passed; Cato won the trick")


def test_the_summary_tells_the_same_thing_happening_again_once_with_how_often():
    """Two tricks in a row won alike read as one part said twice over, not as a line
    repeated by mistake."""
    trick = [{"type": "play", "player": 1, "title": "merchant", "cards": [12, 12]},
             {"type": "pass", "player": 2}, {"type": "pass", "player": 0},
             {"type": "trick_won", "player": 1, "leader": 1}]
    summary = since_you_looked([_line(e) for e in trick * 2], my_player=3, names=NAMES)
    assert summary == "Bram won the trick with 2 Peasants (2 times)"
    three = since_you_looked([_line(e) for e in trick * 3], my_player=3, names=NAMES)
    assert three.endswith("Bram won the trick with 2 Peasants (3 times)")
    with translation.override("de"):
        german = since_you_looked([_line(e) for e in trick * 2], my_player=3, names=NAMES)
    assert german.endswith("(2-mal)")


def test_the_summary_says_you_for_my_own_moves_and_counts_what_it_leaves_out():
    events = [{"type": "play", "player": 3, "title": "merchant", "cards": [9]}]
    events += [{"type": "play", "player": p % 3, "title": "merchant", "cards": [8 - p]}
               for p in range(8)]
    summary = since_you_looked([_line(e) for e in events], my_player=3, names=NAMES)
    assert summary.startswith("3 earlier moves; ")
    assert summary.count(";") == 6
    assert "you played" not in summary  # the oldest part is among the three left out
    assert since_you_looked([_line(events[0])], 3, NAMES) == "You played 1 Cook"
    # One move more than the summary tells whole is told rather than counted.
    seven = since_you_looked([_line(e) for e in events[:7]], my_player=3, names=NAMES)
    assert "earlier move" not in seven and seven.count(";") == 6
    assert seven.startswith("You played 1 Cook; ")
    # French: the moves left out are "earlier" ones (précédents), and a semicolon takes
    # a space before it, one that never leaves it alone at a line's start.
    with translation.override("fr"):
        french = since_you_looked([_line(e) for e in events], my_player=3, names=NAMES)
    assert french.startswith("3 coups précédents\u00a0; ") and french.count("\u00a0; ") == 6


@pytest.mark.parametrize(("by", "said"), [
    ("timeout", "your time ran out: passed for you"),
    ("stand_in", "the stand-in passed for you"),
    ("standing_order", "you passed by your standing order"),
])
def test_the_summary_never_leaves_out_a_move_made_for_you(by, said):
    """What was done in your name while you were away is what you most need to read:
    cut from a long summary, it would be told only in the folded log."""
    mine = {"event": {"type": "pass", "player": 3}, "by": by, "actor": 3}
    events = [_line({"type": "play", "player": p % 3, "title": "merchant", "cards": [9 - p]})
              for p in range(2)]
    events += [mine]
    events += [_line({"type": "play", "player": p % 3, "title": "merchant", "cards": [7 - p]})
               for p in range(7)]
    summary = since_you_looked(events, my_player=3, names=NAMES)
    assert said in summary
    # The latest moves are still told, and what is left out is counted.
    assert summary.startswith("3 earlier moves; ")
    assert summary.endswith("Ada played 1 Dalmuti")
    # Two of them, far apart: both told, in the order they came.
    events.insert(0, mine)
    twice = since_you_looked(events, my_player=3, names=NAMES)
    assert twice.count(said) == 2
    assert twice.startswith("3 earlier moves; ")


def test_the_last_trick_is_the_one_won_most_recently_and_only_public_events_count():
    lines = [_line(e) for e in (
        {"type": "play", "player": 0, "title": "merchant", "cards": [12]},
        {"type": "trick_won", "player": 0, "leader": 0},
        {"type": "play", "player": 0, "title": "merchant", "cards": [7, 7]},
        {"type": "revolution_declined", "player": 3, "visible_to": [3]},
        {"type": "play", "player": 1, "title": "merchant", "cards": [5, 5]},
        {"type": "trick_won", "player": 1, "leader": 1},
        {"type": "play", "player": 1, "title": "merchant", "cards": [3]},
    )]
    trick = last_trick(lines, NAMES)
    assert trick["winner"] == "Bram"
    assert [(p["name"], p["cards"]) for p in trick["plays"]] == [("Ada", [7, 7]), ("Bram", [5, 5])]
    assert last_trick(lines[:1], NAMES) is None


@pytest.fixture
def table(db):
    tess = make_user("tess", display_name="Tess")
    game = start_table(tess, bots=3, seed=20260104, name="Kitchen table")
    return tess, game


def _my_play_turn(game: Game, user) -> Game:
    def mine(g):
        seat = g.seats.get(user=user)
        view = g.engine_state().view(seat.player)
        return view["phase"] == "play" and bool(view["legal_actions"])
    return play_until(game, mine)


def _centre(page: str) -> str:
    return page.split('class="centre"', 1)[1].split("</section>", 1)[0]


def _won_and_leads(game: Game, user) -> bool:
    """`user` leads after a trick they won (the others passed after their play)."""
    view = game.engine_state().view(game.seats.get(user=user).player)
    history = view["history"]
    return (view["phase"] == "play" and bool(view["legal_actions"])
            and not view["trick"]["plays"] and bool(history)
            and [m for m in history[-1] if m["type"] == "play"][-1]["seat"] == view["seat"])


@pytest.mark.django_db
def test_the_trick_won_says_you_to_its_winner(client):
    """The trick a page keeps showing until the next lead: its winner reads "You won this
    trick" (they read their own name, "Won by Tess", as if someone else's), the others
    read the winner's name."""
    tess, lotte = make_user("tess", display_name="Tess"), make_user("lotte", display_name="Lotte")
    game = start_table(tess, [lotte], bots=2, seed=11)
    game.seats.update(auto_pass=False)
    game = play_until(game, lambda g: _won_and_leads(g, tess), choose=shed_worst)
    pages = {}
    for user in (tess, lotte):
        client.force_login(user)
        pages[user.username] = _centre(client.get(f"/t/{game.pk}/").content.decode())
    assert "You won this trick" in pages["tess"] and "Won by" not in pages["tess"]
    assert "Won by Tess" in pages["lotte"] and "You won" not in pages["lotte"]


@pytest.mark.django_db
def test_tapped_cards_make_a_play(client, table):
    tess, game = table
    game = _my_play_turn(game, tess)
    seat = game.seats.get(user=tess)
    play = next(a for a in legal(game, seat) if a["type"] == "play")
    client.force_login(tess)
    data = {"turn": game.awaiting[str(seat.player)][0], "action": "play",
            # Tapped in any order: the page sends the cards as they sit in the hand.
            "card": [str(c) for c in reversed(play["cards"])]}
    assert client.post(f"/t/{game.pk}/act/", data).status_code == 302
    last = game.actions.order_by("-seq").filter(player=seat.player).first()
    assert last.payload["cards"] == sorted(play["cards"])


@pytest.mark.django_db
def test_an_answer_tells_what_happened_since_the_page_looked(client, table):
    tess, game = table
    game = _my_play_turn(game, tess)
    client.force_login(tess)
    page = client.get(f"/t/{game.pk}/").content.decode()
    shown = int(page.split('name="n" value="', 1)[1].split('"', 1)[0])
    seat = game.seats.get(user=tess)
    action = next(a for a in legal(game, seat) if a["type"] == "play")
    data = {**form_for(action, game.awaiting[str(seat.player)][0]),
            "r": str(game.round_number), "n": str(shown)}
    answer = client.post(f"/t/{game.pk}/act/", data, HTTP_HX_REQUEST="true").content.decode()
    summary = answer.split('class="since"', 1)[1].split("</p>", 1)[0]
    assert summary.endswith(f"Just now:</span> You played {cards_phrase(action['cards'])}")


@pytest.mark.django_db
def test_the_plays_that_arrived_since_land_in_order(client, table):
    tess, game = table
    game = _my_play_turn(game, tess)
    client.force_login(tess)
    seat = game.seats.get(user=tess)
    # Tess leads or follows, then polls with what her page had shown before.
    page = client.get(f"/t/{game.pk}/").content.decode()
    shown = int(page.split('name="n" value="', 1)[1].split('"', 1)[0])
    version, seq = game.version, game.seq
    action = next(a for a in legal(game, seat) if a["type"] == "play")
    client.post(f"/t/{game.pk}/act/", form_for(action, game.awaiting[str(seat.player)][0]))
    game.refresh_from_db()
    # Two bots follow (or pass) before the page polls.
    for _ in range(2):
        commands.play_bot_move(game.pk)
    game.refresh_from_db()
    new_plays = sum(1 for a in game.actions.filter(seq__gt=seq) for e in a.events
                    if e["type"] == "play")
    trick = game.engine_state().round.view(None)["trick"]["plays"]
    arrived = min(new_plays, len(trick))
    assert arrived >= 1
    body = client.get(
        f"/t/{game.pk}/poll/?v={version}&me=&r={game.round_number}&n={shown}").content.decode()
    for i in range(1, arrived + 1):
        assert f"arrive d{i}" in body
    assert f"arrive d{arrived + 1}" not in body
    # Plays the page had shown already stay where they are.
    assert body.count(" arrive d") == arrived


@pytest.mark.django_db
def test_a_player_back_after_a_while_reads_what_happened_meanwhile(client, table):
    tess, game = table
    client.force_login(tess)
    client.get(f"/t/{game.pk}/")
    with time_machine.travel(timezone.now() + timezone.timedelta(hours=3), tick=False):
        before = game.actions.count()
        game = play_until(game, lambda g: g.actions.count() >= before + 3)
        page = client.get(f"/t/{game.pk}/").content.decode()
    assert "While you were away:" in page


@pytest.mark.django_db
def test_a_player_back_after_a_round_ended_reads_how_it_ended(client):
    """Away for days while the clock played her turns, the round ended and the next was
    dealt: the page tells what was done in her name and how the round she left ended,
    not only the new one's deal."""
    tess = make_user("tess", display_name="Tess")
    game = start_on_the_clock(tess, [], 24 * 3600, bots=3)
    client.force_login(tess)
    client.get(f"/t/{game.pk}/")
    now = timezone.now()
    while game.round_number < 2:
        now += timezone.timedelta(days=1, minutes=1)
        with time_machine.travel(now, tick=False):
            commands.enforce_deadlines(game.pk)
            game.refresh_from_db()
            while game.round_number < 2 and commands.play_bot_move(game.pk):
                game.refresh_from_db()
    with time_machine.travel(now, tick=False):
        page = client.get(f"/t/{game.pk}/").content.decode()
    summary = page.split('class="since"', 1)[1].split("</p>", 1)[0]
    assert "While you were away:" in summary
    assert "the round is over" in summary and "round 2 was dealt" in summary
    assert summary.index("the round is over") < summary.index("round 2 was dealt")
    assert "for you" in summary


@pytest.mark.django_db
def test_a_summary_never_tells_another_players_private_moves(client, table):
    """The count a page sends is of its own log lines: a private line of someone else's
    (their choice of cards to give back, a declined revolution) is neither counted nor
    told, so two pages that saw the same public events get the same answer."""
    tess, game = table
    client.force_login(tess)
    page = client.get(f"/t/{game.pk}/").content.decode()
    shown = int(page.split('name="n" value="', 1)[1].split('"', 1)[0])
    visible = [e for a in game.actions.all() for e in a.events
               if e.get("visible_to") is None or tess.seats.get().player in e["visible_to"]]
    from games.core.words import event_sentence
    assert shown == sum(1 for e in visible if event_sentence(e, lambda p: "?"))


def test_the_hint_under_the_hand_names_the_jester_only_to_a_hand_that_holds_one(
        client, alice, bob):
    """Said to a hand without one, "A Jester can join them" points at a card not there."""
    cato, dora = make_user("cato"), make_user("dora")
    game = start_table(alice, [bob, cato, dora], options={"rounds": 3})
    seen = set()

    def look(game: Game) -> bool:
        state = game.engine_state()
        if state.round.phase != "play" or len(seen) == 2:
            return len(seen) == 2
        player = state.round.to_act
        seat = game.seats.select_related("user").get(player=state.seats[player])
        client.force_login(seat.user)
        hint = client.get(f"/t/{game.pk}/").content.decode().split('<p class="hint">')[1]
        hint = " ".join(hint.split("</p>")[0].split())
        holds = 13 in state.view(state.seats[player])["hand"]
        assert ("Jester" in hint) == holds, hint
        seen.add(holds)
        return False

    play_until(game, look)
    assert seen == {True, False}


@pytest.mark.django_db
def test_a_finished_tables_seats_break_their_places_between_syllables(client):
    """At ten seats on a phone a seat is narrow: "eindplaats 3" and "winnaar" break with
    a hyphen, as the titles do, never "eindplaa|ts"."""
    tess = make_user("tess", display_name="Tess", language="nl")
    game = play_until(start_table(tess, bots=3, options={"rounds": 1}), lambda g: g.is_over)
    client.force_login(tess)
    page = client.get(f"/t/{game.pk}/").content.decode()
    felt = page.split('class="felt', 1)[1].split("</ol>", 1)[0]
    assert "win\u00adnaar" in felt
    assert "eind\u00adplaats 2" in felt and "eindplaats" not in felt
