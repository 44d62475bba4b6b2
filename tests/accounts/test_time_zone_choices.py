"""The profile's time zone list: the zones grouped by region, each named by its place in the
reader's language with its offset from UTC today, and UTC itself; the legacy names not
offered, yet kept by an account that has one; whatever zone a browser reports at sign-up
taken; anything else refused with a clear word."""

import json
import unicodedata
import zoneinfo
from datetime import UTC, datetime
from html.parser import HTMLParser

import pytest
import time_machine
from django.contrib.auth import get_user_model

from tests.helpers import PASSWORD, make_user

pytestmark = pytest.mark.django_db

User = get_user_model()

WINTER = datetime(2026, 1, 15, 12, 0, tzinfo=UTC)
SUMMER = datetime(2026, 7, 15, 12, 0, tzinfo=UTC)

LEGACY = ("US/Eastern", "US/Pacific", "Canada/Atlantic", "Brazil/East", "Mexico/General",
          "Chile/Continental", "GB", "Etc/GMT+5", "Etc/UTC", "Asia/Calcutta",
          "Europe/Kiev", "America/Buenos_Aires", "Australia/ACT", "Pacific/Samoa")
LANGUAGES = ("en", "nl", "de", "fr")


class _Select(HTMLParser):
    """The time zone select of a page: its choices outside any group, its groups (label:
    [(value, label)]), and the value selected."""

    def __init__(self, page: str):
        super().__init__()
        self.inside = False
        self.loose: list[tuple[str, str]] = []
        self.groups: dict[str, list[tuple[str, str]]] = {}
        self.selected: list[str] = []
        self.attrs: dict[str, str] = {}
        self._group = self._option = None
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "select" and attrs.get("name") == "time_zone":
            self.inside, self.attrs = True, attrs
        elif self.inside and tag == "optgroup":
            self._group = self.groups.setdefault(attrs["label"], [])
        elif self.inside and tag == "option":
            self._option = [attrs["value"], ""]
            if "selected" in attrs:
                self.selected.append(attrs["value"])

    def handle_data(self, data):
        if self._option is not None:
            self._option[1] += data

    def handle_endtag(self, tag):
        if tag == "select":
            self.inside = False
        elif tag == "optgroup":
            self._group = None
        elif tag == "option" and self._option is not None:
            choice = tuple(self._option)
            (self._group if self._group is not None else self.loose).append(choice)
            self._option = None

    def values(self) -> set[str]:
        return {v for v, _ in self.loose} | {v for g in self.groups.values() for v, _ in g}

    def label_of(self, value: str) -> str:
        return dict(self.loose + [c for g in self.groups.values() for c in g])[value]

    def labels(self) -> list[str]:
        return [label for _, label in self.loose + [c for g in self.groups.values() for c in g]]


def _letters(label: str) -> str:
    """A place's name as a dictionary orders it: its letters, accents aside, a space or a
    mark (N’Djamena, St. John’s) before any letter."""
    place = label.rsplit(" (UTC", 1)[0]
    letters = "".join(c for c in unicodedata.normalize("NFKD", place)
                      if not unicodedata.combining(c)).casefold()
    return "".join(c if c.isalnum() else " " for c in letters)


def _profile(client, user) -> _Select:
    client.force_login(user)
    return _Select(client.get("/accounts/profile/").content.decode())


def _save(client, user, **changes):
    client.force_login(user)
    data = {"display_name": user.display_name, "email": user.email, "notify": user.notify,
            "notify_by": user.notify_by, "language": user.language,
            "time_zone": user.time_zone, "away_until": ""}
    return client.post("/accounts/profile/", {**data, **changes})


