"""Messages are plain text: whatever is posted renders inert, and no page runs inline
scripts."""

import re

import pytest
from django.utils.html import escape

from chat.models import Message
from dalmuti_site.text import BIDI_CONTROLS

from .conftest import HTMX, say

PAYLOADS = [
    "<script>alert(1)</script>",
    "<SCRIPT SRC=//evil.example/x.js></SCRIPT>",
    '"><script>alert(document.cookie)</script>',
    "'><img src=x onerror=alert(1)>",
    "<img src=x onerror=alert(1)//",
    "<svg/onload=alert(1)>",
    "<iframe src=\"javascript:alert(1)\"></iframe>",
    "<a href=\"javascript:alert(1)\">click me</a>",
    "<a href=\"https://evil.example/\">prize</a>",
    "<body onload=alert(1)>",
    "<div hx-get=\"/accounts/logout/\" hx-trigger=\"load\">x</div>",
    "<input autofocus onfocus=alert(1)>",
    "<details open ontoggle=alert(1)>",
    "<style>body{display:none}</style>",
    "<meta http-equiv=\"refresh\" content=\"0;url=https://evil.example/\">",
    "</bdi></span></li></ol></div><script>alert(1)</script>",
    "</textarea><script>alert(1)</script>",
    "<!--",
    "<![CDATA[<script>alert(1)</script>]]>",
    "&lt;script&gt;alert(1)&lt;/script&gt;",
    "&#60;script&#62;alert(1)&#60;/script&#62;",
    "\" onmouseover=\"alert(1)",
    "' onmouseover='alert(1)",
    "<scr<script>ipt>alert(1)</scr</script>ipt>",
    "<math><mi xlink:href=\"javascript:alert(1)\">x</mi></math>",
    "<template><script>alert(1)</script></template>",
    "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\">",
    "{{ request.user.password }}{% debug %}",
    "\u202egnp.exe<script>alert(1)</script>",
]
URLS = ["https://evil.example/phish", "www.evil.example", "javascript:alert(1)",
        "mailto:victim@example.com"]

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I)
EVENT_HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)


def _pages(client, game):
    yield client.get(f"/t/{game.pk}/")
    yield client.get(f"/t/{game.pk}/chat/")
    yield client.get(f"/t/{game.pk}/chat/", **HTMX)
    yield client.get(f"/t/{game.pk}/poll/?v=0&me=x&c=0")


def _assert_inert(body: str, payload: str):
    # Escaping never produces < > " ': a payload with one of them never shows raw. A payload
    # of entities shows escaped again (&amp;lt;), so it cannot turn into markup either.
    if any(c in payload for c in "<>\"'"):
        assert payload not in body, payload
    assert escape(payload) in body, payload


@pytest.fixture
def corpus(game, bob, settings):
    settings.CHAT_RATE_LIMIT = 1000
    for payload in PAYLOADS + URLS:
        say(game, bob, payload)
    return game


def test_every_payload_renders_as_text(client, alice, corpus):
    client.force_login(alice)
    for response in _pages(client, corpus):
        assert response.status_code == 200
        body = response.content.decode()
        # The newest 30 are in the panel; the chat page has them all.
        shown = [p for p in PAYLOADS if escape(p) in body]
        assert len(shown) >= len(PAYLOADS) - 5
        for payload in shown:
            _assert_inert(body, payload)
        assert not INLINE_SCRIPT.search(body)
        assert not EVENT_HANDLER.search(body)
        assert "hx-on" not in body
        assert "evil.example/x.js" not in body.replace(escape("//evil.example/x.js"), "")


def test_every_payload_posted_through_the_form_is_stored_as_typed(client, alice, game, settings):
    """As typed, but for bidirectional controls, which are dropped (they can make a
    message read differently from what was written)."""
    settings.CHAT_RATE_LIMIT = 1000
    client.force_login(alice)
    stored = ["".join(c for c in p if c not in BIDI_CONTROLS) for p in PAYLOADS]
    for payload, kept in zip(PAYLOADS, stored, strict=True):
        response = client.post(f"/t/{game.pk}/chat/post/", {"text": payload}, **HTMX)
        assert response.status_code == 200
        _assert_inert(response.content.decode(), kept)
    assert list(Message.objects.order_by("pk").values_list("text", flat=True)) == stored


def test_links_are_not_made_clickable(client, alice, corpus):
    client.force_login(alice)
    body = client.get(f"/t/{corpus.pk}/chat/").content.decode()
    for url in URLS:
        assert f"<bdi>{escape(url)}</bdi>" in body
    hrefs = re.findall(r'href="([^"]*)"', body)
    assert not [h for h in hrefs if "evil" in h or "javascript" in h or "mailto" in h]


def test_the_newest_message_in_the_summary_is_inert_too(client, alice, game, bob):
    say(game, bob, "<img src=x onerror=alert(1)>")
    client.force_login(alice)
    body = client.get(f"/t/{game.pk}/").content.decode()
    summary = body[body.index('id="chat-latest"'):]
    summary = summary[:summary.index("</span>")]
    assert "&lt;img src=x onerror=alert(1)&gt;" in summary


def test_a_nul_character_cannot_break_the_database(client, alice, game):
    client.force_login(alice)
    response = client.post(f"/t/{game.pk}/chat/post/", {"text": "a\x00b"}, **HTMX)
    assert response.status_code == 200
    assert Message.objects.get().text == "a b"


def test_the_csp_forbids_inline_scripts_on_every_page(client, alice, bob, game, lobby):
    say(game, bob, "<script>alert(1)</script>")
    anonymous = ["/", "/accounts/login/", "/accounts/signup/", "/no-such-page/"]
    member = [
        "/", f"/t/{game.pk}/", f"/t/{game.pk}/log/", f"/t/{game.pk}/chat/",
        f"/t/{game.pk}/poll/?v={game.version}", f"/t/{game.pk}/poll/?v=0&c=0",
        f"/t/{lobby.pk}/", f"/t/{lobby.pk}/chat/", "/t/999999/chat/", "/tables/new/",
    ]
    responses = [client.get(url) for url in anonymous]
    client.force_login(alice)
    responses += [client.get(url) for url in member]
    responses += [client.get(f"/t/{game.pk}/chat/", **HTMX)]
    responses += [client.post(f"/t/{game.pk}/chat/post/", {"text": "hi"}),
                  client.post(f"/t/{game.pk}/chat/post/", {"text": "hi"}, **HTMX),
                  client.post(f"/t/{game.pk}/chat/post/", {"text": ""}, **HTMX)]
    assert {r.status_code for r in responses} >= {200, 204, 302, 400, 404}
    for response in responses:
        csp = response.headers["Content-Security-Policy"]
        directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
        assert directives["script-src"] == "'self'"
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        assert not INLINE_SCRIPT.search(response.content.decode())
