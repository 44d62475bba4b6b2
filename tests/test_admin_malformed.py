"""The admin answers what none of its pages sends (a hand-made address, a script) with the
site's 400 page, "Nothing was changed", never a server error: a NUL byte in a filter, a
search or a form (PostgreSQL refuses one in a string outright), a day of the date
hierarchy too large for a date, rows chosen for an action by something other than their
number. On every model of the admin, with a row of each to act on."""

import re

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from leagues.models import LeagueGame
from tests.helpers import play_until, start_table
from tests.leagues.helpers import make_league, make_season

pytestmark = pytest.mark.django_db

NOT_READ = "The site could not read this request"


def _refused(answer) -> bool:
    return answer.status_code == 400 and NOT_READ in answer.content.decode()


@pytest.fixture
def organiser(admin_user, alice, bob, settings):
    settings.DEBUG = False
    game = play_until(start_table(alice, [bob], bots=2), lambda g: g.round_number >= 1)
    # A row of the organisers' models too: a league, its season, its table.
    league = make_league(members=[alice, bob])
    today = timezone.localdate(game.created)
    make_season(league, "Winter", today, today)
    LeagueGame.objects.create(game=game, league=league)
    client = Client(raise_request_exception=False)
    client.force_login(admin_user)
    return client, game


def test_the_admin_refuses_what_none_of_its_pages_sends(organiser):
    client, game = organiser
    models = list(admin.site._registry)
    assert len(models) > 15
    forms_sent = 0
    for model in models:
        name = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        changelist = reverse(f"{name}_changelist")
        for params in ({"q": "x\x00y"}, {"status__exact": "x\x00y"}, {"kind__exact": "x\x00y"},
                       {"created__year": "2026", "created__month": "1",
                        "created__day": "9" * 30}):
            assert _refused(client.get(changelist, params)), (changelist, params)
        answer = client.post(changelist, {"action": "delete_selected", "index": "0",
                                          "_selected_action": ["x", "9" * 30]})
        assert _refused(answer), changelist
        # A row's page, where the admin shows one (not an action of a game in play).
        row = model.objects.first()
        page = row and client.get(reverse(f"{name}_change", args=[row.pk]))
        if page and page.status_code == 200:
            names = set(re.findall(r'name="([^"]+)"', page.content.decode()))
            names.discard("csrfmiddlewaretoken")
            assert _refused(client.post(page.request["PATH_INFO"],
                                        dict.fromkeys(names, "x\x00y"))), model
            forms_sent += 1
    assert forms_sent >= 6
    # Nothing was changed: the table still in play, under its name.
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING and game.name == "Test table"


def test_what_its_pages_send_is_read_as_before(organiser):
    client, game = organiser
    changelist = reverse("admin:games_game_changelist")
    # The day as the admin's date hierarchy reads it: in the site's time zone (in the last
    # hour of a day in UTC it is already the next in Amsterdam).
    day = timezone.localtime(game.created)
    answer = client.get(changelist, {"created__year": day.year, "created__month": day.month,
                                     "created__day": day.day, "q": "Test"})
    assert answer.status_code == 200 and len(answer.context["cl"].result_list) == 1
    answer = client.post(changelist, {"action": "end_stalled_games", "index": "0",
                                      "_selected_action": [str(game.pk)]})
    assert answer.status_code == 200 and b"End the games" in answer.content