def test_the_zones_are_grouped_by_region_each_named_by_its_place_and_offset(client):
    with time_machine.travel(WINTER, tick=False):
        select = _profile(client, make_user("tess"))
    assert list(select.groups) == ["Africa", "Americas", "Antarctica", "Arctic", "Asia",
                                   "Atlantic", "Australia", "Europe", "Indian Ocean",
                                   "Pacific"]
    # The site's zone first, as the blank choice, named the same way; then UTC itself.
    assert select.loose == [("", "The site's: Amsterdam (UTC+1)"), ("UTC", "UTC")]
    assert select.selected == [""]
    europe = dict(select.groups["Europe"])
    assert europe["Europe/Amsterdam"] == "Amsterdam (UTC+1)"
    assert europe["Europe/London"] == "London (UTC+0)"
    assert europe["Europe/Kyiv"] == "Kyiv (UTC+2)"
    americas = dict(select.groups["Americas"])
    assert americas["America/New_York"] == "New York (UTC−5)"
    assert americas["America/St_Johns"] == "St. John’s (UTC−3:30)"
    assert americas["America/Sao_Paulo"] == "São Paulo (UTC−3)"
    # A town that needs its state says it; a city that is one of a kind does not.
    assert americas["America/Indiana/Knox"] == "Knox, Indiana (UTC−6)"
    assert americas["America/North_Dakota/Center"] == "Center, North Dakota (UTC−6)"
    assert americas["America/Argentina/Buenos_Aires"] == "Buenos Aires (UTC−3)"
    assert americas["America/Indiana/Indianapolis"] == "Indianapolis (UTC−5)"
    assert dict(select.groups["Asia"])["Asia/Kolkata"] == "Kolkata (UTC+5:30)"
    assert dict(select.groups["Asia"])["Asia/Kathmandu"] == "Kathmandu (UTC+5:45)"
    assert dict(select.groups["Indian Ocean"])["Indian/Maldives"] == "Maldives (UTC+5)"
    assert dict(select.groups["Pacific"])["Pacific/Auckland"] == "Auckland (UTC+13)"
    # Each region's places in the order of their names, whatever their offsets.
    for region, zones in select.groups.items():
        places = [_letters(label) for _, label in zones]
        assert places == sorted(places), region
        assert all(value.split("/")[0] in {"Africa", "America", "Antarctica", "Arctic",
                                           "Asia", "Atlantic", "Australia", "Europe",
                                           "Indian", "Pacific"} for value, _ in zones)


def test_the_offsets_follow_daylight_saving_time_in_a_process_that_runs_for_months(client):
    tess = make_user("tess")
    with time_machine.travel(WINTER, tick=False):
        winter = _profile(client, tess)
    with time_machine.travel(SUMMER, tick=False):
        summer = _profile(client, tess)
    assert winter.label_of("Europe/Amsterdam") == "Amsterdam (UTC+1)"
    assert summer.label_of("Europe/Amsterdam") == "Amsterdam (UTC+2)"
    assert summer.label_of("") == "The site's: Amsterdam (UTC+2)"
    assert summer.label_of("America/New_York") == "New York (UTC−4)"
    assert summer.label_of("Pacific/Auckland") == "Auckland (UTC+12)"
    assert summer.label_of("Asia/Tokyo") == winter.label_of("Asia/Tokyo") == "Tokyo (UTC+9)"


def test_legacy_names_are_not_offered_but_their_new_names_are(client):
    select = _profile(client, make_user("tess"))
    values = select.values()
    assert not values & set(LEGACY)
    assert {"Asia/Kolkata", "Europe/Kyiv", "America/Argentina/Buenos_Aires",
            "America/Halifax", "America/Sao_Paulo", "Australia/Sydney"} <= values
    # Of the ~600 names zoneinfo knows, one or a few for each country.
    assert 350 < len(values) < 450


