"""The time zones a player chooses from: the tz database's own zones, one or more for each
country (its zone.tab), grouped by region and named by their place, each with the offset
from UTC it has today.

Legacy names (US/Eastern, GB, Etc/GMT+5, Asia/Calcutta…) are not offered: each is another
name of an offered zone, or of no place at all. An account that has one keeps it (the
profile shows it as chosen and saves it unchanged), and a browser may report one at
sign-up: Chrome says Asia/Calcutta and Europe/Kiev, stored as Asia/Kolkata and Europe/Kyiv;
any other that zoneinfo knows is stored as it came.

What is read from the system is read once per process (some six hundred zone files listed
and four hundred loaded: 25–75 ms); the offsets, which move with daylight saving time, are
worked out each time the choices are drawn, from the zones already loaded (under a
millisecond for all of them), so a process that runs for months never shows last season's."""

import zoneinfo
from datetime import UTC, datetime, timedelta
from functools import cache
from importlib import resources
from pathlib import Path
from typing import NamedTuple

from django.utils.translation import pgettext_lazy

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


class Zone(NamedTuple):
    name: str  # the tz database's, as stored: "America/Argentina/Buenos_Aires"
    region: str  # "America"
    place: str  # "Buenos Aires, Argentina"
    info: zoneinfo.ZoneInfo


def place(name: str) -> str:
    """A zone as a player names it: its city or island, with the state or country a
    three-part name has between ("Buenos Aires, Argentina"); a name of no region whole
    ("US/Eastern")."""
    parts = name.replace("_", " ").split("/")
    if parts[0] not in REGIONS or len(parts) == 1:
        return "/".join(parts)
    return ", ".join(reversed(parts[1:]))


def offset(delta: timedelta | None) -> str:
    """An offset from UTC as the list shows it: UTC+1, UTC−3 (a minus sign), UTC+5:30."""
    minutes = int((delta or timedelta()).total_seconds()) // 60
    hours, minutes = divmod(abs(minutes), 60)
    sign = "−" if (delta or timedelta()) < timedelta() else "+"
    return f"UTC{sign}{hours}" + (f":{minutes:02d}" if minutes else "")


def label(name: str, now: datetime | None = None) -> str:
    """"Amsterdam (UTC+1)": a zone's place and its offset now."""
    if name in ("UTC", "Etc/UTC"):
        return "UTC"  # not "UTC (UTC+0)"
    now = now or datetime.now(UTC)
    return f"{place(name)} ({offset(now.astimezone(zoneinfo.ZoneInfo(name)).utcoffset())})"


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
    """The zones to choose from, region by region, each region's by place name: a player
    looks for their city by its name (and a laptop's select jumps to the first choice
    that starts with the letters typed, which an order by offset would scatter)."""
    listed = {line.split("\t")[2].strip() for line in _system_file("zone.tab").splitlines()
              if line and not line.startswith("#")}
    if not listed:  # no zone.tab: every zone of a region, aliases and all
        listed = set(known())
    names = sorted((name for name in listed & known() if name.split("/")[0] in REGIONS),
                   key=lambda name: (name.split("/")[0], place(name).casefold()))
    return tuple(Zone(name, name.split("/")[0], place(name), zoneinfo.ZoneInfo(name))
                 for name in names)


@cache
def offered_names() -> frozenset[str]:
    return frozenset(zone.name for zone in offered())


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
    """The choices of a select: `blank` first (the site's zone), then `kept` (a legacy
    name an account has, shown as chosen until another is), then each region's zones
    with their offsets now, regions in the reader's alphabetical order."""
    now = datetime.now(UTC)
    groups: dict[str, list[tuple[str, str]]] = {}
    for zone in offered():
        groups.setdefault(zone.region, []).append(
            (zone.name, f"{zone.place} ({offset(now.astimezone(zone.info).utcoffset())})"))
    result: list = [("", blank)]
    if kept and kept not in offered_names() and kept in known():
        result.append((kept, label(kept, now=now)))
    named = sorted((str(REGIONS[region]), zones) for region, zones in groups.items())
    return result + named
