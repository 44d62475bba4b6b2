from datetime import timedelta

from django import template
from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext as _

from ..labels import title_name as _title_name

register = template.Library()


@register.filter
def title_name(key: str) -> str:
    """A title key ("great_dalmuti") in the reader's language."""
    return _title_name(key) if key else ""


@register.filter
def ago(moment) -> str:
    """"just now", or "5 minutes ago" (the reader's language)."""
    if not moment:
        return ""
    if timezone.now() - moment < timedelta(minutes=1):
        return _("just now")
    return _("%(time)s ago") % {"time": timesince(moment)}
