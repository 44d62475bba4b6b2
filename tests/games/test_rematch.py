import inspect

import pytest
from django.core import mail
from django.urls import reverse

from games import commands, engine
from games.commands import rematch_lineup
from games.models import Game, Invitation
from leagues.models import LeagueGame, Rematch
from tests.helpers import play_until
from tests.leagues.helpers import (
    make_league,
    make_user,
    play_game,
    start_game,
    this_year_season,
)

pytestmark = pytest.mark.django_db


OPTIONS = {"rounds": 1, "master_rule": True, "philanthropic": "flat"}


@pytest.fixture
def finished(alice, bob, carol):
    return play_game(alice, [bob, carol], bots=2, options=OPTIONS, name="Friday")


def final_keys(game):
    """The previous game's players in final-standings order, as seat keys."""
    seats = {s.player: s for s in game.seats.all()}
    return [seats[row["player"]] for row in game.engine_state().standings]


def test_one_click_opens_a_table_with_the_same_players_and_options(
    client, finished, alice, bob, carol, django_capture_on_commit_callbacks, eager_tasks
):
    client.force_login(bob)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("rematch", args=[finished.pk]))
    new = Game.objects.exclude(pk=finished.pk).get()
    assert response.status_code == 302
    assert response["Location"] == new.get_absolute_url()
    assert new.is_open
    assert new.host == bob
    assert new.options == finished.options
    assert new.seats_wanted == 5
    old_bots = sorted(s.bot_name for s in finished.seats.all() if s.is_bot)
    assert sorted(s.bot_name for s in new.seats.all() if s.is_bot) == old_bots
    assert [s.user for s in new.seats.all() if not s.is_bot] == [bob]
    invited = set(Invitation.objects.filter(game=new).values_list("user__username", flat=True))
    assert invited == {"alice", "carol"}
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.com", "carol@example.com"]
    # Each invitation says what it is: which game it follows, and how the seats go.
    for message in mail.outbox:
        said = "It is the rematch of “Friday”, with the same rules: everyone starts where"
        assert said in message.body and said in message.alternatives[0][0]


def test_the_rematch_remembers_the_final_standings_as_its_seating(client, finished, bob):
    client.force_login(bob)
    client.post(reverse("rematch", args=[finished.pk]))
    rematch = Rematch.objects.get(previous=finished)
    new_bots = {s.bot_name: s.pk for s in rematch.game.seats.all() if s.is_bot}
    expected = [
        f"b{new_bots[s.bot_name]}" if s.is_bot else f"u{s.user_id}"
        for s in final_keys(finished)
    ]
    assert rematch.order == expected


def test_a_second_click_joins_the_rematch_already_open(client, finished, alice, bob):
    client.force_login(bob)
    client.post(reverse("rematch", args=[finished.pk]))
    client.force_login(alice)
    response = client.post(reverse("rematch", args=[finished.pk]))
    new = Rematch.objects.get(previous=finished).game
    assert Game.objects.count() == 2
    assert response["Location"] == new.get_absolute_url()
    assert new.seats.filter(user=alice).exists()
    assert not Invitation.objects.filter(game=new, user=alice).exists()


def test_the_rematch_started_seats_players_by_the_final_standings(client, finished, alice, bob,
                                                                  carol):
    client.force_login(bob)
    client.post(reverse("rematch", args=[finished.pk]))
    new = Rematch.objects.get(previous=finished).game
    # Join in an order unlike the standings; the lineup comes from the standings.
    commands.join(new.pk, carol)
    commands.join(new.pk, alice)
    commands.start(new.pk)
    seats = list(new.seats.select_related("user"))
    by_key = {(s.bot_name if s.is_bot else s.user_id): s.player for s in seats}
    expected = [by_key[s.bot_name if s.is_bot else s.user_id] for s in final_keys(finished)]
    assert rematch_lineup(new, seats) == expected


def test_a_newcomer_at_the_rematch_sits_in_the_middle(finished, alice, bob, carol):
    new = commands.create_table(bob, "Rematch", 5, OPTIONS)
    Rematch.objects.create(previous=finished, game=new,
                           order=[f"u{alice.pk}", f"u{bob.pk}", f"u{carol.pk}", "b999"])
    dave = make_user("dave")
    for user in (alice, carol, dave):
        commands.join(new.pk, user)
    commands.add_bot(new.pk, "basic")
    commands.start(new.pk)
    seats = list(new.seats.select_related("user"))
    player = {s.user_id: s.player for s in seats if not s.is_bot}
    bot = next(s.player for s in seats if s.is_bot)
    # Alice, Bob, Carol keep their order; each newcomer takes the middle place.
    assert rematch_lineup(new, seats) == [
        player[alice.pk], player[dave.pk], bot, player[bob.pk], player[carol.pk]
    ]


def test_a_table_that_is_no_rematch_has_no_lineup(alice):
    game = start_game(alice)
    assert rematch_lineup(game, list(game.seats.all())) is None


