"""Friends playing over days: nobody stalls the table (a day per turn by default, nudges,
open tables and invitations that lapse, the host cancelling), every time in the reader's
own zone, emails on time without a broker, and an account-wide absence."""

import re
import zoneinfo
from datetime import datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from games import commands, tasks
from games.away import emails
from games.commands import notifications
from games.core.turns import stand_in_votes
from games.core.words import moment
from games.models import Game, Notification, TurnLimit
from tests.helpers import make_user, start_table, waiting_humans

pytestmark = pytest.mark.django_db

AMSTERDAM = zoneinfo.ZoneInfo("Europe/Amsterdam")
NEW_YORK = zoneinfo.ZoneInfo("America/New_York")


def _deliver_due():
    return [emails.deliver(pk) for pk in notifications.due_ids()]


@pytest.fixture
def friends(db):
    return [make_user(name) for name in ("ana", "ben", "cas", "dia")]


@pytest.fixture
def table(friends):
    game = start_table(friends[0], friends[1:], turn_limit=TurnLimit.DAY)
    _deliver_due()
    mail.outbox.clear()
    return game


def test_a_new_table_gives_a_day_per_turn_unless_the_host_says_otherwise(client, friends):
    client.force_login(friends[0])
    page = client.get("/tables/new/").content.decode()
    assert '<option value="86400" selected>' in page
    confirm = client.get("/tables/new/?standard=1").content.decode()
    assert 'name="turn_limit" value="86400"' in confirm
    client.post("/tables/new/", {
        "name": "Quick", "seats": "5", "end": "rounds", "rounds": "10",
        "first_round_taxes": "on", "tribute_return": "choice", "merchant_trade": "off",
        "philanthropic": "off", "turn_limit": "86400",
    })
    assert Game.objects.get(name="Quick").turn_limit == TurnLimit.DAY


# -- nudges --

def _waiting_and_other(game):
    waiting = waiting_humans(game)[0]
    other = game.seats.exclude(pk=waiting.pk).exclude(user=None).first()
    return waiting, other


def test_a_nudge_waits_an_hour_then_goes_out_once_per_player_per_turn(client, table):
    waiting, other = _waiting_and_other(table)
    client.force_login(other.user)
    url = f"/t/{table.pk}/nudge/"
    answer = client.post(url, {"player": waiting.player}, follow=True).content.decode()
    assert "once their turn has lasted an hour" in answer
    assert Notification.objects.filter(kind="nudge").count() == 0
    page = client.get(f"/t/{table.pk}/").content.decode()
    assert f"Nudge {waiting.name}" not in page

    with time_machine.travel(timezone.now() + timedelta(hours=1, minutes=1)):
        page = client.get(f"/t/{table.pk}/").content.decode()
        assert f"Nudge {waiting.name}" in page
        client.post(url, {"player": waiting.player})
        _deliver_due()
        to_target = [m for m in mail.outbox
                     if m.to == [waiting.user.email] and "nudges you" in m.subject]
        assert len(to_target) == 1
        assert to_target[0].subject.startswith(f"{other.name} nudges you")
        again = client.post(url, {"player": waiting.player}, follow=True).content.decode()
        assert "already nudged" in again
        assert f"You nudged {waiting.name} this turn." in again
        # Another player may nudge too: one each.
        third = table.seats.exclude(pk__in=[waiting.pk, other.pk]).exclude(user=None).first()
        client.force_login(third.user)
        client.post(url, {"player": waiting.player})
        _deliver_due()
        assert len([m for m in mail.outbox
                    if m.to == [waiting.user.email] and "nudges you" in m.subject]) == 2


@pytest.mark.parametrize("pause", ["vacation", "away"])
def test_nobody_nudges_a_player_whose_clock_stands_still(client, table, pause):
    """Away from the table (its vacation) or from all (the profile's absence): no button,
    and a nudge sent anyway is refused, nothing sent."""
    waiting, other = _waiting_and_other(table)
    with time_machine.travel(timezone.now() + timedelta(hours=1, minutes=1)):
        if pause == "vacation":
            commands.start_vacation(table.pk, waiting.user, 2)
        else:
            commands.set_away(waiting.user, timezone.now() + timedelta(days=2))
        client.force_login(other.user)
        page = client.get(f"/t/{table.pk}/").content.decode()
        assert f"Nudge {waiting.name}" not in page
        answer = client.post(f"/t/{table.pk}/nudge/", {"player": waiting.player}, follow=True)
        assert f"{waiting.name} is away: their clock stands still" in answer.content.decode()
    assert not Notification.objects.filter(kind="nudge").exists()


