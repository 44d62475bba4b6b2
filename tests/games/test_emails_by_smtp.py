"""Game emails over a real SMTP server (aiosmtpd on the loopback, `mail_server` in
tests/conftest.py) that refuses the first message: the refused one is sent again, and
each player reads theirs in their own language — the profile's, else the language of
the last page they were served — whatever language the sender was in."""

import smtplib
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.policy import default as email_policy

import pytest
import time_machine
from django.conf import settings
from django.utils import timezone, translation

from games import commands
from games.away import emails
from games.commands import notifications
from games.core.words import CARD_NAMES
from games.models import Notification
from leagues.services import replace_by_bot
from tests.helpers import act_as, legal, start_table, waiting_humans

pytestmark = pytest.mark.django_db

HOUR = 3600


def _deliver_due(now) -> list[str]:
    """What the worker would do with every notification due by `now`: one try each."""
    outcomes = []
    with time_machine.travel(now, tick=False):
        for pk in notifications.due_ids():
            try:
                outcomes.append(emails.deliver(pk))
            except smtplib.SMTPException:
                outcomes.append("refused")
    return outcomes


def _received(mail_server, user) -> list:
    # Read as the bytes that came over the wire: a body sent as 8-bit UTF-8 is decoded
    # by its own charset, as a mail client does.
    return [message_from_bytes(text.encode("utf-8"), policy=email_policy)
            for to, text in mail_server.received if to == [user.email]]


def _text(message) -> str:
    return message.get_body(preferencelist=("plain",)).get_content()


def _told_after_one_refusal(mail_server, user, now):
    """The server refuses the next message; the worker's next try sends it: the one
    message `user` received."""
    mail_server.refusals = mail_server.refused + 1
    outcomes = _deliver_due(now) + _deliver_due(now)
    assert outcomes == ["refused", "sent"]
    (message,) = _received(mail_server, user)
    return message


def _on_to_a_turn_of(game, players):
    """Bots and the host play on until one of `players` is waited for."""
    for _ in range(500):
        waiting = waiting_humans(game)
        mine = [s for s in waiting if s.user in players]
        if mine:
            return mine[0]
        if waiting:
            act_as(game, waiting[0], legal(game, waiting[0])[0])
        else:
            commands.play_bot_move(game.pk)
    raise AssertionError("none of them was ever waited for")


def test_a_refused_turn_email_is_sent_again_in_the_language_of_the_players_pages(
        client, alice, bob, carol, mail_server):
    # Neither chose a language in the profile: their browsers speak German and French.
    for user, accept in ((bob, "de-DE,de;q=0.9"), (carol, "fr-FR,fr;q=0.8")):
        client.force_login(user)
        client.get("/", HTTP_ACCEPT_LANGUAGE=accept)
    with translation.override("en"):  # the host's request, in English
        game = start_table(alice, [bob, carol], bots=1, name="Freitag", turn_limit=HOUR)
    seat = _on_to_a_turn_of(game, [bob, carol])
    reader = seat.user
    due = timezone.now() + timedelta(seconds=settings.NOTIFY_GRACE_SECONDS + 1)

    first = _deliver_due(due)
    assert first.count("refused") == 1 and mail_server.refused == 1
    refused = Notification.objects.get(status="pending", note="failed")
    second = _deliver_due(due)
    assert "refused" not in second
    refused.refresh_from_db()
    assert refused.status == "sent"

    if reader == bob:
        turn = ("Du bist dran: „Freitag“", "Bei „Freitag“ wartet eine Entscheidung auf dich")
        hello = "Hallo Bob,"
    else:
        # French sets a non-breaking space before a colon and inside the quotes.
        turn = ("À vous de jouer\u00a0: «\u00a0Freitag\u00a0»",
                "Une décision vous attend\u00a0: «\u00a0Freitag\u00a0»")
        hello = "Bonjour Carol,"
    (message,) = [m for m in _received(mail_server, reader) if m["Subject"] in turn]
    assert hello in _text(message)
    assert f"/t/{game.pk}/" in _text(message)


