"""Four players follow a table live in real browsers, served as in production (an ASGI
server with Redis): after each move, every page whose update fits it swaps in what its
stream brought, without asking the server anything, and shows the table as a freshly
loaded page does; the page whose turn it now is too, its hand and dock brought with the
update, and its player's next move goes through with the form token the stream put in."""

import dataclasses
import json
import random
import threading
from datetime import timedelta

import pytest
import redis
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from playwright.sync_api import expect

from games.core.turns import nudge_after
from games.models import Game
from tests.e2e import harness
from tests.e2e.test_play_a_round import _version, _wait_for_version
from tests.helpers import make_user, session_for, start_table
from tools import server as production

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.redis]

TIMEOUT = 15_000  # ms
POLL_SECONDS = settings.GAME_POLL_SECONDS
MOVES = 16
# Each reads the site in a language of their own: the streams bring each the update
# drawn in theirs.
LANGUAGES = {"ana": "en", "bram": "de", "cato": "nl", "dido": "fr"}
NAMES = tuple(LANGUAGES)


@pytest.fixture
def served(live_server, request):
    """A table of four people in play, their sessions, and the production server (one
    uvicorn worker) on this test's database and Redis; stopped at the end. Its pages'
    safety net polls every `request.param` seconds (an hour unless told)."""
    safety = getattr(request, "param", 3600)
    people = [make_user(name, display_name=name.title(), language=LANGUAGES[name])
              for name in NAMES]
    game = start_table(people[0], people[1:], seed=7, name="Live table",
                       options={"rounds": 2, "first_round_taxes": False})
    game.seats.update(auto_pass=False)
    sessions = {user.username: session_for(user) for user in people}
    # The production settings, its static files collected, over plain HTTP on loopback;
    # the pages' safety-net poll (every 30 s by default) out of the way unless the test
    # is about it, so that every poll the test counts is one a page sent because its
    # update did not fit.
    env = production.environment(DEBUG="0", SECURE_SSL_REDIRECT="0", SECURE_HSTS_SECONDS="0",
                                 STREAM_SAFETY_SECONDS=str(safety))
    with production.serve(env) as server:
        yield f"http://127.0.0.1:{server.port}", game.pk, sessions


def _open(browser, base_url: str, session: str, size: str, problems: list, name: str,
          **options):
    page = harness.signed_in_page(browser, base_url, session, size, problems, name, TIMEOUT,
                                  **options)
    # Marked on the page itself: the site's policy allows no script evaluated from text.
    # The poller's ticks, and the polls it sent (those the page's script let through).
    page.add_init_script("""
        const mark = () => document.documentElement.dataset;
        const count = (event, name) => {
          if (event.detail.elt.id === "poller") mark()[name] = Number(mark()[name] || 0) + 1;
        };
        document.addEventListener("htmx:sseOpen", () => { mark().stream = "open"; });
        document.addEventListener("htmx:sseError", () => { mark().stream = "lost"; });
        document.addEventListener("htmx:beforeRequest", (event) => count(event, "ticks"));
        document.addEventListener("htmx:beforeSend", (event) => count(event, "polls"));
        document.addEventListener("htmx:beforeSend", (event) => {
          const told = (event.detail.requestConfig || {}).triggeringEvent;
          if (told && told.type === "ask") count(event, "asks");
        });
    """)
    # Its clock, to run past the poller's interval at once.
    page.clock.install()
    return page


def _choose(page, rng: random.Random):
    """A move of the page's player, whatever the page's language: the round's opening (no
    revolution), a pass now and then, else a play of cards tapped in the hand."""
    dock = page.locator("#actions")
    opening = dock.locator("form.revolution-offer button[value=no]")
    if opening.count():
        return "opening", opening
    form = page.locator("#move-form")
    legal = json.loads(form.get_attribute("data-legal") or "{}")
    passing = dock.locator("button.pass")
    if passing.count() and (not legal or rng.random() < 0.4):
        return "pass", passing
    for rank in rng.choice(sorted(legal)).split(","):
        form.locator(f"label.hcard:has(input[value='{rank}']:not(:checked))").first.click()
    play = dock.locator("button.play")
    expect(play).to_be_enabled()
    return "play", play


