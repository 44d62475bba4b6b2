"""The admin's lists and forms read on a phone as at a desk, in every language: the
words in a list's cells break only between words (a list too wide for the screen scrolls
sideways in its box, its columns never squeezed to a letter or two), and a form's lists
of choices, however long their words, stay within the screen."""

import pytest

from games import commands
from leagues.models import League, LeagueGame, Membership
from tests.e2e import harness
from tests.helpers import PASSWORD, make_user

pytestmark = pytest.mark.e2e

# Each place a cell's text goes on to a new line other than after a space, a hyphen or a
# slash: the words broken in the middle.
BROKEN_WORDS = r"""(cells) => {
    const bad = [];
    for (const cell of document.querySelectorAll(cells)) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let text = walker.nextNode(); text; text = walker.nextNode()) {
            if (!text.parentElement.checkVisibility()) continue;
            const range = document.createRange();
            let top = null;
            for (let i = 0; i < text.length; i++) {
                range.setStart(text, i); range.setEnd(text, i + 1);
                const rects = [...range.getClientRects()].filter((r) => r.width);
                if (!rects.length) continue;
                const box = rects[rects.length - 1];
                if (top !== null && box.top > top + 2 && !' -/\u00a0'.includes(text.data[i - 1])) {
                    bad.push(text.data.trim() + ' @' + i);
                }
                top = box.top;
            }
        }
    }
    return bad;
}"""


# The lists of choices that reach past their form's box (cut off by it, or off the screen);
# not those in a table's rows, which scroll sideways in their box with the table.
OUT_OF_THE_FORM = """() => [...document.querySelectorAll('#content select')]
    .filter((list) => list.checkVisibility() && !list.closest('table'))
    .filter((list) => list.getBoundingClientRect().right
        > list.closest('fieldset, .module, form').getBoundingClientRect().right + 1)
    .map((list) => list.name)"""


