import functools
import html
import json
import re
from datetime import datetime, timedelta

import pyphen
from django import template
from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.html import conditional_escape, format_html, strip_tags
from django.utils.safestring import SafeData, mark_safe
from django.utils.translation import get_language, gettext_noop, pgettext
from django.utils.translation import gettext as _

from dalmuti_site.drawings import drawn_once
from games.core.words import day as _day
from games.core.words import moment as _moment
from games.core.words import names_phrase as _names_phrase
from games.core.words import title_name as _title_name

register = template.Library()

# The words of a length of time (`span`), of how long ago (`ago`) and for how long
# (`waited`): one table for the filters and for the page's script, which writes them on
# while the page stays open.
TIME_WORDS = {
    # As short as the others: a narrow seat on a phone writes it under its "to play".
    "under": gettext_noop("<1 min"),
    "days": gettext_noop("%(days)d d %(hours)d h"),
    "hours": gettext_noop("%(hours)d h %(minutes)d min"),
    # A whole number says no zero after it: a time bank of "3 h", "1 d" left.
    "whole_days": gettext_noop("%(days)d d"),
    "whole_hours": gettext_noop("%(hours)d h"),
    "minutes": gettext_noop("%(minutes)d min"),
    "now": gettext_noop("just now"),
    "ago": gettext_noop("%(time)s ago"),
    "for": gettext_noop("for %(ago)s"),
}
# A number and the unit after it ("59 min") are one thing to a reader: a narrow seat may
# break a length between its pairs, never inside one. The page's script binds them alike.
_NUMBER_THEN_SPACE = re.compile(r"(\d) ")


def _bound(length_words: str) -> str:
    return _NUMBER_THEN_SPACE.sub("\\1\u00a0", length_words)


@register.filter
def listed(names) -> str:
    """Names as a list in the reader's language: "Ada, Bram and Cato"."""
    return _names_phrase(list(names))


@register.filter
def before_colon(name) -> str:
    """A player's name isolated for the text's direction and followed by a colon, as the
    reader's language writes one ("Ada:", French "Ada :")."""
    words = conditional_escape(pgettext("a name, before what follows it", "%(name)s:"))
    return mark_safe(words % {"name": format_html("<bdi>{}</bdi>", name)})


@register.filter
def title_name(key: str) -> str:
    """A title key ("great_dalmuti") in the reader's language."""
    return _title_name(key) if key else ""


@register.filter
def ago(moment) -> str:
    """"just now", or "5 min ago", "3 h 20 min ago" (the reader's language): the words of
    `span`, which the page's script repeats while the page stays open (`time_words`)."""
    if not moment:
        return ""
    passed = timezone.now() - moment
    if passed < timedelta(minutes=1):
        return _(TIME_WORDS["now"])
    return _(TIME_WORDS["ago"]) % {"time": span(passed)}


@register.simple_tag
def time_words() -> str:
    """The words of `span`, `ago` and `waited` in the active language, for the page's
    script: it writes a seat's clock and how long a table has waited on while the page
    stays open (an unchanged table sends the page nothing, so what it drew would stand
    still)."""
    return _time_words(get_language())


@functools.cache
def _time_words(language: str) -> str:
    return json.dumps({key: _(words) for key, words in TIME_WORDS.items()})


@register.filter
def time_left(moment) -> str:
    """What is left until `moment`, short enough for a seat on a phone: "2 d 4 h",
    "3 h 20 min", "5 min", "<1 min"."""
    if not moment:
        return ""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return span(moment - timezone.now())


@register.filter
def running_left(moment) -> str:
    """`time_left` in an element the page's script writes on while the page stays open
    (for a sentence that says it: "… (in {{ left }})")."""
    if not moment:
        return ""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return format_html('<time datetime="{}" data-left>{}</time>', moment.isoformat(),
                       time_left(moment))


@register.filter
def span(length: timedelta | None) -> str:
    """A length of time as short as time_left says it: "2 d 4 h", "3 h 20 min"."""
    if length is None:
        return ""
    seconds = int(length.total_seconds())
    if seconds < 60:
        return _bound(_(TIME_WORDS["under"]))
    minutes = seconds // 60
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    if days:
        words = _(TIME_WORDS["days" if hours else "whole_days"]) % {
            "days": days, "hours": hours}
    elif hours:
        words = _(TIME_WORDS["hours" if minutes else "whole_hours"]) % {
            "hours": hours, "minutes": minutes}
    else:
        words = _(TIME_WORDS["minutes"]) % {"minutes": minutes}
    return _bound(words)