def _move(page, rng: random.Random) -> tuple[str, int]:
    """A move of the page's player, made at the page: its kind, and the version the page
    shows once the move's answer is in."""
    version = _version(page)
    kind, button = _choose(page, rng)
    with page.expect_response(lambda response: response.url.endswith("/act/")) as answer:
        button.click()
    assert answer.value.status == 200
    page.locator(f'#poller[hx-get]:not([hx-get*="?v={version}&"])').wait_for(
        state="attached")
    return kind, _version(page)


def _round(page) -> str:
    return page.locator("#game-head-info").inner_text()


def _shown(page) -> dict[str, str]:
    """The page's round, seats and trick, turn and log (folded, but there), as text."""
    return {part: " ".join(page.locator(selector).text_content().split())
            for part, selector in (("round", "#game-head-info"), ("table", "#table"),
                                   ("turn", "#status .turn"), ("log", "#log-lines"),
                                   ("mine", "#me"))}


def test_open_pages_take_the_changes_their_streams_bring(served, browser, screenshot_dir):
    base_url, game_id, sessions = served
    expect.set_options(timeout=TIMEOUT)
    rng = random.Random(11)
    problems: list[str] = []
    pages = {name: _open(browser, base_url, sessions[name],
                         "phone" if name in ("ana", "cato") else "laptop", problems, name)
             for name in NAMES}
    asked = {name: 0 for name in NAMES}
    for name, page in pages.items():
        page.on("request", lambda request, name=name: asked.__setitem__(
            name, asked[name] + ("/poll/" in request.url)))
        page.goto(f"/t/{game_id}/")
        page.locator("html[data-stream=open]").wait_for(state="attached")
        assert page.locator("#game").get_attribute("data-stream-safety") == "3600"
    # A page just drawn, its stream open, lets the poller's ticks pass without asking,
    # until its safety net is due; so each update below shows whatever time it takes.
    for name, page in pages.items():
        page.clock.fast_forward(2 * POLL_SECONDS * 1000)
        marks = page.locator("html")
        assert int(marks.get_attribute("data-ticks") or 0) >= 1, name
        assert marks.get_attribute("data-polls") is None, f"{name}'s page polled"
        assert asked[name] == 0, name
    taken = turns = 0
    for _ in range(MOVES):
        actor = next(name for name, page in pages.items()
                     if page.locator("#status .turn.mine").count())
        before = dict(asked)
        rounds = {name: _round(other) for name, other in pages.items()}
        kind, version = _move(pages[actor], rng)
        for other in pages.values():
            _wait_for_version(other, version)
        for name, other in pages.items():
            if name == actor or kind == "opening" or _round(other) != rounds[name]:
                continue  # the round's play began or ended: every page asks
            assert asked[name] == before[name], f"{name}'s page asked after {actor}'s {kind}"
            if other.locator("#status .turn.mine").count():
                # Its turn came with the update: the page says so in its title too.
                assert other.title().startswith(
                    other.locator("#game").get_attribute("data-your-turn")), name
                turns += 1
            taken += 1
            # What the update brought is what a fresh page of the same player shows.
            fresh = other.context.new_page()
            fresh.goto(f"/t/{game_id}/")
            assert _shown(other) == _shown(fresh), f"{name} after {actor}'s {kind}"
            fresh.close()
    assert taken >= MOVES and turns >= MOVES // 2, (taken, turns)
    # The log's lines that updates added: each once, in order, numbered after the page's.
    for page in pages.values():
        numbers = page.locator("#log-lines > li").evaluate_all(
            "lines => lines.map((line) => Number(line.dataset.line))")
        assert numbers == list(range(len(numbers), 0, -1))
        # Each with its time ("12:05 p.m."; in English at twelve o'clock, "midnight" or "noon").
        time = page.locator("#log-lines > li").first.locator("time")
        assert time.get_attribute("datetime") and time.text_content().strip()
    for name, page in pages.items():
        page.screenshot(path=screenshot_dir / f"e2e-live-{name}-{LANGUAGES[name]}.png",
                        full_page=True)
    assert problems == []