def test_the_vacation_days_offered_round_what_is_left_to_the_nearest_day(client, table):
    """Back a minute after a day began: 5 days 23 hours and more are left, offered as 6."""
    waiting, _other = _waiting_and_other(table)
    commands.start_vacation(table.pk, waiting.user, 3)
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        commands.end_vacation(table.pk, waiting.user)
        client.force_login(waiting.user)
        page = client.get(f"/t/{table.pk}/").content.decode()
    assert "you have 6 days left at this table" in page
    assert '<option value="6">6 days</option>' in page


@pytest.mark.parametrize("notify", ["every_turn", "daily", "never"])
def test_a_nudge_reaches_every_player_who_takes_notifications_and_the_nudger_is_told_true(
        client, table, notify):
    """A nudge is a reminder a friend sends: a daily player gets it as they get reminders
    (the summary would come too late); someone who takes no notifications gets none, and
    the nudger is not told that an email went out."""
    waiting, other = _waiting_and_other(table)
    waiting.user.notify = notify
    waiting.user.save()
    client.force_login(other.user)
    with time_machine.travel(timezone.now() + timedelta(hours=1, minutes=1)):
        answer = client.post(f"/t/{table.pk}/nudge/", {"player": waiting.player},
                             follow=True).content.decode()
        _deliver_due()
    to_target = [m for m in mail.outbox
                 if m.to == [waiting.user.email] and "nudges you" in m.subject]
    told = f"Nudged: {waiting.name} is told that the table waits for them."
    if notify == "never":
        assert to_target == [] and told not in answer
        assert (f"{waiting.name} gets no notifications from the site: your nudge cannot "
                "reach them.") in answer
    else:
        assert len(to_target) == 1 and told in answer
    assert f"You nudged {waiting.name} this turn." in answer


def test_nobody_nudges_themselves_a_bot_or_a_player_the_table_does_not_wait_for(
    client, friends
):
    game = start_table(friends[0], friends[1:2], bots=2, turn_limit=TurnLimit.DAY)
    later = timezone.now() + timedelta(hours=2)
    seats = {s.player: s for s in game.seats.select_related("user")}
    human = next(s for s in seats.values() if s.user == friends[0])
    client.force_login(friends[0])
    with time_machine.travel(later):
        for player in seats:
            client.post(f"/t/{game.pk}/nudge/", {"player": player})
        client.post(f"/t/{game.pk}/nudge/", {"player": "x"})
    targets = set(Notification.objects.filter(kind="nudge").values_list("user", flat=True))
    assert human.user_id not in targets
    assert targets <= {friends[1].pk}


# -- open tables that lapse, and the host cancelling --

def test_the_host_cancels_an_open_table(client, friends):
    game = commands.create_table(friends[0], "Maybe", 5, {"rounds": 3})
    commands.join(game.pk, friends[1])
    client.force_login(friends[1])
    client.post(f"/t/{game.pk}/cancel/")
    assert Game.objects.get(pk=game.pk).is_open
    client.force_login(friends[0])
    client.post(f"/t/{game.pk}/cancel/")
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    client.force_login(friends[1])
    answer = client.get(f"/t/{game.pk}/")
    assert answer.status_code == 410
    assert "closed before it started" in answer.content.decode()


@pytest.mark.parametrize("notify", ["every_turn", "daily"])
def test_an_open_table_warns_its_host_the_day_before_it_closes(client, friends, notify):
    """A daily summary tells of games in play only: its reader hears of this too."""
    friends[0].notify = notify
    friends[0].save()
    game = commands.create_table(friends[0], "Slow", 5, {"rounds": 3})
    opened = game.created
    client.force_login(friends[0])
    assert "this table closes on" in client.get(f"/t/{game.pk}/").content.decode()
    with time_machine.travel(opened + timedelta(days=12, hours=23)):
        tasks.sweep()
        assert mail.outbox == []
    with time_machine.travel(opened + timedelta(days=13, minutes=1)):
        tasks.sweep()
        tasks.sweep()  # idempotent: one warning
        _deliver_due()
    warnings = [m for m in mail.outbox if "closes tomorrow" in m.subject]
    assert len(warnings) == 1 and warnings[0].to == [friends[0].email]
    assert Game.objects.get(pk=game.pk).is_open
    with time_machine.travel(opened + timedelta(days=14, minutes=1)):
        assert commands.expire_open_tables() == 1
        assert commands.expire_open_tables() == 0
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED and game.end_reason


