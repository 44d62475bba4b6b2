"""A player deletes their own account, with their password said again: every table still
going is left as any player leaves it (an open table they host closes, their seat at
another is freed, a bot plays their cards at a game in progress), what was personal is
erased, every session of theirs ends, and the games they played keep their record with
"Former player" in their name's place."""

import pytest
from django.test import Client

from accounts.models import User
from chat import services as chat
from chat.models import Message
from games import commands
from games.away.content import table_talk
from games.models import Game, Seat
from leagues.models import League, Membership
from players.models import PlayerProfile, Rating
from push.models import PushSubscription
from tests.helpers import (
    PASSWORD,
    bots_play_on,
    deliver_due,
    names,
    play_out,
    start_table,
)

URL = "/accounts/delete/"


@pytest.fixture
def tables(alice, bob, carol):
    """Alice plays a game with Bob, hosts an open table Carol sits at, and has a seat at
    Carol's open table."""
    in_play = start_table(alice, others=[bob], bots=2, name="Friday night")
    hosted = commands.create_table(alice, "Alice's lobby", 5, {"rounds": 2})
    commands.join(hosted.pk, carol)
    seated = commands.create_table(carol, "Carol's lobby", 5, {"rounds": 2})
    commands.join(seated.pk, alice)
    return in_play, hosted, seated


def test_an_anonymous_visitor_is_sent_to_log_in(client):
    response = client.get(URL)
    assert response.status_code == 302
    assert response.url.startswith("/accounts/login/")


def test_the_profile_links_to_it(client, alice):
    client.force_login(alice)
    assert f'href="{URL}"' in client.get("/accounts/profile/").content.decode()


def test_the_page_says_what_becomes_of_each_table_and_changes_nothing(client, alice, tables):
    in_play, hosted, seated = tables
    client.force_login(alice)
    page = client.get(URL).content.decode()
    leave = page.index("You leave the games in progress")
    close = page.index("The tables you opened that have not started close")
    give_up = page.index("Your seat is given up")
    assert leave < page.index("Friday night") < close < page.index("Alice&#x27;s lobby") \
        < give_up < page.index("Carol&#x27;s lobby")
    alice.refresh_from_db()
    assert alice.is_active and alice.deleted is None
    assert Game.objects.get(pk=hosted.pk).is_open


@pytest.mark.parametrize("password", ["", "not-my-password"])
def test_without_the_right_password_nothing_changes(client, alice, tables, password):
    client.force_login(alice)
    response = client.post(URL, {"password": password})
    assert response.status_code == 400
    page = response.content.decode()
    assert ("That is not your password." if password else "This field is required.") in page
    alice.refresh_from_db()
    assert alice.is_active and alice.deleted is None and alice.check_password(PASSWORD)
    assert client.get("/accounts/profile/").status_code == 200  # still signed in
    assert Seat.objects.filter(user=alice).count() == 3