def test_the_player_whose_time_ran_out_is_told_by_mail_in_their_language(
        client, alice, bob, mail_server):
    bob.language = "fr"
    bob.save(update_fields=["language"])
    game = start_table(alice, [bob], bots=2, options={"rounds": 3}, turn_limit=HOUR)
    game.seats.update(auto_pass=False)
    seat = _on_to_a_turn_of(game, [bob])
    now = timezone.now() + timedelta(minutes=61)
    with time_machine.travel(now, tick=False):
        assert commands.enforce_deadlines(game.pk) >= 1
    later = now + timedelta(seconds=settings.NOTIFY_GRACE_SECONDS + 1)
    outcomes = _deliver_due(later) + _deliver_due(later)
    assert outcomes.count("refused") == 1

    told = [m for m in _received(mail_server, seat.user)
            if m["Subject"].startswith("Votre temps est écoulé")]
    assert len(told) == 1
    body = _text(told[0])
    assert f"/t/{game.pk}/" in body
    with translation.override("fr"):
        assert not any(str(name) in body for name in CARD_NAMES.values())


def test_the_player_an_organiser_replaced_is_told_by_mail_in_their_language(
        alice, bob, mail_server):
    bob.language = "de"
    bob.save(update_fields=["language"])
    game = start_table(alice, [bob], bots=2, options={"rounds": 3}, name="Freitag")
    # The news of the start, out of the way (the server refuses its first message).
    _deliver_due(timezone.now())
    _deliver_due(timezone.now())
    mail_server.received.clear()
    replace_by_bot(game.pk, game.seats.get(user=bob).pk, "basic", "Bob ist verreist.")
    message = _told_after_one_refusal(mail_server, bob, timezone.now() + timedelta(seconds=1))
    assert message["Subject"] == "Ein Bot spielt jetzt auf deinem Platz bei „Freitag“"
    body = _text(message)
    assert "Hallo Bob," in body and "Begründung des Organisators: Bob ist verreist." in body
    assert "ab Runde 1" in body


def test_the_host_of_an_organisers_table_is_told_by_mail_in_their_language_and_zone(
        alice, bob, mail_server):
    """A refused notice is sent again; the table's closing time in the host's own zone."""
    from accounts.models import User
    from leagues.models import League
    from leagues.services import create_league_table

    alice.language, alice.time_zone = "de", "Asia/Tokyo"
    alice.save(update_fields=["language", "time_zone"])
    olga = User.objects.create_user("olga", "olga@example.com", "x", display_name="Olga")
    league = League.objects.create(name="Freitagsliga", slug="freitag")
    create_league_table(league, alice, [bob], "Freitag", bots=2, invited_by=olga)
    mail_server.received.clear()
    message = _told_after_one_refusal(mail_server, alice,
                                      timezone.now() + timedelta(seconds=1))
    assert message["Subject"] == "Olga hat „Freitag“ für dich eröffnet"
    body = _text(message)
    assert "Hallo Alice," in body and "Liga „Freitagsliga“" in body
    assert "JST" in body and f"/t/{league.league_games.get().game_id}/" in body


def test_the_daily_summary_of_one_table_is_told_in_the_readers_language_and_zone(
        alice, bob, mail_server):
    """A refused summary is sent again; it speaks of its one table as one, and the turn's
    deadline in the reader's own zone."""
    from games.models import TurnLimit

    bob.language, bob.time_zone, bob.notify = "de", "America/New_York", "daily"
    bob.save(update_fields=["language", "time_zone", "notify"])
    game = start_table(alice, [bob], bots=2, options={"rounds": 3}, name="Freitag",
                       turn_limit=TurnLimit.DAY)
    game.seats.update(auto_pass=False)
    _on_to_a_turn_of(game, [bob])
    # Bob's next summary, within the turn's day; whatever else is due by then, out of
    # the way first.
    bob.refresh_from_db()
    eight = notifications.next_summary(bob, timezone.now()) + timedelta(minutes=5)
    _deliver_due(eight)
    _deliver_due(eight)
    mail_server.received.clear()
    with time_machine.travel(eight, tick=False):
        notifications.for_daily_summaries()
    message = _told_after_one_refusal(mail_server, bob, eight)
    assert message["Subject"] == "Eine Partie wartet auf dich"
    body = _text(message)
    assert "Hallo Bob," in body and "Dieser Tisch wartet auf dich:" in body
    assert "\n„Freitag“\n" in body.replace("\r\n", "\n") and f"/t/{game.pk}/" in body
    assert "EST" in body or "EDT" in body