@register.filter
def json_attr(value) -> str:
    """A value as JSON for a data- attribute (the template escapes it for the attribute)."""
    return json.dumps(value, sort_keys=True)


@register.filter
def moment(value) -> str:
    """A moment in the reader's zone and their language's one format, the zone named:
    "Nov. 23, 2026, 12:15 p.m. CET"."""
    return _moment(value)


@register.filter
def day(value) -> str:
    """A day in the reader's language's one date format: "Nov. 23, 2026"."""
    return _day(value)


@register.filter
def log_time(value) -> str:
    """A line's time in a running log: the time alone (the language's time format) on
    the reader's today, else the whole moment with its zone."""
    if not value:
        return ""
    local = timezone.localtime(value)
    if local.date() == timezone.localdate():
        return time_format(local, "TIME_FORMAT")
    return _moment(value)


@register.filter
def waited(since) -> str:
    """How long something has waited, in an element the page's script writes on while
    the page stays open: "just now" under a minute, else "for 3 h 20 min"."""
    if not since:
        return ""
    return format_html('<time datetime="{}" data-since>{}</time>', since.isoformat(),
                       waited_for(since))


def waited_for(since) -> str:
    """`waited`'s words alone."""
    passed = timezone.now() - since
    if passed < timedelta(minutes=1):
        return _(TIME_WORDS["now"])
    return _(TIME_WORDS["for"]) % {"ago": span(passed)}


@register.filter
def last_day(value) -> str:
    """The last day of a stretch that ends at `value` (a midnight), in the reader's zone:
    away "until the end of Nov. 25, 2026" rather than "until Nov. 26, 2026, midnight"."""
    if not value:
        return ""
    return _day(timezone.localtime(value) - timedelta(seconds=1))


@functools.lru_cache(maxsize=16)
def _hyphenator(language: str, ends: int = 2) -> pyphen.Pyphen | None:
    """The language's hyphenator, which keeps at least `ends` letters together at either
    end of a word."""
    try:
        return pyphen.Pyphen(lang=language, left=ends, right=ends)
    except KeyError:
        return None


@register.filter
def syllables(text: str) -> str:
    """The text with soft hyphens between its syllables (the reader's language's rules), so
    that a narrow card breaks "Arch-bishop", never "Archbish|op". Browsers without
    hyphenation dictionaries (Chromium on Linux among them) use these too."""
    if not text:
        return text
    return _hyphenated(get_language() or "en", str(text))


@register.filter
def name_syllables(name: str) -> str:
    """A player's name with soft hyphens between the syllables of its long words, so that
    a narrow seat breaks "Bartho-lomeus", never "Bartholome|us"."""
    if not name:
        return name
    return _name_hyphenated(get_language() or "en", str(name))


@functools.lru_cache(maxsize=2048)
def _name_hyphenated(language: str, name: str) -> str:
    """A name's hyphenation, kept (a seat is drawn again at every move). A name's own
    language is not known: each long word takes the rules of the site's language that find
    the most syllables in it, the reader's first among equals (English rules, made for
    English words, left "Friederike" whole and broke "Wil-helmina" only). A word of up to
    eight letters, which a seat's line always holds, stays whole, so that "Anna Maria"
    breaks at its space rather than "Anna Ma-ria"; three letters at least stay together at
    either end ("Christoph-er" read badly). A word with a hyphen of its own is hyphenated
    part by part: the rules put soft hyphens either side of that hyphen, and a line broken
    there ended in two ("Wilhelmina--")."""
    codes = [language, *(code for code, _name in settings.LANGUAGES if code != language)]
    hyphenators = [h for h in (_hyphenator(code, ends=3) for code in codes) if h is not None]

    def hyphenated(part: str) -> str:
        if len(part) <= 8:
            return part
        return max((h.inserted(part, hyphen="\u00ad") for h in hyphenators),
                   key=lambda text: text.count("\u00ad"), default=part)

    return " ".join("-".join(hyphenated(part) for part in word.split("-"))
                    for word in name.split(" "))


