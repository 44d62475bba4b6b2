import functools
import secrets

from django import template
from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import SafeData, mark_safe
from django.utils.translation import get_language

from dalmuti_site.drawings import drawn_once
from dalmuti_site.errors import login_return

register = template.Library()

# Where the kept form takes its message's token: a character no name or text can hold.
MESSAGE_TOKEN = "\ue000message\ue001"
# And the address of the log-in page, with the way back to the page it was drawn for.
LOGIN_URL = "\ue000login\ue001"

# One message of the talk, drawn by `talk_items`.
MESSAGE = "chat/_message.html"


@register.simple_tag
def talk_items(lines: list[dict]) -> str:
    """The talk's messages, newest first (each chat/_message.html). Every page of a table
    draws its newest thirty, and a message comes out the same for every reader it reads
    the same to (all but its speaker, while the speaker's name and title stand): each is
    drawn once per process from the message as `chat.panel.lines` gives it, in the
    active language and time zone on the reader's today (its time shows its date from
    the next day on), and kept."""
    language, zone = get_language() or "en", timezone.get_current_timezone_name()
    today = timezone.localdate()
    draw = _message.__wrapped__ if settings.DEBUG else _message
    return mark_safe("".join(
        draw(language, zone, today, m["id"], _word(m["name"]), _word(m["title_key"]),
             _word(m["title"]), _word(m["text"]), bool(m["mine"]), m["icon"],
             bool(m["flourish"]), m["created"])
        for m in reversed(lines)))


def _word(value) -> tuple[str, bool]:
    # With whether it is markup: a text to escape is never kept as one that was not (a
    # SafeString and a str of the same text are equal keys).
    return str(value), isinstance(value, SafeData)


def _as_given(word: tuple[str, bool]):
    text, markup = word
    return mark_safe(text) if markup else text


@functools.lru_cache(maxsize=8192)
def _message(language: str, zone: str, today, message_id: int, name: tuple,
             title_key: tuple, title: tuple, text: tuple, mine: bool, icon: str,
             flourish: bool, created) -> str:
    # The language, zone and day are the active ones, named for the key.
    m = {"id": message_id, "name": _as_given(name), "title_key": _as_given(title_key),
         "title": _as_given(title), "text": _as_given(text), "mine": mine, "icon": icon,
         "flourish": flourish, "created": created}
    return render_to_string(MESSAGE, {"m": m})


def forget() -> None:
    """Draw every message afresh (tests that count what is drawn)."""
    _message.cache_clear()


@register.simple_tag(takes_context=True)
def chat_form(context) -> str:
    """The form a message is written in (chat/_form.html): the same at every page of a
    speaker's table but for the names "@" completes to and a message sent back to be
    corrected, so drawn once per process for what it shows (dalmuti_site.drawings), from
    exactly these values; each page's own form token put in, and a fresh token for the
    message (one sent again is said once: chat.services.post)."""
    chat = context["chat"]
    values = {"chat": {
        "can_post": bool(chat["can_post"]),
        "post_url": str(chat["post_url"]),
        "text": str(chat.get("text") or ""),
        "names": [str(name) for name in chat.get("names") or ()],
        "token": MESSAGE_TOKEN,
        "login_url": LOGIN_URL,
    }}
    request = context.get("request")
    # Who may not talk yet is a watcher not signed in: logged in, they come back here.
    login_url = reverse("login") + (login_return(request) if request is not None else "")
    return mark_safe(drawn_once("chat/_form.html", values, context)
                     .replace(MESSAGE_TOKEN, secrets.token_urlsafe(16))
                     .replace(LOGIN_URL, escape(login_url)))


@register.simple_tag(takes_context=True)
def flourishes_form(context) -> str:
    """The one-tap flourishes the speaker's title offers (chat/_flourishes.html): the same
    at every page of the speaker's table while they hold that title, so drawn once per
    process for what it shows (dalmuti_site.drawings), from exactly these values; each
    page's own form token put in, and a fresh token for the flourish (one sent again is
    said once, as a message is: chat.services.post)."""
    chat = context["chat"]
    values = {
        "game": {"pk": context["game"].pk},
        "oob": bool(context.get("oob")),
        "chat": {
            "my_title": str(chat.get("my_title") or ""),
            "flourishes": [{"key": f.key, "icon": f.icon, "label": str(f.label),
                            "text": str(f.text)} for f in chat.get("flourishes") or ()],
            "token": MESSAGE_TOKEN,
        },
    }
    return mark_safe(drawn_once("chat/_flourishes.html", values, context)
                     .replace(MESSAGE_TOKEN, secrets.token_urlsafe(16)))
