"""A round's result with every column it can have (the master rule adds the titles of
the next round) stays within a phone's screen, in the languages whose words run longest,
and says what the master rule and philanthropic scoring did; with ten long names, the
result on the felt keeps to a line per player."""

import pytest
from playwright.sync_api import expect

from tests.e2e import harness
from tests.helpers import bots_play_on, make_user, play_until, start_table

pytestmark = pytest.mark.e2e


@pytest.fixture
def table(live_server):
    mo = make_user("mo", display_name="Mo")
    game = start_table(mo, [], bots=4, seed=11, options={
        "rounds": 3, "master_rule": True, "philanthropic": "per_position"})
    game = play_until(game, lambda g: len(g.engine_state().results) >= 1)
    # The bots' taxes made here, not left to a worker: the round is in play, its result
    # folded among the panels.
    return bots_play_on(game).pk


@pytest.mark.parametrize("code", ["de", "fr"])
def test_the_round_result_fits_a_phone(table, browser, live_server, code, screenshots):
    context = harness.new_context(browser, "phone", extra_http_headers={"Accept-Language": code})
    page = context.new_page()
    harness.log_in(page, live_server.url, "mo")
    page.goto(f"{live_server.url}/t/{table}/")
    page.locator("#panels details.panel summary").first.click()
    result = page.locator("#panels .round-result")
    expect(result.locator("th.title-next")).to_be_visible()
    assert not harness.wider_than_screen(page)
    result.screenshot(path=str(screenshots / f"round-result-phone-{code}.png"))
    context.close()


@pytest.fixture
def taxes_after_a_reordered_round(live_server):
    """Round 2's taxes, the bots still holding their give-back: the felt's centre shows
    round 1's result, which the master rule reordered."""
    ida = make_user("ida", display_name="Ida")
    for seed in range(11, 60):
        game = play_until(start_table(ida, [], bots=4, seed=seed, options={
            "rounds": 3, "master_rule": True}),
            lambda g: len(g.engine_state().results) >= 1)
        state = game.engine_state()
        result = state.results[-1]
        if state.round.phase == "taxes" and result["next_order"] != result["finish_order"]:
            return game.pk
    raise AssertionError("no seed reordered the first round")


@pytest.mark.parametrize("code", ["de", "fr"])
def test_the_master_rule_is_said_on_a_phones_felt(taxes_after_a_reordered_round, browser,
                                                  live_server, code, screenshots):
    context = harness.new_context(browser, "phone", extra_http_headers={"Accept-Language": code})
    page = context.new_page()
    harness.log_in(page, live_server.url, "ida")
    page.goto(f"{live_server.url}/t/{taxes_after_a_reordered_round}/")
    note = page.locator(".centre .round-result .master-note")
    expect(note).to_be_visible()
    assert not harness.wider_than_screen(page)
    page.locator(".felt").screenshot(path=str(screenshots / f"felt-master-rule-{code}.png"))
    context.close()


# Thirty letters without a space, and names with spaces, as long as a name may be.
LONG_NAMES = ["Bartholomaeusvonhohenzollernxy", "Anna Maria Magdalena Schmidt-Lüdenscheid",
              "Wolfgangamadeusmozartsalzburg", "Jean-Christophe de la Fontaine"]


@pytest.fixture
def long_names(live_server):
    """Ten seats, four of them people with long names, in the second round's taxes: the
    felt's centre shows the first round's result."""
    people = [make_user(f"long{i}", display_name=name) for i, name in enumerate(LONG_NAMES)]
    game = start_table(people[0], people[1:], bots=6, seed=11, options={"rounds": 3})
    return play_until(game, lambda g: len(g.engine_state().results) >= 1).pk


# The result's rows' heights, its narrowest name's width, its names that are not whole in
# their titles, how far it runs past the centre; the seats' names that run out of their
# seat or are not whole in their titles; the taxes' names broken over lines.
NAMES_ON_THE_FELT = """() => {
    const centre = document.querySelector('.centre').getBoundingClientRect();
    const result = document.querySelector('.centre .round-result table');
    const cells = [...result.querySelectorAll('td.name')];
    const seats = [...document.querySelectorAll('.seat')].map((seat) => {
        const name = seat.querySelector('.seat-name');
        const box = name.querySelector('bdi').getBoundingClientRect();
        const room = seat.getBoundingClientRect();
        // The name as typed: the seat's has soft hyphens between its syllables.
        return {name: name.querySelector('bdi').textContent.replace(/\u00ad/g, ''),
                title: name.title,
                out: box.left < room.left - 1 || box.right > room.right + 1};
    });
    return {
        rows: cells.map((cell) => Math.round(cell.closest('tr').getBoundingClientRect().height)),
        room: Math.min(...cells.map((cell) => Math.round(cell.getBoundingClientRect().width))),
        untitled: cells.filter((cell) => cell.title !== cell.textContent.trim())
            .map((cell) => cell.textContent.trim()),
        beyond: Math.round(result.getBoundingClientRect().right - centre.right),
        seats: seats.filter((seat) => seat.out || seat.title !== seat.name).map((s) => s.name),
        broken: [...document.querySelectorAll('.centre .exchange bdi')]
            .filter((name) => name.getBoundingClientRect().height
                > 2 * parseFloat(getComputedStyle(name).fontSize))
            .map((name) => name.textContent),
    };
}"""


def test_long_names_keep_the_result_on_the_felt_compact(long_names, browser, live_server,
                                                        screenshots):
    """Ten long names, with spaces or without: the round's result on the felt keeps within
    its centre and the screen, a row a line (a name cut short with an ellipsis on a phone,
    rather than broken over three lines that made the felt taller than the screen), each
    name whole in its title, with room for some eight letters of it (the column of places
    is as wide as its numbers, its heading only read out); the seats' names too, and the
    taxes beside the result break no name in two."""
    for size in harness.SIZES:
        for code in ("en", "de"):
            context = harness.new_context(browser, size,
                                          extra_http_headers={"Accept-Language": code})
            page = context.new_page()
            harness.log_in(page, live_server.url, "long0")
            page.goto(f"{live_server.url}/t/{long_names}/")
            expect(page.locator(".centre .round-result td.name")).to_have_count(10)
            page.locator(".felt").screenshot(
                path=str(screenshots / f"felt-long-names-{size}-{code}.png"))
            shown = page.evaluate(NAMES_ON_THE_FELT)
            where = f"{size}, {code}: {shown}"
            assert not harness.wider_than_screen(page), where
            assert shown["beyond"] <= 1, where
            assert max(shown["rows"]) <= min(shown["rows"]) + 1, where
            assert shown["untitled"] == [], where
            assert shown["seats"] == [], where
            assert shown["broken"] == [], where
            # Some eight letters of a name at least: the places' heading takes no room.
            assert shown["room"] >= 64, where
            context.close()