@functools.lru_cache(maxsize=2048)
def _hyphenated(language: str, text: str) -> str:
    """The hyphenation of a text, kept: pages say the same few titles, card names and
    states over and over, and each costs the hyphenator a dictionary walk."""
    hyphenator = _hyphenator(language)
    if hyphenator is None:
        return text
    return " ".join(_OWN_WORD.sub("\\1\u00ad\\2\u00ad\\3", word) if _OWN_WORD.search(word)
                    else hyphenator.inserted(word, hyphen="\u00ad") for word in text.split(" "))


# The game's own word, in no language's hyphenation patterns but those that guess it
# (British English left "Dalmuti" whole, and a narrow seat broke it "Dalmut|i").
_OWN_WORD = re.compile(r"(Dal)(mu)(ti)", re.IGNORECASE)


@register.simple_tag
def card(rank: int, name) -> str:
    """One card (games/_card.html): a hand or a draw shows many, and there are only
    thirteen cards per language to draw, so each is drawn once and kept."""
    return _card(get_language() or "en", int(rank), str(name))


@functools.lru_cache(maxsize=1024)
def _card(language: str, rank: int, name: str) -> str:
    return render_to_string("games/_card.html", {"rank": rank, "name": name})


@register.simple_tag
def cards(ranks, label, big: bool = False) -> str:
    """A play's cards (games/_cards.html): the trick in the felt's centre is drawn once
    for each reader it reads differently to ("You played", "Your lead") at every move,
    and a play is the same wherever it shows, so each is drawn once and kept."""
    return _cards(tuple(int(rank) for rank in ranks), str(label), bool(big))


@functools.lru_cache(maxsize=4096)
def _cards(ranks: tuple[int, ...], label: str, big: bool) -> str:
    return render_to_string("games/_cards.html", {"cards": ranks, "label": label, "big": big})


@register.simple_tag
def hand_card(card: dict, pick) -> str:
    """One card of the hand (games/table/_hand_card.html), as a tap may choose it or not:
    the mover's hand and the next player's are drawn at every move, and there are a few
    hundred such cards per language, so each is drawn once and kept."""
    return _hand_card(get_language() or "en", str(pick or ""), int(card["rank"]),
                      str(card["name"]), bool(card["ok"]), bool(card["checked"]),
                      str(card["aside"]))


@functools.lru_cache(maxsize=4096)
def _hand_card(language: str, pick: str, rank: int, name: str, ok: bool,
               checked: bool, aside: str) -> str:
    card = {"rank": rank, "name": name, "ok": ok, "checked": checked, "aside": aside}
    return render_to_string("games/table/_hand_card.html", {"c": card, "pick": pick})


@register.simple_tag(takes_context=True)
def scoreboard_panel(context) -> str:
    """The scoreboard (games/table/_scoreboard.html): a cell for every player and round,
    so a long game's costs each page more than the rest of its panels together, and it
    changes once a round. Drawn once per process for what it shows (dalmuti_site.drawings),
    from exactly these values: the reader's own row is marked, so each reader has theirs."""
    board = context["scoreboard"]
    values = {
        "scoreboard": {
            "rounds": [int(number) for number in board["rounds"]],
            "rows": [{"name": str(row["name"]), "points": list(row["points"]),
                      "total": row["total"], "is_me": bool(row["is_me"]),
                      "left": bool(row["left"])}
                     for row in board["rows"]],
        },
        "game_over": bool(context.get("game_over")),
    }
    return drawn_once("games/table/_scoreboard.html", values, context)


def _play_shown(play: dict) -> dict:
    """What the trick's template shows of a play: who, what, in words, and how it lands."""
    return {"name": str(play["name"]), "cards": [int(rank) for rank in play["cards"]],
            "label": str(play["label"]), "arrive": int(play.get("arrive") or 0)}