def test_the_holder_of_both_jesters_is_asked_by_mail_in_their_language_unnamed(
        mail_server):
    """Over the wire, in German: a decision before the first trick, and nothing of jesters
    or a revolution (an email is forwarded, read on shared screens), nor a time (the
    decision closes when the Dalmutis have chosen, which no clock can say)."""
    from tests.games.test_decision_words import MERCHANT, _dealt

    _game, users = _dealt("smtp", MERCHANT)
    holder = users[MERCHANT]
    holder.language, holder.time_zone = "de", "Asia/Tokyo"
    holder.save(update_fields=["language", "time_zone"])
    mail_server.refusals = mail_server.refused + 1
    due = timezone.now() + timedelta(hours=1)
    outcomes = _deliver_due(due) + _deliver_due(due)
    assert outcomes.count("refused") == 1 and outcomes.count("sent") >= 2

    (message,) = _received(mail_server, holder)
    body = _text(message)
    assert "Vor dem ersten Stich wartet eine Entscheidung auf dich." in body
    assert "JST" not in body and "Zeit" not in body
    for word in ("narr", "joker", "jester", "revolution"):
        assert word not in body.lower() and word not in message["Subject"].lower()


def test_an_invitation_says_who_and_until_when_in_the_invitees_language_and_zone(
        alice, make_user, mail_server):
    """Through a server that refuses the first message: the refused invitation raises (its
    task tries again) and nothing is half sent; the next try arrives. A player reads who
    invites to which table and the lapse in their own language and zone; an address
    without an account reads no name in the subject, and that a seat asks for an account."""
    with time_machine.travel("2026-11-22 09:00 +00:00", tick=False):
        game = commands.create_table(alice, "Freitag", 5, {"rounds": 1})
    dora = make_user("dora", language="de", time_zone="Asia/Tokyo")
    with time_machine.travel("2026-11-25 09:00 +00:00", tick=False):
        to_dora, _new = commands.invite(game, alice, user=dora)
        to_address, _new = commands.invite(game, alice, email="eve@example.org")
    with pytest.raises(smtplib.SMTPException):
        emails.send_invitation(to_dora.pk)
    assert _received(mail_server, dora) == []
    emails.send_invitation(to_dora.pk)
    emails.send_invitation(to_address.pk)
    (german,) = _received(mail_server, dora)
    assert german["Subject"] == "„Alice“ lädt dich zu einer Partie „Der Große Dalmuti“ " \
                                "am Tisch „Freitag“ ein"
    assert "6. Dezember 2026 um 18:00 JST" in _text(german)
    assert "kostenloses Konto" not in _text(german)
    (stranger,) = [message_from_bytes(text.encode("utf-8"), policy=email_policy)
                   for to, text in mail_server.received if to == ["eve@example.org"]]
    assert stranger["Subject"] == "An invitation to play The Great Dalmuti"
    assert "creating a free account" in _text(stranger)


