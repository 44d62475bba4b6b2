"""What a league organiser may do in the admin, finding by finding: her own leagues only,
no card of a game in play for anybody, no email addresses, the hosts' invitation limits,
and a record of her actions that outlives her account."""

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Group, Permission
from django.urls import reverse

from games import commands
from games.models import Game, Invitation
from leagues.models import AdminRecord, League, LeagueGame, Membership, Season

from .conftest import has_private_lines
from .helpers import make_user

pytestmark = pytest.mark.django_db

GAMES = reverse("admin:games_game_changelist")
LEAGUES = reverse("admin:leagues_league_changelist")


def inline_management(prefix, total=0, initial=0):
    return {f"{prefix}-TOTAL_FORMS": str(total), f"{prefix}-INITIAL_FORMS": str(initial),
            f"{prefix}-MIN_NUM_FORMS": "0", f"{prefix}-MAX_NUM_FORMS": "1000"}


@pytest.fixture
def olga(client, ground):
    client.force_login(ground.olga)
    return client


@pytest.fixture
def root(client):
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    return client


# -- no card of a game in play, for anybody --


@pytest.mark.parametrize("who", ["olga", "root"])
def test_nobody_sees_the_state_or_a_private_line_of_a_game_in_play(request, who, ground):
    client = request.getfixturevalue(who)
    game = ground.monday_game
    page = client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert "every hand" not in page and "&quot;hands&quot;" not in page
    assert "(private)" not in page
    assert str(game.actions.get(kind="start").payload["seed"]) not in page
    # The public course of the game is still there.
    assert "Round 2 is dealt" in page


def test_after_the_game_the_record_shows_as_the_replay_shows_it(olga, ground):
    game = ground.monday_finished
    assert has_private_lines(game)
    page = olga.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert "(private)" in page and "The engine state (every hand)" in page


def test_the_action_record_of_a_game_in_play_is_closed_even_to_a_superuser(root, ground):
    start = ground.monday_game.actions.get(kind="start")
    listing = root.get(reverse("admin:games_action_changelist")).content.decode()
    assert "Monday table" not in listing and "Monday finished" in listing
    page = root.get(reverse("admin:games_action_change", args=[start.pk]))
    assert page.status_code in (302, 404)
    finished = ground.monday_finished.actions.get(kind="start")
    page = root.get(reverse("admin:games_action_change", args=[finished.pk]))
    assert page.status_code == 200
    assert str(finished.payload["seed"]) in page.content.decode()


def test_a_superuser_reveals_a_game_in_play_only_with_a_reason_that_is_logged(
    root, client, ground
):
    game = ground.friday_game
    url = reverse("admin:games_game_reveal", args=[game.pk])
    seed = str(game.actions.get(kind="start").payload["seed"])
    form = root.get(url)
    assert form.status_code == 200 and seed not in form.content.decode()
    refused = root.post(url, {"reason": "  "})
    assert refused.status_code == 200 and seed not in refused.content.decode()
    assert not AdminRecord.objects.filter(kind=AdminRecord.Kind.REVEAL).exists()
    shown = root.post(url, {"reason": "A player reports a card missing"}).content.decode()
    assert seed in shown and "A player reports a card missing" in shown
    record = AdminRecord.objects.get(kind=AdminRecord.Kind.REVEAL)
    assert (record.actor_name, record.game, record.reason) == (
        "root", game, "A player reports a card missing")
    assert LogEntry.objects.filter(object_id=str(game.pk)).exists()
    # An organiser cannot, not even for her own league's game.
    client.force_login(ground.olga)
    own = reverse("admin:games_game_reveal", args=[ground.monday_game.pk])
    assert client.post(own, {"reason": "curious"}).status_code == 403


# -- her own leagues only --


