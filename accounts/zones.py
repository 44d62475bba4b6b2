"""The time zones a player chooses from: the tz database's own zones, one or more for each
country (its zone.tab), grouped by region and named by their place in the reader's language
(the CLDR's names, through Babel: "Brussel", "Brüssel", "Bruxelles"), each with the offset
from UTC it has today; and UTC itself, for whoever wants no place's clock.

Legacy names (US/Eastern, GB, Etc/GMT+5, Asia/Calcutta…) are not offered: each is another
name of an offered zone, or of no place at all. A browser may report one at sign-up:
Chrome says Asia/Calcutta and Europe/Kiev, stored as Asia/Kolkata and Europe/Kyiv (and some
systems Etc/UTC, stored as UTC: RENAMED), and an account that has one of these shows its
new name as chosen; any other that zoneinfo knows is stored as it came, and the account
keeps it (the profile shows it as chosen and saves it unchanged).

What is read from the system is read once per process (some six hundred zone files listed
and four hundred loaded: 25–75 ms), and the names and order of the list once per process and
language (the CLDR's names looked up and sorted: 10–20 ms); the offsets, which move with
daylight saving time, are worked out each time the choices are drawn, from the zones already
loaded (under a millisecond for all of them), so a process that runs for months never shows
last season's."""

import re
import unicodedata
import zoneinfo
from datetime import UTC, datetime, timedelta
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import NamedTuple

from babel import Locale
from babel.dates import get_timezone_location
from django.conf import settings
from django.utils import translation
from django.utils.translation import pgettext_lazy

from dalmuti_site.formats import utc_offset

# The tz database's regions, as a player reads them (its own names are "America",
# "Indian"…). Ambiguous alone ("Pacific"), so each with its context.
REGIONS = {
    "Africa": pgettext_lazy("time zone region", "Africa"),
    "America": pgettext_lazy("time zone region", "Americas"),
    "Antarctica": pgettext_lazy("time zone region", "Antarctica"),
    "Arctic": pgettext_lazy("time zone region", "Arctic"),
    "Asia": pgettext_lazy("time zone region", "Asia"),
    "Atlantic": pgettext_lazy("time zone region", "Atlantic"),
    "Australia": pgettext_lazy("time zone region", "Australia"),
    "Europe": pgettext_lazy("time zone region", "Europe"),
    "Indian": pgettext_lazy("time zone region", "Indian Ocean"),
    "Pacific": pgettext_lazy("time zone region", "Pacific"),
}


# Offered on its own, before the regions: no place's clock, never a daylight saving time
# (servers, travellers). Stored by this name, which every system knows.
UTC_NAME = "UTC"


class Zone(NamedTuple):
    name: str  # the tz database's, as stored: "America/Argentina/Buenos_Aires"
    region: str  # "America"
    country: str  # its country's code in zone.tab ("AR"), "" where there is none
    info: zoneinfo.ZoneInfo


def place(name: str) -> str:
    """A zone in the tz database's own words: its city or island, with the state or
    country a three-part name has between ("Buenos Aires, Argentina"); a name of no region
    whole ("US/Eastern"). What a legacy name kept by an account is shown as."""
    parts = name.replace("_", " ").split("/")
    if parts[0] not in REGIONS or len(parts) == 1:
        return "/".join(parts)
    return ", ".join(reversed(parts[1:]))


def locale_of(language: str | None) -> str:
    """Babel's locale for one of the site's languages ("nl", or "en-gb" as English); the
    site's default for any other."""
    base = (language or "").split("-")[0].lower()
    return base if base in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def city(name: str, locale: str) -> str:
    """A zone's city or island as the CLDR names it in `locale` ("Brüssel", "São Paulo",
    "Knox, Indiana"; a legacy name as the zone it stands for)."""
    found = get_timezone_location(name, locale, return_city=True)
    # German hyphenates a few (Reyk­ja­vík) with soft hyphens, which would stop a typed
    # "Reykj" from finding it in the select.
    found = found.replace("\u00ad", "")
    # French puts a town's state in brackets, "Knox [Indiana]", "Center (Dakota du Nord)",
    # which the offset's own brackets would follow: said as the other languages say it.
    return re.sub(r" [\[(]([^\])]+)[\])]$", r", \1", found)