@pytest.fixture
def organised(live_server, settings):
    """A league with members and tables (made before the browser starts: its event loop
    forbids the database calls)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    make_user("root", is_staff=True, is_superuser=True, language="de")
    league = League.objects.create(name="Donnerstagsrunde", slug="donnerstagsrunde-winter")
    for name in ("annemarie", "bartholomaeus", "constantijn"):
        member = make_user(name, display_name=name.title())
        Membership.objects.create(league=league, user=member)
        commands.create_table(member, f"Tisch von {name.title()}", 5, {"rounds": 3})
    # A table with bots beside its host, whose seats the table's page lists.
    league.tables = [commands.create_table(member, "Mit Bots", 5, {"rounds": 3})]
    LeagueGame.objects.create(game=league.tables[0], league=league)
    for _ in range(2):
        commands.add_bot(league.tables[0].pk, "basic")
    # And a member its host took off it, whom the table's page and a list name.
    taken_off = league.memberships.first().user
    commands.join(league.tables[0].pk, taken_off)
    commands.remove_seat(league.tables[0].pk, league.tables[0].seats.get(user=taken_off).pk)
    return league


def _signed_in_to_the_admin(browser, live_server, size):
    """A browser at `size` signed in to the admin as its superuser, through its form."""
    context = harness.new_context(browser, size, base_url=live_server.url)
    page = context.new_page()
    page.goto("/admin/login/?next=/admin/")
    page.locator("#id_username").fill("root")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("input[type=submit]").click()
    page.wait_for_url("**/admin/")
    return context, page


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_admin_lists_break_between_words_and_forms_stay_on_the_screen(
        organised, browser, live_server, size):
    context, page = _signed_in_to_the_admin(browser, live_server, size)
    for path in ("/admin/leagues/league/", "/admin/games/game/", "/admin/accounts/user/",
                 "/admin/games/removal/"):
        page.goto(path)
        assert page.locator("#result_list tbody tr").count() >= 1, path
        assert page.evaluate(BROKEN_WORDS, "#result_list td, #result_list th") == [], path
        if path == "/admin/games/game/" and size == "laptop":
            # Beside the side menu the tables' list is wider than its box: its headings
            # break between their words ("BEDENKZEIT / PRO ZUG") rather than widen it more.
            assert page.evaluate("""() => {
                const words = document.querySelector('th.column-turn_limit .text a').firstChild;
                const range = document.createRange();
                range.selectNodeContents(words);
                return range.getClientRects().length;
            }""") == 2
    # The tables inside a form (a table's seats, read only) alike.
    page.goto(f"/admin/games/game/{organised.tables[0].pk}/change/")
    assert page.locator(".inline-group td").count() >= 8
    assert page.locator("#removals-group td.field-user").count() == 1
    assert page.evaluate(BROKEN_WORDS, ".inline-group td, .inline-group th") == []
    # The heading of a stacked inline (the table's league) keeps the space after its colon:
    # on a phone the admin lays it out as a flexible box, which drops spaces between boxes.
    gap = page.evaluate("""() => {
        const [name, label] = document.querySelectorAll('.inline-related h3 > :is(b, span)');
        return label.getBoundingClientRect().left - name.getBoundingClientRect().right;
    }""")
    assert gap >= 2, gap
    # A value that is a list (the table's rules) starts where the others do.
    starts = page.evaluate("""() => [...document.querySelectorAll('.form-row .readonly')]
        .map((value) => Math.round((value.querySelector('li') || value)
                                   .getBoundingClientRect().left))""")
    assert len(starts) > 10 and len(set(starts)) == 1, starts
    page.goto(f"/admin/leagues/league/{organised.pk}/change/")
    assert not harness.wider_than_screen(page)
    # A box's label beside it on one line ("Verkleinertes Kartenspiel"), not squeezed into
    # the labels' column, wrapped with room to spare in its row.
    squeezed = page.evaluate("""() => [...document.querySelectorAll('.checkbox-row label')]
        .filter((label) => label.getBoundingClientRect().height
                           > 2 * parseFloat(getComputedStyle(label).fontSize)
                       && label.getBoundingClientRect().right
                           < label.closest('.form-row').getBoundingClientRect().right - 80)
        .map((label) => label.textContent)""")
    assert squeezed == [], squeezed
    assert page.evaluate(OUT_OF_THE_FORM) == []
    context.close()


# Where an action's page puts each field's control, the labels' right edge, the height of
# each choice of a list of boxes, and its two buttons' heights.
ACTION_FORM = """() => {
    const rows = [...document.querySelectorAll('#content form .form-row')];
    const control = (row) => row.querySelector('.flex-container > :is(input, select, div)');
    return {
        starts: rows.map((row) => Math.round(control(row).getBoundingClientRect().left)),
        labels: Math.max(...rows.map((row) =>
            row.querySelector('.flex-container > label').getBoundingClientRect().right)),
        choices: [...document.querySelectorAll('#id_players label')].map((choice) =>
            Math.round(choice.getBoundingClientRect().height)),
        buttons: [...document.querySelectorAll('.submit-row :is(input[type=submit], a)')]
            .map((button) => Math.round(button.getBoundingClientRect().height)),
    };
}"""


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_an_actions_page_lays_out_its_form_as_the_admins_own(organised, browser, live_server,
                                                             size):
    """Opening a table for a league: the fields in a column beside their labels on a
    laptop (under them on a phone), each player to invite on a line of their own, the
    "Cancel" as tall as the button beside it."""
    context, page = _signed_in_to_the_admin(browser, live_server, size)
    page.goto("/admin/leagues/league/")
    page.locator("input[name=_selected_action]").first.check()
    page.locator("select[name=action]").select_option("create_table")
    page.locator(".actions button[name=index]").click()
    page.wait_for_load_state("load")  # its stylesheets too
    form = page.evaluate(ACTION_FORM)
    assert len(form["starts"]) == 7 and len(set(form["starts"])) == 1, form
    if size == "laptop":
        assert form["starts"][0] >= form["labels"], form
    # One line each: a line of text, or beside it a box a fingertip's size on a phone.
    assert len(form["choices"]) == 3 and max(form["choices"]) < 40, form
    assert len(form["buttons"]) == 2 and abs(form["buttons"][0] - form["buttons"][1]) <= 1, form
    assert not harness.wider_than_screen(page)
    context.close()


# The width and height of every box and round button shown on the page.
BOXES = """() => [...document.querySelectorAll(
        '#content input:is([type=checkbox], [type=radio])')]
    .filter((box) => box.checkVisibility())
    .map((box) => [box.name, Math.round(box.getBoundingClientRect().width),
                   Math.round(box.getBoundingClientRect().height)])"""


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_boxes_are_a_fingertips_size_on_a_touch_screen(organised, browser, live_server, size):
    """A list's rows to act on, a form's options and its yes-or-no fields: the admin draws
    their boxes for a mouse (13 pixels), too small for a finger on a phone."""
    context, page = _signed_in_to_the_admin(browser, live_server, size)
    shown = []
    page.goto("/admin/leagues/league/")
    shown += page.evaluate(BOXES)
    page.goto(f"/admin/leagues/league/{organised.pk}/change/")
    shown += page.evaluate(BOXES)
    page.goto("/admin/leagues/league/")
    page.locator("input[name=_selected_action]").first.check()
    page.locator("select[name=action]").select_option("create_table")
    page.locator(".actions button[name=index]").click()
    page.wait_for_load_state("load")
    shown += page.evaluate(BOXES)
    names = {name for name, _width, _height in shown}
    assert {"_selected_action", "players", "active"} <= names, names
    if size == "phone":
        assert all(width >= 24 and height >= 24 for _name, width, height in shown), shown
    else:
        assert all(width < 20 for _name, width, _height in shown), shown
    assert not harness.wider_than_screen(page)
    context.close()
