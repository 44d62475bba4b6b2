"""The admin's search-as-you-type lists (select2) keep a name for screen readers in every
state: built with the page, holding a value, empty in an inline's extra row, and added with
"Add another". select2 names its widget after the chosen value only, and
static/js/admin.js gives each the name of the field it stands for."""

import pytest

from leagues.models import League, Membership
from tests.helpers import PASSWORD, make_user

pytestmark = pytest.mark.e2e

UNNAMED = """() => [...document.querySelectorAll('.select2-selection[role=combobox]')]
    .filter((box) => !(box.getAttribute('aria-label') || '').trim()).length"""
COUNT = "() => document.querySelectorAll('.select2-selection[role=combobox]').length"


@pytest.fixture
def league(live_server, settings):
    """Made before the browser starts (its event loop forbids the database calls)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    make_user("root", is_staff=True, is_superuser=True)
    league = League.objects.create(name="Thursday club", slug="thursday")
    Membership.objects.create(league=league, user=make_user("ana"))
    return league


def test_every_search_list_has_a_name_however_it_came_to_be(league, browser, live_server):
    context = browser.new_context(viewport={"width": 1366, "height": 850})
    page = context.new_page()
    page.goto(f"{live_server.url}/admin/login/?next=/admin/")
    page.locator("#id_username").fill("root")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("input[type=submit]").click()
    # Whatever the page's images take to arrive: here they are held back, so the page's
    # load event has not come when the lists are looked at (on a busy machine a reader,
    # or a check, can come before it too).
    held = []
    page.route("**/*.svg", lambda route: held.append(route))
    page.goto(f"{live_server.url}/admin/leagues/league/{league.pk}/change/",
              wait_until="domcontentloaded")
    page.wait_for_function(f"({COUNT})() >= 2")  # the member's row and the empty extra one
    assert held and page.evaluate("document.readyState") != "complete"
    assert page.evaluate(UNNAMED) == 0
    for route in held:
        route.continue_()
    page.unroute("**/*.svg")
    page.wait_for_load_state("load")
    assert page.evaluate(UNNAMED) == 0
    before = page.evaluate(COUNT)
    page.locator("#memberships-group .add-row a").click()
    page.wait_for_function(f"({COUNT})() > {before}")
    assert page.evaluate(UNNAMED) == 0
    context.close()