def test_an_organiser_cannot_rename_another_leagues_season(olga, ground):
    season = Season.objects.get(name="Friday spring")
    olga.post(reverse("admin:leagues_season_change", args=[season.pk]), {
        "league": ground.fridays.pk, "name": "Taken", "start": "2026-01-01",
        "end": "2026-12-31"})
    season.refresh_from_db()
    assert season.name == "Friday spring"
    # Nor start a season in another league.
    olga.post(reverse("admin:leagues_season_add"), {
        "league": ground.fridays.pk, "name": "Planted", "start": "2026-01-01",
        "end": "2026-12-31"})
    assert not Season.objects.filter(name="Planted").exists()


def test_an_organiser_cannot_join_or_thin_another_league(olga, ground):
    olga.post(reverse("admin:leagues_league_change", args=[ground.fridays.pk]), {
        "name": "Fridays", "slug": "fridays", "active": "on",
        **inline_management("memberships", 1), "memberships-0-user": ground.olga.pk,
        "memberships-0-joined": "2026-01-01", **inline_management("seasons"),
    })
    assert not ground.fridays.members.filter(pk=ground.olga.pk).exists()
    member = Membership.objects.filter(league=ground.fridays).first()
    response = olga.post(reverse("admin:leagues_league_change", args=[ground.fridays.pk]), {
        "name": "Fridays", "slug": "fridays", "active": "on",
        **inline_management("memberships", 1, 1), "memberships-0-id": member.pk,
        "memberships-0-league": ground.fridays.pk, "memberships-0-user": member.user_id,
        "memberships-0-joined": "2026-01-01", "memberships-0-DELETE": "on",
        **inline_management("seasons"),
    })
    assert response.status_code in (302, 403, 404)
    assert Membership.objects.filter(pk=member.pk).exists()


def test_an_organiser_cannot_delete_a_league(olga, ground):
    for league in (ground.fridays, ground.mondays):
        olga.post(reverse("admin:leagues_league_delete", args=[league.pk]), {"post": "yes"})
        assert League.objects.filter(pk=league.pk).exists()


def test_an_organiser_moves_games_only_between_her_own_leagues(olga, ground):
    game = ground.monday_game
    link = game.league_link
    response = olga.post(reverse("admin:games_game_change", args=[game.pk]), {
        "name": game.name,
        **inline_management("league_link", 1, 1), "league_link-0-id": link.pk,
        "league_link-0-game": game.pk, "league_link-0-league": ground.fridays.pk,
        "league_link-0-season": "",
        **inline_management("seats"), **inline_management("removals"),
        **inline_management("never_dealt_in"), **inline_management("rounds"),
    })
    assert response.status_code == 200  # the form says the choice is not valid
    link.refresh_from_db()
    assert link.league == ground.mondays
    # Nor take in a game of no league.
    olga.post(reverse("admin:leagues_leaguegame_add"), {
        "game": ground.loose_game.pk, "league": ground.mondays.pk})
    assert not LeagueGame.objects.filter(game=ground.loose_game).exists()


def test_a_table_moves_only_into_a_league_whose_members_play_it(root, ground):
    """Its results would count in standings that its players' own league page never
    shows them: the league field says who is not a member; once they are, it moves."""
    game = ground.monday_game
    link = game.league_link
    url = reverse("admin:games_game_change", args=[game.pk])
    data = {"name": game.name,
            **inline_management("league_link", 1, 1), "league_link-0-id": link.pk,
            "league_link-0-game": game.pk, "league_link-0-league": ground.fridays.pk,
            "league_link-0-season": "",
            **inline_management("seats"), **inline_management("removals"),
            **inline_management("never_dealt_in"), **inline_management("rounds")}
    response = root.post(url, data)
    assert response.status_code == 200
    [errors] = [f.errors for f in response.context["inline_admin_formsets"][0].formset.forms]
    players = sorted(s.user.name for s in game.seats.filter(user__isnull=False))
    assert errors["league"] == [
        f"Not members of this league: {', '.join(players)}. Add them to its members first; "
        "their results would count in its standings."]
    link.refresh_from_db()
    assert link.league == ground.mondays
    for seat in game.seats.filter(user__isnull=False):
        Membership.objects.create(league=ground.fridays, user=seat.user)
    assert root.post(url, data).status_code == 302
    link.refresh_from_db()
    assert link.league == ground.fridays


