"""Every page, at a phone's size and a laptop's, in every language: signed in as each
kind of visitor, the crawler follows the links from the start page (and visits the pages
that need an id from the fixtures) and fails on what a person would trip over:

- a visible link, button or field whose centre is off the screen sideways, or that a tap
  at its centre does not reach (something drawn over it, a strip that hides it),
- the page wider than the screen,
- a console error, a page error, a Content-Security-Policy violation, a 5xx answer,
- an axe-core violation rated serious or critical.

One screenshot per page, size and language goes to var/screenshots/site/. To keep the
run short (about two and a half minutes on two cores), the phone, where most goes wrong,
is crawled in the three languages whose words run longest (Dutch, German, French) and the
laptop in English; axe runs in English and German; every kind of page is visited once
(/t/1/ and /t/2/ are one kind).
"""

import re
from urllib.parse import urlsplit

import pytest

from games import commands
from games.away.emails import refuse_invitations_url
from games.models import Game
from leagues.models import LeagueGame
from leagues.services import replace_by_bot
from tests.e2e import harness
from tests.helpers import make_user, play_out, start_table
from tests.leagues.helpers import make_league, this_year_season

pytestmark = pytest.mark.e2e

RUNS = [("phone", code) for code in ("nl", "de", "fr")] + [("laptop", "en")]
ROLES = ["visitor", "player", "host", "watcher", "organiser", "replaced", "taken_off"]
MOST_PAGES = 16
# Players whose seat is gone: one an organiser replaced by a bot (their history and the
# table's page telling them), one the host took off a table before its start (the table's
# page telling them, and its link that no longer seats them); no more (the other pages
# they reach are the player's).
MOST_PAGES_OF = {"replaced": 2, "taken_off": 2}
# The console's note of a page answered on purpose with an error status (the seat is gone
# for good: 410), which a person never sees.
GONE = "the server responded with a status of 410"
EXPECTED_CONSOLE = {"replaced": GONE, "taken_off": GONE}
# Names of one word, as long as people make them: a finished and a playing table, an open
# one and a league.
LONG_NAMES = ("Sonntagnachmittagskartenspielrundenvergnügen",
              "Freitagabendsdalmutirundeimwohnzimmerbeitess",
              "Hanasgroßesdalmutiturnierfürdiegesamtefamilie",
              "Freitagabendsdalmutivereinigungdernachbarschaft")

# Links that change something or leave the HTML site: never followed.
SKIP = re.compile(r"(logout|/act/|/stream/|/poll/|\.json$|\.txt$|\.csv$|/delete/"
                  r"|/password_change|/unsubscribe/|/admin/[a-z]+/[a-z]+/add/|/admin/auth/)")
# The checks, run in the page. Each control must be reachable at some scroll position
# (a fixed bar may cover it at another). The screen is as wide as the layout viewport
# (clientWidth), not innerWidth: a phone's browser shrinks a page wider than the screen
# to fit, and innerWidth grows with it.
CHECK = r"""() => {
    const problems = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width + 1) {
        problems.push(`page ${document.documentElement.scrollWidth}px wide`);
    }
    const scrolls = (el) => {
        for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
            if (getComputedStyle(p).overflowX !== 'visible') return true;
        }
        return false;
    };
    // The box that scrolls sideways around a control (a wide table's), if any.
    const scroller = (el) => {
        for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
            if (['auto', 'scroll'].includes(getComputedStyle(p).overflowX)) return p;
        }
        return null;
    };
    const controls = [...document.querySelectorAll(
            'a[href], button, summary, select, input:not([type=hidden]), textarea')]
        .filter((el) => el.checkVisibility({visibilityProperty: true, opacityProperty: true}))
        .filter((el) => !el.closest('.visually-hidden, .skip-link, .skip-to-content-link'))
        .filter((el) => { const b = el.getBoundingClientRect(); return b.width && b.height; });
    for (const el of controls) {
        const box = el.getBoundingClientRect();
        const x = box.left + box.width / 2;
        if ((x < 0 || x > width) && !scrolls(el)) {
            problems.push(`off screen: ${el.outerHTML.slice(0, 90)}`);
        }
    }
    let pending = controls.filter((el) => {
        const box = el.getBoundingClientRect();
        const x = box.left + box.width / 2;
        return x >= 0 && x <= width;
    });
    const height = document.documentElement.scrollHeight;
    for (let y = 0; y < height + innerHeight && pending.length; y += innerHeight / 3) {
        window.scrollTo(0, y);
        pending = pending.filter((el) => {
            // A control in a box that scrolls sideways is looked at as its reader reaches
            // it: the box scrolled to it.
            const first = el.getClientRects()[0], sideways = scroller(el);
            if (sideways) {
                const edge = sideways.getBoundingClientRect();
                if (first.left < edge.left || first.right > edge.right) {
                    sideways.scrollLeft += first.left - edge.left - (edge.width - first.width) / 2;
                }
            }
            const box = el.getClientRects()[0];  // a link over two lines: its first line
            const x = box.left + box.width / 2, cy = box.top + box.height / 2;
            if (cy < 0 || cy > innerHeight) return true;
            const hit = document.elementFromPoint(x, cy);
            const label = el.closest('label');
            return !(hit && (hit === el || el.contains(hit) || (label && label.contains(hit))));
        });
    }
    window.scrollTo(0, 0);
    for (const el of pending) problems.push(`covered: ${el.outerHTML.slice(0, 90)}`);
    return problems.concat(window.__cspViolations || []);
}"""
# No page loads a part of itself after its "load" event (nothing is fetched on "load" or
# on coming into view); its scripts lay it out within a frame or two, but for the box
# that offers notifications on this device, drawn once the service worker is ready (it
# marks itself `data-shown`). Playwright's "networkidle" would wait half a second of quiet
# on each of some sixty pages a run.
PUSH_BOXES_SHOWN = "() => !document.querySelector('[data-push]:not([data-shown])')"
SETTLED = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
WATCH_CSP = """window.__cspViolations = [];
document.addEventListener('securitypolicyviolation',
    (e) => window.__cspViolations.push(`CSP: ${e.violatedDirective} ${e.blockedURI}`));"""


