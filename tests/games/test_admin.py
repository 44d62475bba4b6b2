import re

import pytest
from django.contrib.admin.models import LogEntry
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format

from games import commands
from games.admin import ACTION_KINDS, ACTION_MAKERS
from games.models import Action, Game, Invitation, Round
from leagues.models import AdminRecord, LeagueGame, Replacement
from leagues.standings import league_standings
from tests.leagues.helpers import make_league, play_until, start_game

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:games_game_changelist")


@pytest.fixture(name="game")
def stalled_game(alice, bob):
    """Instead of the shared `game`: "Stalled table", in play in round 2 of 3, alice and bob
    with two bots."""
    game = start_game(alice, [bob], bots=2, options={"rounds": 3}, name="Stalled table")
    return play_until(game, lambda g: g.round_number == 2)


def listed(response):
    return [g.name for g in response.context["cl"].result_list]


def filters_shown(response) -> dict[str, list[str]]:
    """Each filter of a changelist by its title, with the choices it offers as shown."""
    changelist = response.context["cl"]
    return {str(spec.title): [str(choice["display"]) for choice in spec.choices(changelist)]
            for spec in changelist.filter_specs}


def test_the_changelist_filters_by_status_and_league(admin_client, alice, bob, game):
    league = make_league(members=[alice, bob])
    LeagueGame.objects.create(game=game, league=league)
    play_until(start_game(alice, name="Quick game"), lambda g: g.is_over)
    assert set(listed(admin_client.get(CHANGELIST))) == {"Stalled table", "Quick game"}
    assert listed(admin_client.get(CHANGELIST, {"status__exact": "finished"})) == ["Quick game"]
    assert listed(admin_client.get(CHANGELIST, {"league": str(league.pk)})) == ["Stalled table"]
    assert listed(admin_client.get(CHANGELIST, {"league": "none"})) == ["Quick game"]
    assert listed(admin_client.get(CHANGELIST, {"q": "bob"})) == ["Stalled table"]


def test_the_change_page_of_a_game_in_play_shows_its_public_log_read_only(admin_client, game):
    url = reverse("admin:games_game_change", args=[game.pk])
    response = admin_client.get(url)
    assert response.status_code == 200
    content = response.content.decode()
    assert "The engine state (every hand)" not in content
    assert "Hidden while the game is in play." in content
    assert "Round 2 is dealt" in content
    assert 'name="status"' not in content and 'name="state"' not in content
    admin_client.post(url, {
        "name": "Renamed", "status": "finished",
        "league_link-TOTAL_FORMS": "0", "league_link-INITIAL_FORMS": "0",
        "league_link-MIN_NUM_FORMS": "0", "league_link-MAX_NUM_FORMS": "1",
        "seats-TOTAL_FORMS": "0", "seats-INITIAL_FORMS": "0",
        "seats-MIN_NUM_FORMS": "0", "seats-MAX_NUM_FORMS": "1000",
        "removals-TOTAL_FORMS": "0", "removals-INITIAL_FORMS": "0",
        "removals-MIN_NUM_FORMS": "0", "removals-MAX_NUM_FORMS": "1000",
        "never_dealt_in-TOTAL_FORMS": "0", "never_dealt_in-INITIAL_FORMS": "0",
        "never_dealt_in-MIN_NUM_FORMS": "0", "never_dealt_in-MAX_NUM_FORMS": "1000",
        "rounds-TOTAL_FORMS": "0", "rounds-INITIAL_FORMS": "0",
        "rounds-MIN_NUM_FORMS": "0", "rounds-MAX_NUM_FORMS": "1000",
    })
    game.refresh_from_db()
    assert (game.name, game.status) == ("Renamed", Game.Status.PLAYING)


def test_nobody_adds_a_table_from_the_admin(admin_client):
    assert admin_client.get(reverse("admin:games_game_add")).status_code == 403


