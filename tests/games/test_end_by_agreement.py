"""Ending a game by agreement: a proposal, the votes of the people seated (no answer
counts as no), the end after the round in play through the host's own ending path, the
record that rebuilds it, a proposal lapsing after a day, one open at a time."""

import threading
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.db import connection
from django.utils import timezone

from games import commands
from games.models import Action, EndProposal, EndVote, Notification
from games.read import replay
from players.models import RatingChange
from tests.helpers import deliver_due, play_until, shed_worst, start_table

pytestmark = pytest.mark.django_db


@pytest.fixture(name="game")
def five_people(alice, bob, carol, dave, mallory):
    """Five people and a bot, ten rounds: three of the five make a majority."""
    return start_table(alice, [bob, carol, dave, mallory], bots=1, options={"rounds": 10})


def _state(game):
    game.refresh_from_db()
    return game.engine_state()


def test_a_majority_of_the_people_seated_ends_it_after_the_round(alice, bob, carol, dave,
                                                                  client):
    # Four people (a smaller game to play out): three make a majority.
    game = start_table(alice, [bob, carol, dave], options={"rounds": 10})
    version = game.version
    proposal = commands.propose_end(game.pk, bob)
    assert proposal.votes.get().agree  # the proposer's own yes
    game.refresh_from_db()
    assert game.version > version  # every open page of the table is told
    # Alice has not answered yet and Dave says no.
    assert commands.vote_end(game.pk, dave, proposal.pk, False) == ""
    assert not _state(game).ending
    client.force_login(alice)
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert "Bob proposes to end the game after this round: 1 of the 3 needed agree." in page
    assert "Agree to end" in page
    assert commands.vote_end(game.pk, carol, proposal.pk, True) == ""
    assert commands.vote_end(game.pk, alice, proposal.pk, True) == "agreed"
    round_number = game.round_number
    assert _state(game).ending
    proposal.refresh_from_db()
    assert proposal.outcome == "agreed"
    # The record, in order: the proposal, each answer, then the host's own kind of ending.
    kinds = list(Action.objects.filter(game=game, kind__in=(
        "end_proposal", "end_vote", "ending")).values_list("kind", "by"))
    assert kinds == [("end_proposal", "player"), ("end_vote", "player"),
                     ("end_vote", "player"), ("end_vote", "player"),
                     ("ending", "agreement")]
    assert replay.rebuild_state(game).to_json() == game.state
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert "Most players agree: the game ends after this round" in page
    log = client.get(f"/t/{game.pk}/log/").content.decode()
    assert "Bob proposes to end the game after this round" in log
    assert "Dave wants to play on" in log and "Carol agrees to end the game" in log
    # The host cannot overturn the majority.
    with pytest.raises(commands.Rejected) as refused:
        commands.end_after_this_round(game.pk, alice, end=False)
    assert refused.value.status == 409 and _state(game).ending
    game = play_until(game, lambda g: False, choose=shed_worst)
    # Over after the round in play, its standings final, rated like any finished game.
    assert game.status == "finished" and game.round_number == round_number
    assert replay.rebuild_state(game).to_json() == game.state
    standings = game.engine_state().standings
    changes = {c.rating.user_id: c.place for c in RatingChange.objects.filter(
        game=game, rating__user__isnull=False).select_related("rating")}
    seats = {s.player: s.user_id for s in game.seats.all()}
    assert changes == {seats[row["player"]]: row["rank"] for row in standings
                       if seats[row["player"]] is not None}


def test_no_answers_count_as_no_and_a_lost_cause_closes(game, alice, bob, carol, dave,
                                                        mallory):
    proposal = commands.propose_end(game.pk, bob)
    commands.vote_end(game.pk, carol, proposal.pk, False)
    # One yes, one no, three silent of five: no majority (three) yet, since no answer is
    # a yes, but there could still be one.
    assert commands.vote_end(game.pk, dave, proposal.pk, False) == ""
    assert not _state(game).ending
    # One yes, three no, one silent: three can no longer agree.
    assert commands.vote_end(game.pk, mallory, proposal.pk, False) == "declined"
    proposal.refresh_from_db()
    assert proposal.outcome == "declined" and not _state(game).ending
    assert Action.objects.filter(game=game).last().events == [{"type": "end_declined"}]
    # Closed: a page still showing it is refused, and nothing changes.
    seq = game.seq
    with pytest.raises(commands.Rejected) as refused:
        commands.vote_end(game.pk, alice, proposal.pk, True)
    assert refused.value.status == 409
    game.refresh_from_db()
    assert game.seq == seq
    # The next proposal is another matter.
    assert commands.propose_end(game.pk, carol).pk != proposal.pk


def test_one_open_at_a_time_and_each_answers_once(game, alice, bob, carol):
    proposal = commands.propose_end(game.pk, bob)
    game.refresh_from_db()
    seq = game.seq
    for do in (lambda: commands.propose_end(game.pk, carol),
               lambda: commands.vote_end(game.pk, bob, proposal.pk, True)):
        with pytest.raises(commands.Rejected) as refused:
            do()
        assert refused.value.status == 409
    assert "already" in refused.value.message
    game.refresh_from_db()
    assert game.seq == seq and EndProposal.objects.filter(game=game).count() == 1
    assert EndVote.objects.filter(proposal=proposal).count() == 1


