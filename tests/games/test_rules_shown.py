"""The rules the host chose stay in sight: on the join page before a seat is taken, and
on the game page, folded, for players and watchers, the whole game long (the same list
as the lobby's)."""

import pytest

from games import commands
from tests.helpers import play_out, play_until, start_table

pytestmark = pytest.mark.django_db

CHOSEN = {"rounds": 2, "tribute_return": "worst", "merchant_trade": "chosen",
          "master_rule": True, "philanthropic": "per_position"}
SAID = ("The Dalmutis give back their worst cards", "Merchant trade: chosen cards",
        "Master rule: nobody rises more than one position per round",
        "Philanthropic scoring: the Dalmutis score a point per position their Peon rose",
        "2 rounds")


def _rules(page: str) -> str:
    start = page.index("Rules at this table")
    return page[start:start + 4000]


def test_the_game_page_keeps_the_rules_in_a_folded_panel(client, alice, bob):
    game = start_table(alice, [bob], bots=4, options=CHOSEN)
    client.force_login(bob)
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert '<details class="panel rules-panel"><summary>Rules at this table</summary>' in page
    assert all(said in _rules(page) for said in SAID), _rules(page)
    game.watch_token = "rules-watch"
    game.save(update_fields=["watch_token"])
    client.logout()
    watched = client.get("/watch/rules-watch/").content.decode()
    assert all(said in _rules(watched) for said in SAID)
    # And once it is over.
    play_out(game)
    client.force_login(bob)
    assert all(said in _rules(client.get(f"/t/{game.pk}/").content.decode()) for said in SAID)


def test_the_join_page_says_the_rules_before_a_seat_is_taken(client, alice):
    game = commands.create_table(alice, "Options", 7, CHOSEN)
    page = client.get(f"/join/{game.invite_token}/").content.decode()
    assert all(said in _rules(page) for said in SAID)


@pytest.mark.parametrize("great_revolution", ["declared", "at_once"])
def test_a_first_round_without_taxes_says_what_the_table_waits_for(
        client, alice, bob, carol, dave, great_revolution):
    # Four people: the Greater Peon is a person, whom the table waits for (a seed where
    # the deal makes no Great Revolution at once).
    game = start_table(alice, [bob, carol, dave], seed=3, options={
        "first_round_taxes": False, "great_revolution": great_revolution})
    assert game.engine_state().round.phase == "taxes"
    client.force_login(alice)
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert "The first round has no taxes." in page
    said = "Before the first trick, the Greater Peon may call a Great Revolution."
    assert (said in page) == (great_revolution == "declared")


def test_a_round_result_says_how_the_master_rule_and_philanthropy_weigh(client, alice, bob):
    game = start_table(alice, [bob], bots=5, seed=11, options={
        "rounds": 3, "master_rule": True, "philanthropic": "per_position"})
    game = play_until(game, lambda g: len(g.engine_state().results) >= 1)
    result = game.engine_state().results[-1]
    client.force_login(alice)
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert "Philanthropic scoring: the Great Dalmuti’s points include one per position" in page
    # Seed 11: the master rule holds somebody back, the next order is not the finish.
    assert result["next_order"] != result["finish_order"]
    assert "Title next round" in page
    assert "Master rule: nobody rises more than one position per round, so" in page


def test_without_those_rules_the_result_says_neither(client, alice, bob):
    game = start_table(alice, [bob], bots=5, seed=11, options={"rounds": 3})
    game = play_until(game, lambda g: len(g.engine_state().results) >= 1)
    client.force_login(alice)
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert "Title next round" not in page and "Philanthropic scoring:" not in page


def test_a_finished_games_last_result_names_no_next_round(client, alice, bob):
    game = play_out(start_table(alice, [bob], bots=5, seed=11, options={
        "rounds": 1, "master_rule": True}))
    result = game.engine_state().results[-1]
    assert result["next_order"] != result["finish_order"]  # seed 11, as above
    client.force_login(alice)
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert "Result of round 1" in page and "Title next round" not in page


def test_a_table_started_short_of_the_merchant_trade_says_it_waits(client, alice, bob):
    """Six seats wanted with a trade from six, started at five: the trade the list names
    does not happen until a sixth joins, and the rules say so."""
    game = start_table(alice, [bob], bots=3, seats=6, options={"merchant_trade": "chosen"})
    client.force_login(bob)
    rules = " ".join(_rules(client.get(f"/t/{game.pk}/").content.decode()).split())
    assert "Merchant trade: chosen cards" in rules
    assert "No merchant trade while fewer than 6 play (5 at this table now)" in rules


def test_a_table_at_the_merchant_trades_size_does_not_say_it_waits(client, alice, bob):
    game = start_table(alice, [bob], bots=4, options={"merchant_trade": "random"})
    client.force_login(bob)
    rules = _rules(client.get(f"/t/{game.pk}/").content.decode())
    assert "Merchant trade: random cards" in rules
    assert "fewer than" not in rules


@pytest.mark.parametrize("leaver_bot", [True, False])
def test_a_bot_for_whoever_leaves_is_among_the_tables_rules(
        client, alice, mailoutbox, django_capture_on_commit_callbacks, eager_tasks,
        leaver_bot):
    """Whether a leaver's seat goes to a bot or the table closes up: said wherever the
    table's rules are, on its pages and in an invitation to it."""
    said = "A bot takes the seat of a player who leaves."
    game = commands.create_table(alice, "Leavers", 5, {"rounds": 2}, leaver_bot=leaver_bot)
    with django_capture_on_commit_callbacks(execute=True):
        commands.invite(game, alice, email="dora@example.com")
    join = client.get(f"/join/{game.invite_token}/").content.decode()
    client.force_login(alice)
    lobby = client.get(f"/t/{game.pk}/").content.decode()
    email = mailoutbox[-1]
    for text in (_rules(join), _rules(lobby), email.body, email.alternatives[0][0]):
        assert (said in text) == leaver_bot
