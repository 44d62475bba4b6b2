"""Invitations: only the host invites, before the start or into the next round of a game
in progress (never once it is over), within limits; the email
is in the recipient's language and shows player-chosen names as quotes, never as the
site's own words; one invitation per address, even when requests race; unanswered, an
invitation lapses after 14 days, its invitee warned the day before."""

import threading
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.db import connection

from games import commands, tasks
from games.away import emails
from games.commands import notifications
from games.core.usual_group import address_digest
from games.models import Invitation, Notification, RefusedAddress
from tests.helpers import make_user, names, play_out, start_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(alice, bob):
    game = commands.create_table(alice, "Friday", 6, {"rounds": 1})
    commands.join(game.pk, bob)
    return game


def _invite(client, game, who, **headers):
    return client.post(f"/t/{game.pk}/invite/", {"who": who}, follow=True)


def test_only_the_host_invites(client, table, bob):
    client.force_login(bob)
    answer = client.post(f"/t/{table.pk}/invite/", {"who": "someone@example.com"})
    assert answer.status_code == 403
    assert not Invitation.objects.exists() and mail.outbox == []


def test_nobody_is_invited_once_the_game_is_over(
    client, alice, bob, django_capture_on_commit_callbacks, eager_tasks
):
    game = play_out(start_table(alice, [bob], bots=2, options={"rounds": 1}))
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(f"/t/{game.pk}/invite/", {"who": "someone@example.com"})
    assert answer.status_code == 302
    assert "This game is over" in client.get(answer.url).content.decode()
    assert not Invitation.objects.exists()
    assert not [m for m in mail.outbox if m.to == ["someone@example.com"]]


def test_a_table_has_a_limit_of_invitations(client, table, alice, settings,
                                            django_capture_on_commit_callbacks, eager_tasks):
    settings.INVITATIONS_PER_TABLE = 3
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        for i in range(5):
            answer = _invite(client, table, f"friend{i}@example.com")
    assert "no more invitations" in answer.content.decode()
    assert Invitation.objects.count() == 3 and len(mail.outbox) == 3


def test_an_inviter_has_a_daily_limit(client, alice, settings,
                                      django_capture_on_commit_callbacks, eager_tasks):
    settings.INVITATIONS_PER_DAY = 4
    client.force_login(alice)
    tables = [commands.create_table(alice, f"T{i}", 6, {"rounds": 1}) for i in range(3)]
    with django_capture_on_commit_callbacks(execute=True):
        for i in range(6):
            answer = _invite(client, tables[i % 3], f"friend{i}@example.com")
    assert "too many invitations today" in answer.content.decode()
    assert Invitation.objects.count() == 4 and len(mail.outbox) == 4


def test_names_in_the_email_are_quoted_as_chosen_by_players(
    client, make_user, django_capture_on_commit_callbacks, eager_tasks
):
    host = make_user("spammer", display_name="Claim your prize at evil.example")
    game = commands.create_table(host, "Free money", 4, {"rounds": 1})
    client.force_login(host)
    with django_capture_on_commit_callbacks(execute=True):
        _invite(client, game, "victim@example.com")
    message = mail.outbox[0]
    # A stranger's inbox shows no name a player chose: anybody may type an address.
    assert message.subject == "An invitation to play The Great Dalmuti"
    assert "“Claim your prize at evil.example”" in message.body
    assert "“Free money”" in message.body
    assert "chosen by the players" in message.body


def test_the_email_is_in_the_recipients_language(client, table, alice, make_user,
                                                 django_capture_on_commit_callbacks, eager_tasks):
    make_user("claire", language="fr")
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        _invite(client, table, "claire")
    assert "Dalmuti" in mail.outbox[0].subject
    assert "vous" in mail.outbox[0].body