@register.simple_tag(takes_context=True)
def trick_panel(context) -> str:
    """The trick at the felt's centre while a round is played (games/table/_trick.html):
    every page draws it, and it reads alike to every reader but the one whose play is to
    beat ("You played"), or between tricks who leads ("Your lead") and who won the
    trick shown ("You won this trick"), so it is drawn once per process for
    what it shows (dalmuti_site.drawings), from exactly these values. They follow the
    template's two branches: with a play to beat, the plays, the passes and the last
    trick's peek; without, the last trick won and who leads. What a branch does not show
    is left out (who leads beside a play to beat, whose the trick peeked at is, whose
    the last play is once the game is over: "The last play, by…" reads alike to all), so
    as not to split the drawing."""
    last = context.get("last_trick")
    game_over = bool(context.get("game_over"))
    values = {
        "phase": str(context["phase"]),
        "game_over": game_over,
        "last_trick": {"winner": str(last["winner"]),
                       "plays": [_play_shown(play) for play in last["plays"]]} if last else None,
    }
    to_beat = context.get("to_beat_play")
    if to_beat:
        values.update({
            "to_beat_play": {**_play_shown(to_beat),
                             "is_me": bool(to_beat.get("is_me")) and not game_over},
            "earlier_plays": [_play_shown(play) for play in context.get("earlier_plays") or ()],
            "passed_names": [str(name) for name in context.get("passed_names") or ()],
        })
    else:
        values.update({"leader_is_me": bool(context.get("leader_is_me")),
                       "to_act_name": str(context.get("to_act_name") or "")})
        if last:
            values["last_trick"]["mine"] = bool(last.get("mine"))
    return drawn_once("games/table/_trick.html", values, context)


@register.simple_tag(takes_context=True)
def hand_panel(context) -> str:
    """The reader's hand (games/table/_hand_panel.html), a card or a choice per card: the
    page shows it at every load, and it changes when its reader moves, when their turn
    comes (its cards to choose from) and in the taxes and the trade, so it is drawn once
    per process for what it shows (dalmuti_site.drawings), from exactly these values. A
    hand to choose from is the move form's body: the form is drawn around it at every
    page, with the turn it answers."""
    values = {
        "pick": str(context.get("pick") or ""),
        "my_title": str(context.get("my_title") or ""),
        "taxes_note": {k: str(v) for k, v in (context.get("taxes_note") or {}).items()},
        "trade_note": {k: str(v) for k, v in (context.get("trade_note") or {}).items()},
        "tribute_note": {k: v if k == "count" else str(v)
                         for k, v in (context.get("tribute_note") or {}).items()},
        "hand_cards": [{"rank": int(c["rank"]), "name": str(c["name"]), "ok": bool(c["ok"]),
                        "checked": bool(c["checked"]), "aside": str(c["aside"])}
                       for c in context.get("hand_cards") or ()],
    }
    return drawn_once("games/table/_hand_panel.html", values, context)


@register.simple_tag(takes_context=True)
def seating_draw_panel(context) -> str:
    """How the first round's seats were drawn (games/table/_seating_draw.html): the same
    for every reader of the table all through its first round, so drawn once per process
    for it (dalmuti_site.drawings), from exactly these values."""
    values = {
        "seating_ties": str(context["game"].options.get("seating_ties", "")),
        "seating_draw": [[{"name": str(d["name"]), "card": int(d["card"]),
                           "card_name": str(d["card_name"])} for d in draw]
                         for draw in context["seating_draw"]],
    }
    return drawn_once("games/table/_seating_draw.html", values, context)


@register.simple_tag(takes_context=True)
def rules_at_table(context) -> str:
    """A table's rules and clock (games/_rules_at_table.html): on every page of its table,
    the same all game long, so drawn once per process for what they say
    (dalmuti_site.drawings), from exactly these values."""
    game = context["game"]
    values = {"game": {
        "options": game.options, "turn_limit": game.turn_limit,
        "get_turn_limit_display": str(game.get_turn_limit_display()),
        "bank_reserve": game.bank_reserve,
        "get_bank_reserve_display": str(game.get_bank_reserve_display()),
        "hints_allowed": bool(game.hints_allowed),
        "leaver_bot": bool(game.leaver_bot),
        # A trade the table is too small for yet is said so (players join between rounds).
        "players": len(game.engine_state().seats) if game.is_playing else None,
    }}
    return drawn_once("games/_rules_at_table.html", values, context)


