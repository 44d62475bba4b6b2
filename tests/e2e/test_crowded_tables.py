"""Big tables on small and wide screens: on a laptop the hand lies in even rows (one row
where it fits, never fifteen cards and one alone under them), and on a phone a table of
eight or ten keeps every seat's name whole enough to tell friends apart, with the rest of
what a seat says (title, cards left, whose turn, passed) legible and inside the seat.
Screenshots of each table, size and language go to var/screenshots/."""

import pytest
from playwright.sync_api import expect

from tests.e2e import harness
from tests.helpers import make_user, play_until, session_for, start_table

pytestmark = pytest.mark.e2e

# Friends' names as they are given at a table, up to twelve letters.
NAMES = ["Christina", "Maximilian", "Alexandra", "Bartholomäus", "Friederike", "Konstantin",
         "Jacqueline", "Sebastian", "Wilhelmina"]

LAPTOPS = {"laptop": {"width": 1366, "height": 850}, "laptop-1280": {"width": 1280, "height": 720},
           "screen-1920": {"width": 1920, "height": 1080}}
PHONES = {"phone": {"width": 390, "height": 844}, "phone-360": {"width": 360, "height": 740}}


def _follows(game, tess) -> bool:
    """Tess's turn, with a play to beat on the felt."""
    view = game.engine_state().view(game.seats.get(user=tess).player)
    return bool(view["legal_actions"]) and view["phase"] == "play" and bool(view["trick"]["plays"])


@pytest.fixture
def crowded(live_server):
    """Tess's first turn to follow at tables of four, five, six, eight, nine and ten people:
    hands of 20, 16, 13 or 14, 10, 8 or 9 and 8 cards."""
    tess = make_user("tess", display_name="Tess")
    people = [make_user(f"friend{i}", display_name=name) for i, name in enumerate(NAMES)]
    tables = {seats: play_until(start_table(tess, people[:seats - 1], seed=11,
                                            name="Kitchen table"),
                                lambda g: _follows(g, tess)).pk
              for seats in (4, 5, 6, 8, 9, 10)}
    return {"tables": tables, "session": session_for(tess)}


def _page(browser, live_server, crowded, viewport, phone: bool, language: str):
    context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone,
                                  base_url=live_server.url,
                                  extra_http_headers={"Accept-Language": language})
    problems = []
    page = context.new_page()
    harness.collect_errors(page, problems)
    harness.log_in(page, live_server.url, "tess")
    return context, page, problems


def _open(page, game_id: int) -> None:
    page.goto(f"/t/{game_id}/")
    expect(page.locator("#actions button.pass")).to_be_visible()
    # The dock measured, the page has brought the hand into view above it.
    page.wait_for_function("document.documentElement.style.getPropertyValue('--dock-h')")


# The number of cards in each row of the hand, the narrowest card's width, the cards not
# wholly on the screen above the dock, and the card names cut short.
HAND_ROWS = """() => {
    const width = document.documentElement.clientWidth;  // not innerWidth: see harness
    const dock = document.getElementById('actions').getBoundingClientRect().top;
    const rows = {};
    const hidden = [];
    let narrowest = Infinity;
    for (const card of document.querySelectorAll('.hand-cards .hcard')) {
        const box = card.getBoundingClientRect();
        const top = Math.round(box.top);
        rows[top] = (rows[top] || 0) + 1;
        narrowest = Math.min(narrowest, box.width);
        if (box.left < 0 || box.right > width || box.top < 0 || box.bottom > dock) {
            hidden.push(card.textContent.trim().replace(/\\s+/g, ' '));
        }
    }
    const cut = [...document.querySelectorAll('.hcard .cname')]
        .filter((n) => n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1)
        .map((n) => n.textContent);
    return {rows: Object.keys(rows).sort((a, b) => a - b).map((top) => rows[top]),
            narrowest: Math.round(narrowest), hidden, cut};
}"""


def test_a_laptops_hand_lies_in_even_rows(crowded, browser, live_server, screenshots):
    """Hands of 8 to 20 cards, in German (the longest card names): on a laptop, in one row
    up to sixteen cards, in two even rows beyond (a hand of sixteen at 1366 px went fifteen
    and one, the last card alone under the others); every card at least 3 rem wide (the
    phone's usual card), its name whole, on the screen above the dock. A phone keeps its
    even rows too."""
    for size, viewport in {**LAPTOPS, **PHONES}.items():
        laptop = size in LAPTOPS
        context, page, problems = _page(browser, live_server, crowded, viewport,
                                        phone=not laptop, language="de")
        for seats in (4, 5, 6, 10):
            _open(page, crowded["tables"][seats])
            page.screenshot(path=str(screenshots / f"crowded-hand-{seats}-{size}-de.png"))
            shown = page.evaluate(HAND_ROWS)
            cards, rows = sum(shown["rows"]), shown["rows"]
            where = f"{seats} seats ({cards} cards) on a {size}: {shown}"
            assert cards >= 80 // seats, where
            assert max(rows) - min(rows) <= 1, where
            if laptop:
                assert len(rows) == (1 if cards <= 16 else 2), where
                assert shown["narrowest"] >= 48, where
            assert shown["hidden"] == [], where
            assert shown["cut"] == [], where
            assert not harness.wider_than_screen(page), where
        assert problems == [], size
        context.close()