def _cut_streams() -> None:
    """Cut the web server's connection to Redis's pub/sub, as a network fault would: the
    streams it fed end, and their pages reconnect. Only the subscribers to this test's
    Redis database (the server's hub), never another test process's."""
    r = redis.Redis.from_url(settings.REDIS_URL)
    db = r.connection_pool.connection_kwargs.get("db", 0)
    cut = [client["id"] for client in r.client_list()
           if "P" in client["flags"] and int(client["db"]) == db]
    assert cut, "the server has no subscription to cut"
    for client_id in cut:
        r.client_kill_filter(_id=client_id)


def test_a_page_whose_stream_broke_asks_once_it_is_back(served, browser):
    base_url, game_id, sessions = served
    expect.set_options(timeout=TIMEOUT)
    problems: list[str] = []
    pages = {name: _open(browser, base_url, sessions[name], "laptop", problems, name)
             for name in NAMES}
    for page in pages.values():
        page.goto(f"/t/{game_id}/")
        page.locator("html[data-stream=open]").wait_for(state="attached")
    page, marks = pages["ana"], pages["ana"].locator("html")
    version = _version(page)
    # Ana's clock stands still: her poller never ticks, so only an ask can bring her
    # what her page missed.
    # (Playwright reads a number as seconds: a second on.)
    page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 1)
    # The streams break, and hers stays away (her reconnection refused) while a move is
    # made at another page.
    page.route("**/stream/", lambda route: route.abort())
    _cut_streams()
    page.locator("html[data-stream=lost]").wait_for(state="attached")
    actor = next(other for name, other in pages.items()
                 if name != "ana" and other.locator("#status .turn.mine").count())
    _kind, moved = _move(actor, random.Random(3))
    assert moved > version and _version(page) == version
    assert marks.get_attribute("data-asks") is None
    # Her stream comes back, and she asks once for what it missed.
    page.unroute("**/stream/")
    page.locator("html[data-stream=open]").wait_for(state="attached")
    _wait_for_version(page, moved)
    assert marks.get_attribute("data-asks") == "1"
    # The break itself is logged by htmx on each page (its error event); nothing else.
    assert [problem for problem in problems if not problem.endswith(": [object Event]")] == []


@pytest.mark.parametrize("served", [30], indirect=True)
def test_a_page_kept_up_by_its_stream_polls_only_after_a_quiet_interval(served, browser):
    """The safety net polls a streamed page once its table has been quiet for the whole
    interval: an update that fit counts as hearing the table, as a poll does."""
    base_url, game_id, sessions = served
    expect.set_options(timeout=TIMEOUT)
    pages = {name: _open(browser, base_url, sessions[name], "phone", [], name)
             for name in NAMES}
    for page in pages.values():
        page.goto(f"/t/{game_id}/")
        page.locator("html[data-stream=open]").wait_for(state="attached")
    # The round's opening, by whoever it falls to: every page asks for that one.
    actor = next(name for name, page in pages.items()
                 if page.locator("#status .turn.mine").count())
    _, version = _move(pages[actor], random.Random(3))
    for page in pages.values():
        _wait_for_version(page, version)
    actor = next(name for name, page in pages.items()
                 if page.locator("#status .turn.mine").count())
    reader = next(name for name in NAMES if name != actor)
    page, marks = pages[reader], pages[reader].locator("html")
    asked = int(marks.get_attribute("data-polls") or 0)
    # 20 s on, the table moves; the update fits the reader's page.
    page.clock.fast_forward(20_000)
    _, version = _move(pages[actor], random.Random(3))
    _wait_for_version(page, version)
    assert int(marks.get_attribute("data-polls") or 0) == asked
    # 40 s after the page last polled, but 20 s after the update: no poll yet.
    page.clock.fast_forward(20_000)
    assert int(marks.get_attribute("data-ticks")) > 0
    assert int(marks.get_attribute("data-polls") or 0) == asked, "polled before the interval"
    # Once the table has been quiet for the interval, the safety net polls.
    page.clock.fast_forward(12_000)
    page.locator(f"html[data-polls='{asked + 1}']").wait_for(state="attached")


def _nudge_opens_in(game_id: int, seconds: int, out: dict) -> None:
    """Make the turn the table waits on older, so that the others may nudge its player
    `seconds` from now: the player's user name, and when (Unix time), into `out`. The
    table's version stays: as when time alone passes."""
    with transaction.atomic():
        game = Game.locked(game_id)
        player, wait = next(iter(game.waits().items()))
        opens = timezone.now() + timedelta(seconds=seconds)
        game.set_waits({**game.waits(),
                        player: dataclasses.replace(wait, since=opens - nudge_after(game))})
        game.save(update_fields=["awaiting"])
    out.update(name=game.seats.get(player=player).user.username, opens=opens.timestamp())