@register.simple_tag(takes_context=True)
def taxes_panel(context, compact: bool = False) -> str:
    """The round's taxes (games/table/_taxes.html), on the felt while they are paid
    (`compact`) and folded among the panels for the rest of the round: drawn once per
    process for what they say (dalmuti_site.drawings), from exactly these values; the
    reader's own lines (what they gave, received or chose) are among them."""
    taxes = context["taxes"]
    values = {
        "compact": bool(compact),
        # The table's rule: the Dalmutis give back cards of their choice, or their worst.
        "worst": context["game"].options.get("tribute_return") == "worst",
        "taxes": {
            "status": str(taxes["status"]),
            "exchanges": [{"from": str(e["from"]), "to": str(e["to"]), "count": int(e["count"])}
                          for e in taxes["exchanges"]],
            **{name: str(taxes[name]) for name in ("choice", "gave", "received")},
        },
    }
    return drawn_once("games/table/_taxes.html", values, context)


# One line of a round's log, drawn by `log_items`.
LOG_LINE = "games/table/_log_line.html"


@register.simple_tag(takes_context=True)
def log_items(context, lines, round_number) -> str:
    """A round's log lines, newest first (each games/table/_log_line.html). Every page
    draws its round's whole log, and a line comes out the same for every reader it reads
    the same words to, as long as the round is played: each is drawn once per process
    from the line and its round alone, in the active language and time zone on the
    reader's today (its time shows its date from the next day on), and kept. Within an
    update drawn for all of a table's readers, where a line's words are a slot, each is
    drawn in that drawing's own context."""
    if context.get("shared_drawing") is not None:
        line_template = context.template.engine.get_template(LOG_LINE)
        drawn = []
        for line in reversed(lines):
            with context.push(line=line, round_number=round_number):
                drawn.append(line_template.render(context))
        return mark_safe("".join(drawn))
    language, zone = get_language() or "en", timezone.get_current_timezone_name()
    today = timezone.localdate()
    return mark_safe("".join(
        _log_line(language, zone, today, round_number, line.get("number", ""), line["time"],
                  line["text"], isinstance(line["text"], SafeData), bool(line.get("private")))
        for line in reversed(lines)))


@functools.lru_cache(maxsize=16384)
def _log_line(language: str, zone: str, today, round_number, number, time, text: str,
              safe: bool, private: bool) -> str:
    # `safe` keeps a line whose words are markup apart from one with the same text to
    # escape; the language, zone and day are the active ones, named for the key.
    line = {"number": number, "time": time, "text": text, "private": private, "slot": ""}
    return render_to_string(LOG_LINE, {"line": line, "round_number": round_number})


# One line of a finished game's record, drawn by `record_items`.
RECORD_LINE = "games/history/_record_line.html"
# Where a record line's own values go in its shape. Read in one pass: a text that holds
# the same characters (a player may name themself so) is put in as it is.
_RECORD_MARK = re.compile("\ue000(step|text|time_iso|time|url)\ue001")


@register.simple_tag
def record_items(lines, replay_url: str) -> str:
    """The lines of a finished game's record, in order (each games/history/
    _record_line.html), each a link to the replay at its step. A long game has a thousand:
    each kind of line (private or not, with the time play took up again or not) is drawn
    once per process with a mark where each of its own values goes, and a line is its
    kind's shape with its step, words and time put in, escaped as the template escapes
    them. Under DEBUG, drawn afresh as the template is edited."""
    language = get_language() or "en"
    shape_of = _record_shape.__wrapped__ if settings.DEBUG else _record_shape
    url = conditional_escape(replay_url)
    drawn = []
    for line in lines:
        resumed = bool(line.get("resumed"))
        values = {"step": conditional_escape(line["seq"]), "text": conditional_escape(line["text"]),
                  "url": url}
        if resumed:
            values["time_iso"] = conditional_escape(line["time"].isoformat())
            values["time"] = conditional_escape(_moment(line["time"]))
        shape = shape_of(language, bool(line["private"]), resumed)
        drawn.append(_filled(shape, values))
    return mark_safe("".join(drawn))


def _filled(shape: str, values: dict[str, str]) -> str:
    return _RECORD_MARK.sub(lambda found: values[found[1]], shape)


