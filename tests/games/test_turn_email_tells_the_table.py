"""A turn email (and the daily summary) tells the table: what happened since the reader's
last move (the "while you were away" line), what they must beat, each player's card count,
the time left and the table talk they have not read, in their language and time zone, in
plain text and HTML, through a real SMTP server (`mail_server`, which refuses the first
message). It never names a card of any hand, the reader's own included: two worlds that
differ only in the hidden cards give byte-identical emails."""

import copy
import smtplib
from datetime import timedelta
from email import message_from_bytes
from email.policy import default as email_policy

import pytest
import time_machine
from django.utils import timezone, translation
from django.utils.html import escape

from chat import services as chat
from games import commands
from games.away import content, emails
from games.core.clock import current_deadline
from games.core.words import cards_phrase, moment
from games.engine.cards import JESTER
from games.models import Game, Notification, Seat
from games.templatetags.games import time_left
from tests.helpers import act_as, legal, start_table, waiting_humans

pytestmark = pytest.mark.django_db

DAY = 24 * 3600


def _play_on_until_a_trick_waits_for(game: Game, user, moved: bool = True) -> Seat:
    """Everybody plays on (each human their first legal action, a play where there is one)
    until `user` must answer a trick on the table, having moved before if `moved`."""
    for _ in range(800):
        game.refresh_from_db()
        waiting = waiting_humans(game)
        for seat in waiting:
            view = game.engine_state().view(seat.player)
            if (seat.user == user and view["phase"] == "play" and view["trick"]["plays"]
                    and (seat.last_acted or not moved)):
                return seat
        if waiting:
            seat = waiting[0]
            actions = legal(game, seat)
            plays = [a for a in actions if a["type"] == "play"]
            act_as(game, seat, (plays or actions)[0])
        else:
            commands.play_bot_move(game.pk)
    raise AssertionError("the trick never came to them")


def _turn_notice(user) -> Notification:
    return Notification.objects.filter(user=user, kind="turn", status="pending").latest("pk")


def _expected(game, seat, lang):
    """What the email must say, made as the reader reads it."""
    with translation.override(lang), timezone.override(seat.user.zone):
        view = game.engine_state().view(seat.player)
        names = {s.player: s.name for s in game.seats.select_related("user")}
        deadline = current_deadline(game, seat)
        return {
            "since": content.since_your_move(game, seat, names),
            "beat": cards_phrase(view["trick"]["plays"][-1]["cards"]),
            "counts": [(names[view["seats"][i]], view["counts"][i]) for i in view["order"]],
            "me": view["counts"][view["seat"]],
            "when": moment(deadline),
            "left": time_left(deadline),
        }


def _deliver(notice, at):
    """The worker's tries until it is sent (the server refuses the first message)."""
    with time_machine.travel(at, tick=False):
        for _ in range(2):
            try:
                if emails.deliver(notice.pk) == "sent":
                    return
            except smtplib.SMTPException:
                continue
    raise AssertionError("never sent")


def _parts(mail_server, user):
    (text,) = [t for to, t in mail_server.received if to == [user.email]][-1:]
    message = message_from_bytes(text.encode(), policy=email_policy)
    return (message["Subject"], message.get_body(("plain",)).get_content(),
            message.get_body(("html",)).get_content())


def test_the_turn_email_tells_the_table_in_the_readers_language_and_zone(
        alice, bob, mail_server):
    alice.time_zone = "America/New_York"
    alice.save()
    bob.language, bob.time_zone = "de", "Europe/Berlin"
    bob.save()
    game = start_table(alice, [bob], bots=2, turn_limit=DAY, name="Freitag",
                       options={"rounds": 1})
    game.seats.update(auto_pass=True)
    for user, other, words in ((bob, alice, {
        "subject": "Du bist dran: „Freitag“", "hello": "Hallo Bob,",
        "since": "Seit deinem letzten Zug:", "beat": "Zu schlagen: {}.",
        "counts": "Karten auf der Hand:", "me": "du {}", "out": "{}: raus",
        "talk": "Tischgespräch, seit du zuletzt geschaut hast:",
        "when": "Deine Bedenkzeit läuft am {} ab (in {})",
    }), (alice, bob, {
        "subject": "Your turn at “Freitag”", "hello": "Hello Alice,",
        "since": "Since your last move:", "beat": "To beat: {}.",
        "counts": "Cards in hand:", "me": "you {}", "out": "{}: out",
        "talk": "Table talk since you last looked:",
        "when": "Your time runs out on {} (in {})",
    })):
        seat = _play_on_until_a_trick_waits_for(game, user)
        chat.post(game, game.seats.get(user=other), f"Your move, {user.name} <3")
        game.refresh_from_db()
        at = timezone.now() + timedelta(minutes=10)
        with time_machine.travel(at, tick=False):
            expected = _expected(game, seat, "de" if user == bob else "en")
        _deliver(_turn_notice(user), at)
        subject, text, html = _parts(mail_server, user)

        assert subject == words["subject"]
        assert expected["since"]
        for body, esc in ((text, str), (html, escape)):
            assert words["hello"] in body
            assert esc(expected["since"] + ".") in body and words["since"] in body
            assert esc(words["beat"].format(expected["beat"])) in body
            assert words["counts"] in body
            for name, count in expected["counts"]:
                if name != user.name:
                    assert (words["out"].format(name) if count == 0 else f"{name} {count}") \
                        in body
            assert words["me"].format(expected["me"]) in body
            assert esc(words["when"].format(expected["when"], expected["left"])) in body
            assert words["talk"] in body
            assert esc(f"{other.name}: Your move, {user.name} <3") in body.replace(
                "<strong>", "").replace("</strong>", "")
        assert "<3" not in html  # the player's words are escaped in the HTML
        # Read at the table: the next email quotes only what was said since.
        seat.refresh_from_db()
        act_as(game, seat, [a for a in legal(game, seat) if a["type"] == "pass"][0])


