"""The lines an update adds to an open page's log, in a real browser: each once, above
the others, never out of order: an answer overtaken by another (its lines already shown)
adds only what the list lacks, and one that would leave a gap, or belongs to another
round, adds nothing (the next poll brings what is missing)."""

import pytest
from playwright.sync_api import expect

from tests.e2e import harness
from tests.helpers import make_user, start_table

pytestmark = pytest.mark.e2e


@pytest.fixture
def table(live_server):
    tess = make_user("tess", display_name="Tess")
    return start_table(tess, bots=3, seed=20261122, name="Kitchen table",
                       options={"first_round_taxes": False}).pk


def _numbers(page) -> list[int]:
    return page.locator("#log-lines > li").evaluate_all(
        "lines => lines.map((line) => Number(line.dataset.line))")


def _added(page, lines: list[tuple[str, int]]) -> None:
    """An update's added lines (round, number), newest first, swapped in as htmx does."""
    items = "".join(f'<li data-round="{r}" data-line="{n}">line {r}.{n}</li>' for r, n in lines)
    page.evaluate("html => htmx.swap('#poller', html, {swapStyle: 'none'})",
                  f'<ol hx-swap-oob="afterbegin:#log-lines">{items}</ol>')


def test_added_lines_land_once_in_order(table, browser, live_server):
    context = harness.new_context(browser, "phone", locale="en-GB")
    page = context.new_page()
    problems = harness.collect_errors(page)
    harness.log_in(page, live_server.url, "tess")
    page.goto(f"{live_server.url}/t/{table}/")
    shown = _numbers(page)
    top = len(shown)
    assert shown == list(range(top, 0, -1)) and top
    round_number = page.locator("#log-lines").get_attribute("data-round")

    # Overtaken: its first line is already shown; only the next one is added.
    _added(page, [(round_number, top + 1), (round_number, top)])
    expect(page.locator("#log-lines > li")).to_have_count(top + 1)
    assert _numbers(page) == list(range(top + 1, 0, -1))
    assert page.locator("#log-lines > li").first.text_content() == f"line {round_number}.{top + 1}"

    # A gap, or another round's lines: nothing is added.
    _added(page, [(round_number, top + 3)])
    _added(page, [(str(int(round_number) + 1), top + 2)])
    assert _numbers(page) == list(range(top + 1, 0, -1))

    # The next one in turn is.
    _added(page, [(round_number, top + 3), (round_number, top + 2)])
    assert _numbers(page) == list(range(top + 3, 0, -1))
    assert problems == []
    context.close()