# -- time zones --

def test_two_players_read_the_same_deadline_each_in_their_own_time(client, table):
    waiting = waiting_humans(table)[0]
    waiting.user.time_zone = "America/New_York"
    waiting.user.save()
    client.force_login(waiting.user)
    deadline = datetime.fromisoformat(table.awaiting[str(waiting.player)][2])
    page = client.get(f"/t/{table.pk}/").content.decode()
    with timezone.override(NEW_YORK):
        local = moment(deadline)  # "Nov. 25, 2026, 12:27 p.m. EST"
    assert local.endswith(" EST") and local in page
    # The time left in an element of its own, which the page's script runs on.
    left = r"(23\u00a0h 59\u00a0min|1\u00a0d)"
    assert re.search(rf"\(in <time [^>]*data-left>{left}</time>\)", page)

    # The reminder email, in the reader's zone too.
    with time_machine.travel(deadline - timedelta(hours=5)):
        _deliver_due()
    reminder = next(m for m in mail.outbox if m.to == [waiting.user.email]
                    and m.subject.startswith("Reminder"))
    assert local in reminder.body
    html = reminder.alternatives[0][0]
    assert local in html and "p.m.." not in html

    # Another player at the same table, in Amsterdam, reads it in Amsterdam time.
    other = table.seats.exclude(pk=waiting.pk).exclude(user=None).first()
    client.force_login(other.user)
    page = client.get(f"/t/{table.pk}/").content.decode()
    assert f'datetime="{deadline.isoformat()}"' in page  # the seat's clock
    assert local not in page


def test_the_daily_summary_goes_out_at_eight_in_each_readers_zone(table):
    for seat in table.seats.select_related("user"):
        seat.user.notify = "daily"
        seat.user.time_zone = "America/New_York" if seat.player % 2 else "Europe/Amsterdam"
        seat.user.save()
    waiting = {s.user for s in waiting_humans(table)}
    day = timezone.localdate() + timedelta(days=1)
    amsterdam_eight = datetime(day.year, day.month, day.day, 8, 5, tzinfo=AMSTERDAM)
    new_york_eight = datetime(day.year, day.month, day.day, 8, 5, tzinfo=NEW_YORK)
    with time_machine.travel(amsterdam_eight):
        notifications.for_daily_summaries()
        got = set(Notification.objects.filter(kind="daily").values_list("user", flat=True))
        assert got == {u.pk for u in waiting if u.time_zone == "Europe/Amsterdam"}
    with time_machine.travel(new_york_eight):
        notifications.for_daily_summaries()
        got = set(Notification.objects.filter(kind="daily").values_list("user", flat=True))
        assert got == {u.pk for u in waiting}
        _deliver_due()
    summaries = [m for m in mail.outbox if "waiting for you:" in m.body]
    assert summaries
    # One table each: said of one table, not of "these tables".
    assert all("This table is waiting for you:" in m.body
               and "This table is waiting for you:" in m.alternatives[0][0] for m in summaries)


# -- emails on time without a broker --

def test_without_a_broker_a_turn_email_goes_out_while_the_others_only_poll(
    client, friends, settings, eager_tasks, django_capture_on_commit_callbacks,
):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    game = start_table(friends[0], friends[1:])
    mail.outbox.clear()
    waiting = waiting_humans(game)[0]
    other = game.seats.exclude(pk=waiting.pk).exclude(user=None).first()
    client.force_login(other.user)
    tasks._last_sweep_in_process = float("-inf")
    with time_machine.travel(timezone.now() + timedelta(seconds=settings.NOTIFY_GRACE_SECONDS + 5)):
        # Only a poll, as an open page makes every few seconds; nobody loads a page.
        with django_capture_on_commit_callbacks(execute=True):
            client.get(f"/t/{game.pk}/poll/?v={game.version}&me=x")
    assert [m for m in mail.outbox if m.to == [waiting.user.email]]


