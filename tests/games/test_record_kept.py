"""A finished game's log is put in words once and kept in the shared cache: every player
who opens its record after the first reads it from there, not from the game's actions,
yet each reads it with the names the players go by now and in their own language."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.commands.account import delete_account
from games.models import Action
from games.read.replay import SeatNames, record_log
from tests.leagues.helpers import play_game, start_game

pytestmark = pytest.mark.django_db


def _log(response) -> list[tuple[int, str]]:
    return [(line["seq"], line["text"])
            for r in response.context["log_rounds"] for line in r["lines"]]


def _reads_actions(queries) -> bool:
    table = Action._meta.db_table
    return any(f'FROM "{table}"' in q["sql"] for q in queries)


@pytest.fixture
def finished(alice, bob):
    return play_game(alice, [bob], bots=3, options={"rounds": 2})


def test_the_second_reader_of_a_record_finds_its_log_kept(client, alice, bob, finished):
    url = reverse("game_record", args=[finished.pk])
    client.force_login(alice)
    first = client.get(url)
    client.force_login(bob)
    with CaptureQueriesContext(connection) as queries:
        second = client.get(url)
    assert second.status_code == 200
    assert not _reads_actions(queries.captured_queries)
    assert _log(second) == _log(first) and len(_log(first)) > 50
    assert second.context["can_replay"] and reverse("replay", args=[finished.pk]).encode() \
        in second.content


def test_a_player_who_renames_is_named_anew_in_the_kept_log(client, alice, bob, finished):
    url = reverse("game_record", args=[finished.pk])
    client.force_login(alice)
    before = _log(client.get(url))
    assert any("Bob" in text for _, text in before)
    bob.display_name = "Roberta"
    bob.save()
    after = _log(client.get(url))
    assert any("Roberta" in text for _, text in after)
    assert not any("Bob " in text or text.startswith("Bob") for _, text in after)
    assert [seq for seq, _ in after] == [seq for seq, _ in before]


def test_a_deleted_account_is_a_former_player_in_the_kept_log(client, alice, bob, finished):
    url = reverse("game_record", args=[finished.pk])
    client.force_login(alice)
    client.get(url)
    delete_account(bob.pk)
    texts = [text for _, text in _log(client.get(url))]
    assert any("Former player" in text for text in texts)
    assert not any("Bob" in text for text in texts)


def test_each_language_has_its_own_words_in_the_kept_log(client, alice, bob, finished):
    url = reverse("game_record", args=[finished.pk])
    client.force_login(alice)
    english = _log(client.get(url))
    alice.language = "nl"
    alice.save()
    dutch = _log(client.get(url))
    assert [seq for seq, _ in dutch] == [seq for seq, _ in english]
    assert dutch != english
    assert any("speelt" in text or "past" in text for _, text in dutch)


def test_a_game_in_play_has_no_record_to_keep(alice, bob):
    game = start_game(alice, [bob])
    with pytest.raises(ValueError):
        record_log(game, SeatNames(game))
