"""A league's seasons follow one another: a new table belongs to the season running on
its day, so two seasons sharing a day are refused, with both named, whether the second
is added on its own page or beside the first in the league's form; seasons that meet
end to start are taken."""

import pytest
from django.urls import reverse

from leagues.models import Season

from .helpers import make_league, make_season
from .test_admin import inline_management, standard_options

pytestmark = pytest.mark.django_db

OVERLAP = "overlap"


@pytest.fixture
def league():
    league = make_league()
    make_season(league, "Winter", "2026-12-01", "2027-01-31")
    return league


def test_a_season_added_on_its_own_page_may_not_share_a_day_with_another(
        admin_client, league):
    add = reverse("admin:leagues_season_add")
    refused = admin_client.post(add, {"league": league.pk, "name": "Holidays",
                                      "start": "2026-12-20", "end": "2027-01-10"})
    assert refused.status_code == 200
    page = refused.content.decode()
    assert OVERLAP in page and "Winter" in page and "Holidays" in page
    assert not Season.objects.filter(name="Holidays").exists()
    # Its last day the other's first: still a shared day.
    refused = admin_client.post(add, {"league": league.pk, "name": "Spring",
                                      "start": "2027-01-31", "end": "2027-03-31"})
    assert refused.status_code == 200 and not Season.objects.filter(name="Spring").exists()
    taken = admin_client.post(add, {"league": league.pk, "name": "Spring",
                                    "start": "2027-02-01", "end": "2027-03-31"})
    assert taken.status_code == 302
    # Another league's seasons are its own business.
    other = make_league(name="Other", slug="other")
    assert admin_client.post(add, {"league": other.pk, "name": "Holidays",
                                   "start": "2026-12-20", "end": "2027-01-10"}).status_code == 302
    # A season moved onto another is refused too; moved by itself, taken.
    spring = Season.objects.get(name="Spring")
    change = reverse("admin:leagues_season_change", args=[spring.pk])
    refused = admin_client.post(change, {"league": league.pk, "name": "Spring",
                                         "start": "2027-01-15", "end": "2027-03-31"})
    assert refused.status_code == 200 and OVERLAP in refused.content.decode()
    assert admin_client.post(change, {"league": league.pk, "name": "Spring",
                                      "start": "2027-02-02", "end": "2027-04-30"}
                             ).status_code == 302


def test_seasons_added_together_in_the_leagues_form_may_not_share_a_day(admin_client, league):
    winter = league.seasons.get()
    data = {"name": league.name, "slug": league.slug, "active": "on", **standard_options(),
            **inline_management("memberships"), **inline_management("seasons", 3),
            "seasons-INITIAL_FORMS": "1",
            "seasons-0-id": winter.pk, "seasons-0-league": league.pk, "seasons-0-name": "Winter",
            "seasons-0-start": "2026-12-01", "seasons-0-end": "2027-01-31",
            "seasons-1-league": league.pk, "seasons-1-name": "Spring",
            "seasons-1-start": "2027-02-01", "seasons-1-end": "2027-04-30",
            "seasons-2-league": league.pk, "seasons-2-name": "Easter",
            "seasons-2-start": "2027-04-01", "seasons-2-end": "2027-04-15"}
    change = reverse("admin:leagues_league_change", args=[league.pk])
    refused = admin_client.post(change, data)
    assert refused.status_code == 200
    page = refused.content.decode()
    assert OVERLAP in page and "Spring" in page and "Easter" in page
    assert list(league.seasons.values_list("name", flat=True)) == ["Winter"]
    # Winter shortened and Spring moved earlier in the same form: each as the form says.
    data.update({"seasons-0-end": "2027-01-15", "seasons-1-start": "2027-01-16",
                 "seasons-2-start": "2027-05-01", "seasons-2-end": "2027-05-15"})
    assert admin_client.post(change, data).status_code == 302
    assert sorted(league.seasons.values_list("name", flat=True)) == [
        "Easter", "Spring", "Winter"]