def test_an_address_without_an_account_reads_its_dates_in_the_inviters_zone(
    client, table, alice, django_capture_on_commit_callbacks, eager_tasks
):
    """Nothing says where a stranger to the site lives: their friend's zone is the better
    guess (as the friend's language is), not the server's."""
    alice.time_zone = "America/New_York"
    alice.save()
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        _invite(client, table, "marie@example.com")
    (message,) = mail.outbox
    assert " EST" in message.body and " CET" not in message.body


def test_an_address_is_invited_once_whatever_its_case(
    client, table, alice, django_capture_on_commit_callbacks, eager_tasks
):
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        _invite(client, table, "New@Example.com")
        answer = _invite(client, table, "new@example.COM")
    assert answer.status_code == 200
    assert Invitation.objects.count() == 1 and len(mail.outbox) == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_racing_invitations_to_one_address_make_one(alice):
    game = commands.create_table(alice, "Race", 6, {"rounds": 1})
    barrier = threading.Barrier(8)
    errors = []

    def invite():
        try:
            barrier.wait()
            commands.invite(game, alice, email="race@example.com")
        except Exception as exc:  # reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=invite) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert Invitation.objects.filter(game=game).count() == 1
    commands.invite(game, alice, email="RACE@example.com")
    assert Invitation.objects.filter(game=game).count() == 1


def test_looking_players_up_by_name_is_limited(client, table, alice, settings):
    settings.LOOKUP_LIMIT = 3
    client.force_login(alice)
    for i in range(3):
        assert "There is no player called" in _invite(client, table, f"ghost{i}").content.decode()
    answer = _invite(client, table, "ghost9").content.decode()
    assert "looked up too many players" in answer and "There is no player called" not in answer


# -- invitations that lapse --

def _deliver_due():
    return [emails.deliver(pk) for pk in notifications.due_ids()]


@pytest.mark.parametrize("notify", ["every_turn", "daily"])
def test_an_unanswered_invitation_lapses_after_14_days_with_a_warning_the_day_before(
    client, make_user, notify
):
    """A daily summary tells of games in play only: its reader is warned too."""
    host = make_user("host")
    table = commands.create_table(host, "Later", 5, {"rounds": 3})
    guest = make_user("quinn", notify=notify)
    invitation, _new = commands.invite(table, host, user=guest)
    for user in [make_user("ron"), make_user("sam"), make_user("tom")]:
        commands.join(table.pk, user)
    commands.start(table.pk)  # the table starts; the invitation is still unanswered
    sent = invitation.created
    client.force_login(guest)
    home = client.get("/").content.decode()
    assert "you would join at round 2" in home and "until" in home
    with time_machine.travel(sent + timedelta(days=12, hours=23)):
        tasks.sweep()
        _deliver_due()
    assert not [m for m in mail.outbox if "lapses tomorrow" in m.subject]
    with time_machine.travel(sent + timedelta(days=13, minutes=1)):
        tasks.sweep()
        tasks.sweep()  # idempotent: one warning
        _deliver_due()
    warnings = [m for m in mail.outbox if "lapses tomorrow" in m.subject]
    assert len(warnings) == 1 and warnings[0].to == [guest.email]
    assert f"/join/{table.invite_token}/" in warnings[0].body
    assert warnings[0].alternatives and "/unsubscribe/" in warnings[0].body
    assert Invitation.objects.filter(pk=invitation.pk).exists()
    with time_machine.travel(sent + timedelta(days=14, minutes=1)):
        assert commands.expire_invitations() == 1
        assert commands.expire_invitations() == 0
        client.force_login(guest)
        assert "invites you" not in client.get("/").content.decode()


def test_no_warning_for_an_invitation_already_answered(client, make_user):
    host = make_user("host")
    table = commands.create_table(host, "Soon", 5, {"rounds": 3})
    guest = make_user("rita")
    invitation, _new = commands.invite(table, host, user=guest)
    with time_machine.travel(invitation.created + timedelta(days=13, minutes=1)):
        tasks.sweep()
        assert Notification.objects.filter(kind="lapsing").count() == 1
        client.force_login(guest)
        client.post(f"/join/{table.invite_token}/")
        _deliver_due()
    assert not [m for m in mail.outbox if "lapses tomorrow" in m.subject]


