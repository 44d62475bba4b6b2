"""The id in a URL: digits that fit a database row's id (a 64-bit integer). A larger
number is the id of nothing, so its path matches no route (404) instead of reaching a
query that cannot hold it (SQLite raises, and the compiled queries bypass Django's own
guard for numbers out of a column's range). Every app's URLs import this module."""

import re

from django.urls import register_converter


class IdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")


def id_from(value: str) -> int | None:
    """An id sent in a form or a query, as the URLs take one; None for anything else."""
    return int(value) if re.fullmatch(IdConverter.regex, value) else None
