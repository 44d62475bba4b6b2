from django.conf import settings
from django.contrib.auth import get_user_model

COOKIE = settings.LANGUAGE_COOKIE_NAME


def test_every_page_has_the_switch_posting_to_it(client):
    html = client.get("/").content.decode()
    assert 'action="/accounts/language/"' in html


def test_it_sets_the_cookie_and_goes_back_to_next(client):
    response = client.post("/accounts/language/", {"language": "fr", "next": "/games/7/"})
    assert response.status_code == 302
    assert response.url == "/games/7/"
    assert response.cookies[COOKIE].value == "fr"


def test_the_next_page_speaks_that_language(client):
    client.post("/accounts/language/", {"language": "de", "next": "/"})
    response = client.get("/")
    assert response.headers["Content-Language"] == "de"
    assert '<html lang="de">' in response.content.decode()


def test_it_saves_the_language_on_the_profile_of_a_logged_in_user(client, alice):
    client.force_login(alice)
    client.post("/accounts/language/", {"language": "nl", "next": "/"})
    alice.refresh_from_db()
    assert alice.language == "nl"


def test_the_profile_language_wins_over_the_cookie(client, alice):
    alice.language = "de"
    alice.save()
    client.force_login(alice)
    client.cookies[COOKIE] = "fr"
    assert client.get("/").headers["Content-Language"] == "de"


def test_it_ignores_an_off_site_next(client):
    response = client.post(
        "/accounts/language/", {"language": "nl", "next": "https://evil.example.com/"}
    )
    assert response.url == "/"
    assert response.cookies[COOKIE].value == "nl"


def test_without_next_it_goes_back_to_the_referring_page(client):
    response = client.post(
        "/accounts/language/", {"language": "nl"}, HTTP_REFERER="http://testserver/games/7/"
    )
    assert response.url == "http://testserver/games/7/"


def test_it_refuses_an_unknown_language(client, alice):
    client.force_login(alice)
    response = client.post("/accounts/language/", {"language": "xx", "next": "/"})
    assert response.status_code == 400
    assert COOKIE not in response.cookies
    alice.refresh_from_db()
    assert alice.language == ""


def test_it_needs_a_post(client):
    assert client.get("/accounts/language/?language=nl").status_code == 405


def test_djangos_own_language_url_is_gone(client):
    assert client.post("/i18n/setlang/", {"language": "nl"}).status_code == 404


def test_a_language_chosen_before_signing_up_becomes_the_accounts(client):
    """Chosen in the menu, then an account made: its profile says that language, so
    saving the profile later keeps the site in it."""
    client.post("/accounts/language/", {"language": "fr", "next": "/"})
    client.post("/accounts/signup/", {"username": "lucie", "email": "lucie@example.com",
                                      "password1": "a-long-and-unusual-passphrase",
                                      "password2": "a-long-and-unusual-passphrase"})
    assert get_user_model().objects.get(username="lucie").language == "fr"


def test_without_a_choice_the_account_follows_the_browser(client):
    client.post("/accounts/signup/", {"username": "lucie", "email": "lucie@example.com",
                                      "password1": "a-long-and-unusual-passphrase",
                                      "password2": "a-long-and-unusual-passphrase"},
                HTTP_ACCEPT_LANGUAGE="de")
    assert get_user_model().objects.get(username="lucie").language == ""


def test_the_profile_shows_the_language_in_force_and_saving_it_keeps_it(client, alice):
    """An account that follows the browser, in a browser where the menu chose French
    before signing in: the profile shows French, not "follow my browser", and saving
    another field leaves the site in French."""
    client.cookies[COOKIE] = "fr"
    client.force_login(alice)
    page = client.get("/accounts/profile/").content.decode()
    field = page[page.index('id="id_language"'):]
    field = field[:field.index("</select>")]
    assert '<option value="fr" selected>' in field
    saved = client.post("/accounts/profile/", {
        "display_name": "Lucie", "email": "alice@example.com", "notify": "daily",
        "notify_by": "email", "language": "fr"})
    assert saved.cookies[COOKIE].value == "fr"
    assert client.get("/").headers["Content-Language"] == "fr"


def test_the_second_password_field_is_explained_in_good_german(client):
    page = client.get("/accounts/signup/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "noch einmal dasselbe Passwort" in page and "das selbe" not in page
