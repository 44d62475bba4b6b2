import pytest

from games import commands
from tests.e2e import harness
from tests.helpers import make_user, play_out, session_for, start_table

pytestmark = pytest.mark.e2e


@pytest.fixture
def looks(live_server):
    tess = make_user("tess", display_name="Tess")
    found = {}
    lobby = commands.create_table(tess, "Kitchen table", 6, {})
    commands.add_bot(lobby.pk, "expert")
    found["lobby"] = f"/t/{lobby.pk}/"
    found["welcome"] = "/accounts/welcome/"
    done = play_out(start_table(tess, bots=4, seed=3, name="Over", options={"rounds": 3}))
    found["replay"] = f"/history/{done.pk}/replay/?step=5&by=trick"
    found["over"] = f"/t/{done.pk}/"
    return found, session_for(tess)


@pytest.mark.parametrize("code", ["de", "fr"])
@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_look(looks, browser, live_server, screenshots, code, size):
    found, session = looks
    page = harness.signed_in_page(browser, live_server.url, session, size, [], "t",
                                  service_workers="block")
    page.context.add_cookies([{"name": "django_language", "value": code,
                               "url": live_server.url}])
    for name, url in found.items():
        page.goto(f"{live_server.url}{url}")
        if name == "over":
            page.locator("details.panel:has(.score-table) summary").first.click()
        page.screenshot(path=str(screenshots / f"tmp-{name}-{code}-{size}.png"), full_page=True)
