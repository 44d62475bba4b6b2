"""A superuser deletes an account for a player who asks and cannot do it themselves, as
the player would (Django's own deletion refuses anyone who has played), with a reason kept
in the admin's log; nobody else can."""

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Group
from django.urls import reverse

from accounts.models import User
from games import commands
from games.commands import delete_account
from games.models import Seat
from tests.helpers import make_user, start_table

CHANGELIST = reverse("admin:accounts_user_changelist")


@pytest.fixture
def root(client):
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def playing(alice, bob):
    return start_table(alice, others=[bob], bots=2)


def _ask(client, user, **extra):
    return client.post(CHANGELIST, {"action": "delete_accounts",
                                    "_selected_action": [user.pk], **extra})


def test_djangos_own_deletion_refuses_a_player_who_has_played(root, alice, playing):
    page = root.post(reverse("admin:accounts_user_delete", args=[alice.pk]), {"post": "yes"})
    assert User.objects.filter(pk=alice.pk).exists()
    assert page.status_code == 200  # the page that names what protects the account


def test_the_action_asks_for_a_reason_first_and_changes_nothing_until_then(
        root, alice, playing):
    page = _ask(root, alice)
    assert page.status_code == 200
    assert "Delete these accounts as their players would" in page.content.decode()
    page = _ask(root, alice, apply="1", reason="")
    assert "This field is required." in page.content.decode()
    alice.refresh_from_db()
    assert alice.deleted is None and alice.is_active


def test_the_page_names_each_account_and_what_becomes_of_its_tables(
        root, alice, bob, playing):
    """The list it came from shows usernames, and display names repeat: the page says
    whose accounts these are and what each one's deletion does before anyone confirms."""
    commands.create_table(alice, "Friday lobby", 5, {"rounds": 2})
    carol = make_user("carol", display_name="Alice")
    delete_account(bob.pk)
    me = User.objects.get(username="root")
    page = root.post(CHANGELIST, {"action": "delete_accounts",
                                  "_selected_action": [alice.pk, carol.pk, bob.pk, me.pk]})
    text = page.content.decode()
    assert "Alice (alice, alice@example.com)" in text
    assert "Alice (carol, carol@example.com)" in text
    assert "1 game in progress: Test table" in text
    assert "1 open table they host, which closes: Friday lobby" in text
    assert "No table to leave." in text
    assert f"deleted-{bob.pk}" in text and "Already deleted." in text
    assert "Your own account: you delete it from your profile, not here." in text


def test_with_a_reason_the_accounts_go_as_their_players_would_delete_them(
        root, alice, bob, playing):
    response = _ask(root, alice, apply="1", reason="Asked by email, address lost")
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.deleted is not None and not alice.is_active and alice.email == ""
    seat = Seat.objects.get(game=playing, user=alice)
    assert seat.stand_in
    entry = LogEntry.objects.get(object_id=str(alice.pk))
    assert "Asked by email, address lost" in entry.get_change_message()
    assert "1 account deleted." in root.get(response.url).content.decode()


def test_a_superuser_does_not_delete_their_own_account_here(root):
    me = User.objects.get(username="root")
    _ask(root, me, apply="1", reason="Oops")
    me.refresh_from_db()
    assert me.deleted is None and me.is_active


def test_an_organiser_cannot(client, alice, playing):
    organiser = make_user("olga", is_staff=True)
    organiser.groups.add(Group.objects.get(name="league organiser"))
    client.force_login(organiser)
    _ask(client, alice, apply="1", reason="Because")
    alice.refresh_from_db()
    assert alice.deleted is None and alice.is_active


def test_it_erases_their_talk_when_they_asked(root, alice, bob, playing):
    from chat import services as chat
    from chat.models import Message

    chat.post(playing, Seat.objects.get(game=playing, user=alice), "Call me: 06 12")
    chat.post(playing, Seat.objects.get(game=playing, user=bob), "Bye")
    _ask(root, alice, apply="1", reason="Asked by email", erase_talk="on")
    assert list(Message.objects.filter(game=playing).order_by("pk")
                .values_list("text", "erased")) == [("", True), ("Bye", False)]


def test_the_list_offers_one_way_to_delete_accounts(root, alice):
    page = root.get(CHANGELIST).content.decode()
    assert 'value="delete_accounts"' in page
    assert 'value="delete_selected"' not in page  # Django's, which refuses every player


def test_the_list_tells_deleted_accounts_apart(root, alice, bob):
    from games.commands import delete_account

    delete_account(bob.pk)
    page = root.get(CHANGELIST + "?account=deleted")
    assert [u.pk for u in page.context["cl"].result_list] == [bob.pk]
    kept = root.get(CHANGELIST + "?account=kept").context["cl"].result_list
    assert bob.pk not in [u.pk for u in kept] and alice.pk in [u.pk for u in kept]


def test_a_deleted_account_cannot_be_brought_back_here(root, bob):
    """Its page only shows it: no new password, no "active" box to tick again."""
    from games.commands import delete_account

    delete_account(bob.pk)
    change = reverse("admin:accounts_user_change", args=[bob.pk])
    page = root.get(change).content.decode()
    assert 'name="is_active"' not in page
    assert reverse("admin:auth_user_password_change", args=[bob.pk]) not in page
    root.post(change, {"username": "bob", "is_active": "on", "display_name": "Bob"})
    password = root.post(reverse("admin:auth_user_password_change", args=[bob.pk]),
                         {"password1": "A-new-one-123", "password2": "A-new-one-123"})
    assert password.status_code == 403
    bob.refresh_from_db()
    assert not bob.is_active and not bob.has_usable_password()


def test_nobody_picks_a_deleted_account_as_a_league_member(root, alice, bob):
    from games.commands import delete_account

    delete_account(bob.pk)
    found = root.get(reverse("admin:autocomplete"), {
        "term": "", "app_label": "leagues", "model_name": "membership",
        "field_name": "user"}).json()
    ids = {int(r["id"]) for r in found["results"]}
    assert alice.pk in ids and bob.pk not in ids