def test_ending_a_stalled_game_asks_for_a_reason(admin_client, game):
    response = admin_client.post(CHANGELIST, {
        "action": "end_stalled_games", "_selected_action": [game.pk], "index": "0",
    })
    assert response.status_code == 200
    assert b"End the games" in response.content
    response = admin_client.post(CHANGELIST, {
        "action": "end_stalled_games", "_selected_action": [game.pk], "apply": "yes",
        "reason": "",
    })
    assert response.status_code == 200
    assert response.context["form"].errors
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING


def test_ending_a_stalled_game_records_why_and_scores_nothing_for_the_round_in_play(
    admin_client, alice, bob, game
):
    league = make_league(members=[alice, bob])
    LeagueGame.objects.create(game=game, league=league)
    round_one = Round.objects.get(game=game, number=1)
    actions = Action.objects.filter(game=game).count()
    response = admin_client.post(CHANGELIST, {
        "action": "end_stalled_games", "_selected_action": [game.pk], "apply": "yes",
        "reason": "Bob has not played for three weeks.",
    }, follow=True)
    assert b"1 game ended." in response.content
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    assert game.end_reason == "Bob has not played for three weeks."
    history = admin_client.get(reverse("admin:games_game_history", args=[game.pk]))
    # The reason once, in its own column.
    assert history.content.decode().count("Bob has not played for three weeks.") == 1
    assert game.finished is not None
    assert game.awaiting == {}
    unfinished = Round.objects.get(game=game, number=2)
    assert (unfinished.points, unfinished.finish_order, unfinished.finished) == ({}, [], None)
    assert Action.objects.filter(game=game).count() == actions
    points = {row.user.username: row.points for row in league_standings(league)}
    seats = {s.player: s.user.username for s in game.seats.all() if s.user}
    assert points == {seats[int(p)]: pts for p, pts in round_one.points.items() if int(p) in seats}
    assert LogEntry.objects.filter(object_id=str(game.pk),
                                   change_message__contains="three weeks").exists()
    # The game stops: no more moves, no more bot moves.
    assert commands.play_bot_move(game.pk) is False


def test_a_game_already_over_is_not_ended_twice(admin_client, alice):
    done = play_until(start_game(alice), lambda g: g.is_over)
    response = admin_client.post(CHANGELIST, {
        "action": "end_stalled_games", "_selected_action": [done.pk], "apply": "yes",
        "reason": "Oops",
    }, follow=True)
    assert b"already over" in response.content
    done.refresh_from_db()
    assert (done.status, done.end_reason) == (Game.Status.FINISHED, "")


def test_replacing_an_absent_player_asks_which_one(admin_client, game):
    response = admin_client.post(CHANGELIST, {
        "action": "replace_absent_player", "_selected_action": [game.pk], "index": "0",
    })
    assert response.status_code == 200
    choices = [label for _value, label in response.context["form"].fields["seat"].choices]
    assert choices[1:] == ["Alice", "Bob"]


def test_an_absent_player_is_replaced_by_a_bot_that_plays_on(admin_client, alice, bob, game):
    seat = game.seats.get(user=bob)
    response = admin_client.post(CHANGELIST, {
        "action": "replace_absent_player", "_selected_action": [game.pk], "apply": "yes",
        "seat": seat.pk, "level": "basic", "reason": "On holiday",
    }, follow=True)
    assert b"was replaced by the bot" in response.content
    seat.refresh_from_db()
    assert seat.is_bot and seat.bot_level == "basic" and seat.bot_name
    replacement = Replacement.objects.get(game=game)
    assert (replacement.user, replacement.player, replacement.round_number) == (
        bob, seat.player, 2
    )
    assert replacement.reason == "On holiday"
    # The organisers' record says why, in its own column.
    assert AdminRecord.objects.get(game=game).reason == "On holiday"
    assert not Invitation.objects.filter(game=game, user=bob).exists()
    # Bob is off the table; the game plays on to its end without him.
    assert admin_client.get(reverse("admin:games_game_change", args=[game.pk])).status_code == 200
    game = play_until(game, lambda g: g.is_over)
    assert game.status == Game.Status.FINISHED
    assert Action.objects.filter(game=game, player=seat.player, by="bot").exists()