@pytest.mark.parametrize("legacy", ["US/Eastern", "Australia/ACT", "Etc/GMT+5"])
def test_an_account_with_a_legacy_zone_sees_it_chosen_and_saves_it_unchanged(client, legacy):
    tess = make_user("tess", time_zone=legacy)
    with time_machine.travel(WINTER, tick=False):
        select = _profile(client, tess)
    assert select.selected == [legacy]
    offset = {"US/Eastern": "UTC−5", "Australia/ACT": "UTC+11", "Etc/GMT+5": "UTC−5"}
    assert select.label_of(legacy).endswith(f" ({offset[legacy]})")
    # After the site's zone, outside the regions: the one choice that is not on the list.
    assert [value for value, _ in select.loose] == ["", legacy, "UTC"]

    response = _save(client, tess, display_name="Tess K.")
    assert response.status_code == 302
    tess.refresh_from_db()
    assert (tess.time_zone, tess.display_name) == (legacy, "Tess K.")

    # Once another is chosen, the legacy name is gone from the list.
    assert _save(client, tess, time_zone="America/New_York").status_code == 302
    assert legacy not in _profile(client, User.objects.get(pk=tess.pk)).values()


@pytest.mark.parametrize(("stored", "offered"), [
    ("Asia/Calcutta", "Asia/Kolkata"), ("Europe/Kiev", "Europe/Kyiv"), ("Etc/UTC", "UTC")])
def test_an_account_with_a_zones_old_name_sees_its_new_name_chosen(client, stored, offered):
    """A name a browser gave at sign-up before the site knew it as renamed is the very zone
    the list offers under its new name: that one is chosen, not the old name beside it."""
    tess = make_user("tess", time_zone=stored)
    select = _profile(client, tess)
    assert select.selected == [offered]
    assert stored not in select.values()
    assert [value for value, _ in select.loose] == ["", "UTC"]

    # Saving the profile keeps the zone, under the name the list has.
    assert _save(client, tess, time_zone=offered, display_name="Tess K.").status_code == 302
    tess.refresh_from_db()
    assert (tess.time_zone, tess.display_name) == (offered, "Tess K.")


def test_a_legacy_name_the_account_does_not_have_is_refused(client):
    tess = make_user("tess", time_zone="Europe/Amsterdam")
    response = _save(client, tess, time_zone="US/Eastern")
    assert response.status_code == 400
    assert response.context["form"].has_error("time_zone", "invalid_choice")
    tess.refresh_from_db()
    assert tess.time_zone == "Europe/Amsterdam"


def test_a_zone_that_does_not_exist_is_refused_with_a_clear_word(client):
    tess = make_user("tess", time_zone="Asia/Tokyo")
    response = _save(client, tess, time_zone="Mars/Olympus")
    assert response.status_code == 400
    page = response.content.decode()
    said = "Choose a time zone from the list: “Mars/Olympus” is not one of them."
    # At the field, and in the summary at the top of the long form.
    assert page.count(said) == 2
    assert '<a href="#id_time_zone">Time zone</a>' in page
    tess.refresh_from_db()
    assert tess.time_zone == "Asia/Tokyo"


@pytest.mark.parametrize(("reported", "stored"), [
    # What Chrome says in Kolkata, Kyiv and Buenos Aires: the zones' old names, stored
    # under the names the list has them by.
    ("Asia/Calcutta", "Asia/Kolkata"),
    ("Europe/Kiev", "Europe/Kyiv"),
    ("America/Buenos_Aires", "America/Argentina/Buenos_Aires"),
    ("Asia/Kolkata", "Asia/Kolkata"),
    # Other names zoneinfo knows, as they came.
    ("US/Eastern", "US/Eastern"),
    ("UTC", "UTC"),
    # Some systems' other name of UTC: the one the list has.
    ("Etc/UTC", "UTC"),
    ("Etc/GMT-3", "Etc/GMT-3"),
])
def test_sign_up_takes_any_zone_the_browser_reports_that_zoneinfo_knows(
        client, reported, stored):
    response = client.post("/accounts/signup/", {
        "username": "ravi", "email": "ravi@example.com", "password1": PASSWORD,
        "password2": PASSWORD, "time_zone": reported})
    assert response.status_code == 302
    ravi = User.objects.get(username="ravi")
    assert ravi.time_zone == stored
    # The profile shows it as chosen, and saves it as it is.
    assert _profile(client, ravi).selected == [stored]
    assert _save(client, ravi).status_code == 302
    assert User.objects.get(pk=ravi.pk).time_zone == stored


