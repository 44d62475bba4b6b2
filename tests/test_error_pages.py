"""The pages a player meets when something is wrong, as in production (DEBUG off): the
site's own pages in the reader's language, with the header and a way back; the 500 page
answers even when the database cannot be read (a database that cannot be reached at all
answers 503 "try again": tests/games/test_connections_heal.py)."""

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client, RequestFactory
from django.urls import get_resolver, path

from dalmuti_site import urls as site_urls


def _forbidden(request):
    raise PermissionDenied


def _broken(request):
    raise RuntimeError("a bug")


urlpatterns = [
    path("test-forbidden/", _forbidden),
    path("test-server-error/", _broken),
    *site_urls.urlpatterns,
]
# The site's own handlers, whatever they are.
for _name in ("handler403", "handler404", "handler500"):
    if hasattr(site_urls, _name):
        globals()[_name] = getattr(site_urls, _name)


@pytest.fixture
def production(settings):
    settings.DEBUG = False
    settings.ROOT_URLCONF = __name__


@pytest.fixture
def browser():
    return Client(raise_request_exception=False)


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "heading", "back"), [
    ("en", "Page not found", "Back to the home page"),
    ("fr", "Page introuvable", "Retour à l’accueil"),
    ("de", "Seite nicht gefunden", "Zurück zur Startseite"),
])
def test_not_found_is_a_page_of_the_site_in_the_browsers_language(
        production, browser, language, heading, back):
    response = browser.get("/t/999999/no-such-page/", HTTP_ACCEPT_LANGUAGE=language)
    html = response.content.decode()
    assert response.status_code == 404
    assert heading in html
    assert back in html
    assert 'class="site-header"' in html
    assert f'lang="{language}"' in html


@pytest.mark.django_db
def test_not_found_follows_the_players_own_language_and_offers_my_games(
        production, browser, alice):
    alice.language = "nl"
    alice.save(update_fields=["language"])
    browser.force_login(alice)
    response = browser.get("/nothing-here/", HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert response.status_code == 404
    assert "Pagina niet gevonden" in html
    assert "Terug naar Mijn spellen" in html
    assert alice.name in html  # the header, as on every page


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "heading"), [
    ("en", "Not open to you"), ("nl", "Niet voor jou"),
])
def test_forbidden_is_a_page_of_the_site(production, browser, language, heading):
    response = browser.get("/test-forbidden/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 403
    html = response.content.decode()
    assert heading in html
    assert 'class="site-header"' in html


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "heading"), [
    ("en", "Something went wrong on our side"), ("fr", "Un problème de notre côté"),
])
def test_a_server_error_answers_the_sites_page(production, browser, language, heading):
    response = browser.get("/test-server-error/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 500
    html = response.content.decode()
    assert heading in html
    assert 'class="site-header"' in html
    assert 'href="/"' in html


def test_the_500_page_needs_no_database(django_db_blocker):
    """With every database access refused, the site's 500 handler still draws its page,
    in the language the browser asked for."""
    request = RequestFactory().get("/", HTTP_ACCEPT_LANGUAGE="de")
    handler = get_resolver("dalmuti_site.urls").resolve_error_handler(500)
    with django_db_blocker.block():
        response = handler(request)
    assert response.status_code == 500
    assert "Ein Fehler auf unserer Seite" in response.content.decode()


@pytest.mark.django_db
def test_a_form_from_a_stale_page_says_so_in_the_readers_language(production):
    browser = Client(enforce_csrf_checks=True, raise_request_exception=False)
    response = browser.post("/accounts/login/", {"username": "x", "password": "y"},
                            HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 403
    html = response.content.decode()
    assert "Dit formulier is verlopen" in html
    assert 'class="site-header"' in html


@pytest.mark.django_db
def test_a_refusal_that_says_why_says_it_on_the_page(production, browser, alice, bob):
    from tests.helpers import start_table

    game = start_table(alice, [bob], bots=2)
    browser.force_login(alice)
    response = browser.get(f"/history/{game.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 403
    html = response.content.decode()
    assert "The record of a game opens once the game is over." in html
    assert 'class="site-header"' in html
    # The way on is the table itself, not only My games.
    assert f'<a class="button" href="/t/{game.pk}/">Back to the table</a>' in html
