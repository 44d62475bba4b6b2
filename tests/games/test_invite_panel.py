"""The folded invitation panel of a game in play: the page draws its fold alone and reads
no invitation; its content (the link, the host's forms and invitees, the others' count)
comes when a player unfolds it, or drawn open with `?invite=1`, the way in without
scripts; after inviting, the host is back at the page with the panel open."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import commands
from games.models import Invitation
from tests.helpers import start_table

pytestmark = pytest.mark.django_db


def _panel_url(game) -> str:
    return f"/t/{game.pk}/invite-panel/"


def _fold(page: str) -> str:
    return re.search(r'<details class="panel invite-panel"[^>]*>', page).group(0)


def test_the_page_draws_the_fold_alone_and_reads_no_invitation(client, game, alice):
    client.force_login(alice)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(f"/t/{game.pk}/").content.decode()
    fold = _fold(page)
    assert f'hx-get="{_panel_url(game)}"' in fold and 'hx-trigger="toggle once"' in fold
    assert " open" not in fold
    # Without scripts, the fold offers the page with the panel open.
    assert 'href="?invite=1#invite"' in page
    assert f'action="/t/{game.pk}/invite/"' not in page
    assert f"/join/{game.invite_token}/" not in page
    assert not [q["sql"] for q in queries.captured_queries if "games_invitation" in q["sql"]]


def test_unfolded_the_host_gets_the_link_the_forms_and_the_invitees(client, game, alice):
    commands.invite(game, alice, email="carol@example.org")
    client.force_login(alice)
    for answer in (client.get(_panel_url(game)), client.get(f"/t/{game.pk}/?invite=1")):
        assert answer.status_code == 200
        content = answer.content.decode()
        assert f"/join/{game.invite_token}/" in content
        assert f'action="/t/{game.pk}/invite/"' in content
        assert "carol@example.org" in content
    # The panel alone, not a page; the page asked with it open shows it open.
    assert "<html" not in client.get(_panel_url(game)).content.decode()
    page = client.get(f"/t/{game.pk}/?invite=1").content.decode()
    assert " open" in _fold(page) and "hx-get" not in _fold(page)


def test_another_player_gets_the_link_and_the_count_never_the_addresses(client, game, alice, bob):
    commands.invite(game, alice, email="carol@example.org")
    client.force_login(bob)
    for url in (_panel_url(game), f"/t/{game.pk}/?invite=1"):
        content = client.get(url).content.decode()
        assert f"/join/{game.invite_token}/" in content
        assert "1 invitation pending" in content
        assert "carol@example.org" not in content
        assert f'action="/t/{game.pk}/invite/"' not in content


def test_without_a_seat_there_is_no_panel(client, game, make_user):
    assert client.get(_panel_url(game)).status_code == 302  # to the sign-in page
    client.force_login(make_user("mallory"))
    answer = client.get(_panel_url(game))
    assert answer.status_code == 404
    assert game.invite_token not in answer.content.decode()


def test_a_panel_opened_when_nobody_can_join_any_more_says_so(client, alice, bob):
    game = start_table(alice, [bob], bots=2, options={"rounds": 1})  # no round to join at
    client.force_login(alice)
    assert "invite-panel" not in client.get(f"/t/{game.pk}/").content.decode()
    # A page loaded while there was room, unfolded now: no form, and why.
    content = client.get(_panel_url(game)).content.decode()
    assert "Nobody new can join this game now" in content
    assert f'action="/t/{game.pk}/invite/"' not in content
    assert game.invite_token not in content
    dutch = client.get(_panel_url(game), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Nobody new can join" not in dutch


def test_after_inviting_the_host_is_back_with_the_panel_open(
    client, game, alice, make_user, django_capture_on_commit_callbacks, eager_tasks,
):
    make_user("dora")
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(f"/t/{game.pk}/invite/", {"who": "dora"})
    assert answer.status_code == 302 and answer.url == f"/t/{game.pk}/?invite=1"
    page = client.get(answer.url).content.decode()
    assert "Invitation sent." in page and " open" in _fold(page) and "Dora" in page
    # A refusal comes back to the open panel too, with what went wrong.
    answer = client.post(f"/t/{game.pk}/invite/", {"who": "nobody-here"}, follow=True)
    assert answer.redirect_chain == [(f"/t/{game.pk}/?invite=1", 302)]
    assert "There is no player called" in answer.content.decode()
    assert Invitation.objects.count() == 1


def test_a_lobby_with_a_free_seat_gets_its_own_panel(client, alice):
    lobby = commands.create_table(alice, "Friday", 6, {"rounds": 1})
    client.force_login(alice)
    content = client.get(_panel_url(lobby)).content.decode()
    assert "whoever opens it can take a free seat" in content
    assert f'action="/t/{lobby.pk}/invite/"' in content
    assert "Nobody new can join" not in content


def test_in_the_lobby_inviting_comes_back_to_the_lobby(client, alice, make_user):
    make_user("dora")
    lobby = commands.create_table(alice, "Friday", 6, {"rounds": 1})
    client.force_login(alice)
    answer = client.post(f"/t/{lobby.pk}/invite/", {"who": "dora"})
    assert answer.url == f"/t/{lobby.pk}/"
