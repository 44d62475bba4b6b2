"""The site's header, drawn once for everyone who reads it alike.

Every page draws it, and it is much the same for every player: its links, its language
menu, its forms. It is drawn once per process for each language, for signed in or not,
and for each count of tables awaiting the player (dalmuti_site.drawings), with markers
where players and pages differ: the player's name and page, the page the language menu
comes back to (for a page drawn in answer to a form, the page the form was sent from),
and the link to the page itself (`aria-current`), filled in for each page.
"""

import re
from html import unescape
from urllib.parse import unquote

from django import template
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from dalmuti_site.drawings import drawn_once
from dalmuti_site.errors import login_return, return_path

register = template.Library()

# Characters no name, address or text of the site holds.
NAME, MY_URL, NEXT, CURRENT, BACK = (f"\ue000{part}\ue001" for part in
                                     ("name", "my_url", "next", "current", "back"))
LINK = re.compile(f'href="([^"]*)"{CURRENT}')
IS_CURRENT = ' aria-current="page"'


@register.simple_tag(takes_context=True)
def site_header(context) -> SafeString:
    """The header (templates/_site_header.html) for the page `context` draws."""
    user, request = context.get("user"), context.get("request")
    signed_in = user is not None and user.is_authenticated
    awaiting = context.get("awaiting_count") if signed_in else 0
    values = {"signed_in": signed_in,
              # An organiser (or any staff) reaches the admin from every page.
              "staff": signed_in and user.is_staff,
              # The count is asked of the database once per page (games.views.context).
              "awaiting_count": (awaiting() if callable(awaiting) else awaiting) or 0,
              "name": NAME, "my_url": MY_URL, "next": NEXT, "current": CURRENT,
              "back": BACK}
    header = drawn_once("_site_header.html", values, context)
    path = request.path if request is not None else ""
    my_url = reverse("player", args=[user.username]) if signed_in else ""

    def current(link: re.Match) -> str:
        href = unquote(my_url if link[1] == MY_URL else unescape(link[1].replace(BACK, "")))
        return link[0].replace(CURRENT, IS_CURRENT if href == path else "")

    # The links first, while the header holds nothing but what the template drew; then
    # what differs from reader to reader, escaped here (the rest as the template drew it).
    header = LINK.sub(current, header).replace(
        NEXT, escape(return_path(request)) if request is not None else "").replace(
        BACK, escape(login_return(request)) if request is not None and not signed_in else "")
    if signed_in:
        header = header.replace(NAME, escape(user.name)).replace(MY_URL, escape(my_url))
    return mark_safe(header)


@register.filter
def said_at(messages, section: str) -> list:
    """The messages for one section of the page (their tag), or ("") for the page's top:
    those with no section."""
    return [m for m in messages or () if (m.extra_tags or "") == section]


@register.filter
def refused_fields(form) -> list:
    """The fields of a form that were refused, in their order on the page: its summary
    at the top leads to each."""
    return [field for field in form.visible_fields() if field.errors] if form.errors else []
