"""The host's tools in play (the watch link, the group's chat, ending the game) have a
folded panel of their own, named for the host, apart from the player's own standing
orders; sharing or stopping the watch link says what it did and leaves that panel open
with the link in sight."""

import re

import pytest
from django.urls import reverse

from games.models import Game
from tests.helpers import start_table

pytestmark = pytest.mark.django_db


def _panel(page: str, summary: str) -> str:
    """The folded panel whose summary is `summary`: its markup up to the next panel."""
    start = page.index(f"<summary>{summary}</summary>")
    end = page.find("<summary>", start + 1)
    return page[page.rindex("<details", 0, start):end if end > 0 else None]


def test_the_host_has_a_panel_of_their_own(client, alice, bob):
    game = start_table(alice, [bob], bots=2)
    client.force_login(alice)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    host = _panel(page, "For the host")
    assert "Let people watch by link" in host
    assert reverse("table_channel", args=[game.pk]) in host
    assert "Let people watch by link" not in _panel(page, "Standing orders and your clock")
    client.force_login(bob)
    assert "For the host" not in client.get(reverse("game", args=[game.pk])).content.decode()


def test_sharing_the_watch_link_says_so_and_shows_it(client, alice, bob):
    game = start_table(alice, [bob], bots=2)
    client.force_login(alice)
    answer = client.post(reverse("watchable", args=[game.pk]), {"watch": "yes"}, follow=True)
    game = Game.objects.get(pk=game.pk)
    page = answer.content.decode()
    assert answer.redirect_chain[-1][0].endswith("#host-panel")
    assert "Anyone with the link can watch the game now." in page
    host = _panel(page, "For the host")
    assert re.match(r'<details[^>]*\bopen\b', host)
    assert reverse("watch", args=[game.watch_token]) in host

    answer = client.post(reverse("watchable", args=[game.pk]), {"watch": "no"}, follow=True)
    assert "The watch link no longer works." in answer.content.decode()