def test_a_streamed_page_offers_the_nudge_when_it_opens(served, browser):
    """A page its stream keeps up polls only as a safety net (an hour here): when a nudge
    opens, with nothing moving at the table, the page asks then, and offers it."""
    base_url, game_id, sessions = served
    expect.set_options(timeout=TIMEOUT)
    made: dict = {}
    # Far enough ahead for the page to load and its stream to open first on a busy
    # machine, near enough for the test's wait.
    worker = threading.Thread(target=_nudge_opens_in, args=(game_id, 8, made))
    worker.start()
    worker.join()
    reader = next(name for name in NAMES if name != made["name"])
    page = _open(browser, base_url, sessions[reader], "phone", [], reader)
    page.goto(f"/t/{game_id}/")
    page.locator("html[data-stream=open]").wait_for(state="attached")
    nudge = page.locator("#status form.nudge button")
    assert nudge.count() == 0
    assert int(page.locator("#changes").input_value()) >= made["opens"]
    # Its clock runs on (the page set it to the server's, in whole seconds down: never
    # ahead of it); a second after the time, it asks.
    expect(nudge).to_have_count(1)
    expect(nudge).to_contain_text(made["name"].title())
    marks = page.locator("html")
    assert marks.get_attribute("data-asks") == "1"


def _say(page, text: str) -> None:
    """Something said in the page's table talk (each reader's page asks for it)."""
    form = page.locator("#chat-form")
    form.locator("input[name=text]").fill(text)
    form.locator("button[type=submit]").click()
    expect(form.locator("input[name=text]")).to_have_value("")


def _polls_fail(page) -> dict:
    """The page's polls fail (a connection blip) while the dict's "blip" is true."""
    state = {"blip": True, "failed": 0}

    def handle(route):
        if state["blip"]:
            state["failed"] += 1
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route(lambda url: "/poll/" in url, handle)
    return state


def _reader_and_speaker(served, browser):
    """Ana's page and Bram's, at the served table, their streams open; Ana's polls go past
    no service worker, where page.route would not see them."""
    base_url, game_id, sessions = served
    expect.set_options(timeout=TIMEOUT)
    problems: list[str] = []
    reader, speaker = (_open(browser, base_url, sessions[name], "laptop", problems, name,
                             service_workers="block") for name in ("ana", "bram"))
    for page in (reader, speaker):
        page.goto(f"/t/{game_id}/")
        page.locator("html[data-stream=open]").wait_for(state="attached")
    return reader, speaker


@pytest.mark.parametrize("served", [30], indirect=True)
def test_a_question_the_stream_prompted_is_asked_again_when_it_failed(served, browser):
    """The stream tells of news, the page's question fails on a blip of the connection:
    it asks again within seconds, not at the safety net's next poll half a minute on."""
    reader, speaker = _reader_and_speaker(served, browser)
    blip = _polls_fail(reader)
    _say(speaker, "Anyone holding the Jester?")
    reader.locator("html[data-asks='1']").wait_for(state="attached")
    blip["blip"] = False
    said = reader.locator("#chat-log li", has_text="Anyone holding the Jester?")
    expect(said).to_have_count(1, timeout=8_000)
    assert blip["failed"] >= 1


@pytest.mark.parametrize("served", [30], indirect=True)
def test_a_page_back_online_asks_at_once(served, browser):
    """Offline when the stream told of news: back online, the page asks at once (its
    clock stands still here, so no timer of its own could)."""
    reader, speaker = _reader_and_speaker(served, browser)
    reader.clock.pause_at(reader.evaluate("Date.now()") / 1000 + 1)
    blip = _polls_fail(reader)
    _say(speaker, "Back in a tick")
    reader.locator("html[data-asks='1']").wait_for(state="attached")
    said = reader.locator("#chat-log li", has_text="Back in a tick")
    expect(said).to_have_count(0)
    blip["blip"] = False
    reader.context.set_offline(True)
    reader.context.set_offline(False)
    expect(said).to_have_count(1, timeout=5_000)