def test_an_invitation_to_a_game_in_its_last_round_offers_no_seat_and_says_why_once(client):
    from games.models import Game
    from tests.helpers import make_user, start_table

    users = [make_user(f"lr{i}") for i in range(4)]
    game = start_table(users[0], users[1:], options={"rounds": 3})
    guest = make_user("lrguest")
    commands.invite(Game.objects.get(pk=game.pk), users[0], user=guest)
    client.force_login(guest)
    assert "Take a seat" in client.get("/").content.decode()
    proposal = commands.propose_end(game.pk, users[0])
    for user in users[1:]:
        if commands.vote_end(game.pk, user, proposal.pk, True) == "agreed":
            break
    # The table ends after this round: no seat to offer.
    assert "Take a seat" not in client.get("/").content.decode()
    answer = client.post(f"/join/{game.invite_token}/")
    assert answer.status_code == 409
    page = answer.content.decode()
    assert page.count("there is no next round to join") == 1
    assert 'role="alert"' not in page
    assert 'href="/"' in page.split("<main", 1)[1]  # a way back to My games


def test_a_tables_link_says_it_closed_before_it_started(client, alice, make_user):
    """A link to a table its host closed (or that lapsed) before its game began: it says
    so, with why, and invites nobody; one to a game played out says it is over."""
    closed = commands.create_table(alice, "Never dealt", 5, {"rounds": 2})
    commands.cancel_table(closed.pk, alice)
    client.force_login(make_user("chloe"))
    page = client.get(f"/join/{closed.invite_token}/").content.decode()
    assert "This table closed before it started." in page
    assert "invites you" not in page and "This game is over." not in page
    over = play_out(start_table(alice, bots=3))
    page = client.get(f"/join/{over.invite_token}/").content.decode()
    assert "This game is over." in page and "invites you" not in page


def _link(text: str, path: str) -> str:
    return next(word for word in text.split() if f"{path}" in word)


def test_an_address_without_an_account_can_stop_every_invitation_to_it(
    client, table, alice, make_user, django_capture_on_commit_callbacks, eager_tasks
):
    """Someone invited by address has no account to unsubscribe from: their invitation
    carries a link (and the one-click header) that stops every later invitation to that
    address, from any host, in the language the email spoke; the site keeps only a digest
    of the address, and the hosts learn no more than for a typing mistake."""
    client.force_login(alice)
    alice.language = "de"
    alice.save()
    with django_capture_on_commit_callbacks(execute=True):
        _invite(client, table, "Stranger@Example.com")
    invitation = mail.outbox[0]
    link = _link(invitation.body, "/invitations/stop/")
    assert invitation.extra_headers["List-Unsubscribe"] == f"<{link}>"
    assert link in invitation.alternatives[0][0]
    path = link.removeprefix("http://testserver").split("://", 1)[-1]
    path = path[path.index("/invitations/"):]

    client.logout()
    asked = client.get(path)  # a mail scanner following the link changes nothing
    assert asked.status_code == 200 and "Keine Einladungen mehr" in asked.content.decode()
    assert not RefusedAddress.objects.exists()
    done = client.post(path)
    assert done.status_code == 200
    refused = [r.digest for r in RefusedAddress.objects.all()]
    assert refused == [address_digest("stranger@example.com")]
    assert "stranger" not in str(RefusedAddress.objects.values_list())
    assert client.post(path).status_code == 200  # twice: still one refusal
    assert RefusedAddress.objects.count() == 1

    bram = make_user("bram")
    other = commands.create_table(bram, "Elsewhere", 6, {"rounds": 1})
    client.force_login(bram)
    with django_capture_on_commit_callbacks(execute=True):
        answer = _invite(client, other, "stranger@EXAMPLE.com")
    assert "stranger@example.com could not be invited." in answer.content.decode()
    assert not other.invitations.exists() and len(mail.outbox) == 1

    assert client.get("/invitations/stop/forged/").status_code == 400