@pytest.mark.skipif(
    "lineup" not in inspect.signature(engine.Game.new).parameters,
    reason="engine.Game.new takes no lineup yet (commands.start must pass rematch_lineup)",
)
def test_the_engine_deals_the_rematch_in_the_standings_order(client, finished, alice, bob,
                                                              carol):
    client.force_login(bob)
    client.post(reverse("rematch", args=[finished.pk]))
    new = Rematch.objects.get(previous=finished).game
    commands.join(new.pk, carol)
    commands.join(new.pk, alice)
    commands.start(new.pk)
    new.refresh_from_db()
    seats = list(new.seats.select_related("user"))
    assert list(new.engine_state().lineup) == rematch_lineup(new, seats)


def test_a_league_rematch_stays_in_the_league(client, alice, bob, carol):
    league = make_league(members=[alice, bob, carol])
    season = this_year_season(league)
    game = play_game(alice, [bob, carol], bots=1, league=league, season=season)
    client.force_login(carol)
    client.post(reverse("rematch", args=[game.pk]))
    new = Rematch.objects.get(previous=game).game
    link = LeagueGame.objects.get(game=new)
    assert (link.league, link.season) == (league, season)


def test_there_is_no_rematch_before_the_game_is_over(client, alice, bob):
    game = start_game(alice, [bob])
    client.force_login(bob)
    assert client.post(reverse("rematch", args=[game.pk])).status_code == 403
    assert Game.objects.count() == 1


def test_only_players_of_the_game_can_ask_for_a_rematch(client, finished):
    client.force_login(make_user("mallory"))
    assert client.post(reverse("rematch", args=[finished.pk])).status_code == 404
    assert not Rematch.objects.exists()


def test_a_rematch_is_asked_for_with_a_post(client, finished, bob):
    client.force_login(bob)
    assert client.get(reverse("rematch", args=[finished.pk])).status_code == 405


def _rematch_controls(page: str) -> tuple[bool, bool, bool]:
    """What the record offers of the rematch: to open one, to join it, to go to it."""
    return ("Rematch: same players, same rules" in page, "Join the rematch" in page,
            "Go to the rematch" in page)


@pytest.mark.parametrize("page", ["game_record", "game"])
def test_the_record_and_the_table_offer_one_way_to_the_rematch(page, client, finished, alice,
                                                               bob):
    """Before one is opened, to open it; then, to whoever has no seat there yet, to join it;
    to whoever sits there, or once it has begun, to go to it: never two at once. The
    finished table's own page as its record."""
    url = reverse(page, args=[finished.pk])
    client.force_login(bob)
    assert _rematch_controls(client.get(url).content.decode()) == (True, False, False)
    client.post(reverse("rematch", args=[finished.pk]))
    assert _rematch_controls(client.get(url).content.decode()) == (False, False, True)
    client.force_login(alice)
    assert _rematch_controls(client.get(url).content.decode()) == (False, True, False)
    joined = client.post(reverse("rematch", args=[finished.pk]), follow=True)
    # Whoever joins is told so, not that they opened a table and invited the others.
    said = joined.content.decode()
    assert "You took your seat at the rematch." in said and "are invited" not in said
    assert _rematch_controls(client.get(url).content.decode()) == (False, False, True)


def test_a_rematch_is_named_in_no_language_and_counts_on(client, finished, alice, bob):
    """"Friday · 2", then "Friday · 3": the name is the same for every invitee, whatever
    language its host reads (a "(rematch)" written in one came to the others in it)."""
    client.force_login(bob)
    client.post(reverse("rematch", args=[finished.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    second = Game.objects.exclude(pk=finished.pk).get()
    assert second.name == "Friday · 2"
    third = commands.open_rematch(
        play_game(alice, [bob], bots=2, options=OPTIONS, name=second.name).pk, alice)
    assert third.name == "Friday · 3"


def test_a_game_that_ended_short_of_players_opens_a_rematch_that_can_start(
        client, alice, bob):
    """Ended early when a friend left a table of four: the rematch keeps the four seats
    (three would never start), the free one for a bot or another friend, and says so
    rather than that the others are invited."""
    game = start_game(alice, [bob], bots=2, options={"rounds": 3}, name="Friday")
    commands.leave_game(game.pk, bob)
    game = play_until(game, lambda g: g.is_over)
    assert game.is_over and game.round_number < 3
    client.force_login(alice)
    answer = client.post(reverse("rematch", args=[game.pk]), follow=True)
    new = Game.objects.exclude(pk=game.pk).get()
    assert new.seats_wanted == engine.MIN_PLAYERS and new.seats.count() == 3
    assert not Invitation.objects.filter(game=new).exists()
    page = answer.content.decode()
    assert "the other players are invited" not in page
    assert "The rematch table is open. 1 seat is free: invite a friend or add a bot." in page
    client.post(reverse("add_bot", args=[new.pk]), {"level": "basic", "bots": 2})
    assert new.seats.count() == 4
    client.post(reverse("start", args=[new.pk]))
    assert Game.objects.get(pk=new.pk).is_playing