def test_an_organiser_ends_and_replaces_only_in_her_own_leagues(olga, ground):
    for game in (ground.friday_game, ground.loose_game):
        olga.post(GAMES, {"action": "end_stalled_games", "_selected_action": [game.pk],
                          "apply": "yes", "reason": "mine now"})
        seat = game.seats.filter(user__isnull=False).first()
        olga.post(GAMES, {"action": "replace_absent_player", "_selected_action": [game.pk],
                          "apply": "yes", "seat": seat.pk, "level": "basic"})
        game.refresh_from_db()
        assert game.status == Game.Status.PLAYING
        assert game.seats.filter(user__isnull=False).count() >= 1
        assert not game.replacements.exists()


def test_an_organiser_opens_tables_only_in_her_own_leagues(olga, ground):
    cleo = ground.fridays.members.get(username="cleo")
    olga.post(LEAGUES, {"action": "create_table", "_selected_action": [ground.fridays.pk],
                        "apply": "yes", "name": "Planted", "host": cleo.pk, "bots": "3",
                        "bot_level": "basic", "turn_limit": "86400"})
    assert not Game.objects.filter(name="Planted").exists()
    # In her own league she picks among its members only.
    response = olga.post(LEAGUES, {
        "action": "create_table", "_selected_action": [ground.mondays.pk], "apply": "yes",
        "name": "Planted", "host": cleo.pk, "bots": "3", "bot_level": "basic",
        "turn_limit": "86400"})
    assert "host" in response.context["form"].errors
    assert not Game.objects.filter(name="Planted").exists()


def test_an_organiser_cannot_seat_as_host_someone_who_refuses_her_invitations(
        olga, ground, mailoutbox):
    """Made the host of her table is invited in all but name: refused as an invitation
    is, on the form that keeps what she chose, and nobody is told anything."""
    monday = ground.mondays.members.exclude(pk=ground.olga.pk).first()
    commands.set_blocked(monday, ground.olga, True)
    response = olga.post(LEAGUES, {
        "action": "create_table", "_selected_action": [ground.mondays.pk], "apply": "yes",
        "name": "Planted", "host": monday.pk, "bots": "3", "bot_level": "basic",
        "turn_limit": "86400"})
    assert response.status_code == 200
    assert response.context["form"].non_field_errors() == [
        f"{monday.name} could not be invited."]
    assert response.context["form"]["name"].value() == "Planted"
    assert not Game.objects.filter(name="Planted").exists()
    assert mailoutbox == []


def test_a_refused_choice_of_guests_is_the_forms_only_error(olga, ground):
    host = ground.mondays.members.first()
    response = olga.post(LEAGUES, {
        "action": "create_table", "_selected_action": [ground.mondays.pk], "apply": "yes",
        "name": "Planted", "host": host.pk, "players": ["999999"], "bots": "0",
        "bot_level": "basic", "turn_limit": "86400"})
    form = response.context["form"]
    assert list(form.errors) == ["players"]


def test_a_season_with_tables_is_not_deleted_and_one_without_is(olga, ground):
    """Its tables would leave its standings (a season made again takes none back): the
    confirmation names them, and neither way of deleting goes through."""
    spring = ground.mondays.seasons.get()
    LeagueGame.objects.filter(game=ground.monday_finished).update(season=spring)
    url = reverse("admin:leagues_season_delete", args=[spring.pk])
    page = olga.get(url).content.decode()
    assert "protected" in page and "Monday finished" in page
    olga.post(url, {"post": "yes"})
    olga.post(reverse("admin:leagues_season_changelist"), {
        "action": "delete_selected", "_selected_action": [spring.pk], "post": "yes"})
    assert LeagueGame.objects.get(game=ground.monday_finished).season == spring
    empty = Season.objects.create(league=ground.mondays, name="Unused", start="2027-01-01",
                                  end="2027-03-31")
    olga.post(reverse("admin:leagues_season_delete", args=[empty.pk]), {"post": "yes"})
    assert not Season.objects.filter(pk=empty.pk).exists()


