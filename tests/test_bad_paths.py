"""A URL whose path holds a NUL byte or another character no URL may hold (a control
character) finds nothing: 404, on every route, signed in or not, and the database never
sees it (PostgreSQL refuses a NUL in a string outright)."""

import pytest
from django.test import Client

from tests.helpers import site_routes, start_table

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


def _routes_with_ids():
    """Every route of the site whose path holds an id, with the id's places marked."""
    return [route for route in site_routes() if "_id>" in route or "<pk>" in route
            or "<int:" in route or "<id:" in route]


HUGE = ["99999999999999999999", "9223372036854775808", "1" + "0" * 40]


def test_an_id_too_large_for_any_row_finds_nothing_on_every_route(settings, clients):
    """A number larger than any id the database holds is an id of nothing: 404 (or the
    route's answer to a stranger), never an error, on every route, however it is asked."""
    import re

    settings.DEBUG = False
    routes = _routes_with_ids()
    assert len(routes) >= 40, routes
    for route in routes:
        for huge in HUGE:
            path = re.sub(r"<(?:\w+:)?\w+>", huge, route)
            path = path.replace("<slug:slug>", "friday").replace("<str:token>", "x")
            for who, client in clients.items():
                for answer in (client.get(path), client.post(path, {"x": "1"})):
                    assert answer.status_code < 500, (who, path, answer.status_code)


def test_a_table_to_start_from_too_large_for_any_row_is_not_found(clients):
    """As a "from" that is no number at all."""
    for huge in [*HUGE, "x"]:
        answer = clients["signed in"].get(f"/tables/new/?from={huge}")
        assert answer.status_code == 404
