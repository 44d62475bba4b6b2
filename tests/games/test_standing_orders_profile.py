"""Standing orders are chosen once, in the profile, explained plainly at a player's first
table; saving them says so; a pass made by one says so to its owner alone."""

import pytest
from django.urls import reverse

from games import commands
from games.models import Action, Game, Seat
from games.read.narration import log_lines
from tests.helpers import act_as, legal, start_table, waiting_humans

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "heading", "label"), [
    ("en", "Standing orders", "Pass automatically whenever I cannot beat the table"),
    ("de", "Vorgaben", "Automatisch passen, wenn ich nicht überbieten kann"),
])
def test_the_profile_offers_the_standing_orders_with_what_they_do(
        client, alice, language, heading, label):
    alice.language = language
    alice.save()
    client.force_login(alice)
    page = client.get(reverse("profile")).content.decode()
    assert f'id="orders-heading">{heading}</h2>' in page
    assert label in page


def test_orders_chosen_in_the_profile_apply_to_every_table_and_every_new_seat(
        client, alice, bob):
    playing = start_table(alice, [bob], bots=2)
    waiting = commands.create_table(alice, "Later", 5, {"rounds": 2})
    client.force_login(alice)
    answer = client.post(reverse("profile_standing_orders"),
                         {"auto_tax_worst": "on"}, follow=True)
    assert "Your standing orders are saved." in answer.content.decode()
    alice.refresh_from_db()
    assert not alice.auto_pass and alice.auto_tax_worst
    for game in (playing, waiting):
        seat = game.seats.get(user=alice)
        assert not seat.auto_pass and seat.auto_tax_worst
    # Bob's are his own.
    assert playing.seats.get(user=bob).auto_pass
    later = commands.create_table(alice, "Even later", 5, {"rounds": 2})
    seat = later.seats.get(user=alice)
    assert not seat.auto_pass and seat.auto_tax_worst


def test_the_first_table_explains_the_standing_orders_and_later_ones_do_not(client, alice,
                                                                              bob):
    first = start_table(alice, [bob], bots=2)
    second = start_table(alice, [bob], bots=2)
    client.force_login(alice)
    explained = "the site passes for you at once"
    assert explained in client.get(f"/t/{first.pk}/").content.decode()
    assert explained not in client.get(f"/t/{second.pk}/").content.decode()


@pytest.mark.parametrize(("language", "saved"), [
    ("en", "Your standing orders are saved."),
    ("nl", "Je vaste opdrachten zijn opgeslagen."),
])
def test_saving_a_tables_standing_orders_says_so_beside_the_button(
        client, alice, bob, language, saved):
    game = start_table(alice, [bob], bots=2)
    alice.language = language
    alice.save()
    client.force_login(alice)
    answer = client.post(f"/t/{game.pk}/orders/", {"auto_tax_worst": "on"},
                         HTTP_HX_REQUEST="true").content.decode()
    assert saved in answer
    assert '<details class="orders" open>' in answer


def test_a_pass_by_standing_order_says_so_to_its_owner_alone(alice, bob):
    game = start_table(alice, [bob], bots=2, options={"rounds": 3})
    Seat.objects.filter(game=game, user=bob).update(auto_pass=False)
    for _ in range(3000):
        game.refresh_from_db()
        if Action.objects.filter(game=game, by="standing_order", kind="pass").exists():
            break
        if not game.is_playing:
            pytest.fail("no standing order acted")
        humans = waiting_humans(game)
        if humans:
            act_as(game, humans[0], legal(game, humans[0])[0])
        else:
            commands.play_bot_move(game.pk)
    order = Action.objects.filter(game=game, by="standing_order", kind="pass").first()
    game = Game.objects.get(pk=game.pk)
    names = {s.player: s.name for s in game.seats.select_related("user")}
    actions = list(game.actions.filter(round_number=order.round_number).order_by("seq"))
    mine = next(line["text"] for line in log_lines(actions, game.seats.get(user=alice), names)
                if line["seq"] == order.seq)
    theirs = next(line["text"] for line in log_lines(actions, game.seats.get(user=bob), names)
                  if line["seq"] == order.seq)
    assert mine == "You passed by your standing order"
    assert theirs == f"{alice.name} passed"
