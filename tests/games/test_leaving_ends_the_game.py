"""Leaving a table of four where no bot takes the leaver's seat ends the game for the
others when the round does (RULES.md section 8: fewer than four cannot play on). Whoever
is about to leave, by the table's button or by deleting their account, is told so before
they confirm; elsewhere nothing is said."""

import pytest

from games import commands
from games.models import Game
from tests.helpers import make_user, start_table

pytestmark = pytest.mark.django_db

ENDS = "With fewer than four players left, the game ends when this round does."


def _table(players: int, **options):
    people = [make_user(f"p{players}{n}", display_name=f"P{n}") for n in range(2)]
    if options.get("leaver_bot"):
        game = commands.create_table(people[0], "Bots stay", players, {"rounds": 3},
                                     leaver_bot=True)
        commands.join(game.pk, people[1])
        for _ in range(players - 2):
            commands.add_bot(game.pk, "basic")
        commands.start(game.pk)
        return Game.objects.get(pk=game.pk), people
    return start_table(people[0], people[1:], bots=players - 2,
                       options={"rounds": 3}), people


@pytest.mark.parametrize(("players", "leaver_bot", "ends"), [
    (4, False, True), (5, False, False), (4, True, False)])
def test_the_leave_button_says_whether_leaving_ends_the_game(client, players, leaver_bot,
                                                             ends):
    game, people = _table(players, leaver_bot=leaver_bot)
    client.force_login(people[1])
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert "Leave this game" in page
    assert (ENDS in page) == ends


def test_a_newcomer_on_the_way_keeps_the_game_going(client):
    game, people = _table(4)
    commands.join_in_progress(game.pk, make_user("newcomer"))
    client.force_login(people[1])
    assert ENDS not in client.get(f"/t/{game.pk}/").content.decode()


def test_a_second_leaver_is_told_when_the_first_already_left(client):
    game, people = _table(5)
    commands.leave_game(game.pk, people[0])
    client.force_login(people[1])
    assert ENDS in client.get(f"/t/{game.pk}/").content.decode()


def test_deleting_the_account_says_which_games_it_ends(client):
    four, people = _table(4)
    five = start_table(make_user("host5"), [people[1]], bots=3, options={"rounds": 3},
                       name="Sunday five")
    client.force_login(people[1])
    page = client.get("/accounts/delete/").content.decode()
    listed = page[page.index('class="what-goes"'):page.index("</ul>", page.index(five.name))]
    assert f"{four.name}</a> ({ENDS[0].lower()}{ENDS[1:-1]})" in listed
    assert f"{five.name}</a></li>" in listed
