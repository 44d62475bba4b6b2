"""The load benchmark reads a served page by the hooks its script uses (#poller,
#chat-seen, #looked): a change to the game page that moves them fails here, not in a
benchmark run that would quietly measure nothing."""

import pytest

from tests.helpers import make_user, start_table
from tools.bench_load import hooks, poll_parts


@pytest.mark.django_db
def test_the_benchmark_finds_the_poller_and_the_counters_on_a_served_game_page(client):
    alice, bob = make_user("alice"), make_user("bob")
    game = start_table(alice, [bob], bots=2)
    client.force_login(alice)
    page = client.get(f"/t/{game.pk}/")
    assert page.status_code == 200
    found = hooks(page.content)
    url, version, every = poll_parts(found.poller)
    game.refresh_from_db()
    assert url.startswith(f"/t/{game.pk}/poll/?")
    assert version == game.version
    assert every and every > 0
    assert found.chat_seen is not None
    assert set(found.looked) == {"r", "n", "p", "d", "e"}
    assert found.looked["r"] == str(game.round_number)


def test_a_finished_page_has_no_poll_address():
    found = hooks(b'<div id="poller" aria-hidden="true"></div>')
    assert poll_parts(found.poller) == ("", None, None)