def test_deleting_a_league_takes_its_seasons_and_their_tables_links(ground):
    spring = ground.mondays.seasons.get()
    LeagueGame.objects.filter(game=ground.monday_finished).update(season=spring)
    ground.mondays.delete()
    assert not Season.objects.filter(pk=spring.pk).exists()
    assert not LeagueGame.objects.filter(game=ground.monday_finished).exists()


@pytest.mark.parametrize("value", ["abc", "99999999999999999999", "none"])
def test_a_league_filter_not_offered_is_said_and_lists_nothing_else(olga, ground, value):
    """A league typed into the address (not a number, too large, or the superuser's "No
    league"): Django's "?e=1" (the list's own error), never a server error."""
    response = olga.get(GAMES, {"league": value})
    assert response.status_code == 302 and response.url.endswith("?e=1")


def test_the_league_filter_lists_her_leagues_tables(olga, ground):
    page = olga.get(GAMES, {"league": ground.mondays.pk}).content.decode()
    assert "Monday table" in page and "Friday" not in page.split('id="result_list"')[1]
    response = olga.get(GAMES, {"league": ground.fridays.pk})
    assert response.status_code == 302 and response.url.endswith("?e=1")


def test_the_group_holds_only_what_the_role_needs():
    perms = set(Group.objects.get(name="league organiser").permissions.values_list(
        "content_type__app_label", "codename"))
    assert perms == {
        ("leagues", "add_league"), ("leagues", "change_league"), ("leagues", "view_league"),
        ("leagues", "add_membership"), ("leagues", "change_membership"),
        ("leagues", "delete_membership"), ("leagues", "view_membership"),
        ("leagues", "add_season"), ("leagues", "change_season"),
        ("leagues", "delete_season"), ("leagues", "view_season"),
        ("leagues", "change_leaguegame"), ("leagues", "view_leaguegame"),
        ("leagues", "view_replacement"), ("leagues", "view_adminrecord"),
        ("games", "change_game"), ("games", "view_game"), ("games", "view_seat"),
        ("games", "view_round"),
        ("accounts", "view_user"),
    }
    assert not Permission.objects.filter(codename="delete_league", group__name="league organiser")


def test_a_league_added_by_an_organiser_is_hers(olga, ground):
    response = olga.post(reverse("admin:leagues_league_add"), {
        "name": "Sundays", "slug": "sundays", "active": "on", "turn_limit": "86400",
        "end": "rounds", "rounds": "10", "first_round_taxes": "on", "tribute_return": "choice",
        "merchant_trade": "off", "merchant_trade_from": "6", "philanthropic": "off",
        "seating_ties": "tied_redraw", "great_revolution": "declared",
        **inline_management("memberships"), **inline_management("seasons"),
    })
    assert response.status_code == 302
    assert list(League.objects.get(slug="sundays").organisers.all()) == [ground.olga]


def test_an_organiser_cannot_take_herself_off_her_leagues_organisers(olga, ground):
    """She would lose the league mid-save (Django's "doesn't exist" after "changed
    successfully"): refused on the field, nothing saved; keeping herself saves."""
    from .test_admin import standard_options

    url = reverse("admin:leagues_league_change", args=[ground.mondays.pk])
    data = {"name": "Mondays renamed", "slug": "mondays", "active": "on",
            **standard_options(), **inline_management("memberships"),
            **inline_management("seasons")}
    response = olga.post(url, data)
    assert response.status_code == 200
    assert "organisers" in response.context["adminform"].form.errors
    ground.mondays.refresh_from_db()
    assert ground.mondays.name == "Mondays"
    assert list(ground.mondays.organisers.all()) == [ground.olga]
    response = olga.post(url, {**data, "organisers": [ground.olga.pk]})
    assert response.status_code == 302
    ground.mondays.refresh_from_db()
    assert ground.mondays.name == "Mondays renamed"