def _swap(hands: list[list[int]], a: int, b: int) -> bool:
    """Swap a card of hand `a` for one of another rank in hand `b` (no Jesters)."""
    for x in hands[a]:
        for y in hands[b]:
            if x != y and JESTER not in (x, y):
                hands[a].remove(x)
                hands[b].remove(y)
                hands[a].append(y)
                hands[b].append(x)
                hands[a].sort()
                hands[b].sort()
                return True
    return False


def test_two_worlds_that_differ_only_in_hidden_cards_give_the_same_email(alice, bob):
    game = start_table(alice, [bob], bots=2, turn_limit=DAY, options={"rounds": 1})
    seat = _play_on_until_a_trick_waits_for(game, bob)
    notice = _turn_notice(bob)
    game.refresh_from_db()
    at = timezone.now() + timedelta(minutes=10)

    def email():
        with time_machine.travel(at, tick=False):
            name, context = emails.email_for(Notification.objects.get(pk=notice.pk))
            return emails.render(name, bob, context)

    first = email()
    state = copy.deepcopy(game.state)
    hands = state["round"]["hands"]
    mine = game.engine_state().view(seat.player)["seat"]
    others = [i for i in range(len(hands)) if i != mine and hands[i]]
    # The reader's own hand, and two other hands, each trade a card of another rank.
    assert _swap(hands, mine, others[0]) and _swap(hands, others[0], others[1])
    before = game.engine_state().view(seat.player)["hand"]
    Game.objects.filter(pk=game.pk).update(state=state)
    game.refresh_from_db()
    assert game.engine_state().view(seat.player)["hand"] != before  # the worlds differ …
    second = email()

    assert first == second  # … the emails do not, byte for byte
    _subject, text, _html = first
    assert "To beat:" in text and "Cards in hand:" in text

    # The daily summary quotes the table talk Bob has not read, as the turn email does.
    chat.post(game, game.seats.get(user=alice), "Tea is served <b>now</b>")
    daily = Notification(user=bob, kind="daily", key="daily:test")
    name, context = emails.email_for(daily)
    _subject, text, html = emails.render(name, bob, context)
    assert "Table talk since you last looked:\n  Alice: Tea is served <b>now</b>" in text
    assert "<strong>Alice:</strong> Tea is served &lt;b&gt;now&lt;/b&gt;" in html


def test_since_your_move_counts_from_the_move_in_the_record_not_its_time(make_user):
    """The passes standing orders make right after the reader's move (in its very
    transaction, and so before the time their last move was stamped) are part of what
    happened since: the line counts from their move's place in the record."""
    people = [make_user(name, display_name=name.title())
              for name in ("ava", "ben", "cleo", "dan")]
    game = start_table(people[0], people[1:], options={"rounds": 3, "first_round_taxes": False})
    game.seats.exclude(user=people[0]).update(auto_pass=True)
    game.seats.filter(user=people[0]).update(auto_pass=False)
    for _ in range(400):
        game.refresh_from_db()
        seat = waiting_humans(game)[0]
        actions = legal(game, seat)
        plays = [a for a in actions if a["type"] == "play"]
        act_as(game, seat, (plays or actions)[-1 if seat.user == people[0] else 0])
        if seat.user != people[0]:
            continue
        game.refresh_from_db()
        moved = game.actions.filter(player=seat.player, by="player").latest("seq")
        after = list(game.actions.filter(seq__gt=moved.seq).order_by("seq"))
        awaited = waiting_humans(game)
        if after and after[0].by == "standing_order" and awaited \
                and people[0] not in [s.user for s in awaited]:
            break
    else:
        raise AssertionError("no standing order passed right after her move")
    seat = game.seats.select_related("user").get(user=people[0])
    names = {s.player: s.name for s in game.seats.select_related("user")}
    passer = names[after[0].player]
    with translation.override("en"):
        since = content.since_your_move(game, seat, names)
    assert passer in since, since