def test_a_full_tables_link_says_so_before_anyone_signs_up(client, alice, make_user):
    """Its link asks nobody to sign up for, or take, a seat there is not: it says the table
    is full, to a visitor and to a player, before the start and in play."""
    game = commands.create_table(alice, "Packed", 4, {"rounds": 2})
    for _ in range(3):
        commands.add_bot(game.pk, "basic")
    for who in (None, make_user("dora")):
        client.logout()
        if who is not None:
            client.force_login(who)
        page = client.get(f"/join/{game.invite_token}/").content.decode()
        assert "This table is full" in page
        assert "Sign up to take a seat" not in page and "Take a seat" not in page
    client.logout()
    playing = start_table(alice, bots=9, options={"rounds": 3})  # ten seats: no room
    page = client.get(f"/join/{playing.invite_token}/").content.decode()
    assert "This table is full" in page and "Sign up to take a seat" not in page
    # Nothing to sign up for: the visitor is offered the way on.
    assert 'href="/">Back to the home page</a>' in page and 'href="/rules/"' in page
    roomy = commands.create_table(alice, "Roomy", 6, {"rounds": 2})
    page = client.get(f"/join/{roomy.invite_token}/").content.decode()
    assert "Sign up to take a seat" in page and "This table is full" not in page


def test_a_tables_link_tells_a_visitor_how_many_seats_are_taken_as_it_tells_a_player(
        client, alice, bob, make_user):
    """Whether there is room, before signing up: the count a player reads, and no more
    (not who sits there)."""
    game = commands.create_table(alice, "Thursday night", 5, {"rounds": 2})
    commands.join(game.pk, bob)
    page = client.get(f"/join/{game.invite_token}/").content.decode()
    assert "2 of 5 seats taken." in page and "Sign up to take a seat" in page
    assert not names(page, "Bob")
    client.force_login(make_user("dora"))
    assert "2 of 5 seats taken." in client.get(f"/join/{game.invite_token}/").content.decode()


def test_inviting_again_says_the_invitation_is_already_out(
    client, table, alice, make_user, django_capture_on_commit_callbacks, eager_tasks
):
    """A second invitation sends nothing: the host is told so, not "Invitation sent."."""
    make_user("carla")
    client.force_login(alice)
    # At a time with minutes: on the hour, English writes "3 p.m." (the run that met one
    # failed on it).
    with django_capture_on_commit_callbacks(execute=True), time_machine.travel(
            "2026-12-07 14:17 +00:00", tick=False):
        first = _invite(client, table, "friend@example.com").content.decode()
        again = _invite(client, table, "Friend@example.com").content.decode()
        by_name = _invite(client, table, "carla").content.decode()
        by_name_again = _invite(client, table, "carla").content.decode()
    assert "Invitation sent." in first and "Invitation sent." in by_name
    assert "Invitation sent." not in again and "Invitation sent." not in by_name_again
    assert "Friend@example.com is already invited" in again  # as typed
    assert "Carla is already invited" in by_name_again
    # Until a moment written as every other: in the host's zone, the zone named.
    assert "already invited, until Dec. 21, 2026, 3:17 p.m. CET: " in by_name_again
    assert len(mail.outbox) == 2