# -- people --


def test_an_organiser_sees_names_not_email_addresses(olga, ground):
    anna = ground.mondays.members.get(username="anna")
    listing = olga.get(reverse("admin:accounts_user_changelist")).content.decode()
    assert "anna" in listing and "Anna" in listing and "@example.com" not in listing
    page = olga.get(reverse("admin:accounts_user_change", args=[anna.pk])).content.decode()
    assert "anna" in page and "@example.com" not in page
    # Nor can she find someone by address.
    found = olga.get(reverse("admin:accounts_user_changelist"), {"q": "anna@example"})
    assert list(found.context["cl"].result_list) == []


def test_a_superuser_still_sees_email_addresses(root, ground):
    listing = root.get(reverse("admin:accounts_user_changelist")).content.decode()
    assert "anna@example.com" in listing


# -- tables the admin makes --


def test_tables_made_from_the_admin_keep_the_hosts_invitation_limits(
    olga, ground, settings, make_user
):
    settings.INVITATIONS_PER_DAY = 3
    friends = [make_user(f"friend{i}") for i in range(4)]
    for friend in friends:
        Membership.objects.create(league=ground.mondays, user=friend)
    response = olga.post(LEAGUES, {
        "action": "create_table", "_selected_action": [ground.mondays.pk], "apply": "yes",
        "name": "Too many", "host": ground.olga.pk, "players": [f.pk for f in friends],
        "bots": "0", "bot_level": "basic", "turn_limit": "86400"}, follow=True)
    assert "too many invitations" in response.content.decode()
    assert not Game.objects.filter(name="Too many").exists()
    assert not Invitation.objects.filter(user__in=friends).exists()


def test_an_admin_table_has_the_leagues_time_limit_or_the_one_chosen(olga, ground):
    league = ground.mondays
    assert league.turn_limit == 86400
    form = olga.post(LEAGUES, {"action": "create_table", "_selected_action": [league.pk],
                               "index": "0"})
    assert 'name="turn_limit"' in form.content.decode()
    olga.post(LEAGUES, {"action": "create_table", "_selected_action": [league.pk],
                        "apply": "yes", "name": "Daily", "host": ground.olga.pk, "bots": "3",
                        "bot_level": "basic", "turn_limit": ""})
    assert Game.objects.get(name="Daily").turn_limit == 86400
    season = league.seasons.get()
    season.turn_limit = 3600
    season.save()
    olga.post(LEAGUES, {"action": "create_table", "_selected_action": [league.pk],
                        "apply": "yes", "name": "Hourly", "host": ground.olga.pk, "bots": "3",
                        "bot_level": "basic", "season": season.pk, "turn_limit": ""})
    assert Game.objects.get(name="Hourly").turn_limit == 3600
    olga.post(LEAGUES, {"action": "create_table", "_selected_action": [league.pk],
                        "apply": "yes", "name": "Slow", "host": ground.olga.pk, "bots": "3",
                        "bot_level": "basic", "turn_limit": "259200"})
    slow = Game.objects.get(name="Slow")
    assert slow.turn_limit == 259200
    page = olga.get(reverse("admin:games_game_change", args=[slow.pk])).content.decode()
    assert "3 days" in page
    listing = olga.get(GAMES).content.decode()
    assert "3 days" in listing


def test_the_league_form_sets_the_time_limit(olga, ground):
    page = olga.get(reverse("admin:leagues_league_change", args=[ground.mondays.pk]))
    assert 'name="turn_limit"' in page.content.decode()
    assert page.context["adminform"].form.initial["turn_limit"] == 86400


# -- ending games --