# -- invitations and the start --

def test_an_invitation_speaks_the_recipients_language_with_html_and_unsubscribe(friends):
    host, guest = friends[0], make_user("greta", language="de")
    game = commands.create_table(host, "Tisch", 5, {"rounds": 3})
    commands.invite(game, host, user=guest)
    commands.invite(game, host, email="new@example.com", language="fr")
    tasks.send_invitation(game.invitations.get(user=guest).pk)
    tasks.send_invitation(game.invitations.get(email="new@example.com").pk)
    german, french = mail.outbox[-2], mail.outbox[-1]
    assert "Platz" in german.body and german.alternatives[0][1] == "text/html"
    assert "/unsubscribe/" in german.body and "List-Unsubscribe" in german.extra_headers
    assert "place" in french.body and french.alternatives


def test_whoever_presses_start_is_not_emailed_that_the_game_started(client, friends):
    game = commands.create_table(friends[0], "Now", 4, {"rounds": 2})
    for friend in friends[1:]:
        commands.join(game.pk, friend)
    client.force_login(friends[0])
    client.post(f"/t/{game.pk}/start/")
    started = set(Notification.objects.filter(game=game, kind="started")
                  .values_list("user", flat=True))
    assert started == {f.pk for f in friends[1:]}


# -- away --

def test_away_moves_the_clock_at_every_timed_table_and_the_table_sees_it(client, friends):
    # Frozen: the turns begin the moment the absence does, so they get their whole time.
    with time_machine.travel(timezone.now(), tick=False):
        _away_moves_the_clock(client, friends)


def _away_moves_the_clock(client, friends):
    first = start_table(friends[0], friends[1:], turn_limit=TurnLimit.DAY)
    second = start_table(friends[1], [friends[0], *friends[2:]], turn_limit=TurnLimit.DAY,
                         name="Second")
    player = friends[0]
    before = {g.pk: dict(g.awaiting) for g in (first, second)}
    client.force_login(player)
    day = timezone.localdate() + timedelta(days=3)
    answer = client.post("/accounts/profile/", {
        "display_name": player.display_name, "email": player.email, "notify": "every_turn",
        "notify_by": "both",
        "language": "", "time_zone": "Europe/Amsterdam", "away_until": day.isoformat(),
    })
    assert answer.status_code == 302
    player.refresh_from_db()
    assert player.away_until == datetime(day.year, day.month, day.day, tzinfo=AMSTERDAM) \
        + timedelta(days=1)
    for game in (first, second):
        game.refresh_from_db()
        seat = game.seats.get(user=player)
        wait = game.awaiting.get(str(seat.player))
        if wait is not None:
            assert datetime.fromisoformat(wait[2]) == player.away_until + timedelta(days=1)
            assert wait[2] != before[game.pk][str(seat.player)][2]
    client.force_login(friends[2])
    page = client.get(f"/t/{first.pk}/").content.decode()
    mine = page.split('class="seat', )
    assert any('<span class="tag">away</span>' in chunk and player.name in chunk
               for chunk in mine)
    assert "on vacation" not in page

    # Too far ahead is refused, with the reason.
    client.force_login(player)
    answer = client.post("/accounts/profile/", {
        "display_name": player.display_name, "email": player.email, "notify": "every_turn",
        "notify_by": "both",
        "language": "", "time_zone": "", "away_until": (day + timedelta(days=30)).isoformat(),
    })
    assert "at most 14 days" in answer.content.decode()


def test_sign_up_keeps_the_browsers_time_zone(client):
    client.post("/accounts/signup/", {
        "username": "zed", "email": "zed@example.com", "password1": "correct-horse-battery",
        "password2": "correct-horse-battery", "time_zone": "Asia/Tokyo",
    })
    from accounts.models import User
    assert User.objects.get(username="zed").time_zone == "Asia/Tokyo"


def test_a_made_up_time_zone_is_ignored(client):
    client.post("/accounts/signup/", {
        "username": "zoe", "email": "zoe@example.com", "password1": "correct-horse-battery",
        "password2": "correct-horse-battery", "time_zone": "Mars/Olympus",
    })
    from accounts.models import User
    zoe = User.objects.get(username="zoe")
    assert zoe.time_zone == "" and str(zoe.zone) == "Europe/Amsterdam"



