from django import template

from ..keys import public_key

register = template.Library()


@register.simple_tag
def vapid_public_key() -> str:
    """The key browsers subscribe with (base64url), for the "Notify me" button."""
    return public_key()
