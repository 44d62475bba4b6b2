"""When the clock or the stand-in bot moves for a player, everybody reads so in the log
(never "you passed" for a pass the player did not make), and the player is told once,
by email or push, with the way back to their seat; nothing about anyone's cards."""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from games import commands, engine
from games.core.words import CARD_NAMES
from games.models import Action, Notification
from games.read.narration import log_lines, since_you_looked
from tests.helpers import (
    bots_play_on,
    deliver_due,
    legal,
    play_until,
    start_on_the_clock,
    waiting_humans,
)

pytestmark = pytest.mark.django_db

HOUR = 3600


@pytest.fixture
def table(alice, bob):
    return start_on_the_clock(alice, [bob], HOUR, {"rounds": 3})


def _names(game):
    return {s.player: s.name for s in game.seats.select_related("user")}


def _lines(game, seat):
    return log_lines(list(game.actions.order_by("seq")), seat, _names(game))


def _to_play(game):
    """On past the taxes, to a human's turn in play."""
    def in_play(g):
        return any(g.engine_state().view(s.player)["phase"] == "play"
                   for s in waiting_humans(g))
    return play_until(game, in_play)


def _time_out(game, now):
    """Let the waiting human's time run out; returns their seat and the timeout's record."""
    game = _to_play(game)
    seat = waiting_humans(game)[0]
    before = game.seq
    with time_machine.travel(now):
        assert commands.enforce_deadlines(game.pk) >= 1
    game.refresh_from_db()
    seat.refresh_from_db()
    return seat, Action.objects.get(game=game, seq=before + 1)


def test_a_timeout_reads_as_the_clocks_move_to_everybody(table):
    seat, timeout = _time_out(table, timezone.now() + timedelta(minutes=61))
    assert timeout.by == "timeout"
    other = table.seats.exclude(pk=seat.pk).exclude(user=None).get()
    mine = [line for line in _lines(table, seat) if line["seq"] == timeout.seq]
    theirs = [line for line in _lines(table, other) if line["seq"] == timeout.seq]
    said = "time ran out: passed for them" if timeout.kind == "pass" else "time ran out: played"
    assert f"{seat.name}'s {said}" in theirs[0]["text"]
    assert f"{seat.name}'s {said}" in mine[0]["text"]
    # The player's own "while you were away" says the clock did it, not "you passed".
    summary = since_you_looked(mine, seat.player, _names(table))
    assert summary.startswith("Your time ran out")
    assert "you passed" not in summary.lower() and "you played" not in summary.lower()


def test_the_stand_ins_moves_name_the_player_they_are_for(table, client):
    table = _to_play(table)
    seat = waiting_humans(table)[0]
    seat.stand_in = True
    seat.save(update_fields=["stand_in"])
    before = table.seq
    commands.play_bot_move(table.pk)
    table.refresh_from_db()
    move = Action.objects.get(game=table, seq=before + 1)
    assert move.by == "stand_in" and move.player == seat.player
    other = table.seats.exclude(pk=seat.pk).exclude(user=None).get()
    text = next(line["text"] for line in _lines(table, other) if line["seq"] == move.seq)
    assert text.startswith(f"The stand-in {'passed' if move.kind == 'pass' else 'played'}")
    assert f"for {seat.name}" in text
    mine = [line for line in _lines(table, seat) if line["seq"] == move.seq]
    summary = since_you_looked(mine, seat.player, _names(table))
    assert summary.startswith("The stand-in") and summary.endswith("for you")
    # In another language too, on the page.
    other.user.language = "nl"
    other.user.save()
    client.force_login(other.user)
    page = client.get(f"/t/{table.pk}/log/").content.decode()
    assert f"De invaller {'paste' if move.kind == 'pass' else 'speelde'}" in page


def _emails_about(kind_words):
    return [m for m in mail.outbox if kind_words in m.subject]


@pytest.mark.parametrize(("language", "timed_out", "stood_in"), [
    ("en", "Your time ran out at", "The stand-in bot now plays for you at"),
    ("fr", "Votre temps est écoulé à", "Le bot remplaçant joue désormais pour vous à"),
])
def test_the_player_is_told_once_that_the_time_ran_out_and_once_that_the_stand_in_plays(
        table, language, timed_out, stood_in):
    seat = waiting_humans(table)[0]
    seat.user.language = language
    seat.user.save()
    now = timezone.now()
    for _attempt in range(30):
        now += timedelta(minutes=61)
        with time_machine.travel(now):
            commands.enforce_deadlines(table.pk)
        bots_play_on(table)
        # The other human answers in time, every time.
        for waiting in waiting_humans(table):
            if waiting.pk != seat.pk:
                commands.act(table.pk, waiting.user,
                             engine.action_from_json(legal(table, waiting)[0]),
                             table.awaiting[str(waiting.player)][0])
                bots_play_on(table)
        with time_machine.travel(now + timedelta(minutes=5)):
            deliver_due()
        seat.refresh_from_db()
        if seat.stand_in:
            break
    assert seat.stand_in
    mine = [m for m in mail.outbox if m.to == [seat.user.verified_email]]
    told = [m for m in mine if timed_out in m.subject]
    assert len(told) == 1, [m.subject for m in mine]
    stand_in = [m for m in mine if stood_in in m.subject]
    assert len(stand_in) == 1
    link = f"/t/{table.pk}/"
    for message in told + stand_in:
        assert link in message.body
        # Nothing about anybody's cards.
        with __import__("django.utils.translation", fromlist=["override"]).override(language):
            assert not any(str(name) in message.body for name in CARD_NAMES.values())
    # Nobody else hears of it.
    assert not [m for m in mail.outbox if m.to != [seat.user.verified_email]
                and (timed_out in m.subject or stood_in in m.subject)]


def test_a_player_back_at_the_table_before_it_is_sent_is_not_told(table, client):
    seat, _timeout = _time_out(table, timezone.now() + timedelta(minutes=61))
    assert Notification.objects.filter(user=seat.user, kind="timed_out").exists()
    client.force_login(seat.user)
    with time_machine.travel(timezone.now() + timedelta(minutes=62)):
        client.get(f"/t/{table.pk}/")
    with time_machine.travel(timezone.now() + timedelta(minutes=70)):
        deliver_due()
    assert not [m for m in mail.outbox if "Your time ran out" in m.subject]
