from django import template

from dalmuti_site.drawings import drawn_once

register = template.Library()


@register.simple_tag(takes_context=True)
def chat_form(context) -> str:
    """The form a message is written in (chat/_form.html): the same at every page of a
    speaker's table but for the names "@" completes to and a message sent back to be
    corrected, so drawn once per process for what it shows (dalmuti_site.drawings), from
    exactly these values; each page's own form token put in."""
    chat = context["chat"]
    values = {"chat": {
        "can_post": bool(chat["can_post"]),
        "post_url": str(chat["post_url"]),
        "text": str(chat.get("text") or ""),
        "names": [str(name) for name in chat.get("names") or ()],
    }}
    return drawn_once("chat/_form.html", values, context)
