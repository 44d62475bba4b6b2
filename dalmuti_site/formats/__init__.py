"""The site's own date formats, where Django's for a language read as a list rather than
a sentence: a moment is written "24 novembre 2026 à 15:30", as a person writes it in the
middle of "votre temps expire le …". Django's own formats answer for everything else.

The zone a moment is written in, and an offset from UTC, are written here too, once for the
games' pages and emails and the profile's time zones."""

from datetime import datetime, timedelta


def utc_offset(delta: timedelta | None) -> str:
    """An offset from UTC: UTC+1, UTC−3 (a minus sign), UTC+5:30."""
    minutes = int((delta or timedelta()).total_seconds()) // 60
    hours, minutes = divmod(abs(minutes), 60)
    sign = "−" if (delta or timedelta()) < timedelta() else "+"
    return f"UTC{sign}{hours}" + (f":{minutes:02d}" if minutes else "")


def zone_abbreviation(local: datetime) -> str:
    """The zone after a moment's time: the tz database's abbreviation where it is one in
    letters ("CET", "JST", "EST"), else the offset ("UTC−3": the database's "-03" would
    read as a sum after a time)."""
    name = local.tzname() or ""
    return name if any(c.isalpha() for c in name) else utc_offset(local.utcoffset())
