from datetime import timedelta

import time_machine
from django.utils import timezone

from chat.models import Message
from chat.services import RATE_LIMIT, RATE_WINDOW

from .conftest import HTMX, start_table


def _post(client, game, text):
    return client.post(f"/t/{game.pk}/chat/post/", {"text": text}, **HTMX)


def test_a_player_who_talks_too_fast_is_told_to_wait(client, alice, game):
    client.force_login(alice)
    with time_machine.travel(timezone.now(), tick=False) as clock:
        for n in range(RATE_LIMIT):
            assert _post(client, game, f"spam {n}").status_code == 200
        refused = _post(client, game, "one too many")
        assert refused.status_code == 429
        assert "talking too fast" in refused.content.decode()
        assert Message.objects.count() == RATE_LIMIT
        clock.shift(timedelta(seconds=RATE_WINDOW + 1))
        assert _post(client, game, "calm again").status_code == 200


def test_the_limit_is_per_player(client, alice, bob, game):
    with time_machine.travel(timezone.now(), tick=False):
        client.force_login(alice)
        for n in range(RATE_LIMIT):
            _post(client, game, f"alice {n}")
        assert _post(client, game, "alice again").status_code == 429
        client.force_login(bob)
        assert _post(client, game, "bob still may").status_code == 200


def test_the_limit_follows_a_player_from_table_to_table(client, alice, game):
    other = start_table(alice, bots=3)
    with time_machine.travel(timezone.now(), tick=False):
        client.force_login(alice)
        for n in range(RATE_LIMIT):
            _post(client, game, f"here {n}")
        assert _post(client, other, "and there").status_code == 429


def test_flourishes_count_too(client, alice, game, settings):
    from chat import flourishes

    from .conftest import title_of

    settings.CHAT_RATE_LIMIT = 2
    key = flourishes.for_title(title_of(game, alice))[0].key
    client.force_login(alice)
    with time_machine.travel(timezone.now(), tick=False):
        assert client.post(f"/t/{game.pk}/chat/post/", {"flourish": key}).status_code == 302
        assert client.post(f"/t/{game.pk}/chat/post/", {"flourish": key}).status_code == 302
        refused = client.post(f"/t/{game.pk}/chat/post/", {"flourish": key})
    assert refused.status_code == 429
    assert "talking too fast" in refused.content.decode()


def test_a_watcher_has_one_limit_at_every_watched_table_and_in_every_language(
        client, alice, bob, game, settings):
    """The watchers' name is written in the watcher's language: changing it, or watching
    another table, does not start the count afresh."""
    from django.contrib.auth import get_user_model

    from games import commands
    from games.models import Game

    settings.CHAT_RATE_LIMIT = 2
    other = start_table(bob, bots=3)
    for table, host in ((game, alice), (other, bob)):
        commands.set_watchable(table.pk, host, True, talk=True)
    tokens = [Game.objects.get(pk=t.pk).watch_token for t in (game, other)]
    wendy = get_user_model().objects.create_user("wendy", "wendy@example.com", "x")
    client.force_login(wendy)
    with time_machine.travel(timezone.now(), tick=False):
        for text in ("Go Alice!", "Nice one"):
            assert client.post(f"/watch/{tokens[0]}/chat/", {"text": text},
                               **HTMX).status_code == 200
        wendy.language = "de"
        wendy.save(update_fields=["language"])
        for token in tokens:
            refused = client.post(f"/watch/{token}/chat/", {"text": "Weiter so"}, **HTMX)
            assert refused.status_code == 429
    assert Message.objects.filter(author=wendy).count() == 2
