from django.conf import settings

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
