"""The usual group: the people a player has sat at a started table with, the most recent
first, humans only, never whoever refuses the player's invitations; invited in one go
from the new-table form or the lobby, all or nobody; a new table with the players of any
finished game; blocking an inviter refuses their invitations on every path."""

from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import commands
from games.core.usual_group import played_with, usual_group
from games.models import Game, Invitation, InvitationBlock
from tests.helpers import names, sql_compiles, start_table

pytestmark = pytest.mark.django_db

STANDARD = {"name": "Again", "seats": "5", "end": "rounds", "rounds": "10",
            "first_round_taxes": "on", "tribute_return": "choice", "merchant_trade": "off",
            "philanthropic": "off", "turn_limit": "86400"}


def _played(host, others, bots: int, name: str, days_ago: int) -> Game:
    """A game over `days_ago` days ago, without dealing a card: only who sat there counts."""
    game = commands.create_table(host, name, 1 + len(others) + bots, {})
    for user in others:
        commands.join(game.pk, user)
    for _ in range(bots):
        commands.add_bot(game.pk, "basic")
    for index, seat in enumerate(game.seats.order_by("pk")):
        seat.player = index
        seat.save(update_fields=["player"])
    when = timezone.now() - timedelta(days=days_ago)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished=when,
                                           started=when)
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def history(alice, bob, carol, dave):
    """Alice played with Bob and Carol (and a bot) last month, and with Dave yesterday."""
    return (_played(alice, [bob, carol], 1, "Last month", 30),
            _played(alice, [dave], 2, "Yesterday", 1))


@pytest.fixture
def erin(alice, make_user):
    """Erin only sat at a table of Alice's that never started."""
    user = make_user("erin")
    commands.join(commands.create_table(alice, "Never started", 5, {}).pk, user)
    return user


def test_the_group_is_who_you_played_with_latest_first_humans_only(alice, history, erin):
    assert [u.username for u in played_with(alice)] == ["dave", "bob", "carol"]


def test_the_group_with_its_names_is_played_with_in_one_query_compiled_once(
        alice, bob, history, monkeypatch):
    """`usual_group` (what the host's page offers) is `played_with`, the blockers left out
    alike, read without building the query again."""
    bob.display_name = "Bobby"
    bob.save(update_fields=["display_name"])
    expected = [(u.pk, u.name) for u in played_with(alice)]
    assert usual_group(alice) == expected and ("Bobby" in dict(expected).values())
    InvitationBlock.objects.create(user=bob, blocked=alice)
    compiles = sql_compiles(monkeypatch)
    with CaptureQueriesContext(connection) as asked:
        found = usual_group(alice)
    assert len(asked) == 1 and compiles == []
    assert found == [(pk, name) for pk, name in expected if pk != bob.pk]


def test_whoever_blocks_you_leaves_your_group_and_refuses_every_invitation(
        client, alice, bob, history):
    client.force_login(bob)
    assert "Block invitations from Alice" in client.get("/players/alice/").content.decode()
    answer = client.post("/invitations/block/", {"block": alice.pk, "next": "/players/alice/"})
    assert answer.status_code == 302 and answer.url == "/players/alice/"
    assert "Let Alice invite you again" in client.get("/players/alice/").content.decode()
    assert InvitationBlock.objects.filter(user=bob, blocked=alice).exists()
    assert "bob" not in [u.username for u in played_with(alice)]
    # By name and by address, at a table of Alice's: refused, nothing created, and she is
    # told no more than that.
    table = commands.create_table(alice, "Friday", 5, {})
    client.force_login(alice)
    for who in ("bob", "bob@example.com"):
        page = client.post(f"/t/{table.pk}/invite/", {"who": who}, follow=True)
        text = page.content.decode()
        assert f"{'Bob' if who == 'bob' else who} could not be invited." in text
        assert "block" not in text.lower()
    assert not Invitation.objects.exists() and mail.outbox == []
    # A rematch of their game invites the others, not Bob.
    rematch = commands.open_rematch(history[0].pk, alice)
    assert [i.user.username for i in rematch.invitations.all()] == ["carol"]
    # Bob's profile still lists Alice, to let her invite him again.
    client.force_login(bob)
    assert "Let Alice invite you again" in client.get("/accounts/profile/").content.decode()
    client.post("/invitations/block/", {"unblock": alice.pk})
    assert not InvitationBlock.objects.exists()