def in_dictionary_order(text: str) -> tuple[str, str]:
    """A sort key that orders names as a dictionary of any of the site's languages does:
    by their letters, accents aside (Île among the I, Ürümqi among the U, not after Z),
    a space or a mark before any letter ("St. John’s" before "Stanley"); names alike but
    for their accents, by code point."""
    letters = "".join(c for c in unicodedata.normalize("NFKD", text)
                      if not unicodedata.combining(c)).casefold().replace("ı", "i")
    return re.sub(r"[\W_]+", " ", letters), text


def label(name: str, now: datetime | None = None) -> str:
    """"Amsterdam (UTC+1)": a zone's place in the active language and its offset now; a
    legacy name in its own words ("US/Eastern (UTC−5)")."""
    if name == UTC_NAME:
        return UTC_NAME  # not "UTC (UTC+0)"
    now = now or datetime.now(UTC)
    return f"{named(name)} ({utc_offset(now.astimezone(zoneinfo.ZoneInfo(name)).utcoffset())})"


def named(name: str) -> str:
    """A zone's place alone, in the active language ("Brüssel"); a legacy name in its own
    words."""
    return UTC_NAME if name == UTC_NAME else places(active_language()).get(name) or place(name)


@cache
def known() -> frozenset[str]:
    """Every name the system's zoneinfo knows, legacy ones included."""
    return frozenset(zoneinfo.available_timezones())


def _system_file(name: str) -> str:
    """One of the tz database's text files (zone.tab) beside the zone files
    zoneinfo reads, or the tzdata package's; "" when there is none."""
    for folder in zoneinfo.TZPATH:
        path = Path(folder) / name
        if path.is_file():
            return path.read_text(encoding="utf-8")
    try:
        return resources.files("tzdata.zoneinfo").joinpath(name).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, OSError):
        return ""


@cache
def offered() -> tuple[Zone, ...]:
    """The zones to choose from (UTC aside), in the tz database's order."""
    countries = {}
    for line in _system_file("zone.tab").splitlines():
        if line and not line.startswith("#"):
            code, _coordinates, name = line.split("\t")[:3]
            countries[name.strip()] = code
    if not countries:  # no zone.tab: every zone of a region, aliases and all
        countries = dict.fromkeys(known(), "")
    names = sorted(name for name in countries.keys() & known()
                   if name.split("/")[0] in REGIONS)
    return tuple(Zone(name, name.split("/")[0], countries[name], zoneinfo.ZoneInfo(name))
                 for name in names)


@cache
def offered_names() -> frozenset[str]:
    return frozenset(zone.name for zone in offered()) | {UTC_NAME}


def active_language() -> str:
    return translation.get_language() or settings.LANGUAGE_CODE


@lru_cache(maxsize=16)
def places(language: str) -> dict[str, str]:
    """Each offered zone's place in `language` (Django's code), no two alike: where the
    CLDR names two zones' cities the same, each says its country ("San Juan, Argentina"),
    or failing that is named in the tz database's own words."""
    locale = locale_of(language)
    cities = {zone.name: city(zone.name, locale) for zone in offered()}
    alike: dict[str, list[Zone]] = {}
    for zone in offered():
        alike.setdefault(cities[zone.name].casefold(), []).append(zone)
    territories = Locale.parse(locale).territories
    for zones in alike.values():
        if len(zones) == 1:
            continue
        countries = [territories.get(zone.country, "") for zone in zones]
        apart = all(countries) and len(set(countries)) == len(zones)
        for zone, country in zip(zones, countries, strict=True):
            cities[zone.name] = (f"{cities[zone.name]}, {country}" if apart
                                 else place(zone.name))
    return cities


