"""The game's words in each language: a verb agrees with how many players it names, a
player's name keeps its own spelling, the winner reads "you", and German calls a game
one thing."""

import re

import pytest
from django.conf import settings
from django.utils import translation

from games.models import Game
from games.read.narration import since_you_looked
from tests.helpers import make_user, play_until, start_table
from tools import i18n

NAMES = {0: "dave", 1: "eve", 2: "carol", 3: "tess"}


def _line(event: dict, by: str = "player", actor: int | None = None) -> dict:
    return {"event": event, "by": by,
            "actor": event.get("player") if actor is None else actor}


@pytest.mark.parametrize(("language", "one", "two"), [
    ("en", "dave passed", "dave and eve passed"),
    ("nl", "dave paste", "dave en eve pasten"),
    ("de", "dave passte", "dave und eve passten"),
    ("fr", "dave a passé", "dave et eve ont passé"),
])
def test_one_player_who_passed_takes_the_singular(language, one, two):
    with translation.override(language):
        assert since_you_looked([_line({"type": "pass", "player": 0})], 3, NAMES) == one
        assert since_you_looked([_line({"type": "pass", "player": 0}),
                                 _line({"type": "pass", "player": 1})], 3, NAMES) == two


@pytest.mark.parametrize("language", ["en", "nl"])
def test_a_name_is_never_capitalised_at_the_start_of_the_line(language):
    play = _line({"type": "play", "player": 2, "title": "merchant", "cards": [9]})
    with translation.override(language):
        summary = since_you_looked([play], 3, NAMES)
        assert summary.startswith("carol ")
        # A line that starts with a word of the sentence still starts with a capital.
        mine = since_you_looked([_line({"type": "play", "player": 3, "title": "merchant",
                                        "cards": [9]})], 3, NAMES)
        assert mine[0].isupper()


@pytest.mark.django_db
def test_the_winner_reads_that_she_won_and_the_others_read_her_name(client):
    players = [make_user(name, display_name=name) for name in ("carol", "dave", "eve", "finn")]
    game = start_table(players[0], players[1:], options={"rounds": 1})
    game = play_until(game, lambda g: g.is_over)
    assert game.status == Game.Status.FINISHED
    winner_player = game.engine_state().view(None)["game"]["winner"]
    winner = game.seats.get(player=winner_player).user
    other = next(u for u in players if u != winner)
    for language, you_win, named in (("en", "You win!", f"{winner.name} wins!"),
                                     ("de", "Du gewinnst!", f"{winner.name} gewinnt!")):
        winner.language = other.language = language
        winner.save()
        other.save()
        client.force_login(winner)
        page = client.get(f"/t/{game.pk}/").content.decode()
        assert you_win in page
        assert named not in page
        client.force_login(other)
        assert named in client.get(f"/t/{game.pk}/").content.decode()


# The card game itself (its deck, its name) is a "Spiel" in German; one sitting of it at
# a table is a "Partie", everywhere. Imperatives of "spielen" are not nouns.
GERMAN_GAME = re.compile(r"\b(Spiel|Spiele|Spiels|Spieles|Spielen)\b(?!-)(?! (deine|es) )")
THE_CARD_GAME = (
    "A game that fits into your days",
    "Not with more than 5 seats: the reduced deck is for 4 or 5 players.",
    "Play your role: a haughty Great Dalmuti",
)


def test_german_calls_a_game_at_a_table_a_partie_everywhere():
    po = settings.BASE_DIR / "locale" / "de" / "LC_MESSAGES" / "django.po"
    mixed = []
    for entry in i18n.parse_po(po):
        if not re.search(r"\bgames?\b", entry.msgid + (entry.msgid_plural or ""), re.I):
            continue
        if entry.msgid.startswith(THE_CARD_GAME):
            continue
        if any(GERMAN_GAME.search(text) for text in entry.msgstr.values()):
            mixed.append(entry.msgid)
    assert mixed == []
