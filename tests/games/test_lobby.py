import re

import pytest
from django.core import mail

from games import commands
from games.models import Game, Invitation
from tests.helpers import make_user

pytestmark = pytest.mark.django_db


def test_it_opens_a_table_with_standard_rules_in_one_click(client, alice):
    client.force_login(alice)
    page = client.get("/")
    assert b"New table (standard rules)" in page.content
    response = client.post("/tables/new/", {
        "name": "Friday", "seats": 5, "end": "rounds", "rounds": 10,
        "first_round_taxes": "on", "tribute_return": "choice", "merchant_trade": "off",
        "philanthropic": "off",
    })
    game = Game.objects.get()
    assert response.status_code == 302 and response.url == f"/t/{game.pk}/"
    assert game.host == alice and game.seats.get().user == alice
    assert game.options == {
        "reduced_deck": False, "first_round_taxes": True, "tribute_return": "choice",
        "merchant_trade": "off", "master_rule": False, "philanthropic": "off",
        "rounds": 10, "target_score": None, "seating_ties": "tied_redraw",
        "great_revolution": "declared", "scoring": True, "merchant_trade_from": 6,
    }


def test_it_stores_every_option_of_the_rules(client, alice):
    client.force_login(alice)
    client.post("/tables/new/", {
        "name": "Variants", "seats": 6, "end": "score", "rounds": 10, "target_score": 40,
        "tribute_return": "worst", "merchant_trade": "chosen", "merchant_trade_from": 6,
        "master_rule": "on", "philanthropic": "flat", "seating_ties": "until_unique",
        "great_revolution": "at_once",
    })
    options = Game.objects.get().options
    assert options["master_rule"] and not options["reduced_deck"]
    assert options["seating_ties"] == "until_unique"
    assert options["great_revolution"] == "at_once"
    assert options["merchant_trade_from"] == 6
    assert not options["first_round_taxes"]
    assert options["tribute_return"] == "worst"
    assert options["merchant_trade"] == "chosen"
    assert options["philanthropic"] == "flat"
    assert options["target_score"] == 40 and options["rounds"] is None


def test_it_refuses_a_table_of_three(client, alice):
    client.force_login(alice)
    response = client.post("/tables/new/", {"name": "Tiny", "seats": 3, "end": "rounds",
                                            "rounds": 10, "tribute_return": "choice",
                                            "merchant_trade": "off", "philanthropic": "off"})
    assert response.status_code == 400
    assert not Game.objects.exists()
    assert b"greater than or equal to 4" in response.content


def test_it_invites_by_username_and_emails_the_link(
    client, alice, bob, django_capture_on_commit_callbacks, eager_tasks
):
    game = commands.create_table(alice, "T", 4, {"rounds": 1})
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/t/{game.pk}/invite/", {"who": "bob"})
    assert Invitation.objects.get().user == bob
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["bob@example.com"]
    assert f"/join/{game.invite_token}/" in mail.outbox[0].body
    client.force_login(bob)
    assert b"invites you" in client.get("/").content


def test_it_invites_by_email_someone_without_an_account(
    client, alice, django_capture_on_commit_callbacks, eager_tasks
):
    game = commands.create_table(alice, "T", 4, {"rounds": 1})
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/t/{game.pk}/invite/", {"who": "newbie@example.com"})
    assert Invitation.objects.get().email == "newbie@example.com"
    assert mail.outbox[0].to == ["newbie@example.com"]


def test_it_rejects_an_unknown_username(client, alice):
    game = commands.create_table(alice, "T", 4, {"rounds": 1})
    client.force_login(alice)
    response = client.post(f"/t/{game.pk}/invite/", {"who": "nobody"}, follow=True)
    assert "There is no player called “nobody”".encode() in response.content
    assert not Invitation.objects.exists()


def test_the_invitation_link_seats_whoever_opens_it(client, alice, bob):
    game = commands.create_table(alice, "T", 4, {"rounds": 1})
    client.force_login(bob)
    page = client.get(f"/join/{game.invite_token}/")
    assert b"Take a seat" in page.content
    response = client.post(f"/join/{game.invite_token}/")
    assert response.status_code == 302
    assert game.seats.filter(user=bob).exists()


def test_the_invitation_link_asks_a_visitor_to_sign_up_and_come_back(client, alice):
    game = commands.create_table(alice, "T", 4, {"rounds": 1})
    page = client.get(f"/join/{game.invite_token}/")
    assert f"/accounts/signup/?next=/join/{game.invite_token}/".encode() in page.content


def test_a_guessed_token_finds_nothing(client, alice, bob):
    commands.create_table(alice, "T", 4, {"rounds": 1})
    client.force_login(bob)
    assert client.get("/join/not-the-token/").status_code == 404


def test_a_full_table_takes_nobody_else(client, alice, bob):
    game = commands.create_table(alice, "T", 4, {"rounds": 1})
    for _ in range(3):
        commands.add_bot(game.pk, "basic")
    client.force_login(bob)
    client.post(f"/join/{game.invite_token}/")
    assert not game.seats.filter(user=bob).exists()


