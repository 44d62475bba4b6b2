"""A bot never bears the name of a person at its table, whoever came first: two "Bram"s
would leave every log line, email and standing in doubt. A bot is named away from the
people seated and invited; a friend who sits down, or renames themselves, with a bot's
name has the bot renamed (and the record of a replacement follows it)."""

import pytest

from games import commands
from games.models import Game, Seat
from leagues.models import Replacement
from leagues.services import create_league_table, replace_by_bot
from tests.helpers import make_user, play_until, start_table
from tests.leagues.helpers import make_league

pytestmark = pytest.mark.django_db


def _names(game: Game) -> list[str]:
    return [seat.name for seat in Seat.objects.filter(game=game).select_related("user")]


def _apart(game: Game) -> bool:
    names = [name.casefold() for name in _names(game)]
    return len(names) == len(set(names))


def test_a_friend_who_sits_down_after_a_bot_of_their_name_has_it_renamed():
    host = make_user("host")
    game = commands.create_table(host, "Names", 5, {"rounds": 1})
    bot = commands.add_bot(game.pk, "basic")
    assert bot.bot_name == "Ada"
    ada = make_user("ada", display_name="ADA")
    commands.join(game.pk, ada)
    bot.refresh_from_db()
    assert bot.bot_name not in ("Ada", "") and _apart(game)


def test_a_bot_is_not_named_after_a_friend_invited_by_name():
    host, bram = make_user("host"), make_user("bram", display_name="Bram")
    league = make_league(members=[host, bram])
    game = create_league_table(league, host, [bram], "League night", bots=3)
    assert "Bram" not in [s.bot_name for s in game.seats.filter(user=None)]
    commands.join(game.pk, bram)
    assert _apart(game) and game.seats.count() == 5


def test_a_newcomer_in_play_with_a_replacing_bots_name_has_it_renamed_in_its_record():
    host, rita = make_user("host"), make_user("rita")
    league = make_league(members=[host, rita])
    game = create_league_table(league, host, [rita], "League night", bots=2)
    commands.join(game.pk, rita)
    commands.start(game.pk, host)
    replacement = replace_by_bot(game.pk, game.seats.get(user=rita).pk, "basic", "away")
    taken = replacement.bot_name
    version = Game.objects.get(pk=game.pk).version
    newcomer = make_user("newcomer", display_name=taken.upper())
    commands.join_in_progress(game.pk, newcomer)
    bot = Seat.objects.get(pk=game.seats.get(player=replacement.player).pk)
    assert bot.bot_name.casefold() != taken.casefold() and _apart(game)
    assert Replacement.objects.get(pk=replacement.pk).bot_name == bot.bot_name
    assert Game.objects.get(pk=game.pk).version > version


@pytest.mark.parametrize("status", ["open", "playing", "over"])
def test_a_player_who_renames_themselves_after_a_bot_at_their_table(client, status):
    """Through their profile: the bot at an open table or one in play takes another
    name (the open pages are told); a finished game's record is left as it was."""
    tess = make_user("tess")
    if status == "open":
        game = commands.create_table(tess, "Names", 5, {"rounds": 1})
        commands.add_bot(game.pk, "basic")
    else:
        game = start_table(tess, bots=3, options={"rounds": 1})
        if status == "over":
            game = play_until(game, lambda g: g.is_over)
    bot = game.seats.filter(user=None).order_by("pk").first()
    taken, version = bot.bot_name, Game.objects.get(pk=game.pk).version
    client.force_login(tess)
    answer = client.post("/accounts/profile/", {
        "display_name": taken, "email": tess.email, "notify": tess.notify,
        "notify_by": tess.notify_by, "language": "", "time_zone": "", "away_until": ""})
    assert answer.status_code == 302
    bot.refresh_from_db()
    if status == "over":
        assert bot.bot_name == taken
        return
    assert bot.bot_name != taken and _apart(game)
    assert (Game.objects.get(pk=game.pk).version > version) == (status == "playing")


def test_an_organiser_who_renames_a_player_in_the_admin(client):
    olga = make_user("olga", is_staff=True, is_superuser=True)
    tess = make_user("tess")
    game = start_table(tess, bots=3, options={"rounds": 1})
    bot = game.seats.filter(user=None).order_by("pk").first()
    client.force_login(olga)
    page = client.get(f"/admin/accounts/user/{tess.pk}/change/")
    form = page.context["adminform"].form
    data = {name: value for name, value in form.initial.items()
            if value is not None and not isinstance(value, list | tuple)}
    data.update({"username": "tess", "display_name": bot.bot_name, "notify": tess.notify,
                 "language": "", "date_joined_0": "2026-01-01", "date_joined_1": "10:00",
                 "is_active": "on"})
    answer = client.post(f"/admin/accounts/user/{tess.pk}/change/", data)
    assert answer.status_code == 302, answer.content.decode()[:3000]
    old = bot.bot_name
    bot.refresh_from_db()
    assert bot.bot_name != old and _apart(game)


def test_a_rematch_keeps_a_bots_name_only_while_nobody_has_it():
    tess, bram = make_user("tess"), make_user("bram", display_name="Bram")
    game = start_table(tess, [bram], bots=2, options={"rounds": 1})
    game = play_until(game, lambda g: g.is_over)
    old = sorted(s.bot_name for s in game.seats.filter(user=None))
    new = commands.open_rematch(game.pk, tess)
    assert sorted(s.bot_name for s in new.seats.filter(user=None)) == old
    commands.join(new.pk, bram)
    assert _apart(new)


def test_a_bot_is_not_named_after_a_word_of_a_persons_longer_name():
    """"Bram" beside "Bram van Oosterhout": the phone's seats cut the longer name and the
    log names the bot alone; so is a friend who sits down after it."""
    host = make_user("host", display_name="Bram van Oosterhout")
    game = commands.create_table(host, "Names", 6, {"rounds": 1})
    bots = [commands.add_bot(game.pk, "basic") for _ in range(3)]
    assert "Bram" not in [b.bot_name for b in bots]
    ada = next(b for b in bots if b.bot_name == "Ada")
    commands.join(game.pk, make_user("anna", display_name="Ada-Marie Lovelace"))
    ada.refresh_from_db()
    assert ada.bot_name not in ("Ada", "Bram", "")
