"""Two players may choose the same display name, never the same username: wherever an
organiser picks a person (the league's member picker, the host and the guests of a new
table), each is named with their username too, so that the right one is picked; and the
league's standings (its page, its spreadsheet, the games' winners) tell them apart."""

import pytest
from django.urls import reverse

from .helpers import make_league, make_user, record_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_camilles():
    return [make_user("camille", display_name="Camille"),
            make_user("camille_r", display_name="Camille")]


def test_the_member_picker_tells_two_players_of_one_name_apart(client, organiser,
                                                              two_camilles):
    client.force_login(organiser)
    response = client.get(reverse("admin:autocomplete"), {
        "app_label": "leagues", "model_name": "membership", "field_name": "user",
        "term": "cam",
    })
    assert response.status_code == 200
    assert sorted(r["text"] for r in response.json()["results"]) == [
        "Camille (@camille)", "Camille (@camille_r)"]


def test_a_member_already_picked_is_shown_with_their_username(client, organiser,
                                                             two_camilles):
    league = make_league(members=two_camilles)
    league.organisers.add(organiser)
    client.force_login(organiser)
    page = client.get(reverse("admin:leagues_league_change", args=[league.pk])).content.decode()
    assert "Camille (@camille)" in page and "Camille (@camille_r)" in page


def test_the_new_table_form_names_its_host_and_guests_with_their_usernames(
        client, organiser, two_camilles):
    league = make_league(members=two_camilles)
    league.organisers.add(organiser)
    client.force_login(organiser)
    page = client.post(reverse("admin:leagues_league_changelist"), {
        "action": "create_table", "_selected_action": [league.pk],
    }).content.decode()
    # Twice each: once as a possible host, once as a guest to invite.
    assert page.count("Camille (@camille_r)") == 2
    assert page.count("Camille (@camille)<") + page.count("Camille (@camille)\n") == 2


def test_a_player_whose_display_name_is_their_username_is_named_once(client, organiser):
    make_user("dirk", display_name="dirk")
    client.force_login(organiser)
    response = client.get(reverse("admin:autocomplete"), {
        "app_label": "leagues", "model_name": "membership", "field_name": "user",
        "term": "dir",
    })
    assert [r["text"] for r in response.json()["results"]] == ["dirk"]


def test_the_league_page_tells_two_players_of_one_name_apart(client, two_camilles):
    one, other = two_camilles
    anna = make_user("anna", display_name="Anna")
    league = make_league(members=[*two_camilles, anna])
    # Anna first, then the two Camilles; the second Camille wins the game.
    record_game([one, other, anna, None], [([0, 1, 2, 3], [2, 1, 0, 3]),
                                          ([2, 1, 0, 3], [1, 0, 2, 3])], league)
    client.force_login(anna)
    page = client.get(reverse("league", args=[league.slug])).content.decode()
    assert ">Camille (@camille)</a>" in page and ">Camille (@camille_r)</a>" in page
    assert ">Anna</a>" in page and "(@anna)" not in page
    assert "Won by Camille (@camille_r)" in page
    # The finished game's players.
    assert "<bdi>Camille (@camille)</bdi>" in page and "<bdi>Camille (@camille_r)</bdi>" in page
    assert "<bdi>Anna</bdi>" in page
    sheet = client.get(reverse("league_standings_csv", args=[league.slug])).content.decode()
    assert "Camille (@camille)," in sheet and "Camille (@camille_r)," in sheet
    assert ",Anna," in sheet
