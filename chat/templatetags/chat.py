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


@register.simple_tag(takes_context=True)
def flourishes_form(context) -> str:
    """The one-tap flourishes the speaker's title offers (chat/_flourishes.html): the same
    at every page of the speaker's table while they hold that title, so drawn once per
    process for what it shows (dalmuti_site.drawings), from exactly these values; each
    page's own form token put in."""
    chat = context["chat"]
    values = {
        "game": {"pk": context["game"].pk},
        "oob": bool(context.get("oob")),
        "chat": {
            "my_title": str(chat.get("my_title") or ""),
            "flourishes": [{"key": f.key, "icon": f.icon, "label": str(f.label),
                            "text": str(f.text)} for f in chat.get("flourishes") or ()],
        },
    }
    return drawn_once("chat/_flourishes.html", values, context)