@pytest.mark.parametrize("order", ["name first", "address first"])
def test_an_address_and_a_name_invited_tell_the_host_nothing_of_each_other(
    order, client, table, alice, make_user, django_capture_on_commit_callbacks, eager_tasks
):
    """Carla invited by her name and by her confirmed address: the host is answered as for
    any two invitations and sees both in the list as typed, never that they are one person
    (the address is hers alone to give). Carla hears of each, finds the table once among
    her invitations, and declining it declines it whole."""
    carla = make_user("carla")
    ways = ["carla", "carla@example.com"]
    if order == "address first":
        ways.reverse()
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        answers = [_invite(client, table, way).content.decode() for way in ways]
    for answer in answers:
        assert "Invitation sent." in answer and "already invited" not in answer
    listed = client.get(f"/t/{table.pk}/").content.decode()
    assert ">Carla<" in listed and "carla@example.com" in listed
    assert [m.to for m in mail.outbox] == [["carla@example.com"]] * 2

    client.force_login(carla)
    home = client.get("/").content.decode()
    assert home.count(f'action="/join/{table.invite_token}/"') == 1
    first = Invitation.objects.filter(game=table).first()
    client.post(f"/invitations/{first.pk}/decline/")
    assert not Invitation.objects.filter(game=table).exists()


def test_the_host_withdraws_an_invitation_nobody_answered(
    client, table, alice, bob, make_user, settings,
    django_capture_on_commit_callbacks, eager_tasks
):
    """A mistyped address or a friend who cannot come: the host takes the invitation back
    from the table's list and the invitee's games; nobody else can, and a withdrawn
    invitation still counts among the host's of the day (inviting and withdrawing is no
    way round the limit)."""
    settings.INVITATIONS_PER_DAY = 3
    carla = make_user("carla")
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        _invite(client, table, "frend@exmaple.com")
        _invite(client, table, "carla")
    typo = table.invitations.get(email="frend@exmaple.com")
    named = table.invitations.get(user=carla)
    page = client.get(f"/t/{table.pk}/").content.decode()
    assert f'action="/t/{table.pk}/invitations/{typo.pk}/withdraw/"' in page

    client.force_login(bob)  # seated, not the host
    assert client.post(f"/t/{table.pk}/invitations/{typo.pk}/withdraw/").status_code == 403
    client.force_login(alice)
    answer = client.post(f"/t/{table.pk}/invitations/{typo.pk}/withdraw/", follow=True)
    assert "Invitation to frend@exmaple.com withdrawn." in answer.content.decode()
    assert list(table.invitations.all()) == [named]
    again = client.post(f"/t/{table.pk}/invitations/{typo.pk}/withdraw/")
    assert again.status_code == 409  # a double tap, or a page left open
    client.post(f"/t/{table.pk}/invitations/{named.pk}/withdraw/")
    client.force_login(carla)
    assert "Friday" not in client.get("/").content.decode()

    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        _invite(client, table, "friend@example.com")
        answer = _invite(client, table, "someone@example.com")
    assert "too many invitations today" in answer.content.decode()
    assert [i.email for i in table.invitations.all()] == ["friend@example.com"]


def test_an_invitee_opening_the_tables_address_is_led_to_take_the_seat(
        client, alice, carol, mallory):
    table = commands.create_table(alice, "Friday", 5, {})
    commands.invite(table, alice, user=carol)
    client.force_login(carol)
    answer = client.get(f"/t/{table.pk}/")
    assert answer.status_code == 302
    assert answer.url == f"/join/{table.invite_token}/"
    # Only a page asked for by its address: an action or an update is refused as before.
    assert client.post(f"/t/{table.pk}/act/", {}).status_code == 404
    assert client.get(f"/t/{table.pk}/", headers={"HX-Request": "true"}).status_code == 404
    # Somebody not invited learns nothing, as ever.
    client.force_login(mallory)
    assert client.get(f"/t/{table.pk}/").status_code == 404


@pytest.mark.parametrize(("language", "said"), [
    ("en", ("6 players", "3 rounds", "No taxes in the first round",
            "Time limit per turn: 1 day", "time bank: 2 days each")),
    ("de", ("6 Spieler", "3 Runden", "Keine Steuern in der ersten Runde",
            "Bedenkzeit pro Zug: 1 Tag")),
])
def test_the_email_says_the_tables_rules_and_clock(
        client, alice, make_user, language, said, django_capture_on_commit_callbacks,
        eager_tasks):
    """Whether to take the seat depends on them: a game of a day a turn is not one of
    five minutes."""
    game = commands.create_table(alice, "Slow", 6, {"rounds": 3, "first_round_taxes": False},
                                 turn_limit=86400, bank_reserve=2 * 86400)
    make_user("dora", language=language)
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        _invite(client, game, "dora")
    message = mail.outbox[0]
    html = message.alternatives[0][0]
    for words in said:
        assert words in message.body, words
        assert words in html, words