# -- the vote on a stand-in --

def test_most_of_the_others_can_vote_the_stand_in_bot_in_after_two_missed_turns(client, table):
    target = waiting_humans(table)[0]
    others = list(table.seats.exclude(pk=target.pk).exclude(user=None))
    url = f"/t/{table.pk}/vote/"
    client.force_login(others[0].user)
    answer = client.post(url, {"player": target.player}, follow=True).content.decode()
    assert "has not missed two turns in a row" in answer
    target.timeouts_in_row = 2
    target.save()
    page = client.get(f"/t/{table.pk}/").content.decode()
    assert "0 of 2 votes" in page
    client.post(url, {"player": target.player})
    again = client.post(url, {"player": target.player}, follow=True).content.decode()
    assert "already voted" in again and "1 of 2 votes" in again
    target.refresh_from_db()
    assert not target.stand_in
    client.force_login(others[1].user)
    answer = client.post(url, {"player": target.player}, follow=True).content.decode()
    assert f"the stand-in bot plays for {target.name} until" in answer
    target.refresh_from_db()
    assert target.stand_in


def test_at_a_table_without_a_clock_the_others_vote_a_stand_in_after_two_days(
        client, friends):
    """No turn times out there: a player who vanished would stall it for good."""
    game = start_table(friends[0], friends[1:], turn_limit=0)
    target = waiting_humans(game)[0]
    others = list(game.seats.exclude(pk=target.pk).exclude(user=None))
    since = game.wait_for(target.player).since
    url = f"/t/{game.pk}/vote/"
    with time_machine.travel(since + timedelta(days=1, hours=23)):
        client.force_login(others[0].user)
        assert "Let the stand-in bot" not in client.get(f"/t/{game.pk}/").content.decode()
        answer = client.post(url, {"player": target.player}, follow=True).content.decode()
        assert f"The table has not waited two days for {target.name}." in answer
    with time_machine.travel(since + timedelta(days=2, minutes=1)):
        page = client.get(f"/t/{game.pk}/").content.decode()
        assert f"The table has waited two days for {target.name}." in page
        for voter in others:
            client.force_login(voter.user)
            client.post(url, {"player": target.player})
    target.refresh_from_db()
    assert target.stand_in


def test_votes_lapse_when_the_missing_player_comes_back(client, table):
    target = waiting_humans(table)[0]
    target.timeouts_in_row = 2
    target.save()
    voter = table.seats.exclude(pk=target.pk).exclude(user=None).first()
    assert not commands.vote_stand_in(table.pk, voter.user, target.player)
    # The player acts again: the votes about their absence no longer count.
    target.last_acted = timezone.now() + timedelta(seconds=1)
    target.save()
    assert stand_in_votes(Game.objects.get(pk=table.pk), target)[0] == 0
    with time_machine.travel(timezone.now() + timedelta(seconds=5)):
        assert not commands.vote_stand_in(table.pk, voter.user, target.player)
    assert stand_in_votes(Game.objects.get(pk=table.pk), target)[0] == 1


# -- joining and leaving between rounds --

def _round_over_soon(game):
    """Play on (humans taking their first legal action) until the round number changes."""
    from tests.helpers import play_until
    number = game.round_number
    return play_until(game, lambda g: g.round_number != number)


def test_a_late_friend_joins_in_the_middle_seat_at_the_next_round(client, friends):
    from games.read.replay import rebuild_state
    game = start_table(friends[0], friends[1:], options={"rounds": 3})  # 4 players: 5th
    dana = make_user("dana", display_name="Dana")
    client.force_login(dana)
    page = client.get(f"/join/{game.invite_token}/").content.decode()
    assert "Join from the next round" in page
    client.post(f"/join/{game.invite_token}/")
    seat = game.seats.get(user=dana)
    assert seat.joining and seat.player is None
    mine = client.get(f"/t/{game.pk}/").content.decode()
    assert "You join the table at round 2" in mine and "hcard" not in mine
    client.force_login(friends[1])
    assert "Dana joins at round 2." in client.get(f"/t/{game.pk}/").content.decode()
    game = _round_over_soon(game)
    seat.refresh_from_db()
    assert not seat.joining and seat.player == 4
    state = game.engine_state()
    assert state.seats.index(4) == 2  # place 3 of 5: the middle
    assert rebuild_state(game).to_json() == state.to_json()
    client.force_login(dana)
    assert "Dana joins the table in place 3" in client.get(f"/t/{game.pk}/log/").content.decode()