# For every seat round the felt: its name, whether the name shows whole (neither cut short
# nor clipped), the size of its letters and of the seat's smallest other words, what of the
# seat's title and state is cut or runs out of it, and whether it is drawn over another seat.
SEATS = """() => {
    const seats = [...document.querySelectorAll('#table .seat')];
    const boxes = seats.map((seat) => seat.getBoundingClientRect());
    const overlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
        && a.top < b.bottom - 1 && b.top < a.bottom - 1;
    return seats.map((seat, i) => {
        const name = seat.querySelector('.seat-name bdi');
        const room = boxes[i];
        const inside = (el) => {
            const box = el.getBoundingClientRect();
            return box.left >= room.left - 1 && box.right <= room.right + 1
                && box.bottom <= room.bottom + 1;
        };
        const others = [...seat.querySelectorAll(
            '.seat-title, .seat-cards, .seat-score, .seat-state')]
            .filter((el) => el.checkVisibility());
        return {
            name: name.textContent.trim(),
            whole: name.scrollWidth <= name.clientWidth + 1
                && name.scrollHeight <= name.clientHeight + 1 && inside(name),
            letters: parseFloat(getComputedStyle(name).fontSize),
            smallest: Math.min(...others.map((el) => parseFloat(getComputedStyle(el).fontSize))),
            cut: others.filter((el) => el.scrollWidth > el.clientWidth + 1 || !inside(el))
                .map((el) => el.textContent.trim()),
            over: boxes.some((other, j) => j !== i && overlap(room, other)),
        };
    });
}"""


def test_a_phone_tells_ten_players_apart(crowded, browser, live_server, screenshots):
    """At tables of eight to ten on a phone, in English and German, every seat's name shows
    whole (at ten seats the names were cut to four letters, "Chri…"), breaking over lines
    only at a syllable with a hyphen (not "Bartholomä|us"), in letters of at least 12 px,
    the seat's other words at least 11 px, none cut or running out of its seat, no seat
    over another or over the trick; the page passes the accessibility check."""
    for size, viewport in PHONES.items():
        for language in ("en", "de"):
            context, page, problems = _page(browser, live_server, crowded, viewport,
                                            phone=True, language=language)
            for seats in (8, 9, 10):
                _open(page, crowded["tables"][seats])
                page.locator(".felt").screenshot(
                    path=str(screenshots / f"crowded-felt-{seats}-{size}-{language}.png"))
                shown = page.evaluate(SEATS)
                where = f"{seats} seats on a {size} in {language}"
                assert len(shown) == seats, where
                assert [s["name"] for s in shown if not s["whole"]] == [], where
                names = page.evaluate(NAMES_SHOWN)["seats"]
                assert [n["breaks"] for n in names if n["breaks"]] == [], where
                assert min(s["letters"] for s in shown) >= 12, where
                assert min(s["smallest"] for s in shown) >= 11, where
                assert [s["cut"] for s in shown if s["cut"]] == [], where
                assert [s["name"] for s in shown if s["over"]] == [], where
                assert page.evaluate(UNDER_SEATS) == [], where
                assert not harness.wider_than_screen(page), where
                serious = harness.serious_violations(page)
                assert serious == [], where + ": " + harness.describe(serious)
            assert problems == [], f"{size}, {language}"
            context.close()


# What the centre of the felt shows that a seat is drawn over.
UNDER_SEATS = """() => {
    const overlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
        && a.top < b.bottom - 1 && b.top < a.bottom - 1;
    const seats = [...document.querySelectorAll('#table .seat')]
        .map((el) => el.getBoundingClientRect());
    return [...document.querySelectorAll('#table .centre :is(th, td, p, .card)')]
        .filter((el) => el.checkVisibility({visibilityProperty: true}))
        .filter((el) => seats.some((seat) => overlap(el.getBoundingClientRect(), seat)))
        .map((el) => el.textContent.trim().slice(0, 30));
}"""


