"""An update to an open page that shows this round's log and the same folded panels
sends the log's lines alone and leaves the other panels (only the lines the page has not
shown, when it wrote its lines' times today); anything else gets the panels whole. Either
way it is drawn from the player's own log, so it depends on no hidden card."""

import random
import re

import pytest

from games import commands, engine
from games.models import Game
from tests.games.test_privacy import CSRF, _shuffle_hidden_cards
from tests.helpers import legal, one_instant, start_table, waiting_humans
from tools.bench_load import hooks

pytestmark = pytest.mark.django_db

LINES_ALONE = 'id="log-lines" data-round="1" hx-swap-oob="true">'
ADDED = '<ol hx-swap-oob="afterbegin:#log-lines">'


def _looked(body: bytes) -> dict[str, str]:
    return hooks(body).looked


def _query(looked: dict[str, str]) -> str:
    return "".join(f"&{name}={value}" for name, value in looked.items())


def _one_move(game: Game, rng: random.Random) -> None:
    """One move by a waiting person, else by a bot."""
    game.refresh_from_db()
    humans = waiting_humans(game)
    if humans:
        seat = rng.choice(humans)
        commands.act(game.pk, seat.user, engine.action_from_json(rng.choice(legal(game, seat))),
                     game.awaiting[str(seat.player)][0])
    else:
        commands.play_bot_move(game.pk)


def _play_a_move_in_the_same_round(game: Game, rng: random.Random) -> None:
    game.refresh_from_db()
    round_number = game.round_number
    _one_move(game, rng)
    game.refresh_from_db()
    assert game.round_number == round_number


def test_an_update_sends_the_log_lines_alone_when_the_panels_did_not_change(client, make_user):
    rng = random.Random(3)
    alice, bob = make_user("alice"), make_user("bob")
    with one_instant():
        game = start_table(alice, [bob], bots=2, options={"first_round_taxes": False})
        client.force_login(alice)
        page = client.get(f"/t/{game.pk}/").content
        looked = _looked(page)
        assert set(looked) == {"r", "n", "p", "d", "e"}
        version = Game.objects.get(pk=game.pk).version
        _play_a_move_in_the_same_round(game, rng)

        # Only the lines the page has not shown, numbered on from those it has.
        body = client.get(f"/t/{game.pk}/poll/?v={version}&me={_query(looked)}").content.decode()
        assert 'id="panels"' not in body and LINES_ALONE not in body
        now = _looked(body.encode())
        added = body.split(ADDED, 1)[1].split("</ol>", 1)[0]
        numbers = [int(n) for n in re.findall(r'data-line="(\d+)"', added)]
        assert numbers == list(range(int(now["n"]), int(looked["n"]), -1)) and numbers
        assert now["p"] == looked["p"]

        # A page that wrote its lines' times on another day gets the whole list again.
        body = client.get(f"/t/{game.pk}/poll/?v={version}&me="
                          f"{_query({**looked, 'd': '2001-01-01'})}").content.decode()
        assert 'id="panels"' not in body and ADDED not in body
        lines = body.split(LINES_ALONE, 1)[1].split("</ol>", 1)[0]
        assert lines.count("<li") == int(now["n"])

        # A page whose panels differ, or that shows no log counts, gets them whole.
        for query in (_query({**looked, "p": "other"}), ""):
            body = client.get(f"/t/{game.pk}/poll/?v={version}&me={query}").content.decode()
            assert 'id="panels"' in body and LINES_ALONE not in body and ADDED not in body


def test_the_log_lines_alone_do_not_depend_on_hidden_cards(client, make_user):
    rng = random.Random(5)
    alice, bob = make_user("alice"), make_user("bob")
    with one_instant():
        game = start_table(alice, [bob], bots=3, options={"first_round_taxes": False})
        client.force_login(alice)
        looked = _looked(client.get(f"/t/{game.pk}/").content)
        for _ in range(3):
            _one_move(game, rng)
        game.refresh_from_db()
        if game.round_number != int(looked["r"]):
            pytest.skip("the round ended")  # the seed keeps it in the first round
        player = game.seats.get(user=alice).player
        path = f"/t/{game.pk}/poll/?v=-1&me={_query(looked)}"
        # The lines added to what the page shows, and the whole list (written another day).
        paths = (path, f"/t/{game.pk}/poll/?v=-1&me={_query({**looked, 'd': '2001-01-01'})}")
        before = [CSRF.sub(r"\1*", client.get(each).content.decode()) for each in paths]
        assert ADDED in before[0] and LINES_ALONE in before[1]
        original = game.state
        assert _shuffle_hidden_cards(game, player, rng)
        after = [CSRF.sub(r"\1*", client.get(each).content.decode()) for each in paths]
        game.state = original
        game.save(update_fields=["state"])
        assert before == after
        assert not any(re.search(r'id="panels"', each) for each in after)


LINE = re.compile(r"<li[^>]*>(.*?)</li>", re.S)


def _lines(html: str) -> list[str]:
    return [" ".join(re.sub(r"<[^>]+>", " ", li).split()) for li in LINE.findall(html)]


def _log_of(body: str) -> list[str]:
    return _lines(body.split('id="log-lines"', 1)[1].split(">", 1)[1].split("</ol>", 1)[0])


def test_pages_kept_up_by_updates_show_the_log_a_fresh_page_shows(client, make_user):
    """Four people play a round, each page kept up by its polls alone, as a browser
    keeps it (the log's new lines put above the others, or the panels whole when they
    changed)."""
    rng = random.Random(11)
    users = [make_user(f"u{i}") for i in range(4)]
    game = start_table(users[0], users[1:], options={"rounds": 1})
    pages = {}
    for user in users:
        client.force_login(user)
        body = client.get(f"/t/{game.pk}/").content.decode()
        pages[user.pk] = {"log": _log_of(body), "looked": _looked(body.encode()),
                          "v": Game.objects.get(pk=game.pk).version}
    for _ in range(40):
        game.refresh_from_db()
        if not game.is_playing:
            break
        _one_move(game, rng)
        for user in users:
            page = pages[user.pk]
            client.force_login(user)
            with one_instant():
                answer = client.get(f"/t/{game.pk}/poll/?v={page['v']}&me={_query(page['looked'])}")
                if answer.status_code not in (200, 286):
                    continue
                body = answer.content.decode()
                if ADDED in body:  # the new lines, put above the others
                    page["log"] = _lines(body.split(ADDED, 1)[1].split("</ol>", 1)[0]) + page["log"]
                elif 'id="log-lines"' in body:
                    page["log"] = _log_of(body)
                page["looked"] = _looked(body.encode())
                page["v"] = int(re.search(r"\?v=(\d+)&", body)[1]) if "?v=" in body else page["v"]
                fresh = _log_of(client.get(f"/t/{game.pk}/").content.decode())
                assert page["log"] == fresh, user.username
