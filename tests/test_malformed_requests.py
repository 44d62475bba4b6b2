"""Whatever a script sends, no page answers with a server error: every route of the site
(the admin's aside), signed in at a table, signed in elsewhere or not at all, asked with
every field any form or view reads, each filled with what no browser sends (a NUL byte,
which PostgreSQL refuses in a string outright; a number too large for any column; a digit
of another script; a lone surrogate; bytes that are no UTF-8; a body cut short; JSON). Each
answer is a refusal or the page, never a 500."""

import re
from pathlib import Path

import pytest
from django.test import Client

from games import commands
from tests.helpers import play_until, site_routes, start_table

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
APPS = ("accounts", "chat", "games", "leagues", "players", "push", "dalmuti_site")
VALUES = ["x\x00y", "9" * 30, "٣"]


def _field_names() -> list[str]:
    """Every field a form of the site declares (or lists from its model), and every key a
    view reads from a request's POST or GET, found in the source: a new one is asked too."""
    names = set()
    for app in APPS:
        for source in (ROOT / app).rglob("*.py"):
            text = source.read_text(encoding="utf-8")
            names |= set(re.findall(r'request\.(?:POST|GET)(?:\.get(?:list)?\(|\[)"(\w+)"', text))
            names |= set(re.findall(r"^\s+(\w+) = (?:forms\.|\w+Field\()", text, re.M))
            for listed in re.findall(r"^\s+fields = \(([^)]*)\)", text, re.M):
                names |= set(re.findall(r'"(\w+)"', listed))
    assert {"turn", "card", "username", "time_zone", "text", "next"} <= names, names
    return sorted(names)


def _paths(game, lobby, tokens) -> list[str]:
    paths = []
    for route in site_routes():
        for table in {game, lobby} if "game_id" in route else {game}:
            path = re.sub(r"<\w+:game_id>", str(table), route)
            path = re.sub(r"<\w+:token>", tokens.get(route.split("/")[1], "x"), path)
            path = re.sub(r"<int:\w+>", "1", path)
            path = re.sub(r"<(?:\w+:)?\w+>", "alice", path)
            paths.append(path)
    return paths


def test_no_route_answers_a_malformed_request_with_an_error(alice, bob, carol, settings):
    settings.DEBUG = False
    # Every request reaches its view: no limit on attempts answers for it (429).
    for name in ("SIGNUP_ATTEMPT_LIMIT", "SIGNUP_ADDRESS_LIMIT", "LOOKUP_LIMIT",
                 "RESEND_CONFIRMATION_LIMIT", "LOGIN_FAILURE_LIMIT",
                 "LOGIN_ADDRESS_FAILURE_LIMIT", "CHAT_RATE_LIMIT"):
        setattr(settings, name, 10**6)
    game = play_until(start_table(alice, [bob], bots=2), lambda g: g.round_number >= 1)
    # And a table waiting for its players, whose routes (join, seat settings, start) answer.
    lobby = commands.create_table(alice, "Waiting", 5, {"rounds": 3})
    commands.join(lobby.pk, bob)
    paths = _paths(game.pk, lobby.pk, {"join": game.invite_token, "watch": game.watch_token})
    names = _field_names()
    clients = {}
    for who, user in (("seated", alice), ("elsewhere", carol), ("signed out", None)):
        clients[who] = Client(raise_request_exception=False)
        if user:
            clients[who].force_login(user)
    errors = []
    for path in paths:
        for who, client in clients.items():
            answers = []
            for value in VALUES:
                data = dict.fromkeys(names, value)
                answers += [client.post(path, data), client.get(path, data)]
            for body in ("&".join(f"{n}=%ED%A0%80" for n in names).encode(), b"\xff\xfe=\xff",
                         b"turn=1&card=7&ca"):
                answers.append(client.post(path, body,
                                           content_type="application/x-www-form-urlencoded"))
            answers.append(client.post(path, b'{"turn":', content_type="application/json"))
            errors += [(who, path, a.status_code) for a in answers
                       if a.status_code >= 500 or a.status_code == 429]
    assert len(paths) > 80 and errors == [], errors