def test_a_french_turn_email_writes_the_first_of_the_month_as_french_does(
        alice, bob, mail_server):
    """Over the wire, in the reader's zone (Montreal, a day behind the 1st in the site's
    zone for part of the day): a deadline on the first of a month reads « 1er »."""
    bob.language, bob.time_zone = "fr", "America/Montreal"
    bob.save(update_fields=["language", "time_zone"])
    # The turn begins on 30 November at 15:00 in Montreal; a day a turn.
    start = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)
    with time_machine.travel(start, tick=False):
        game = start_table(alice, [bob], bots=2, name="Mardi", turn_limit=24 * HOUR)
        game.seats.update(auto_pass=False)
        _on_to_a_turn_of(game, [bob])
    due = start + timedelta(seconds=settings.NOTIFY_GRACE_SECONDS + 1)
    outcomes = _deliver_due(due) + _deliver_due(due)
    assert outcomes.count("refused") == 1 and "sent" in outcomes
    (message,) = [m for m in _received(mail_server, bob)
                  if m["Subject"].startswith("À vous de jouer")]
    assert "1er décembre 2026 à 15:00 EST" in _text(message)


def test_the_end_is_told_to_whoever_left_in_their_language_at_the_shared_last_place(
        alice, bob, carol, mail_server):
    from tests.helpers import play_until

    bob.language = "nl"
    bob.save(update_fields=["language"])
    game = start_table(alice, [bob, carol], bots=1, options={"rounds": 2}, name="Vrijdag")
    commands.leave_game(game.pk, bob)
    game = play_until(game, lambda g: g.is_over)
    points = game.engine_state().scores[game.seats.get(user=bob).player]
    mail_server.refusals = mail_server.refused + 1
    later = timezone.now() + timedelta(seconds=settings.NOTIFY_GRACE_SECONDS + 1)
    outcomes = _deliver_due(later) + _deliver_due(later)
    assert outcomes.count("refused") == 1
    (message,) = [m for m in _received(mail_server, bob) if "is voorbij" in m["Subject"]]
    body = _text(message)
    standings = [line for line in body.splitlines() if line[:1].isdigit()]
    assert len(standings) == 4
    assert standings[-1].startswith(f"4. Bob (jij, vertrokken) — {points} punt")


def test_the_host_hears_of_the_last_seat_by_mail_in_their_language_and_zone(
        alice, bob, carol, mail_server):
    """A refused notice is sent again; the table's closing time in the host's own zone."""
    alice.language, alice.time_zone = "fr", "America/New_York"
    alice.save(update_fields=["language", "time_zone"])
    game = commands.create_table(alice, "Vendredi", 4, {"rounds": 2})
    commands.add_bot(game.pk, "basic")
    commands.join(game.pk, bob)
    commands.join(game.pk, carol)
    mail_server.received.clear()
    later = timezone.now() + timedelta(seconds=settings.NOTIFY_GRACE_SECONDS + 1)
    message = _told_after_one_refusal(mail_server, alice, later)
    assert message["Subject"] == "Tout le monde est assis à «\u00a0Vendredi\u00a0»"
    body = _text(message)
    assert "Carol a pris la dernière place" in body and " EST, la table ferme." in body


def test_the_great_dalmuti_is_asked_to_place_a_newcomer_by_mail_in_their_language(
        alice, bob, carol, make_user, mail_server):
    """A refused notice is sent again, in the Great Dalmuti's own language."""
    people = [alice, bob, carol, make_user("dora"), make_user("emil")]
    game = start_table(people[0], people[1:], options={"rounds": 3})
    state = game.engine_state()
    great = game.seats.get(player=state.seats[state.round.order[0]]).user
    great.language = "nl"
    great.save(update_fields=["language"])
    commands.join_in_progress(game.pk, make_user("fenna", display_name="Fenna"))
    mail_server.received.clear()
    Notification.objects.exclude(kind="join_place").delete()
    later = timezone.now() + timedelta(seconds=settings.NOTIFY_GRACE_SECONDS + 1)
    message = _told_after_one_refusal(mail_server, great, later)
    assert message["Subject"] == "Kies waar Fenna gaat zitten bij “Test table”"
    assert "kies jij de plaats: 3 of 4." in _text(message)