def _invited_into_play(client, host, others, bots: int, options: dict,
                       capture) -> tuple[str, str]:
    """Dora invited by `host` into a game opened for six and started with `others` and
    `bots` bots: the email's text and its HTML."""
    game = start_table(host, others, bots=bots, seats=6, options={"rounds": 3, **options})
    make_user("dora")
    client.force_login(host)
    with capture(execute=True):
        _invite(client, game, "dora")
    message = mail.outbox[0]
    return message.body, message.alternatives[0][0]


def test_an_invitation_into_a_game_in_play_says_how_many_play_at_it(
        client, alice, bob, django_capture_on_commit_callbacks, eager_tasks):
    """The table was opened for six and started with four: the invitee would be a fifth."""
    for text in _invited_into_play(client, alice, [bob], 2, {},
                                   django_capture_on_commit_callbacks):
        assert "4 players at the table" in text
        assert "A table for 6" not in text


def test_an_invitation_into_a_game_short_of_its_merchant_trade_says_it_waits(
        client, alice, bob, django_capture_on_commit_callbacks, eager_tasks):
    """Opened for six with a trade from six, started with five: a sixth would bring it."""
    for text in _invited_into_play(client, alice, [bob], 3, {"merchant_trade": "chosen"},
                                   django_capture_on_commit_callbacks):
        assert "No merchant trade while fewer than 6 play (5 at this table now)" in text


# -- what the invitation email says --

@pytest.mark.parametrize(("language", "zone", "when"), [
    ("en", "Europe/Amsterdam", "Dec. 6, 2026, 10 a.m. CET"),
    ("de", "Asia/Tokyo", "6. Dezember 2026 um 18:00 JST"),
])
def test_the_email_names_who_invites_to_which_table_and_when_it_lapses(
        client, alice, make_user, language, zone, when, django_capture_on_commit_callbacks,
        eager_tasks):
    """To a player, a subject naming nobody reads as spam (a stranger is named nobody:
    see above). The invitation lapses when the table closes
    if nobody starts it (opened three days before the invitation went out, here), said in
    the invitee's language and zone."""
    with time_machine.travel("2026-11-22 09:00 +00:00", tick=False):
        game = commands.create_table(alice, "Thursday night", 5, {"rounds": 1})
    make_user("dora", language=language, time_zone=zone)
    client.force_login(alice)
    with time_machine.travel("2026-11-25 09:00 +00:00", tick=False), \
            django_capture_on_commit_callbacks(execute=True):
        _invite(client, game, "dora")
    message = mail.outbox[0]
    html = message.alternatives[0][0]
    assert "\n" not in message.subject
    for text in (message.body, html):
        assert when in text, text
        assert "The player" not in text
    if language == "en":
        assert message.subject == ("“Alice” invites you to “Thursday night”, a game of "
                                   "The Great Dalmuti")
        assert "“Alice” has saved you a seat at the table “Thursday night”" in message.body
        assert f"The invitation lapses on {when}" in message.body
    else:
        assert message.subject == ("„Alice“ lädt dich zu einer Partie „Der Große Dalmuti“ am "
                                   "Tisch „Thursday night“ ein")
        assert "„Alice“ hat dir einen Platz am Tisch „Thursday night“" in message.body
        assert f"Die Einladung läuft am {when} ab" in message.body
        assert "Der Spieler" not in message.body


