from django import template

from dalmuti_site.drawings import drawn_once

from ..keys import public_key

register = template.Library()


@register.simple_tag(takes_context=True)
def device_box(context, reload: bool = False) -> str:
    """The "Notify me on this device" box (push/_device.html), on a table's panels and
    the profile: the same on every page but for whether switching on reloads the page,
    so drawn once per process for what it shows (dalmuti_site.drawings)."""
    return drawn_once("push/_device.html", {"reload": bool(reload), "key": public_key()},
                      context)