@pytest.fixture
def site(live_server):
    """A few people, each at the stage their role needs (made before the browser starts:
    its thread may not use the database). The tables and the league have names of one long
    word, as people give them: a page must break them rather than grow wider."""
    tess, bram, hana = make_user("tess"), make_user("bram"), make_user("hana")
    make_user("olga", is_staff=True, is_superuser=True)
    finished = play_out(start_table(tess, [bram], bots=2, seed=21, name=LONG_NAMES[0]))
    playing = start_table(tess, [bram], bots=4, seed=22, name=LONG_NAMES[1])
    open_table = commands.create_table(hana, LONG_NAMES[2], 5, {"rounds": 2})
    commands.add_bot(open_table.pk, "basic")
    commands.set_watchable(playing.pk, tess, True, talk=True)
    league = make_league(name=LONG_NAMES[3], slug="friday", members=[tess, bram])
    season = this_year_season(league)
    rita = make_user("rita")
    given = start_table(tess, [rita], bots=2, seed=23, name=LONG_NAMES[1])
    LeagueGame.objects.create(game=given, league=league, season=season)
    replace_by_bot(given.pk, given.seats.get(user=rita).pk, "basic",
                   "Rita is away until the spring.")
    given = play_out(given)
    commands.remove_seat(open_table.pk, commands.join(open_table.pk, make_user("tara")).pk)
    token = Game.objects.get(pk=playing.pk).watch_token
    # The link in an invitation to an address without an account (in no one language).
    refuse = urlsplit(refuse_invitations_url("someone@example.com", "")).path
    return {
        "visitor": (None, ["/", "/rules/", "/accounts/signup/", refuse]),
        "player": ("tess", ["/", f"/t/{playing.pk}/", f"/t/{playing.pk}/log/",
                            f"/history/{finished.pk}/", f"/history/{finished.pk}/replay/",
                            "/players/tess/", "/leagues/friday/", "/accounts/profile/"]),
        "host": ("hana", ["/", f"/t/{open_table.pk}/", "/tables/new/"]),
        "watcher": (None, [f"/watch/{token}/", f"/watch/{token}/log/"]),
        "organiser": ("olga", ["/admin/", "/admin/leagues/league/",
                               f"/admin/leagues/league/{league.pk}/change/",
                               "/admin/leagues/season/"]),
        "replaced": ("rita", ["/history/", f"/t/{given.pk}/"]),
        "taken_off": ("tara", [f"/t/{open_table.pk}/", f"/join/{open_table.invite_token}/"]),
    }


def _kind(path: str) -> str:
    return re.sub(r"/[0-9a-zA-Z_-]{20,}/", "/T/", re.sub(r"\d+", "N", path))


def _crawl(page, base: str, seeds: list[str], role: str, size: str, code: str,
           folder) -> list[str]:
    problems, seen, queue = [], set(), list(seeds)
    statuses = []
    page.on("response", lambda r: r.status >= 500 and statuses.append(f"{r.status} {r.url}"))
    while queue and len(seen) < MOST_PAGES_OF.get(role, MOST_PAGES):
        path = queue.pop(0)
        if _kind(path) in seen or SKIP.search(path):
            continue
        seen.add(_kind(path))
        page.goto(base + path)  # to its "load" event
        page.wait_for_function(PUSH_BOXES_SHOWN)
        page.evaluate(SETTLED)
        where = f"{role} {size} {code} {path}"
        found = page.evaluate(CHECK)
        problems += [f"{where}: {p}" for p in found]
        if code in ("en", "de"):
            problems += [f"{where}: axe {v['id']} {[n['target'] for n in v['nodes']][:3]}"
                         for v in harness.serious_violations(page)]
        name = re.sub(r"[^a-zA-Z0-9]+", "_", _kind(path)).strip("_") or "start"
        page.screenshot(path=str(folder / f"{role}-{size}-{code}-{name}.png"))
        links = page.eval_on_selector_all("a[href]:not([download])", "els => els.map(a => a.href)")
        for href in links:
            url = urlsplit(href)
            # In the admin, the organiser's pages named in the fixture are enough.
            if base.endswith(url.netloc) and url.path and not url.path.startswith("/admin/"):
                queue.append(url.path)
    return problems + [f"{role} {size} {code}: {s}" for s in statuses]


def _as(browser, base: str, role: str, username, seeds, size: str, code: str,
        folder) -> list[str]:
    """What one kind of visitor trips over, crawling in one size and language."""
    context = harness.new_context(browser, size, extra_http_headers={"Accept-Language": code})
    context.add_init_script(WATCH_CSP)
    page = context.new_page()
    expected = EXPECTED_CONSOLE.get(role)
    problems = harness.collect_errors(page, label=f"{role} {size} {code}",
                                      ignore=lambda m: bool(expected) and expected in m.text)
    if username:
        harness.log_in(page, base, username)
    problems += _crawl(page, base, seeds, role, size, code, folder)
    context.close()
    return problems


@pytest.mark.parametrize(("size", "code"), RUNS)
def test_every_page_reads_and_works(site, browser, live_server, size, code, screenshots):
    folder = screenshots / "site"
    folder.mkdir(exist_ok=True)
    problems = []
    for role in ROLES:
        username, seeds = site[role]
        problems += _as(browser, live_server.url, role, username, seeds, size, code, folder)
    assert problems == [], "\n".join(problems)