def test_with_two_middle_places_the_great_dalmuti_chooses(client, friends):
    from games.read.replay import rebuild_state
    from games.read.seat import two_middle_places
    eve = make_user("eve")
    game = start_table(friends[0], [*friends[1:], eve], options={"rounds": 3})  # 5 players
    dana = make_user("dana", display_name="Dana")
    commands.join_in_progress(game.pk, dana)
    state = game.engine_state()
    assert two_middle_places(state) == [3, 4]
    great = game.seats.get(player=state.seats[state.round.order[0]])
    other = game.seats.exclude(pk=great.pk).exclude(user=dana).first()
    newcomer = game.seats.get(user=dana)
    client.force_login(other.user)
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert "you choose where Dana sits" not in page  # private to the Great Dalmuti
    client.post(f"/t/{game.pk}/join-place/", {"seat": newcomer.pk, "place": "upper"})
    newcomer.refresh_from_db()
    assert newcomer.join_choice == ""
    client.force_login(great.user)
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert "you choose where Dana sits: place 3 or 4" in page
    assert "without a choice it is place 4" in page  # the default, shown with its deadline
    client.post(f"/t/{game.pk}/join-place/", {"seat": newcomer.pk, "place": "upper"})
    # The choice made is said as made, not as the default.
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert "you chose where Dana sits: place 3." in page
    assert "without a choice" not in page
    game = _round_over_soon(game)
    newcomer.refresh_from_db()
    assert game.engine_state().seats.index(newcomer.player) == 2  # place 3 of 6: upper
    assert rebuild_state(game).to_json() == game.engine_state().to_json()


def test_without_a_choice_the_newcomer_takes_the_lower_middle_place(friends):
    eve = make_user("eve")
    game = start_table(friends[0], [*friends[1:], eve], options={"rounds": 3})
    dana = make_user("dana")
    seat = commands.join_in_progress(game.pk, dana)
    game = _round_over_soon(game)
    seat.refresh_from_db()
    assert game.engine_state().seats.index(seat.player) == 3  # place 4 of 6


def test_leaving_mid_round_hands_the_cards_to_a_bot_then_the_player_is_out(client, friends):
    from games.read.replay import rebuild_state
    eve = make_user("eve")
    game = start_table(friends[0], [*friends[1:], eve], options={"rounds": 3})
    leaver = game.seats.get(user=eve)
    client.force_login(eve)
    client.post(f"/t/{game.pk}/leave-game/")
    leaver.refresh_from_db()
    assert leaver.stand_in and leaver.leaving
    client.force_login(friends[0])
    assert "Eve leaves the table when this round ends." in client.get(
        f"/t/{game.pk}/").content.decode()
    game = _round_over_soon(game)
    leaver.refresh_from_db()
    state = game.engine_state()
    assert leaver.left and leaver.player not in state.lineup and leaver.player in state.left
    assert len(state.seats) == 4
    assert rebuild_state(game).to_json() == state.to_json()
    assert leaver.player not in [s["player"] for s in state.standings]


def test_at_a_table_where_a_bot_takes_the_seat_it_plays_on(friends):
    eve = make_user("eve")
    game = commands.create_table(friends[0], "Bots stay", 5, {"rounds": 3}, leaver_bot=True)
    for user in [*friends[1:], eve]:
        commands.join(game.pk, user)
    commands.start(game.pk)
    commands.leave_game(game.pk, eve)
    game = _round_over_soon(Game.objects.get(pk=game.pk))
    seat = game.seats.get(user=eve)
    assert seat.left and seat.stand_in and seat.player in game.engine_state().lineup
    with pytest.raises(commands.Rejected):
        commands.take_seat_back(game.pk, eve)


def test_below_four_players_the_game_ends_when_the_round_does(friends):
    game = start_table(friends[0], friends[1:], options={"rounds": 5})
    commands.leave_game(game.pk, friends[3])
    game = _round_over_soon(game)
    game.refresh_from_db()
    assert game.is_over