def test_a_long_table_name_is_cut_short_in_the_subject(
        client, alice, make_user, django_capture_on_commit_callbacks, eager_tasks):
    game = commands.create_table(alice, "Thursday " + "night " * 12, 5, {"rounds": 1})
    make_user("dora")
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        _invite(client, game, "dora")
    subject = mail.outbox[0].subject
    assert subject.startswith("“Alice” invites you to “Thursday night night")
    assert "…”, a game of The Great Dalmuti" in subject and len(subject) < 110
    assert game.name.strip() in mail.outbox[0].body


def test_into_a_game_in_play_the_invitation_lapses_14_days_after_it_went_out(
        client, alice, bob, make_user, django_capture_on_commit_callbacks, eager_tasks):
    with time_machine.travel("2026-11-22 09:00 +00:00", tick=False):
        game = start_table(alice, [bob], bots=2, seats=6, options={"rounds": 3})
    make_user("dora", time_zone="Europe/Amsterdam")
    client.force_login(alice)
    with time_machine.travel("2026-11-25 09:00 +00:00", tick=False), \
            django_capture_on_commit_callbacks(execute=True):
        _invite(client, game, "dora")
    assert "The invitation lapses on Dec. 9, 2026, 10 a.m. CET" in mail.outbox[0].body


def test_only_an_invitee_without_an_account_is_told_to_make_one(
        client, table, alice, make_user, django_capture_on_commit_callbacks, eager_tasks):
    """Taking the seat asks a newcomer for an account: said before they follow the link,
    and not to anyone who has one already (by name, or by an address that is theirs)."""
    make_user("dora")
    make_user("emil")
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        _invite(client, table, "newcomer@example.com")
        _invite(client, table, "dora")
        _invite(client, table, "emil@example.com")
    told = "Taking the seat means creating a free account, which takes a minute."
    by_address = {m.to[0]: m for m in mail.outbox}
    newcomer = by_address["newcomer@example.com"]
    assert told in newcomer.body and told in newcomer.alternatives[0][0]
    for player in ("dora@example.com", "emil@example.com"):
        assert told not in by_address[player].body
        assert told not in by_address[player].alternatives[0][0]


def test_every_page_gives_the_date_the_email_gives(client, alice, make_user,
                                                   django_capture_on_commit_callbacks):
    """My games and the host's panel say when an invitation lapses as the email does: at
    the latest when its table closes, nobody having started it."""
    with time_machine.travel("2026-11-22 09:00 +00:00", tick=False):
        game = commands.create_table(alice, "Thursday night", 5, {"rounds": 1})
    dora = make_user("dora", time_zone="Europe/Amsterdam")
    client.force_login(alice)
    with time_machine.travel("2026-11-25 09:00 +00:00", tick=False):
        with django_capture_on_commit_callbacks(execute=True):
            _invite(client, game, "dora")
        client.force_login(dora)
        my_games = client.get("/").content.decode()
    assert Invitation.objects.get().lapses == game.created + timedelta(days=14)
    assert "Dec. 6, 2026" in my_games and "Dec. 9, 2026" not in my_games


def test_the_warning_comes_the_day_before_the_table_closes_if_it_closes_first(make_user):
    """Sent three days after its table opened, an invitation lapses with the table (nobody
    starting it): the invitee is warned the day before that, not three days after it."""
    with time_machine.travel("2026-11-22 09:00 +00:00", tick=False):
        host = make_user("host")
        table = commands.create_table(host, "Soon", 5, {"rounds": 3})
    guest = make_user("rita")
    with time_machine.travel("2026-11-25 09:00 +00:00", tick=False):
        commands.invite(table, host, user=guest)
    with time_machine.travel("2026-12-05 08:00 +00:00", tick=False):
        commands.expire_invitations()
        assert not Notification.objects.filter(kind="lapsing").exists()
    with time_machine.travel("2026-12-05 09:01 +00:00", tick=False):
        commands.expire_invitations()
        commands.expire_invitations()
        assert Notification.objects.filter(kind="lapsing", user=guest).count() == 1