def test_each_old_name_a_browser_says_is_the_same_zone_under_its_new_name():
    from accounts import zones

    moments = [datetime(year, month, 15, tzinfo=UTC) for year in (1990, 2010, 2026)
               for month in range(1, 13)]
    for old, new in zones.RENAMED.items():
        assert old in zones.known() and new in zones.offered_names(), old
        assert old not in zones.offered_names(), old
        assert all(m.astimezone(zoneinfo.ZoneInfo(old)).utcoffset()
                   == m.astimezone(zoneinfo.ZoneInfo(new)).utcoffset() for m in moments), old


@pytest.mark.parametrize("reported", ["Mars/Olympus", "Etc/Unknown", "../../etc/passwd", ""])
def test_sign_up_leaves_a_zone_nobody_knows_to_the_site(client, reported):
    client.post("/accounts/signup/", {
        "username": "ravi", "email": "ravi@example.com", "password1": PASSWORD,
        "password2": PASSWORD, "time_zone": reported})
    assert User.objects.get(username="ravi").time_zone == ""


def test_only_a_profile_without_a_zone_offers_the_devices(client):
    """The page's script suggests the device's zone (it alone knows it) where none is
    chosen; the select says what to write and which zone the site's is."""
    select = _profile(client, make_user("tess"))
    assert select.attrs["data-device-zone"] == "Use this device's time zone: %(zone)s"
    assert select.attrs["data-site-zone"] == "Europe/Amsterdam"
    assert json.loads(select.attrs["data-renamed"])["Asia/Calcutta"] == "Asia/Kolkata"
    assert "data-device-zone" not in _profile(
        client, make_user("ravi", time_zone="Asia/Tokyo")).attrs


@pytest.mark.parametrize(("language", "europe", "places"), [
    ("nl", "Europa", {"Europe/Brussels": "Brussel (UTC+1)", "Europe/Kyiv": "Kiev (UTC+2)",
                      "Europe/Amsterdam": "Amsterdam (UTC+1)"}),
    ("de", "Europa", {"Europe/Brussels": "Brüssel (UTC+1)", "Europe/Kyiv": "Kiew (UTC+2)",
                      "Europe/Vienna": "Wien (UTC+1)"}),
    ("fr", "Europe", {"Europe/Brussels": "Bruxelles (UTC+1)", "Europe/Kyiv": "Kiev (UTC+2)",
                      "Europe/London": "Londres (UTC+0)"}),
])
def test_the_places_are_named_in_the_readers_language(
        client, settings, language, europe, places):
    settings.TIME_ZONE = "Europe/Brussels"
    with time_machine.travel(WINTER, tick=False):
        select = _profile(client, make_user("tess", language=language))
    shown = dict(select.groups[europe])
    assert {name: shown[name] for name in places} == places
    assert select.label_of("America/Sao_Paulo") == "São Paulo (UTC−3)"
    # A town with its state, as English writes it (French writes "Knox [Indiana]").
    assert select.label_of("America/Indiana/Knox") == "Knox, Indiana (UTC−6)"
    # The site's zone too, in the blank choice's own words.
    assert select.loose[0][1].endswith(f": {places['Europe/Brussels']}")
    assert select.label_of("UTC") == "UTC"


