"""The pages a form's answer draws, and the addresses that only take a form: what the
language menu returns to from them, what opening one without the form shows, and that a
page redrawn with a form's errors is the page as it was, with all it showed."""

import re

import pytest

from tests.helpers import play_out, start_table

pytestmark = pytest.mark.django_db

PROFILE = "/accounts/profile/"


def _menu_returns_to(page: str) -> str:
    """Where the language menu of a page leads back to."""
    menu = page.split('class="language-switch"', 1)[1].split("</form>", 1)[0]
    return re.search(r'name="next" value="([^"]*)"', menu)[1]


def test_a_page_drawn_for_a_form_returns_the_language_menu_to_the_page_of_the_form(
        client, alice):
    client.force_login(alice)
    refused = client.post("/accounts/profile/channel/", {"action": "save",
                                                         "url": "http://example.com/hook"},
                          HTTP_REFERER=f"http://testserver{PROFILE}")
    assert refused.status_code == 400
    assert _menu_returns_to(refused.content.decode()) == PROFILE
    # Sent from elsewhere, or saying nowhere: the home page, never the form's own address.
    for referer in ({"HTTP_REFERER": "https://elsewhere.example/"}, {}):
        refused = client.post("/accounts/profile/channel/",
                              {"action": "save", "url": "http://example.com/hook"}, **referer)
        assert _menu_returns_to(refused.content.decode()) == "/"
    # A page asked for as such returns to itself.
    assert _menu_returns_to(client.get(f"{PROFILE}?x=1").content.decode()) == f"{PROFILE}?x=1"


def test_the_profile_redrawn_with_a_channels_error_still_lists_the_people_played_with(
        client, alice, bob):
    play_out(start_table(alice, [bob], bots=2, options={"rounds": 1}))
    client.force_login(alice)
    listed = client.get(PROFILE).content.decode()
    assert "Bob" in listed.split('id="usual-group-heading"', 1)[1]
    refused = client.post("/accounts/profile/channel/",
                          {"action": "save", "url": "http://example.com/hook"})
    assert refused.status_code == 400
    page = refused.content.decode()
    assert "Bob" in page.split('id="usual-group-heading"', 1)[1]
    assert "Once you have played a game" not in page


def test_a_confirmation_link_asked_too_often_says_so_and_leads_back(
        client, make_user, settings, after_commit):
    settings.RESEND_CONFIRMATION_LIMIT = 1
    fred = make_user("fred", email_verified=False)
    client.force_login(fred)
    with after_commit():
        client.post("/accounts/resend-confirmation/", {"next": PROFILE})
    refused = client.post("/accounts/resend-confirmation/", {"next": PROFILE})
    assert refused.status_code == 429 and "Retry-After" in refused.headers
    page = refused.content.decode()
    assert "You asked for the link several times already" in page
    assert f'href="{PROFILE}"' in page.split("</header>", 1)[1]
    # Not the page of a new account, nor a button that would only be refused again.
    assert "Your account is ready" not in page
    assert "Send the link again" not in page


@pytest.mark.parametrize("language", ["en", "de"])
def test_an_address_that_takes_a_form_opened_as_a_page_says_what_it_is(
        client, alice, language):
    client.force_login(alice)
    alice.language = language
    alice.save()
    answer = client.get("/accounts/resend-confirmation/")
    assert answer.status_code == 405 and answer["Allow"] == "POST"
    page = answer.content.decode()
    assert 'class="site-header' in page and 'href="/"' in page
    words = {"en": "only takes a form", "de": "nimmt nur ein Formular"}[language]
    assert words in page
    assert _menu_returns_to(page) == "/accounts/resend-confirmation/"


def test_the_logout_address_opened_as_a_page_offers_to_log_out(client, alice):
    client.force_login(alice)
    page = client.get("/accounts/logout/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'action="/accounts/logout/"' in html.split("</header>", 1)[1]
    assert client.session.get("_auth_user_id") == str(alice.pk)  # nothing done yet
    client.post("/accounts/logout/")
    assert "_auth_user_id" not in client.session
