"""Parts of pages this process draws once and shows again wherever they would come out
the same: the site's header, a seat round the felt, a player's hand and standing-orders
panel, the taxes, the first seating draw, the scoreboard, the form a message is written in,
a title's flourishes, the box that switches notifications on.

Django draws a template afresh at every request, tag by tag; a part whose every input is
known can be drawn once for those inputs and kept. `drawn_once` draws its template from
the values it is given and nothing else (no request, no user, no context processor), so
the values are the whole key: a part can never show what another key drew. Only the
language and time zone come from outside, and they are in the key too.

A form in such a part carries the page's token (`{% csrf_token %}`): the part is drawn
with a marker in its place, and each page's own token is put in where it is shown.

Kept in a dict of this process, begun afresh when full (a drawing costs tenths of a
millisecond; a dict's reads and writes are safe from the threads that draw the streams'
updates). Not kept under DEBUG, where templates are read afresh as they are edited.
"""

import json
from collections.abc import Callable

from django.conf import settings
from django.template import Context
from django.template.defaulttags import CsrfTokenNode
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

KEPT = 4096
_kept: dict[str, str] = {}

# Where a kept part's forms take the page's token: a character no name or text can hold.
TOKEN = "\ue000token\ue001"
_TOKEN_FIELD = CsrfTokenNode().render(Context({"csrf_token": TOKEN}))


def kept(key: str, draw: Callable[[], str]) -> str:
    """What `draw` gives, drawn once per process for `key`."""
    drawing = _kept.get(key)
    if drawing is None:
        drawing = draw()
        if not settings.DEBUG:
            if len(_kept) >= KEPT:
                _kept.clear()
            _kept[key] = drawing
    return drawing


def forget() -> None:
    """Draw everything afresh (tests that draw two worlds apart)."""
    _kept.clear()


def drawn_once(template_name: str, values: dict, context) -> SafeString:
    """`template_name` drawn from `values` alone (flat: strings, numbers, dates, lists
    and dicts of them), in the active language and time zone, its forms given the
    token of the page `context` draws."""
    key = json.dumps([template_name, get_language(), timezone.get_current_timezone_name(),
                      values], sort_keys=True, default=str)
    drawing = kept(key, lambda: render_to_string(template_name,
                                                 {**values, "csrf_token": TOKEN}))
    if _TOKEN_FIELD in drawing:
        # Only a part with a form asks for the page's token (a field drawn afresh).
        drawing = drawing.replace(_TOKEN_FIELD, CsrfTokenNode().render(context))
    # Our own template's output, escaped as it was drawn.
    return mark_safe(drawing)