def test_the_summary_hour_names_the_players_zone_in_their_language(client):
    tess = make_user("tess", language="de", time_zone="Europe/Brussels")
    client.force_login(tess)
    page = client.get("/accounts/profile/").content.decode()
    assert "(Zeitzone Brüssel)" in page and "Zeitzone Brussels" not in page


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_choice_is_named_apart_from_the_others_in_every_language(client, language):
    """States and countries of the Americas share their towns' names with others (Indiana,
    Argentina, North Dakota): no two choices may read the same."""
    select = _profile(client, make_user("tess", language=language,
                                        time_zone="US/Eastern"))
    labels = select.labels()
    assert len(labels) == len(set(labels)) == len(select.values())
    # No invisible letters in a name (a typed "Reykj" finds Reykjavík).
    assert not [label for label in labels if "\xad" in label]


def test_a_city_two_zones_share_is_told_apart_by_its_country(client, monkeypatch):
    """Should the CLDR name two zones' cities alike (San Juan in Argentina and the capital
    of Puerto Rico), each says its country, in the reader's language."""
    from accounts import zones

    city = zones.city
    monkeypatch.setattr(zones, "city", lambda name, locale: (
        "San Juan" if name == "America/Puerto_Rico" else city(name, locale)))
    zones.places.cache_clear()
    zones.listing.cache_clear()
    try:
        with time_machine.travel(WINTER, tick=False):
            english = _profile(client, make_user("tess"))
            dutch = _profile(client, make_user("joke", language="nl"))
    finally:
        zones.places.cache_clear()
        zones.listing.cache_clear()
    assert english.label_of("America/Argentina/San_Juan") == "San Juan, Argentina (UTC−3)"
    assert english.label_of("America/Puerto_Rico") == "San Juan, Puerto Rico (UTC−4)"
    assert dutch.label_of("America/Argentina/San_Juan") == "San Juan, Argentinië (UTC−3)"
    # The others keep their city alone.
    assert english.label_of("America/Argentina/Salta") == "Salta (UTC−3)"


@pytest.mark.parametrize(("language", "region", "before", "accented", "after"), [
    # Accents are not letters of their own: Î, Ü, Ş, é sort among the I, U, S and E.
    ("fr", "Atlantique", "Bermudes", "Îles Canaries", "Madère"),
    ("fr", "Pacifique", "Guam", "Île de Pâques", "Kiritimati"),
    ("en", "Asia", "Ulaanbaatar", "Ürümqi", "Ust-Nera"),
    ("de", "Asien", "Aqtau", "Aşgabat", "Atyrau"),
    ("nl", "Amerika", "Barbados", "Belém", "Belize"),
])
def test_places_are_ordered_as_a_reader_of_the_language_looks_them_up(
        client, language, region, before, accented, after):
    select = _profile(client, make_user("tess", language=language))
    places = [label.rsplit(" (UTC", 1)[0] for _, label in select.groups[region]]
    assert places.index(before) < places.index(accented) < places.index(after), places
    assert [_letters(p) for p in places] == sorted(_letters(p) for p in places)


def test_utc_is_offered_and_kept_as_chosen(client):
    tess = make_user("tess", time_zone="Europe/Amsterdam")
    assert _save(client, tess, time_zone="UTC").status_code == 302
    tess.refresh_from_db()
    assert tess.time_zone == "UTC"
    select = _profile(client, tess)
    assert select.selected == ["UTC"]
    # Once, at the top: not kept beside itself as a name the list lacks.
    assert [value for value, _ in select.loose] == ["", "UTC"]


def test_the_select_is_drawn_with_its_words_escaped_and_one_choice_selected(client):
    tess = make_user("tess", time_zone="Pacific/Wallis")
    client.force_login(tess)
    page = client.get("/accounts/profile/").content.decode()
    assert '<option value="Pacific/Wallis" selected>Wallis &amp; Futuna (UTC+12)</option>' \
        in page
    select = _Select(page)
    assert select.selected == ["Pacific/Wallis"]
    assert select.attrs["id"] == "id_time_zone"
    assert select.attrs["aria-describedby"] == "id_time_zone_helptext"
