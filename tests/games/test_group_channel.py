"""A table's group channel hears only the public news, in the host's language: the start,
whose turn it is (after the grace period, once per turn, not at all if the turn was
taken meanwhile), each round's result, the end, nudges; and nothing whose content or
timing would tell a private decision (the worlds below differ only in who holds the
jesters). The last test sends through a real worker to local servers speaking Discord's
and a JSON webhook's formats."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games import commands, engine, tasks
from games.away import channels as channel_sender
from games.commands import group_channel
from games.models import ChannelNotice, Game, Seat
from tests.engine.helpers import give_both_jesters
from tests.games.test_jester_secrecy import (
    FROZEN,
    HUMAN_SEATS,
    _base_hands,
    _deal,
    _seat_people,
)
from tests.helpers import WebhookServer, bots_play_on, legal, make_user, wait_for


@pytest.fixture
def hook(settings):
    settings.OUTBOUND_ALLOW_LOOPBACK = True
    server = WebhookServer()
    yield server
    server.close()


def _table(host, others, bots, url, options=None, away=()) -> Game:
    game = commands.create_table(host, "Friday table", 1 + len(others) + bots,
                                 {"rounds": 2, **(options or {})})
    Game.objects.filter(pk=game.pk).update(seed=20261122)
    commands.set_channel(game.pk, host, url)
    for user in others:
        commands.join(game.pk, user)
    for _ in range(bots):
        commands.add_bot(game.pk, "basic")
    # Players who took their seat and left the page: they hear of the start.
    Seat.objects.filter(game=game, user__in=away).update(last_seen=None)
    commands.start(game.pk)
    return Game.objects.get(pk=game.pk)


def _deliver_due() -> list[str]:
    return [channel_sender.deliver_notice(pk) for pk in group_channel.due_ids()]


def _waiting_human(game: Game):
    game.refresh_from_db()
    return next(s for s in game.seats.select_related("user")
                if s.user_id and str(s.player) in game.awaiting)


def _act(game: Game, seat) -> Game:
    commands.act(game.pk, seat.user, engine.action_from_json(legal(game, seat)[0]),
                 game.awaiting[str(seat.player)][0])
    return bots_play_on(game)


def _to_a_human_turn_in_the_play(game: Game) -> Game:
    """The humans take the steps of the tax phase at once; the bots play on."""
    game = bots_play_on(game)
    while game.engine_state().round.phase != "play":
        game = _act(game, _waiting_human(game))
    return game


@pytest.mark.django_db
def test_a_turn_is_told_once_after_the_grace_and_not_when_taken_within_it(hook, settings):
    settings.NOTIFY_GRACE_SECONDS = 120
    ada = make_user("ch-ada", display_name="Ada", language="nl")
    bob = make_user("ch-bob", display_name="Bob")
    url = f"json://127.0.0.1:{hook.port}/group"
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        game = _table(ada, [bob], bots=2, url=url)
        assert _deliver_due() == ["sent"]  # the start, in the host's language
        assert "Het spel is begonnen: " in hook.texts()[0]
        game = _to_a_human_turn_in_the_play(game)
        seat = _waiting_human(game)
        assert _deliver_due() == []  # within the grace period
        clock.shift(timedelta(seconds=121))
        assert _deliver_due() == ["sent"]
        assert f"{seat.name} is aan de beurt." in hook.texts()[-1]
        turn = ChannelNotice.objects.get(game=game, kind="turn")
        assert channel_sender.deliver_notice(turn.pk) == "not pending"  # once per turn
        # The next human acts within the grace period: nothing is said of that turn.
        game = _act(game, seat)
        seat = _waiting_human(game)
        clock.shift(timedelta(seconds=30))
        game = _act(game, seat)
        clock.shift(timedelta(seconds=121))
        _deliver_due()
        taken = ChannelNotice.objects.filter(game=game, kind="turn").order_by("pk")[1]
        assert (taken.status, taken.note) == ("skipped", "acted")
    assert len(hook.received) == ChannelNotice.objects.filter(game=game, status="sent").count()
    # No secret reached the channel: every message is one of the public sentences.
    for text in hook.texts():
        assert re.search(r"(begonnen|aan de beurt|voorbij|duwtje)", text), text


def _notices_of_world(people, holder) -> list:
    """Round 2 of one table (jesters as the world says), up to the first human's turn in
    the play; the human holder, if any, declines the revolution at once."""
    with time_machine.travel(FROZEN, tick=False):
        game = commands.create_table(people["host"], "Test table", 5, {"rounds": 3})
        Game.objects.filter(pk=game.pk).update(seed=20261122)
        commands.set_channel(game.pk, people["host"], "jsons://hooks.example.org/g")
        for user in (people["a"], people["b"]):
            commands.join(game.pk, user)
        for _ in range(2):
            commands.add_bot(game.pk, "basic")
        commands.start(game.pk)
        game = Game.objects.get(pk=game.pk)
        game.seats.update(first_game=False)
        seats = _seat_people(game, people)
        ChannelNotice.objects.filter(game=game).delete()  # the first round's, not compared
        hands = _base_hands()
        if holder is not None:
            hands = give_both_jesters(hands, holder)
        _deal(game, hands)
        game.refresh_from_db()
        if holder is not None:
            # Deciding on a revolution: nothing to tell.
            assert not ChannelNotice.objects.filter(game=game).exists()
            seat = seats[holder]
            commands.act(game.pk, seat.user, engine.Revolution(False),
                         game.awaiting[str(seat.player)][0])
        game = bots_play_on(game)
        assert game.engine_state().round.phase == "play"
        notices = list(ChannelNotice.objects.filter(game=game).order_by("pk"))
        assert [n.kind for n in notices] == ["turn"]
        return [(n.kind, n.key, n.payload, n.due.isoformat(),
                 str(channel_sender.notice_message(n)).replace(f"/t/{game.pk}/", "/t/N/"))
                for n in notices]


@pytest.mark.django_db
def test_the_jester_holder_cannot_be_told_from_the_channel(people_for_worlds):
    worlds = [_notices_of_world(people_for_worlds, holder)
              for holder in (None, *HUMAN_SEATS)]
    assert worlds[0] == worlds[1] == worlds[2]


@pytest.fixture
def people_for_worlds(db):
    return {name: make_user(f"gc-{name}") for name in ("host", "a", "b")}


@pytest.mark.django_db
def test_a_channel_that_keeps_failing_is_paused_and_its_owner_told(settings, quiet_listener):
    from accounts.models import OutgoingEmail
    from dalmuti_site import channels

    settings.OUTBOUND_ALLOW_LOOPBACK = True
    ada = make_user("ch-owner", language="fr")
    ada.channel_url = f"json://127.0.0.1:{quiet_listener.port}/nobody-answers"
    ada.save()
    quiet_listener.sock.close()  # connections are refused from now on
    for _ in range(channels.FAILURES_BEFORE_PAUSE):
        with pytest.raises(channels.ChannelFailed):
            channel_sender.send_test(ada)
        ada.refresh_from_db()
    assert ada.channel_paused is not None and not ada.channel_active
    told = OutgoingEmail.objects.get(user=ada, kind="channel_paused")
    assert told.subject == "Votre canal de notifications a été mis en pause"
    assert told.text.startswith("Bonjour Ch-Owner,\n\nLes messages vers votre canal webhook JSON")
    assert "nobody-answers" not in told.text  # the address is a secret, even to its owner's mail


def test_a_paused_channel_of_a_service_without_a_name_is_told_in_whole_words(db):
    from accounts.models import OutgoingEmail
    from games.away.channels import _tell_paused

    ada = make_user("ch-nameless", language="de")
    ada.channel_url = "nameless://somewhere"
    _tell_paused(ada, ada)
    told = OutgoingEmail.objects.get(user=ada, kind="channel_paused")
    assert told.text.startswith("Hallo Ch-Nameless,\n\n")
    assert "Nachrichten an deinen Benachrichtigungskanal" in told.text


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_real_delivery_through_a_worker(celery_worker, hook, settings, fake_dns, monkeypatch):
    """The host's Discord channel (in Dutch) and a player's own JSON webhook (in
    German), sent by a real worker from the tasks the commands hand over after commit."""
    from apprise.plugins.discord import NotifyDiscord

    settings.NOTIFY_GRACE_SECONDS = 0
    fake_dns.names["discord.com"] = ["127.0.0.1"]
    monkeypatch.setattr(NotifyDiscord, "notify_url",
                        f"http://discord.com:{hook.port}/api/webhooks")
    ada = make_user("rd-ada", display_name="Ada", language="nl")
    bea = make_user("rd-bea", display_name="Bea", language="de",
                    channel_url=f"json://127.0.0.1:{hook.port}/bea")
    game = _table(ada, [bea], bots=2, url="discord://1234/group-token", away=[bea])
    assert wait_for(lambda: hook.texts("/api/webhooks/1234/group-token"), timeout=60)
    assert "Het spel is begonnen: " in hook.texts("/api/webhooks/")[0]
    # Bea's own channel hears of the start too, in her language, like her email: sent
    # when the periodic sweep (Celery beat's, every minute) finds it due.
    tasks.sweep.delay()
    assert wait_for(lambda: hook.texts("/bea"), timeout=60)
    assert "Partie" in hook.texts("/bea")[0]
    # One message each: a task run twice (a redelivery) sends nothing more.
    notice = ChannelNotice.objects.get(game=game, kind="started")
    assert tasks.send_channel_notice(notice.pk) == "not pending"
    assert len(hook.texts("/api/webhooks/")) == 1


@pytest.mark.django_db
def test_a_league_channel_set_in_the_admin_reaches_its_tables(admin_client, settings):
    from games.core import channel_owners
    from leagues.models import League, LeagueGame

    settings.OUTBOUND_ALLOW_LOOPBACK = False
    league = League.objects.create(name="Fridays", slug="fridays")
    page = admin_client.get(f"/admin/leagues/league/{league.pk}/change/")
    form = page.context["adminform"].form
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data.update({"organisers": [], "channel": "tgram://123456789:secret-bot/42",
                 "memberships-TOTAL_FORMS": 0, "memberships-INITIAL_FORMS": 0,
                 "seasons-TOTAL_FORMS": 0, "seasons-INITIAL_FORMS": 0})
    data = {k: v for k, v in data.items() if v is not False}
    answer = admin_client.post(f"/admin/leagues/league/{league.pk}/change/", data)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    league.refresh_from_db()
    assert league.channel_url == "tgram://123456789:secret-bot/42"
    shown = admin_client.get(f"/admin/leagues/league/{league.pk}/change/").content.decode()
    assert "secret-bot" not in shown and "tgram://••••••••" in shown
    host = make_user("lg-host")
    game = commands.create_table(host, "League table", 4, {})
    LeagueGame.objects.create(game=game, league=league)
    owner, _people = channel_owners.for_game(game)
    assert owner == league
    commands.set_channel(game.pk, host, "discord://1/own")
    game.refresh_from_db()
    assert channel_owners.for_game(game)[0] == game  # a table's own channel comes first


@pytest.mark.django_db
def test_the_host_sets_the_channel_and_sees_it_only_masked(client, settings):
    from tests.helpers import session_for  # noqa: F401 - logs in like the others

    settings.OUTBOUND_ALLOW_LOOPBACK = False
    host, guest = make_user("pg-host"), make_user("pg-guest")
    game = commands.create_table(host, "Page table", 4, {})
    commands.join(game.pk, guest)
    client.force_login(host)
    url = f"/t/{game.pk}/channel/"
    refused = client.post(url, {"action": "save", "url": "jsons://10.0.0.8/hook"})
    assert "cannot send to this address" in refused.content.decode()
    webhook = "https://discord.com/api/webhooks/417429632418316298/secret_TOKEN"
    assert client.post(url, {"action": "save", "url": webhook}).status_code == 302
    game.refresh_from_db()
    assert game.channel_url.startswith("discord://417429632418316298/secret_TOKEN")
    page = client.get(url).content.decode()
    assert "secret_TOKEN" not in page and "discord://••••••••" in page
    assert "secret_TOKEN" not in client.get(f"/t/{game.pk}/").content.decode()
    assert client.post(url, {"action": "test"}).status_code == 302
    assert ChannelNotice.objects.filter(game=game, kind="test", status="pending").exists()
    client.force_login(guest)
    assert client.get(url).status_code == 404  # the host's alone
    client.force_login(host)
    client.post(url, {"action": "remove"})
    game.refresh_from_db()
    assert game.channel_url == ""


@pytest.mark.django_db
def test_a_player_adds_their_own_channel_on_the_profile(client, settings):
    from games.commands.notifications import channels_for

    settings.OUTBOUND_ALLOW_LOOPBACK = False
    user = make_user("pf-user")
    client.force_login(user)
    answer = client.post("/accounts/profile/channel/",
                         {"action": "save", "url": "ntfys://my-secret-topic"})
    assert answer.status_code == 302
    user.refresh_from_db()
    assert "chat" in channels_for(user)
    page = client.get("/accounts/profile/").content.decode()
    assert "my-secret-topic" not in page and "ntfys://••••••••" in page
    assert "Send a test message" in page
    for refused in ("mailto://me:pw@example.org", "jsons://localhost/x", "json://example.org/x"):
        answer = client.post("/accounts/profile/channel/", {"action": "save", "url": refused})
        assert answer.status_code == 400
    user.refresh_from_db()
    assert user.channel_url.startswith("ntfys://my-secret-topic")
    user.channel_paused = timezone.now()
    user.save()
    assert "chat" not in channels_for(user)  # paused: nothing goes there
    assert "Paused:" in client.get("/accounts/profile/").content.decode()


@pytest.mark.django_db
def test_the_rounds_the_end_and_a_nudge_in_the_host_s_language(hook):
    from tests.helpers import play_out

    host = make_user("rn-host", display_name="Hôte", language="fr")
    game = _table(host, [], bots=3, url=f"json://127.0.0.1:{hook.port}/g",
                  options={"rounds": 2, "reduced_deck": True})
    game = play_out(game)
    assert game.is_over
    kinds = list(ChannelNotice.objects.filter(game=game).exclude(kind="turn")
                 .order_by("pk").values_list("kind", "key"))
    # The last round's result is the end's: told once, with the final standings.
    assert kinds == [("started", "started"), ("round", "round:1"), ("over", "over")]
    round_one = channel_sender.notice_message(ChannelNotice.objects.get(game=game, kind="round"))
    assert round_one.title == "Friday table"
    assert round_one.body.startswith("La manche 1 est finie. Ordre d’arrivée\u00a0: 1. ")
    over = channel_sender.notice_message(ChannelNotice.objects.get(game=game, kind="over"))
    assert over.body.startswith("La partie est finie. Classement final\u00a0: 1. ")
    bot = game.seats.exclude(user=host).first()
    nudge = ChannelNotice(game=game, kind="nudge", payload={
        "by": game.seats.get(user=host).player, "player": bot.player})
    assert channel_sender.notice_message(nudge).body.startswith(
        f"Hôte a fait signe à {bot.name}\u00a0: la table l’attend.")


@pytest.mark.django_db
def test_a_tables_league_and_its_channel_are_heard_as_soon_as_they_change():
    """Which league's channel a table hears is kept in the shared cache (every public
    move asks): a channel set on the league, a table moved to another league and a
    channel taken away all count from the next move."""
    from games.core import channel_owners
    from leagues.models import League, LeagueGame

    quiet = League.objects.create(name="Quiet", slug="quiet")
    loud = League.objects.create(name="Loud", slug="loud", channel_url="discord://2/loud")
    game = commands.create_table(make_user("lc-host"), "League table", 4, {})
    link = LeagueGame.objects.create(game=game, league=quiet)
    assert channel_owners.for_game(game) is None
    assert channel_owners.for_game(game) is None  # the answer kept
    quiet.channel_url = "discord://1/quiet"
    quiet.save()
    assert channel_owners.for_game(game)[0] == quiet
    link.league = loud
    link.save()
    assert channel_owners.for_game(game)[0] == loud
    loud.channel_url = ""
    loud.save()
    assert channel_owners.for_game(game) is None
