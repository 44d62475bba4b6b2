from django import template

from ..labels import title_name as _title_name

register = template.Library()


@register.filter
def title_name(key: str) -> str:
    """A title key ("great_dalmuti") in the reader's language."""
    return _title_name(key) if key else ""