def _add_bot_form(client, game) -> dict:
    """The add-a-bot form's fields as the host's lobby page draws them."""
    page = client.get(f"/t/{game.pk}/").content.decode()
    form = re.search(rf'<form[^>]*action="/t/{game.pk}/bots/".*?</form>', page, re.S)[0]
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))


def test_the_host_fills_seats_with_bots_of_a_chosen_level(client, alice):
    game = commands.create_table(alice, "T", 5, {"rounds": 1})
    client.force_login(alice)
    client.post(f"/t/{game.pk}/bots/", {**_add_bot_form(client, game), "level": "skilled"})
    bot = game.seats.get(user=None)
    assert bot.bot_level == "skilled" and bot.bot_name


def test_a_double_tapped_add_a_bot_adds_one(client, alice, bob):
    """The second of two taps (or a resent form) finds the bot its page did not show."""
    game = commands.create_table(alice, "T", 6, {"rounds": 1})
    client.force_login(alice)
    form = {**_add_bot_form(client, game), "level": "basic"}
    first = client.post(f"/t/{game.pk}/bots/", form)
    again = client.post(f"/t/{game.pk}/bots/", form, follow=True)
    assert first.status_code == 302
    assert game.seats.filter(user=None).count() == 1
    assert "already has a bot more than your page showed" in again.content.decode()
    # A friend taking a seat meanwhile does not stop the host's next bot.
    form = {**_add_bot_form(client, game), "level": "basic"}
    commands.join(game.pk, bob)
    client.post(f"/t/{game.pk}/bots/", form)
    assert game.seats.filter(user=None).count() == 2
    # A form without the count it was drawn with is not understood: nothing is added.
    answer = client.post(f"/t/{game.pk}/bots/", {"level": "basic"}, follow=True)
    assert "not understood" in answer.content.decode()
    assert game.seats.filter(user=None).count() == 2


def test_a_bot_never_takes_the_name_of_someone_at_the_table(make_user):
    ada = make_user("ada", display_name="Ada")
    cato = make_user("cato", display_name="CATO")
    game = commands.create_table(ada, "Names", 6, {"rounds": 1})
    commands.join(game.pk, cato)
    bots = [commands.add_bot(game.pk, "basic").bot_name for _ in range(4)]
    # The first names of the list would be "Ada" and "Cato": both are taken by people.
    assert bots == ["Bram", "Dido", "Ezra", "Fien"]


def test_only_the_host_adds_bots_or_removes_players(client, alice, bob, carol):
    game = commands.create_table(alice, "T", 5, {"rounds": 1})
    commands.join(game.pk, bob)
    carol_seat = commands.join(game.pk, carol)
    client.force_login(bob)
    assert client.post(f"/t/{game.pk}/bots/", {"level": "basic"}).status_code == 404
    assert client.post(f"/t/{game.pk}/seats/{carol_seat.pk}/remove/").status_code == 404
    assert game.seats.count() == 3
    client.force_login(alice)
    client.post(f"/t/{game.pk}/seats/{carol_seat.pk}/remove/")
    assert not game.seats.filter(user=carol).exists()


def test_a_removed_friends_open_table_page_reloads_instead_of_waiting_on(client, alice, bob,
                                                                        carol):
    game = commands.create_table(alice, "T", 5, {"rounds": 1})
    commands.join(game.pk, bob)
    carol_seat = commands.join(game.pk, carol)
    client.force_login(alice)
    client.post(f"/t/{game.pk}/seats/{carol_seat.pk}/remove/")
    game.refresh_from_db()
    # Carol's page of the table, still open, asks as it does every few seconds: told to
    # reload, it shows her the host took her off, not a table that seems to wait for her.
    client.force_login(carol)
    poll = client.get(f"/t/{game.pk}/poll/?lobby=1&u={game.updated.timestamp()}",
                      headers={"HX-Request": "true"})
    assert poll.status_code == 204 and poll.headers["HX-Refresh"] == "true"
    assert client.get(f"/t/{game.pk}/").status_code == 410
    # The same question from anyone else who never sat there, or about no table at all,
    # is answered alike: it tells nobody whether the table exists.
    client.force_login(make_user("mallory-l"))
    for table in (game.pk, 999999):
        poll = client.get(f"/t/{table}/poll/?lobby=1&u=1", headers={"HX-Request": "true"})
        assert poll.status_code == 204 and poll.headers["HX-Refresh"] == "true"


def test_the_host_cannot_start_with_fewer_than_four(client, alice, bob):
    game = commands.create_table(alice, "T", 4, {"rounds": 1})
    commands.join(game.pk, bob)
    client.force_login(alice)
    response = client.post(f"/t/{game.pk}/start/", follow=True)
    assert b"at least 4 players" in response.content
    game.refresh_from_db()
    assert game.is_open