def test_the_new_table_invites_the_ticked_players_in_one_go(client, alice, bob, dave, history,
                                                            erin):
    client.force_login(alice)
    form = client.get("/tables/new/").content.decode()
    assert form.index(">Dave<") < form.index(">Bob<") < form.index(">Carol<")
    assert not names(form, "Erin")
    answer = client.post("/tables/new/", {**STANDARD, "guests": [bob.pk, dave.pk]})
    assert answer.status_code == 302
    game = Game.objects.get(name="Again")
    assert {(i.user.username, i.invited_by_id) for i in game.invitations.all()} == {
        ("bob", alice.pk), ("dave", alice.pk)}
    client.force_login(bob)
    assert "Again" in client.get("/").content.decode()  # the invitation, as ever
    # Ticked in the profile's list, the names come to the form ticked.
    client.force_login(alice)
    assert f'value="{dave.pk}" form="usual-group-table"' in client.get(
        "/accounts/profile/").content.decode()
    form = client.get(f"/tables/new/?guests={dave.pk}").content.decode()
    assert f'value="{dave.pk}" id="id_guests_0" checked' in form


def test_a_forged_choice_opens_nothing_and_invites_nobody(client, alice, bob, history, erin):
    client.force_login(alice)
    answer = client.post("/tables/new/", {**STANDARD, "guests": [bob.pk, erin.pk]})
    assert answer.status_code == 400
    assert "only people you have played with" in answer.content.decode()
    assert not Game.objects.filter(name="Again").exists()
    # The same at a table's lobby: nobody is invited, not even Bob.
    table = commands.create_table(alice, "Friday", 5, {})
    answer = client.post(f"/t/{table.pk}/invite-group/", {"guests": [bob.pk, erin.pk]})
    assert answer.status_code == 403
    assert not Invitation.objects.exists()
    # Only the host invites from her group.
    client.force_login(bob)
    commands.join(table.pk, bob)
    assert client.post(f"/t/{table.pk}/invite-group/",
                       {"guests": [alice.pk]}).status_code == 403
    client.force_login(alice)
    answer = client.post(f"/t/{table.pk}/invite-group/", {"guests": [bob.pk]})
    assert not Invitation.objects.exists()  # Bob is seated: not one to tick any more


def test_a_new_table_with_the_players_of_any_finished_game(client, alice, bob, carol, history):
    older, _newer = history
    client.force_login(alice)
    record = client.get(f"/history/{older.pk}/").content.decode()
    assert f"/tables/new/?from={older.pk}" in record
    form = client.get(f"/tables/new/?from={older.pk}")
    assert form.context["form"].initial["guests"] == [bob.pk, carol.pk]
    assert form.context["form"].initial["seats"] == 4
    answer = client.post("/tables/new/", {**STANDARD, "seats": "4", "from": older.pk,
                                          "guests": [bob.pk, carol.pk]})
    assert answer.status_code == 302
    game = Game.objects.get(name="Again")
    assert game.seats.filter(user=None).count() == 1  # the bot took its seat again
    assert {i.user.username for i in game.invitations.all()} == {"bob", "carol"}
    # From a game she did not sit at: not found.
    client.force_login(bob)
    assert client.get(f"/tables/new/?from={history[1].pk}").status_code == 404


def test_the_lobby_invites_the_ticked_players(client, alice, bob, carol, history):
    table = commands.create_table(alice, "Friday", 6, {})
    client.force_login(alice)
    lobby = client.get(f"/t/{table.pk}/").content.decode()
    assert "Invite the ticked players" in lobby
    page = client.post(f"/t/{table.pk}/invite-group/", {"guests": [bob.pk, carol.pk]},
                       follow=True)
    assert "2 invitations sent." in page.content.decode()
    assert {i.user.username for i in table.invitations.all()} == {"bob", "carol"}


def test_every_link_to_pass_on_comes_with_a_share_button_that_waits_for_javascript(
        client, alice, bob):
    game = commands.create_table(alice, "Friday", 6, {})
    client.force_login(alice)
    lobby = client.get(f"/t/{game.pk}/").content.decode()
    assert lobby.count("data-share-button") == 1
    # Without JavaScript the button stays hidden: the link is text to select and copy.
    assert 'data-label-copy="Copy link" hidden>' in lobby
    assert f'/join/{game.invite_token}/" class="invite-link"' in lobby
    playing = start_table(alice, [bob], bots=2)
    commands.set_watchable(playing.pk, alice, True)
    playing.refresh_from_db()
    page = client.get(f"/t/{playing.pk}/").content.decode()
    assert f'/watch/{playing.watch_token}/" class="invite-link"' in page
    assert page.count("data-share-button") == 1  # the invitation's comes when unfolded
    panel = client.get(f"/t/{playing.pk}/invite-panel/").content.decode()
    assert panel.count("data-share-button") == 1
    assert f'/join/{playing.invite_token}/" class="invite-link"' in panel
    page = client.get(f"/t/{playing.pk}/?invite=1").content.decode()
    assert page.count("data-share-button") == 2  # the watchers' link, and the invitation