def test_ending_a_stalled_game_leaves_a_lobby_table_alone(olga, ground):
    lobby = ground.monday_lobby
    olga.post(GAMES, {"action": "end_stalled_games", "_selected_action": [lobby.pk],
                      "apply": "yes", "reason": "old"})
    lobby.refresh_from_db()
    assert lobby.status == Game.Status.OPEN


def test_a_poll_of_a_table_closed_before_it_started_answers(client, ground):
    lobby = ground.monday_lobby
    bert = lobby.host
    commands.cancel_table(lobby.pk, bert)
    client.force_login(bert)
    response = client.get(f"/t/{lobby.pk}/poll/")
    assert response.status_code in (204, 286)
    assert response["HX-Refresh"] == "true"
    assert client.get(f"/t/{lobby.pk}/").status_code == 410


# -- the record of what organisers did --


def _ends_stalled(client, organiser, game) -> None:
    """The organiser ends a stalled game of her league from the admin, with a reason."""
    client.force_login(organiser)
    client.post(GAMES, {"action": "end_stalled_games", "_selected_action": [game.pk],
                        "apply": "yes", "reason": "Nobody played for a month"})


def test_the_record_of_an_organisers_actions_outlives_her_account(client, ground):
    game = ground.friday_game
    fred = ground.fred
    _ends_stalled(client, fred, game)
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    fred.delete()
    assert not LogEntry.objects.filter(object_id=str(game.pk)).exists()
    record = AdminRecord.objects.get(game=game)
    assert record.actor is None and record.actor_name == "fred"
    assert "Nobody played for a month" in record.message
    assert record.reason == "Nobody played for a month"
    root = client
    root.force_login(make_user("root", is_staff=True, is_superuser=True))
    page = root.get(reverse("admin:leagues_adminrecord_changelist")).content.decode()
    assert "fred (account deleted)" in page and "Nobody played for a month" in page
    history = root.get(reverse("admin:games_game_history", args=[game.pk])).content.decode()
    assert "fred" in history and "Nobody played for a month" in history


def test_the_record_says_so_when_an_organiser_deleted_her_own_account(client, ground):
    game = ground.friday_game
    fred = ground.fred
    _ends_stalled(client, fred, game)
    commands.delete_account(fred.pk)
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    page = client.get(reverse("admin:leagues_adminrecord_changelist")).content.decode()
    assert "fred (account deleted)" in page
    history = client.get(reverse("admin:games_game_history", args=[game.pk])).content.decode()
    assert "(account deleted)" in history


# -- no back door through the changelists' URL filters --


def test_an_organiser_cannot_probe_addresses_or_password_hashes_by_filtering(olga, ground):
    users = reverse("admin:accounts_user_changelist")
    for probe in ("email__startswith", "email__icontains", "password__startswith",
                  "password__contains", "is_superuser", "last_login__isnull"):
        response = olga.get(users, {probe: "a"})
        assert response.status_code == 400, probe
    assert olga.get(users, {"username__startswith": "an"}).status_code == 200


@pytest.mark.parametrize("who", ["olga", "root"])
def test_nobody_finds_a_game_in_play_by_its_seed_or_its_state(request, who, ground):
    client = request.getfixturevalue(who)
    game = ground.monday_game
    seed = game.actions.get(kind="start").payload["seed"]
    for probe, value in (("seed", game.seed), ("seed__gt", 0), ("state__icontains", "hands"),
                         ("state__has_key", "round"), ("awaiting__icontains", "0"),
                         ("invite_token__startswith", game.invite_token[:2]),
                         ("actions__payload__seed", seed)):
        response = client.get(GAMES, {probe: value})
        assert response.status_code == 400, probe


def test_a_seasons_own_page_offers_the_leagues_time_limit_by_name(olga, ground):
    spring = ground.mondays.seasons.get()
    page = olga.get(reverse("admin:leagues_season_change", args=[spring.pk])).content.decode()
    limit = page.split('name="turn_limit"')[1].split("</select>")[0]
    assert "The league&#x27;s</option>" in limit and "---------" not in limit