# Names of ten to thirteen letters, one with a hyphen and one with a space, as friends give
# them; Tess's own seat at the bottom has room to spare.
LONG_NAMES = ["Maximiliaan", "Bartholomeus", "Konstantinos", "Wilhelmina-Jo", "Anna Maria",
              "Alexandrina", "Friederike", "Mechthildis", "Christopher"]


@pytest.fixture
def long_named(live_server):
    """Tables of eight, nine and ten, the second round's taxes: the seats round the felt,
    and in its centre the first round's result."""
    tess = make_user("tess", display_name="Tess")
    people = [make_user(f"long{i}", display_name=name) for i, name in enumerate(LONG_NAMES)]
    return {seats: play_until(start_table(tess, people[:seats - 1], seed=11),
                              lambda g: len(g.engine_state().results) >= 1).pk
            for seats in (8, 9, 10)}


# Every name the felt shows, in the seats and in the round's result at its centre: the
# name as typed, the size of its letters, whether it is cut short or clipped (its text
# wider or taller than its box), whether it runs out of its seat (or the centre), whether
# the title holds it whole, and the places it goes on to a new line where no space, hyphen
# or soft hyphen is (inside a word, "Bartholome|us"): each letter measured with a Range.
NAMES_SHOWN = """() => {
    const breaks = (el) => {
        const text = [];
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (let i = 0; i < node.length; i++) {
                const range = document.createRange();
                range.setStart(node, i);
                range.setEnd(node, i + 1);
                // A letter just after a break also reports the end of the line before.
                const box = [...range.getClientRects()].filter((r) => r.width > 0).pop();
                text.push({letter: node.data[i], top: box ? box.top : null});
            }
        }
        const bad = [];
        let top = null;
        text.forEach(({letter, top: at}, i) => {
            if (at === null) return;
            if (top !== null && at > top + 2) {
                const before = text.slice(0, i).map((t) => t.letter).join('');
                if (!/[\\s\\-\\u00ad\\u2010]$/.test(before) && !/^\\s/.test(letter)) {
                    bad.push(before.replace(/\\u00ad/g, '') + '|' + letter);
                }
            }
            top = at;
        });
        return bad;
    };
    const shown = (bdi, room) => {
        const box = bdi.getBoundingClientRect();
        const name = bdi.textContent.replace(/\\u00ad/g, '').trim();
        const holder = bdi.closest('[title]');
        return {
            name,
            size: parseFloat(getComputedStyle(bdi).fontSize),
            out: box.left < room.left - 1 || box.right > room.right + 1,
            cut: bdi.scrollWidth > bdi.clientWidth + 1 || bdi.scrollHeight > bdi.clientHeight + 1,
            titled: holder !== null && holder.title === name,
            breaks: breaks(bdi),
        };
    };
    const seats = [...document.querySelectorAll('#table .seat')].map(
        (seat) => shown(seat.querySelector('.seat-name bdi'), seat.getBoundingClientRect()));
    const centre = document.querySelector('#table .centre').getBoundingClientRect();
    const result = [...document.querySelectorAll('#table .centre .round-result td.name bdi')]
        .map((bdi) => shown(bdi, centre));
    return {seats, result};
}"""


def test_long_names_show_whole_on_a_phones_felt(long_named, browser, live_server, screenshots):
    """At tables of eight to ten on phones of 390 and 360 px, in four languages: every
    name of up to thirteen letters shows whole in its seat and in the round's result at
    the felt's centre (the result cut them to five to nine letters, "Christ…",
    "Bartholo…", and a seat broke "Bartholome|us" with no hyphen), breaking over lines
    only between words or at a syllable with a hyphen, in letters of at least 12 px,
    nothing running out of its box, each whole in its title; a laptop too."""
    for size, viewport in {**PHONES, "laptop": LAPTOPS["laptop"]}.items():
        phone = size in PHONES
        for language in ("en", "nl", "de", "fr"):
            context, page, problems = _page(browser, live_server, None, viewport,
                                            phone=phone, language=language)
            for seats in (8, 9, 10):
                page.goto(f"/t/{long_named[seats]}/")
                expect(page.locator("#table .centre .round-result td.name")).to_have_count(seats)
                page.locator(".felt").screenshot(
                    path=str(screenshots / f"long-names-{seats}-{size}-{language}.png"))
                shown = page.evaluate(NAMES_SHOWN)
                where = f"{seats} seats on a {size} in {language}: {shown}"
                names = shown["seats"] + shown["result"]
                assert [n["name"] for n in names if n["cut"] or n["out"]] == [], where
                assert [n["breaks"] for n in names if n["breaks"]] == [], where
                assert [n["name"] for n in names if not n["titled"]] == [], where
                assert min(n["size"] for n in names) >= 12, where
                assert not harness.wider_than_screen(page), where
            assert problems == [], f"{size}, {language}"
            context.close()