def test_a_proposal_lapses_after_a_day(game, alice, bob, carol):
    with time_machine.travel(timezone.now(), tick=False) as clock:
        proposal = commands.propose_end(game.pk, bob)
        clock.shift(timedelta(hours=23, minutes=59))
        assert commands.lapse_end_proposals() == 0
        commands.vote_end(game.pk, carol, proposal.pk, True)
        clock.shift(timedelta(minutes=2))
        # A page showing it is refused once it lapsed; the sweep tells the table.
        with pytest.raises(commands.Rejected) as refused:
            commands.vote_end(game.pk, alice, proposal.pk, True)
        assert refused.value.status == 409
        assert commands.lapse_end_proposals() == 1
        proposal.refresh_from_db()
        assert proposal.outcome == "lapsed" and not _state(game).ending
        last = Action.objects.filter(game=game).last()
        assert (last.kind, last.events) == ("end_closed", [{"type": "end_lapsed"}])
        assert replay.rebuild_state(game).to_json() == game.state
        # Now another may be proposed.
        commands.propose_end(game.pk, alice)


def test_who_may_not_have_a_say(game, alice, bob, make_user, client):
    proposal = commands.propose_end(game.pk, bob)
    game.refresh_from_db()
    seq = game.seq
    # Someone without a seat (a watcher by link, a stranger): the command refuses, the
    # page answers "no seat, no table".
    stranger = make_user("stranger")
    with pytest.raises(commands.Rejected) as refused:
        commands.vote_end(game.pk, stranger, proposal.pk, True)
    assert refused.value.status == 403
    client.force_login(stranger)
    assert client.post(f"/t/{game.pk}/end-answer/",
                       {"proposal": proposal.pk, "agree": "yes"}).status_code == 404
    # A player whose seat a bot now plays.
    game.seats.filter(user=alice).update(stand_in=True)
    with pytest.raises(commands.Rejected) as refused:
        commands.vote_end(game.pk, alice, proposal.pk, True)
    assert refused.value.status == 403 and "bot" in refused.value.message
    # A stale form naming another proposal, and a form that cannot be read.
    game.seats.filter(user=alice).update(stand_in=False)
    client.force_login(alice)
    answer = client.post(f"/t/{game.pk}/end-answer/",
                         {"proposal": proposal.pk + 1, "agree": "yes"})
    assert answer.status_code == 409
    assert "no longer open" in answer.content.decode()
    assert client.post(f"/t/{game.pk}/end-answer/",
                       {"proposal": proposal.pk, "agree": "maybe"}).status_code == 400
    game.refresh_from_db()
    assert game.seq == seq and EndVote.objects.filter(proposal=proposal).count() == 1


def test_the_others_away_from_the_table_are_told(game, alice, bob, carol):
    commands.propose_end(game.pk, bob)
    told = set(Notification.objects.filter(kind="end_proposed").values_list(
        "user__username", flat=True))
    assert told == {"alice", "carol", "dave", "mallory"}
    # Carol answers at once: her email is dropped; the others get theirs.
    proposal = EndProposal.objects.get(game=game)
    commands.vote_end(game.pk, carol, proposal.pk, False)
    mail.outbox.clear()
    with time_machine.travel(timezone.now() + timedelta(minutes=30)):
        deliver_due()
    about = [m for m in mail.outbox if m.subject == "End the game at “Test table”? Your "
             "answer is wanted"]
    assert sorted(m.to[0] for m in about) == [
        "alice@example.com", "dave@example.com", "mallory@example.com"]
    message = about[0]
    # The same notice as a push, for the devices of those who want them.
    from push.sender import message as push_message
    notice = Notification.objects.filter(kind="end_proposed", user__username="alice").first()
    pushed = push_message(notice)
    assert pushed["title"] == "End the game at “Test table”? Your answer is wanted"
    assert (pushed["body"], pushed["url"]) == ("Open the table to answer.", f"/t/{game.pk}/")
    assert "Bob proposes to end the game at “Test table” after the round in play." in message.body


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_simultaneous_answers_are_counted_once_each(alice, bob, carol, dave, mallory):
    game = start_table(alice, [bob, carol, dave, mallory], bots=1, options={"rounds": 10})
    proposal = commands.propose_end(game.pk, bob)
    barrier = threading.Barrier(4)
    outcomes = []

    def answer(user):
        try:
            barrier.wait()
            outcomes.append(commands.vote_end(game.pk, user, proposal.pk, True))
        except commands.Rejected as rejected:
            outcomes.append(rejected.status)
        finally:
            connection.close()

    # Carol twice: one of hers is refused (or both, when Alice's and Dave's came first and
    # made the majority without her); with two of the three the majority is there.
    threads = [threading.Thread(target=answer, args=(u,)) for u in (carol, carol, alice, dave)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Whichever order they came in: each vote counted once, the majority found once, and
    # whatever came after it or twice refused.
    counted = [o for o in outcomes if o != 409]
    assert counted.count("agreed") == 1 and len(outcomes) == 4, outcomes
    assert EndVote.objects.filter(proposal=proposal).count() == 1 + len(counted)
    assert EndVote.objects.filter(proposal=proposal, seat__user=carol).count() <= 1
    assert Action.objects.filter(game=game, kind="ending").count() == 1
    assert Action.objects.filter(game=game, kind="end_vote").count() == len(counted)


def test_every_page_shows_a_proposal_from_its_opening_to_its_close(game, alice, bob, carol,
                                                                   dave, mallory, client):
    """Whether a table has an open proposal is kept in the shared cache (pages ask it at
    every redraw): a page drawn before a proposal does not hide the next one, and a
    closed one does not linger."""
    client.force_login(alice)
    # The proposal's form, with its count and the answers (the log tells of it too).
    proposes = 'class="nudge vote end-proposal"'
    assert proposes not in client.get(f"/t/{game.pk}/").content.decode()
    proposal = commands.propose_end(game.pk, bob)
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert proposes in page and "Agree to end" in page
    for no in (carol, dave, mallory):
        commands.vote_end(game.pk, no, proposal.pk, False)
    proposal.refresh_from_db()
    assert proposal.outcome == "declined"
    assert proposes not in client.get(f"/t/{game.pk}/").content.decode()