class Group(NamedTuple):
    region: str  # in the reader's language: "Amerika"
    zones: tuple[tuple[Zone, str], ...]  # each with its place: (…Brussels…, "Brüssel")


@lru_cache(maxsize=16)
def listing(language: str) -> tuple[Group, ...]:
    """The regions in `language`'s alphabetical order, each with its zones by place name:
    a player looks for their city by its name (and a laptop's select jumps to the first
    choice that starts with the letters typed, which an order by offset would scatter)."""
    where = places(language)
    regions: dict[str, list[tuple[Zone, str]]] = {}
    for zone in offered():
        regions.setdefault(zone.region, []).append((zone, where[zone.name]))
    with translation.override(language):
        groups = [Group(str(REGIONS[region]),
                        tuple(sorted(zones, key=lambda pair: in_dictionary_order(pair[1]))))
                  for region, zones in regions.items()]
    return tuple(sorted(groups, key=lambda group: in_dictionary_order(group.region)))


# The names Chrome and Safari report (ICU's, which keeps a zone's first name) for zones the
# tz database has renamed since: the same place, under the name the list offers it by.
# Only these: the database's other links may join places of different countries
# (Pacific/Truk is a link to Port Moresby), which a player would not recognise as theirs.
RENAMED = {
    "Africa/Asmera": "Africa/Asmara",
    "America/Buenos_Aires": "America/Argentina/Buenos_Aires",
    "America/Catamarca": "America/Argentina/Catamarca",
    "America/Coral_Harbour": "America/Atikokan",
    "America/Cordoba": "America/Argentina/Cordoba",
    "America/Godthab": "America/Nuuk",
    "America/Indianapolis": "America/Indiana/Indianapolis",
    "America/Jujuy": "America/Argentina/Jujuy",
    "America/Louisville": "America/Kentucky/Louisville",
    "America/Mendoza": "America/Argentina/Mendoza",
    "Asia/Calcutta": "Asia/Kolkata",
    "Asia/Katmandu": "Asia/Kathmandu",
    "Asia/Rangoon": "Asia/Yangon",
    "Asia/Saigon": "Asia/Ho_Chi_Minh",
    "Atlantic/Faeroe": "Atlantic/Faroe",
    # Not a rename: the name some systems give UTC, which the list offers as "UTC".
    "Etc/UTC": UTC_NAME,
    "Europe/Kiev": "Europe/Kyiv",
    "Pacific/Enderbury": "Pacific/Kanton",
    "Pacific/Ponape": "Pacific/Pohnpei",
    "Pacific/Truk": "Pacific/Chuuk",
}


def recognised(name: str) -> str:
    """What a browser reported, as stored: under its new name if it is one of RENAMED's,
    else as it came if zoneinfo knows it (a legacy name too), else "" (the site's
    zone)."""
    if name not in known():
        return ""
    renamed = RENAMED.get(name, name)
    return renamed if renamed in known() else name


def choices(blank: str, kept: str = "") -> list:
    """The choices of a select, in the active language: `blank` first (the site's zone),
    then `kept` (a legacy name an account has, shown as chosen until another is), UTC,
    then each region's zones with their offsets now."""
    now = datetime.now(UTC)
    result: list = [("", blank)]
    if kept and kept not in offered_names() and kept in known():
        result.append((kept, label(kept, now=now)))
    result.append((UTC_NAME, UTC_NAME))
    shown: dict[timedelta | None, str] = {}  # a few dozen offsets among four hundred zones
    for region, zones in listing(active_language()):
        options = []
        for zone, name in zones:
            delta = now.astimezone(zone.info).utcoffset()
            if delta not in shown:
                shown[delta] = utc_offset(delta)
            options.append((zone.name, f"{name} ({shown[delta]})"))
        result.append((region, options))
    return result