@functools.lru_cache(maxsize=64)
def _record_shape(language: str, private: bool, resumed: bool) -> str:
    # The language names the key for words a shape may one day hold; it holds none now.
    marks = {name: mark_safe(f"\ue000{name}\ue001")
             for name in ("step", "text", "time_iso", "time", "url")}
    # The line alone, without the file's closing newline.
    return render_to_string(RECORD_LINE, {"private": private, "resumed": resumed,
                                          **marks}).rstrip("\n")


def forget_record_lines() -> None:
    """Draw the record's shapes afresh (tests that count what is drawn)."""
    _record_shape.cache_clear()


@register.tag
def slot(parser, token):
    """{% slot "name" %}…{% endslot %}: a place where the readers of a table differ (where
    they sit, what "just now" says to them), inside an update drawn once for all of them.
    Drawn as usual for one reader; within a shared drawing (the context's
    `shared_drawing`, games.views.updates), drawn once for each variant that drawing names
    for the place, and marked, for each reader's copy to be filled in."""
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("{% slot %} takes one name")
    nodelist = parser.parse(("endslot",))
    parser.delete_first_token()
    return SlotNode(parser.compile_filter(bits[1]), nodelist)


class SlotNode(template.Node):
    def __init__(self, name, nodelist):
        self.name, self.nodelist = name, nodelist

    def render(self, context) -> str:
        drawing = context.get("shared_drawing")
        if drawing is None:
            return self.nodelist.render(context)
        return drawing.place(str(self.name.resolve(context)), self.nodelist, context)


# What the standing-orders panel shows of a player's orders (my_orders in
# games.read.seat); the lines above it that change as a turn's time runs out are drawn
# at every page (games/_orders.html).
ORDERS_PANEL_SHOWS = ("auto_pass", "auto_tax_worst", "auto_revolution", "talk_notices",
                      "pass_trick", "can_pass_trick", "turn_limit", "away_until",
                      "on_vacation", "vacation_until", "vacation_days_left",
                      "vacation_choices")


@register.simple_tag(takes_context=True)
def orders_panel(context) -> str:
    """A player's standing-orders panel (games/_orders_panel.html). The mover's page and
    the next player's are drawn at every move, and the panel is the same from move to
    move: it is drawn once per process for what it shows (dalmuti_site.drawings), from
    exactly these values."""
    orders, game = context["orders"], context["game"]
    is_host = bool(context.get("is_host"))
    error_in_form = context.get("error_in_form", "")
    watch_url = ""
    if is_host and game.watch_token:
        watch_url = reverse("watch", args=[game.watch_token])
        request = context.get("request")
        if request is not None:
            watch_url = request.build_absolute_uri(watch_url)
    values = {
        "orders": {name: orders[name] for name in ORDERS_PANEL_SHOWS},
        "game": {"pk": game.pk, "name": game.name, "leaver_bot": game.leaver_bot,
                 "watch_token": game.watch_token, "watchers_talk": game.watchers_talk},
        "orders_saved": bool(context.get("orders_saved")),
        "error_in_form": error_in_form,
        "error": str(context.get("error", "")) if error_in_form == "vacation" else "",
        "can_leave": bool(context.get("can_leave")),
        "leave_ends_game": bool(context.get("leave_ends_game")),
        "can_propose_end": bool(context.get("can_propose_end")),
        "is_host": is_host,
        "host_open": is_host and bool(context.get("host_open")),
        "ending": bool(context.get("ending")),
        "open_ended": bool(context.get("open_ended")),
        "watch_url": watch_url,
    }
    return drawn_once("games/_orders_panel.html", values, context)


_OPTION_ITEM = re.compile(r"<li>(.*?)</li>", re.S)


@register.filter
def option_lines(options: dict, players: int | None = None) -> list[str]:
    """A table's rules in words, one a line, as games/_options.html says them: for what
    shows no markup (the text of an email), or its own (an email's list). `players`: how
    many play at a game in progress."""
    listed = render_to_string("games/_options.html", {"options": options, "players": players})
    return [html.unescape(strip_tags(item)).strip() for item in _OPTION_ITEM.findall(listed)]