def test_the_home_page_declines_an_invitation_and_blocks_its_inviter(
        client, alice, bob, carol, mallory):
    friday = commands.create_table(alice, "Friday", 5, {})
    saturday = commands.create_table(alice, "Saturday", 5, {})
    sunday = commands.create_table(carol, "Sunday", 5, {})
    invitation = commands.invite(friday, alice, user=bob)[0]
    commands.invite(saturday, alice, user=bob)
    commands.invite(sunday, carol, user=bob)
    block_url = f"/invitations/{invitation.pk}/block/"
    # Nobody else may answer Bob's invitation; a link (GET) changes nothing.
    client.force_login(mallory)
    assert client.post(block_url).status_code == 404
    client.force_login(bob)
    assert client.get(block_url).status_code == 405
    home = client.get("/").content.decode()
    assert f'action="{block_url}"' in home and "Block Alice</button>" in home
    page = client.post(block_url, follow=True)
    assert page.redirect_chain == [("/", 302)]
    assert ("Invitation declined. Alice can no longer invite you: you can undo this on "
            "your profile.") in page.content.decode()
    assert InvitationBlock.objects.filter(user=bob, blocked=alice).exists()
    # Alice's other invitation goes too; Carol's stays.
    assert [i.game.name for i in Invitation.objects.filter(user=bob)] == ["Sunday"]
    assert "Block Alice" not in page.content.decode()


def test_only_the_site_administrators_see_who_blocks_whom(client, alice, bob, make_user):
    from django.contrib.auth.models import Group
    commands.set_blocked(bob, alice, True)
    listing = "/admin/games/invitationblock/"
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    page = client.get(listing, {"q": "ali"})
    assert [(b.user.username, b.blocked.username) for b in page.context["cl"].result_list] \
        == [("bob", "alice")]
    assert client.get(listing, {"q": "carol"}).context["cl"].result_count == 0
    block = InvitationBlock.objects.get()
    assert client.get(f"{listing}add/").status_code == 403
    assert client.post(f"{listing}{block.pk}/change/", {"user": bob.pk, "blocked": bob.pk}
                       ).status_code == 403
    assert InvitationBlock.objects.get().blocked == alice
    # A league organiser (staff, with the organisers' permissions) neither finds nor opens it.
    olga = make_user("olga", is_staff=True)
    olga.groups.add(Group.objects.get(name="league organiser"))
    client.force_login(olga)
    assert client.get(listing).status_code == 403
    assert client.get(f"{listing}{block.pk}/change/").status_code == 403
    index = client.get("/admin/").context["app_list"]
    assert "InvitationBlock" not in [m["object_name"] for a in index for m in a["models"]]


def test_the_hosts_page_offers_whom_she_can_still_invite_read_in_one_query(
        client, alice, bob, carol, dave, history):
    """Bob is seated and Carol invited: the list offers Dave alone, and the host's page
    reads the list in one query beside what every seated player's page reads."""
    table = commands.create_table(alice, "Friday", 6, {})
    commands.join(table.pk, bob)
    client.force_login(alice)
    client.post(f"/t/{table.pk}/invite/", {"who": "carol"})
    with CaptureQueriesContext(connection) as host:
        lobby = client.get(f"/t/{table.pk}/").content.decode()
    picks = lobby[lobby.index('class="people-picks"'):]
    picks = picks[:picks.index("</ul>")]
    assert f'value="{dave.pk}"' in picks and ">Dave<" in picks
    assert f'value="{bob.pk}"' not in picks and f'value="{carol.pk}"' not in picks
    client.force_login(bob)
    with CaptureQueriesContext(connection) as guest:
        assert "people-picks" not in client.get(f"/t/{table.pk}/").content.decode()
    assert len(host) == len(guest) + 1, [q["sql"] for q in host]
    # What it offers is what it takes.
    client.force_login(alice)
    page = client.post(f"/t/{table.pk}/invite-group/", {"guests": [dave.pk]}, follow=True)
    assert "1 invitation sent." in page.content.decode()
    # Bob, seated, is not offered, nor taken from a forged form.
    assert client.post(f"/t/{table.pk}/invite-group/", {"guests": [bob.pk]}).status_code == 403
    assert not table.invitations.filter(user=bob).exists()


def test_two_people_of_one_name_are_told_apart_by_their_usernames(alice, bob, carol,
                                                                   dave, history):
    """Bob and Carol both call themselves Camille: the host's list says which is which;
    Dave, whose name nobody shares, is named as at the table."""
    for user in (bob, carol):
        user.display_name = "Camille"
        user.save(update_fields=["display_name"])
    assert sorted(name for _pk, name in usual_group(alice)) == [
        "Camille (@bob)", "Camille (@carol)", dave.name]
