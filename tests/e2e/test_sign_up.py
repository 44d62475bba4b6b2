"""Signing up in a real browser, in English and Dutch, on a phone and a laptop: a taken
username is said next to its field, a taken address is not; the new player lands logged
in on the page that says the link is on its way, and can ask for it again. Screenshots
go to var/screenshots/."""

import pytest

from tests.e2e import harness
from tests.helpers import PASSWORD

pytestmark = pytest.mark.e2e

WORDS = {
    "en": {"sign_up": "Sign up", "taken": "A user with that username already exists.",
           "on_its_way": "A confirmation link is on its way to", "again": "Send the link again",
           "sent_again": "We are sending the link to", "continue": "Continue"},
    "nl": {"sign_up": "Registreren",
           "taken": "Er bestaat al een gebruiker met deze gebruikersnaam.",
           "on_its_way": "Er is een bevestigingslink onderweg naar",
           "again": "Stuur de link opnieuw", "sent_again": "We sturen de link opnieuw naar",
           "continue": "Verder"},
}


@pytest.mark.parametrize("language", WORDS)
@pytest.mark.parametrize("size", harness.SIZES)
def test_sign_up_and_the_link_on_its_way(browser, live_server, size, language, screenshots):
    words = WORDS[language]
    context = harness.new_context(browser, size, locale=language)
    page = context.new_page()
    # The refused form itself answers 400, which the browser notes in its console.
    problems = harness.collect_errors(page, ignore=lambda m: "status of 400" in m.text)

    def fill(username, email):
        page.locator("input[name=username]").fill(username)
        page.locator("input[name=email]").fill(email)
        page.locator("input[name=password1]").fill(PASSWORD)
        page.locator("input[name=password2]").fill(PASSWORD)
        page.get_by_role("button", name=words["sign_up"], exact=True).click()
        page.wait_for_load_state()

    page.goto(f"{live_server.url}/accounts/signup/?next=/")
    fill(f"taken{size}{language}", f"first-{size}-{language}@example.com")
    page.context.clear_cookies()
    page.goto(f"{live_server.url}/accounts/signup/")
    fill(f"taken{size}{language}", f"other-{size}-{language}@example.com")
    error = page.locator("#id_username_error")
    assert words["taken"] in error.inner_text()
    page.screenshot(path=str(screenshots / f"signup-taken-{size}-{language}.png"), full_page=True)
    assert harness.serious_violations(page) == []

    # The first account's address again, with a free username: the same page as any.
    fill(f"new{size}{language}", f"first-{size}-{language}@example.com")
    assert "/accounts/welcome/" in page.url
    assert words["on_its_way"] in page.content()
    page.screenshot(path=str(screenshots / f"signup-welcome-{size}-{language}.png"), full_page=True)
    assert harness.serious_violations(page) == []
    page.get_by_role("button", name=words["again"]).click()
    page.wait_for_load_state()
    assert words["sent_again"] in page.content()
    page.screenshot(path=str(screenshots / f"signup-sent-again-{size}-{language}.png"),
                    full_page=True)
    page.get_by_role("link", name=words["continue"]).click()
    page.wait_for_load_state()
    assert page.url.rstrip("/") == live_server.url
    assert problems == []
    context.close()