def test_a_bot_cannot_be_replaced_and_one_table_at_a_time(admin_client, alice, game):
    other = start_game(alice, name="Other table")
    response = admin_client.post(CHANGELIST, {
        "action": "replace_absent_player", "_selected_action": [game.pk, other.pk],
        "index": "0",
    }, follow=True)
    assert b"Choose exactly one table." in response.content
    bot = game.seats.filter(user__isnull=True).first()
    response = admin_client.post(CHANGELIST, {
        "action": "replace_absent_player", "_selected_action": [game.pk], "apply": "yes",
        "seat": bot.pk, "level": "basic",
    })
    assert response.status_code == 200
    assert "seat" in response.context["form"].errors


def test_the_action_record_is_read_only(admin_client, alice):
    game = play_until(start_game(alice), lambda g: g.is_over)
    action = Action.objects.filter(game=game).first()
    assert admin_client.get(reverse("admin:games_action_changelist")).status_code == 200
    page = admin_client.get(reverse("admin:games_action_change", args=[action.pk]))
    assert page.status_code == 200
    assert b'name="payload"' not in page.content
    assert admin_client.get(reverse("admin:games_action_add")).status_code == 403


def test_a_table_nobody_started_reads_in_the_organisers_language(admin_client, admin_user,
                                                                  alice):
    """Its reason is the site's own words, stored in English: shown in the reader's
    language, and its state as the players read it (closed before it started)."""
    from games.models import NOT_STARTED_IN_TIME

    game = commands.create_table(alice, "Never started", 4, {"rounds": 1})
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABANDONED,
                                           end_reason=NOT_STARTED_IN_TIME)
    admin_user.language = "nl"
    admin_user.save()
    page = admin_client.get(reverse("admin:games_game_change", args=[game.pk]),
                            HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Nobody started the table within 14 days." not in page
    assert "14 dagen" in page
    admin_user.language = "en"
    admin_user.save()
    listing = admin_client.get(CHANGELIST).content.decode()
    assert "Closed before it started" in listing


def test_the_rounds_name_their_players(admin_client, game):
    """By position, finishing order and points: names, not stored player indices."""
    page = admin_client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    first = Round.objects.get(game=game, number=1)
    names = {s.player: s.name for s in game.seats_with_users()}
    order = ", ".join(f"{i}. {names[p]}" for i, p in enumerate(first.finish_order, start=1))
    assert order in page
    assert str(first.positions) not in page


def test_the_change_page_counts_seats_from_one_and_dates_the_log_as_its_fields(
        admin_client, game):
    """As the site counts places (the stored player index counts from 0), and the log's
    times written as the page's other dates are ("12/06/2026" reads as June 12 to many)."""
    page = admin_client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    numbers = re.findall(r'class="field-seat_number">\s*<p>(\d*)</p>', page)
    assert sorted(numbers) == ["1", "2", "3", "4"]
    first = game.actions.order_by("seq").first()
    assert date_format(timezone.localtime(first.created), "DATETIME_FORMAT") in page
    assert date_format(timezone.localtime(first.created), "SHORT_DATETIME_FORMAT") not in page


def test_a_table_not_yet_dealt_names_no_round(admin_client, alice, game):
    """A lobby is in no round: its page and its line in the list say so as the admin says
    every empty value ("-"), not "round 0"; a table in play names its round. Its other
    empty values (not started, nobody awaited, no state, no log) read alike."""
    lobby = commands.create_table(alice, "Not dealt yet", 5, {"rounds": 3})
    page = admin_client.get(reverse("admin:games_game_change", args=[lobby.pk])).content.decode()
    assert re.search(r'field-round_shown">.*?<div class="readonly">-</div>', page, re.S)
    values = re.findall(r'<div class="readonly">(.*?)</div>', page, re.S)
    assert values.count("-") == 7 and "—" not in values
    page = admin_client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert re.search(r'field-round_shown">.*?<div class="readonly">2</div>', page, re.S)
    listing = admin_client.get(CHANGELIST).content.decode()
    rounds = dict(re.findall(r'<th class="field-name"><a [^>]*>([^<]*)</a></th>.*?'
                             r'<td class="field-round_shown">([^<]*)</td>', listing, re.S))
    assert rounds == {"Not dealt yet": "-", "Stalled table": "2"}



def test_the_record_says_what_happened_and_who_made_it_in_the_readers_words(
        admin_client, admin_user, alice):
    # A game of six with the merchants' trade and a second round's taxes: the record holds
    # deals, plays, passes, taxes given back, decisions on a revolution and trades, made by
    # the player, by her standing orders, by bots and by the site.
    game = play_until(start_game(alice, bots=5, options={
        "rounds": 2, "merchant_trade": "chosen", "merchant_trade_from": 6}),
        lambda g: g.is_over)
    stored = Action.objects.filter(game=game)
    kinds = set(stored.values_list("kind", flat=True))
    makers = set(stored.values_list("by", flat=True))
    assert {"start", "next_round", "play", "pass", "give_back", "trade"} <= kinds
    assert {"player", "bot", "system"} <= makers
    assert kinds <= set(ACTION_KINDS) and makers <= set(ACTION_MAKERS)

    admin_user.language = "fr"
    admin_user.save(update_fields=["language"])
    page = admin_client.get(reverse("admin:games_action_changelist"))
    content = page.content.decode()
    filters = filters_shown(page)
    assert "Cartes rendues" in filters["type"] and "Première donne" in filters["type"]
    assert "Un bot" in filters["fait par"] and "Le site" in filters["fait par"]
    assert filters["type"][1:] == sorted(filters["type"][1:])  # "Tout", then by their words
    assert '<td class="field-kind_shown">Première donne</td>' in content
    assert all(f"<td class=\"field-kind_shown\">{name}</td>" not in content
               for name in kinds)
    assert page.context["cl"].result_count == stored.count()
    # A record's own page alike.
    taxes = stored.filter(kind="give_back").first()
    one = admin_client.get(reverse("admin:games_action_change", args=[taxes.pk])).content
    with translation.override("fr"):
        assert "Cartes rendues" in one.decode() and str(ACTION_MAKERS[taxes.by]) in one.decode()
    assert b"give_back</div>" not in one and b"Payload" not in one
    # Chosen by its words, the filter still lists the rows of that kind.
    chosen = admin_client.get(reverse("admin:games_action_changelist"), {"kind": "give_back"})
    assert {a.kind for a in chosen.context["cl"].result_list} == {"give_back"}


def test_every_filter_by_choices_reads_as_the_admins_own_with_a_capital(admin_client):
    # The choices' words are written for the middle of a line ("given up", "addition").
    page = admin_client.get(reverse("admin:accounts_outgoingemail_changelist"))
    shown = sum(filters_shown(page).values(), [])
    assert "Given up" in shown and "Pending" in shown
    assert all(str(name)[:1] == str(name)[:1].upper() for name in shown)
    page = admin_client.get(reverse("admin:leagues_adminrecord_changelist"))
    shown = sum(filters_shown(page).values(), [])
    assert "Addition" in shown and "Look at a game in play" in shown
    # And the site's own filters, whose words are a line's too ("kept", "deleted").
    page = admin_client.get(reverse("admin:accounts_user_changelist"))
    shown = sum(filters_shown(page).values(), [])
    assert "Kept" in shown and "Deleted" in shown