def test_starting_shows_the_seating_draw_and_deals_round_one(client, alice, bob):
    game = commands.create_table(alice, "T", 4, {"rounds": 1})
    commands.join(game.pk, bob)
    commands.add_bot(game.pk, "basic")
    commands.add_bot(game.pk, "basic")
    client.force_login(alice)
    client.post(f"/t/{game.pk}/start/")
    game.refresh_from_db()
    assert game.is_playing and game.round_number == 1
    assert game.rounds.get().number == 1
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert "The first seating draw" in page
    assert "Everybody draws a card" in page
    start = game.actions.get(seq=1)
    assert start.kind == "start"
    assert start.events[0]["type"] == "round_starts"


def test_a_game_in_progress_seats_a_newcomer_only_from_the_next_round(
    client, alice, bob, carol, dave
):
    from tests.helpers import play_out, start_table

    game = start_table(alice, [bob], bots=2)
    client.force_login(carol)
    client.post(f"/join/{game.invite_token}/")
    seat = game.seats.get(user=carol)
    assert seat.joining and seat.player is None
    over = play_out(start_table(alice, [bob], bots=2, name="Done"))
    client.force_login(dave)
    client.post(f"/join/{over.invite_token}/")
    assert not over.seats.filter(user=dave).exists()


def test_an_invitation_by_email_reaches_whoever_signs_up_with_that_address(
    client, alice, make_user
):
    game = commands.create_table(alice, "Emailed", 4, {"rounds": 1})
    client.force_login(alice)
    client.post(f"/t/{game.pk}/invite/", {"who": "newbie@example.com"})
    newbie = make_user("newbie")
    client.force_login(newbie)
    page = client.get("/").content.decode()
    assert "invites you to “Emailed”" in page
    invitation = Invitation.objects.get()
    client.post(f"/invitations/{invitation.pk}/decline/")
    assert not Invitation.objects.exists()


def test_nobody_declines_someone_elses_invitation(client, alice, bob, mallory):
    game = commands.create_table(alice, "T", 4, {"rounds": 1})
    client.force_login(alice)
    client.post(f"/t/{game.pk}/invite/", {"who": "bob"})
    client.force_login(mallory)
    invitation = Invitation.objects.get()
    assert client.post(f"/invitations/{invitation.pk}/decline/").status_code == 404
    assert Invitation.objects.filter(pk=invitation.pk).exists()


def test_the_one_tap_table_asks_once_before_opening(client, alice):
    client.force_login(alice)
    home = client.get("/").content.decode()
    assert 'href="/tables/new/?standard=1"' in home
    page = client.get("/tables/new/?standard=1")
    assert "Open a table with the standard rules?" in page.content.decode()
    assert not Game.objects.exists()
    form = page.context["form"]
    data = {"name": form["name"].value(), "seats": "5", "end": "rounds", "rounds": "10",
            "first_round_taxes": "on", "tribute_return": "choice", "merchant_trade": "off",
            "philanthropic": "off"}
    assert client.post("/tables/new/", data).status_code == 302
    assert Game.objects.get().options["rounds"] == 10


def test_new_tables_are_offered_names_that_tell_them_apart(client, alice):
    client.force_login(alice)
    names = []
    for _ in range(3):
        form = client.get("/tables/new/").context["form"]
        names.append(form["name"].value())
        commands.create_table(alice, names[-1], 4, {})
    assert len(set(names)) == 3 and not any("Alice" in n for n in names)


def test_the_seat_list_marks_the_readers_own_seat(client, alice, bob):
    game = commands.create_table(alice, "Waiting", 5, {})
    commands.join(game.pk, bob)
    client.force_login(bob)
    page = client.get(f"/t/{game.pk}/").content.decode()
    seats = page[page.index('<ul class="seat-list">'):]
    seats = seats[:seats.index("</ul>")]
    bob_line = next(line for line in seats.split("<li>") if "Bob" in line)
    alice_line = next(line for line in seats.split("<li>") if "Alice" in line)
    assert "(you)" in bob_line and "(you)" not in alice_line and "(host)" in alice_line


def test_the_hosts_own_seat_is_marked_once_in_one_bracket(client, alice):
    game = commands.create_table(alice, "Waiting", 5, {})
    client.force_login(alice)
    page = client.get(f"/t/{game.pk}/").content.decode()
    seats = page[page.index('<ul class="seat-list">'):]
    alice_line = next(line for line in seats.split("<li>") if "Alice" in line)
    assert '<span class="muted">(host, you)</span>' in alice_line
    assert "(host)" not in alice_line and "(you)" not in alice_line


@pytest.mark.parametrize("language, level, written", [
    ("en", "basic", "(basic bot)"), ("en", "expert", "(expert bot)"),
    ("de", "skilled", "(geschickter Bot)"), ("fr", "basic", "(bot débutant)"),
])
def test_the_lobby_writes_a_bots_level_after_its_name_as_it_writes_host(
        client, alice, language, level, written):
    game = commands.create_table(alice, "T", 5, {"rounds": 1})
    bot = commands.add_bot(game.pk, level)
    alice.language = language
    alice.save()
    client.force_login(alice)
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert f'{bot.bot_name} <span class="muted">{written}</span>' in page
