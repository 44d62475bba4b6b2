"""The time zone and the absence in a real browser: the sign-up page takes the zone the
browser reports, the profile shows it with the time there, and being away (and coming
back) is set there. Screenshots at phone and laptop sizes go to var/screenshots/."""

import re
import zoneinfo
from datetime import datetime, timedelta

import pytest
from django.utils import translation
from django.utils.formats import date_format
from playwright.sync_api import expect

from tests.e2e import harness
from tests.helpers import PASSWORD, make_user, session_for

pytestmark = pytest.mark.e2e

ZONE = "Asia/Tokyo"


@pytest.mark.parametrize("size", harness.SIZES)
def test_the_browsers_zone_at_sign_up_then_away_and_back_in_the_profile(
    browser, live_server, size, screenshots,
):
    context = harness.new_context(browser, size, timezone_id=ZONE)
    page = context.new_page()
    problems = harness.collect_errors(page)

    page.goto(f"{live_server.url}/accounts/signup/")
    assert page.locator("input[name=time_zone]").input_value() == ZONE
    page.locator("input[name=username]").fill(f"kenji{size}")
    page.locator("input[name=email]").fill(f"kenji-{size}@example.com")
    page.locator("input[name=password1]").fill(PASSWORD)
    page.locator("input[name=password2]").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_load_state()

    page.goto(f"{live_server.url}/accounts/profile/")
    zone = page.get_by_label("Time zone")
    assert zone.input_value() == ZONE
    now_there = datetime.now(zoneinfo.ZoneInfo(ZONE))
    assert "(there it is now" in page.content() and " JST)" in page.content()

    # Away until the day after tomorrow there; the picker allows no more than 14 days.
    last_day = (now_there + timedelta(days=2)).date()
    away = page.get_by_label("Away until")
    assert away.get_attribute("max") == (now_there.date() + timedelta(days=13)).isoformat()
    away.fill(last_day.isoformat())
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_load_state()
    notice = page.locator(".away-notice")
    assert notice.is_visible()
    with translation.override("en"):
        shown = date_format(last_day, "DATE_FORMAT")
    assert f"until the end of {shown}:" in notice.inner_text()
    page.screenshot(path=str(screenshots / f"profile-zone-away-{size}.png"), full_page=True)
    serious = harness.serious_violations(page)
    assert serious == [], "; ".join(v["id"] for v in serious)

    page.get_by_role("button", name="I'm back: start my clocks").click()
    page.wait_for_load_state()
    assert page.get_by_text("Welcome back: your clocks run again.").is_visible()
    assert page.locator(".away-notice").count() == 0
    assert page.get_by_label("Away until").input_value() == ""
    assert problems == []
    context.close()



@pytest.fixture
def nadia(live_server):
    return make_user("nadia", display_name="Nadia")


def test_a_name_typed_but_not_saved_is_not_lost_to_another_sections_button(
        nadia, browser, live_server):
    context = harness.new_context(browser, "phone")
    page = context.new_page()
    harness.log_in(page, live_server.url, "nadia")
    page.goto(f"{live_server.url}/accounts/profile/")
    page.get_by_label("Display name").fill("Nadia K.")
    # Another section's button: the browser asks before the typed name is lost.
    with page.expect_event("dialog") as asked:
        page.locator("form[action$='standing-orders/'] button[type=submit]").click(
            no_wait_after=True)
    assert asked.value.type == "beforeunload"
    asked.value.dismiss()  # stay on the page
    expect(page.get_by_label("Display name")).to_have_value("Nadia K.")
    # Saved with its own button, nothing is asked.
    page.on("dialog", lambda dialog: pytest.fail(f"asked again: {dialog.type}"))
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_text("Your profile has been saved.")).to_be_visible()
    context.close()


@pytest.fixture
def no_zone_chosen(live_server):
    """Players who have chosen no time zone (the site's is theirs), one for each of the
    site's languages."""
    return {language: session_for(make_user(f"ravi{language}", language=language))
            for language in ("en", "nl", "de", "fr")}


# Kolkata and Brussels as each language names them.
KOLKATA = {"en": "Kolkata", "nl": "Calcutta", "de": "Kalkutta", "fr": "Calcutta"}
BRUSSELS = {"en": "Brussels", "nl": "Brussel", "de": "Brüssel", "fr": "Bruxelles"}


@pytest.mark.parametrize("size", harness.SIZES)
@pytest.mark.parametrize("language", ["en", "nl", "de", "fr"])
def test_the_zones_by_region_and_the_devices_zone_one_tap_away(
        no_zone_chosen, browser, live_server, language, size, screenshots):
    problems = []
    # In Kolkata Chromium says "Asia/Calcutta", the zone's old name.
    page = harness.signed_in_page(browser, live_server.url, no_zone_chosen[language], size,
                                  problems, size, timezone_id="Asia/Kolkata")
    page.goto(f"{live_server.url}/accounts/profile/")
    zone = page.locator("select[name=time_zone]")
    expect(zone).to_have_value("")
    suggestion = page.locator("button.device-zone")
    # Named as the page's language names it, as the list does.
    expect(suggestion).to_contain_text(f"{KOLKATA[language]}\u00a0(UTC+5:30)")
    assert harness.wider_than_screen(page) == 0
    serious = harness.serious_violations(page)
    assert serious == [], "; ".join(v["id"] for v in serious)
    zone.scroll_into_view_if_needed()
    field = page.locator(".field:has(select[name=time_zone])")
    field.screenshot(path=str(screenshots / f"profile-zone-suggested-{language}-{size}.png"))

    # The list as it opens (a select shown as a list box: a browser's own drop-down is
    # drawn outside the page, where no screenshot reaches).
    # Its top first (the site's zone, then UTC), then around Brussels.
    zone.evaluate("(s) => { s.size = 14; s.scrollTop = 0; }")
    zone.screenshot(path=str(screenshots / f"profile-zone-list-top-{language}-{size}.png"))
    zone.evaluate("(s) => { s.value = 'Europe/Brussels'; }")
    expect(zone.locator("option:checked")).to_have_text(re.compile(
        rf"^{BRUSSELS[language]} \(UTC\+[12]\)$"))
    zone.evaluate("(s) => { s.selectedOptions[0].scrollIntoView({block: 'center'}); }")
    zone.screenshot(path=str(screenshots / f"profile-zone-list-{language}-{size}.png"))
    zone.evaluate("(s) => { s.size = 0; s.value = ''; }")

    suggestion.click()
    expect(zone).to_have_value("Asia/Kolkata")
    expect(suggestion).to_have_count(0)
    expect(zone).to_be_focused()
    page.locator("form:has(select[name=time_zone]) > button[type=submit]").click()
    page.wait_for_load_state()
    expect(page.locator("select[name=time_zone]")).to_have_value("Asia/Kolkata")
    expect(page.locator("button.device-zone")).to_have_count(0)
    assert problems == []
    page.context.close()


def test_no_suggestion_where_the_device_is_in_the_sites_zone(no_zone_chosen, browser,
                                                             live_server):
    problems = []
    page = harness.signed_in_page(browser, live_server.url, no_zone_chosen["en"], "phone",
                                  problems, "phone", timezone_id="Europe/Amsterdam")
    page.goto(f"{live_server.url}/accounts/profile/")
    expect(page.locator("select[name=time_zone]")).to_have_value("")
    expect(page.locator(".account-form")).to_contain_text("Away until")  # the page is drawn
    assert page.locator("button.device-zone").count() == 0
    assert problems == []
    page.context.close()
