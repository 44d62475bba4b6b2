"""A URL whose path holds a NUL byte or another character no URL may hold (a control
character) finds nothing: 404, on every route, signed in or not, and the database never
sees it (PostgreSQL refuses a NUL in a string outright)."""

import pytest
from django.test import Client

from tests.helpers import start_table

pytestmark = pytest.mark.django_db

ROUTES = [
    "/watch/a{bad}b/",
    "/watch/a{bad}b/poll/",
    "/watch/a{bad}b/log/",
    "/join/a{bad}b/",
    "/players/1{bad}/",
    "/players/alice{bad}/",
    "/unsubscribe/a{bad}b/",
    "/accounts/confirm/a{bad}b/",
    "/leagues/a{bad}b/",
    "/t/1{bad}/",
    "/{bad}",
]
BAD = ["%00", "%01", "%0A", "%1F", "%7F", "%C2%85"]


@pytest.fixture
def clients(alice, bob):
    start_table(alice, [bob], bots=2)  # something to find, were the path read
    stranger = Client(raise_request_exception=False)
    signed_in = Client(raise_request_exception=False)
    signed_in.force_login(alice)
    return {"anonymous": stranger, "signed in": signed_in}


@pytest.mark.parametrize("route", ROUTES)
def test_a_nul_byte_in_the_path_answers_404(settings, clients, route):
    settings.DEBUG = False
    for who, client in clients.items():
        for method in ("get", "post"):
            answer = getattr(client, method)(route.format(bad="%00"))
            assert answer.status_code == 404, (who, method, answer.status_code)


@pytest.mark.parametrize("bad", BAD)
def test_control_characters_in_the_path_answer_404(settings, clients, bad):
    settings.DEBUG = False
    for route in ("/watch/a{bad}b/", "/join/a{bad}b/", "/players/alice{bad}/"):
        answer = clients["signed in"].get(route.format(bad=bad))
        assert answer.status_code == 404, (route, bad, answer.status_code)


def test_the_same_routes_still_answer_without_them(clients, alice):
    assert clients["signed in"].get("/players/alice/").status_code == 200
    assert clients["anonymous"].get("/watch/nothing-here/").status_code == 404