def test_guessing_the_password_here_meets_the_login_lock(client, alice, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    client.force_login(alice)
    for _ in range(3):
        assert client.post(URL, {"password": "guess"}).status_code == 400
    response = client.post(URL, {"password": PASSWORD})
    assert response.status_code == 429
    assert int(response.headers["Retry-After"]) > 0
    assert "Too many wrong passwords" in response.content.decode()
    alice.refresh_from_db()
    assert alice.deleted is None


def test_deleting_leaves_every_table_as_a_player_leaves_it(client, alice, tables):
    in_play, hosted, seated = tables
    client.force_login(alice)
    response = client.post(URL, {"password": PASSWORD})
    assert response.status_code == 302 and response.url == "/"

    hosted.refresh_from_db()
    assert hosted.status == Game.Status.ABANDONED
    assert hosted.end_reason == "The host deleted their account."
    assert not Seat.objects.filter(game=seated, user=alice).exists()
    assert Game.objects.get(pk=seated.pk).is_open  # Carol's table waits for others
    seat = Seat.objects.get(game=in_play, user=alice)
    assert seat.stand_in and (seat.leaving or seat.left)
    # The game goes on: only Bob is ever waited for.
    game = bots_play_on(Game.objects.get(pk=in_play.pk))
    assert set(game.awaiting) <= {str(Seat.objects.get(game=in_play, user__username="bob")
                                      .player)}


def test_deleting_erases_what_was_personal_and_ends_every_session(client, alice, bob, tables):
    other_device = Client()
    other_device.force_login(alice)
    PushSubscription.objects.create(user=alice, endpoint="https://push.example/1",
                                    p256dh="k", auth="a")
    PlayerProfile.objects.create(user=alice, visibility=PlayerProfile.Visibility.EVERYONE)
    league = League.objects.create(name="Office", slug="office")
    Membership.objects.create(league=league, user=alice)
    User.objects.filter(pk=alice.pk).update(channel_url="ntfys://alices-topic")
    client.force_login(alice)

    client.post(URL, {"password": PASSWORD})

    alice.refresh_from_db()
    assert alice.deleted is not None and not alice.is_active
    assert (alice.email, alice.display_name, alice.channel_url) == ("", "", "")
    assert alice.username != "alice" and not alice.has_usable_password()
    assert alice.notify == User.Notify.NEVER
    assert not PushSubscription.objects.filter(user=alice).exists()
    assert not PlayerProfile.objects.filter(user=alice).exists()
    assert not Membership.objects.filter(user=alice).exists()
    for device in (client, other_device):
        assert device.get("/accounts/profile/").status_code == 302
    assert not Client().login(username="alice", password=PASSWORD)


def test_the_games_played_keep_their_record_with_a_former_player(client, alice, bob, tables):
    in_play, _hosted, _seated = tables
    client.force_login(alice)
    client.post(URL, {"password": PASSWORD})

    client.force_login(bob)
    page = client.get(in_play.get_absolute_url()).content.decode()
    assert "Former player" in page
    assert "Alice" not in page
    assert "alice" not in client.get("/players/").content.decode()


def test_the_address_is_free_for_a_new_account(client, alice):
    address = alice.email
    client.force_login(alice)
    client.post(URL, {"password": PASSWORD})
    assert not User.objects.filter(email=address).exists()


def test_a_second_submit_deletes_nothing_more(alice, tables):
    assert commands.delete_account(alice.pk) is True
    deleted = User.objects.get(pk=alice.pk).deleted
    assert commands.delete_account(alice.pk) is False
    assert User.objects.get(pk=alice.pk).deleted == deleted


def test_a_rating_of_a_former_player_is_not_listed(client, alice, bob, tables):
    Rating.objects.create(user=alice)
    Rating.objects.create(user=bob)
    commands.delete_account(alice.pk)
    client.force_login(bob)
    people = client.get("/players/").context["people"]
    assert [rating.user_id for rating in people] == [bob.pk]


def test_nobody_invites_a_former_player(alice, bob, carol, tables):
    in_play, _hosted, _seated = tables
    commands.delete_account(alice.pk)
    table = commands.create_table(bob, "Bob's table", 5, {"rounds": 2})
    with pytest.raises(commands.Rejected):
        commands.invite(table, bob, user=User.objects.get(pk=alice.pk))
    assert not table.invitations.exists()


def test_a_rematch_invites_the_others_but_not_a_former_player(alice, bob, carol, mailoutbox):
    game = start_table(bob, others=[alice, carol], bots=1, options={"rounds": 1})
    commands.delete_account(alice.pk)
    game = play_out(Game.objects.get(pk=game.pk))
    rematch = commands.open_rematch(game.pk, bob)
    assert [invitation.user for invitation in rematch.invitations.all()] == [carol]


def test_the_end_of_the_game_is_told_to_the_others_alone(alice, bob, tables, mailoutbox):
    in_play, _hosted, _seated = tables
    commands.delete_account(alice.pk)
    play_out(Game.objects.get(pk=in_play.pk))
    deliver_due()
    told = {address for message in mailoutbox for address in message.to}
    assert bob.email in told
    assert "alice@example.com" not in told


def test_the_way_out_stays_in_the_language_the_player_chose(client, alice):
    User.objects.filter(pk=alice.pk).update(language="nl")
    client.force_login(alice)
    response = client.post(URL, {"password": PASSWORD}, follow=True)
    page = response.content.decode()
    assert "Je account is verwijderd." in page
    assert '<html lang="nl"' in page


def test_what_they_said_stays_said_by_a_former_player(client, alice, bob, carol, tables):
    """Their talk stays in the others' history, under no name of theirs: at a table
    they played at, in the lobbies they leave and left before (where a message keeps
    the name it was said under once its seat is gone), as a watcher, and in the talk an
    email quotes."""
    in_play, _hosted, seated = tables
    chat.post(in_play, Seat.objects.get(game=in_play, user=alice), "Good luck, all")
    chat.post(seated, Seat.objects.get(game=seated, user=alice), "See you at eight")
    watched = start_table(carol, bots=3, name="Carol's evening")
    commands.set_watchable(watched.pk, carol, True, talk=True)
    chat.post_as_watcher(Game.objects.get(pk=watched.pk), alice, "Nice play, Carol")
    left = commands.create_table(carol, "Carol's other lobby", 5, {"rounds": 2})
    commands.join(left.pk, alice)
    chat.post(left, Seat.objects.get(game=left, user=alice), "Sorry, not tonight")
    commands.remove_seat(left.pk, Seat.objects.get(game=left, user=alice).pk, by_host=False)
    commands.delete_account(alice.pk)

    quoted = table_talk(in_play, Seat.objects.get(game=in_play, user=bob))
    assert [line["name"] for line in quoted] == ["Former player"]
    client.force_login(bob)
    page = client.get(in_play.get_absolute_url() + "?chat=open").content.decode()
    assert "Good luck, all" in page and "Alice" not in page
    client.force_login(carol)
    page = client.get(seated.get_absolute_url()).content.decode()
    assert "See you at eight" in page and "Alice" not in page and "Former player" in page
    page = client.get(left.get_absolute_url()).content.decode()
    assert "Sorry, not tonight" in page and "Alice" not in page
    page = client.get(watched.get_absolute_url() + "?chat=open").content.decode()
    assert "Nice play, Carol" in page and "Alice" not in page
    assert "Former player (watching)" in page


def test_the_others_naming_them_in_the_talk_no_longer_name_them(client, alice, bob, tables):
    """"@Alice" in the others' messages (how the talk names a player to tell them) goes
    with the name, in any case and wherever it stands; a word that only begins like it,
    an address, the rest of the message, and the same name at a table Alice never sat
    at stay as written."""
    in_play, _hosted, seated = tables
    other = start_table(bob, bots=3, name="Bob's evening")
    bob_seat = Seat.objects.get(game=in_play, user=bob)
    chat.post(in_play, bob_seat, "@Alice your turn, @alice! Ask @Alicey or alice@x.nl")
    chat.post(seated, Seat.objects.get(game=seated, user=alice), "(@Alice) is me")
    chat.post(other, Seat.objects.get(game=other, user=bob), "Where is @Alice tonight?")
    commands.delete_account(alice.pk)

    texts = dict(Message.objects.values_list("game_id", "text"))
    assert texts[in_play.pk] == "@… your turn, @…! Ask @Alicey or alice@x.nl"
    assert texts[seated.pk] == "(@…) is me"
    assert texts[other.pk] == "Where is @Alice tonight?"
    client.force_login(bob)
    page = client.get(in_play.get_absolute_url() + "?chat=open").content.decode()
    assert "@… your turn" in page and not names(page, "Alice")


def test_the_player_may_erase_what_they_said_too(client, alice, bob, carol, tables):
    """Ticked on the way out: their words go from every talk (the lines stay, so the
    others' answers still follow something), in the pages and in the talk an email
    quotes; the others' words stay."""
    in_play, _hosted, seated = tables
    chat.post(in_play, Seat.objects.get(game=in_play, user=alice), "My number: 06 12 34")
    chat.post(in_play, Seat.objects.get(game=in_play, user=bob), "Thanks, Alice")
    chat.post(seated, Seat.objects.get(game=seated, user=alice), "See you at eight")
    client.force_login(alice)
    assert "Erase what I said at the tables too" in client.get(URL).content.decode()
    client.post(URL, {"password": PASSWORD, "erase_talk": "on"})

    quoted = table_talk(in_play, Seat.objects.get(game=in_play, user=bob))
    assert [line["text"] for line in quoted] == ["(deleted)"]  # what Bob has not read
    client.force_login(bob)
    page = client.get(in_play.get_absolute_url() + "?chat=open").content.decode()
    assert "06 12 34" not in page and "(deleted)" in page and "Thanks, Alice" in page
    client.force_login(carol)
    assert "See you at eight" not in client.get(seated.get_absolute_url()).content.decode()


def test_invitations_to_the_player_go_with_the_account(alice, bob, carol):
    """Those to the account, and those a host sent to its address as typed: the address
    is the player's, and no email may go to it on their behalf."""
    by_account = commands.create_table(bob, "Bob's table", 5, {"rounds": 2})
    commands.invite(by_account, bob, user=alice)
    by_address = commands.create_table(carol, "Carol's table", 5, {"rounds": 2})
    commands.invite(by_address, carol, email="ALICE@example.com")
    commands.invite(by_address, carol, email="someone.else@example.com")
    commands.delete_account(alice.pk)
    assert not by_account.invitations.exists()
    assert [i.email for i in by_address.invitations.all()] == ["someone.else@example.com"]


def test_their_absences_and_the_tables_they_were_taken_off_go_with_the_account(
        alice, bob, tables):
    """When they were away and where a host took them off are theirs: nothing of a game
    anyone still plays reads them once they are out of every table."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Pause, Removal

    in_play = tables[0]
    now = timezone.now()
    Pause.objects.create(user=alice, start=now - timedelta(days=3), end=now - timedelta(days=1))
    Pause.objects.create(user=alice, game=in_play, start=now, end=now + timedelta(days=2))
    Pause.objects.create(user=bob, start=now, end=now + timedelta(days=1))
    hosted_by_bob = commands.create_table(bob, "Bob's lobby", 5, {"rounds": 2})
    commands.join(hosted_by_bob.pk, alice)
    commands.remove_seat(hosted_by_bob.pk, hosted_by_bob.seats.get(user=alice).pk)
    assert Removal.objects.filter(user=alice).exists()

    commands.delete_account(alice.pk)

    assert not Pause.objects.filter(user=alice).exists()
    assert not Removal.objects.filter(user=alice).exists()
    assert Pause.objects.filter(user=bob).count() == 1
