"""The site's own date formats, where Django's for a language read as a list rather than
a sentence: a moment is written "24 novembre 2026 à 15:30", as a person writes it in the
middle of "votre temps expire le …". Django's own formats answer for everything else.

The zone a moment is written in, and an offset from UTC, are written here too, once for the
games' pages and emails and the profile's time zones."""

from datetime import datetime, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

from babel.core import Locale, UnknownLocaleError
from babel.dates import get_timezone_name
from django.utils.translation import get_language


def utc_offset(delta: timedelta | None) -> str:
    """An offset from UTC: UTC+1, UTC−3 (a minus sign), UTC+5:30."""
    minutes = int((delta or timedelta()).total_seconds()) // 60
    hours, minutes = divmod(abs(minutes), 60)
    sign = "−" if (delta or timedelta()) < timedelta() else "+"
    return f"UTC{sign}{hours}" + (f":{minutes:02d}" if minutes else "")


def zone_abbreviation(local: datetime) -> str:
    """The zone after a moment's time: where the tz database names it in letters ("CET",
    "JST", "EST"), those letters, or the reader's language's own for them where the CLDR
    has some (German "MEZ", "MESZ"); else the offset ("UTC−3": the database's "-03" would
    read as a sum after a time). The CLDR is asked only for a zone the database names:
    it still counts some zones in a family they left (Casablanca, at UTC+1, as Western
    European time)."""
    name = local.tzname() or ""
    if not any(c.isalpha() for c in name):
        return utc_offset(local.utcoffset())
    if name != "UTC" and local.tzinfo is not None:
        own = _language_letters(get_language() or "en", str(local.tzinfo), bool(local.dst()))
        if own:
            return own
    return name


@lru_cache(maxsize=512)
def _language_letters(language: str, zone: str, summer: bool) -> str:
    """The CLDR's short name of `zone` in `language`, for its summer time or not, when it
    is letters: a name the language's readers know, not an offset."""
    try:
        locale = Locale.parse(language, sep="-")
        name = get_timezone_name(ZoneInfo(zone), "short", locale=locale,
                                 zone_variant="daylight" if summer else "standard")
    except (UnknownLocaleError, ValueError, LookupError):
        return ""
    return name if name.isalpha() and name.isupper() else ""
