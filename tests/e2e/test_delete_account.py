"""A player deletes their account from a phone or a desk, in their language: from the
profile to the page that says what becomes of each of their tables, a wrong password
answered in place, then the way out, signed out, with the site saying it is done; their
friend's table page then names a former player."""

import json
from pathlib import Path

import pytest

from games import commands
from tests.e2e import harness
from tests.helpers import PASSWORD, make_user, start_table

pytestmark = pytest.mark.e2e


@pytest.fixture
def player(live_server, settings, request):
    """Made before the browser starts (its event loop forbids the database calls)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    language = request.param
    leaving = make_user("annemarie", display_name="Annemarie", language=language)
    friend = make_user("bartholomaeus", display_name="Bartholomäus", language=language)
    game = start_table(friend, others=[leaving], bots=2, name="Donnerstagsrunde")
    commands.create_table(leaving, "Annemaries Tisch", 5, {"rounds": 2})
    return language, game


WORDS = {
    "de": {"link": "Dein Konto löschen", "button": "Mein Konto löschen", "label": "Dein Passwort",
           "wrong": "Das ist nicht dein Passwort.", "done": "Dein Konto ist gelöscht.",
           "former": "Ehemaliger Spieler", "data": "lade zuerst deine Daten herunter"},
    "fr": {"link": "Supprimer votre compte", "button": "Supprimer mon compte",
           "label": "Votre mot de passe",
           "wrong": "Ce n’est pas votre mot de passe.", "done": "Votre compte est supprimé.",
           "former": "Ancien joueur", "data": "téléchargez d’abord vos données"},
}


@pytest.mark.parametrize(("player", "size"), [("de", "phone"), ("fr", "laptop")],
                         indirect=["player"])
def test_a_player_deletes_their_account(player, browser, live_server, size, screenshots):
    language, game = player
    words = WORDS[language]
    problems: list[str] = []
    context = harness.new_context(browser, size, base_url=live_server.url)
    page = context.new_page()
    harness.collect_errors(page, problems, label=size,
                           ignore=lambda msg: msg.text.startswith("Failed to load resource"))
    harness.log_in(page, live_server.url, "annemarie")

    page.goto("/accounts/profile/")
    page.screenshot(path=str(screenshots / f"profile-links-{language}-{size}.png"),
                    full_page=True)
    page.get_by_role("link", name=words["link"]).click()
    page.wait_for_url("**/accounts/delete/")
    assert page.get_by_role("link", name="Donnerstagsrunde").is_visible()
    assert page.get_by_role("link", name="Annemaries Tisch").is_visible()
    assert not harness.wider_than_screen(page)
    violations = harness.serious_violations(page)
    assert violations == [], harness.describe(violations)
    page.screenshot(path=str(screenshots / f"delete-account-{language}-{size}.png"),
                    full_page=True)

    # Their data first, as the page offers: a file, and the page stays where it was.
    with page.expect_download() as download:
        page.get_by_role("link", name=words["data"]).click()
    assert download.value.suggested_filename.startswith("dalmuti-annemarie-")
    kept = json.loads(Path(download.value.path()).read_text())
    assert {g["name"] for g in kept["games"]} == {"Donnerstagsrunde", "Annemaries Tisch"}
    assert page.url.endswith("/accounts/delete/")

    page.get_by_label(words["label"]).fill("not-my-password")
    page.get_by_role("button", name=words["button"]).click()
    assert page.get_by_text(words["wrong"]).is_visible()
    page.screenshot(path=str(screenshots / f"delete-account-refused-{language}-{size}.png"),
                    full_page=True)

    page.get_by_label(words["label"]).fill(PASSWORD)
    page.get_by_role("button", name=words["button"]).click()
    page.wait_for_url(f"{live_server.url}/")
    assert page.get_by_text(words["done"]).is_visible()
    page.screenshot(path=str(screenshots / f"delete-account-done-{language}-{size}.png"))
    page.goto("/accounts/profile/")
    assert "/accounts/login/" in page.url  # signed out
    context.close()

    friend = harness.new_context(browser, size, base_url=live_server.url)
    page = friend.new_page()
    harness.log_in(page, live_server.url, "bartholomaeus")
    page.goto(game.get_absolute_url())
    assert page.get_by_text(words["former"]).first.is_visible()
    assert page.get_by_text("Annemarie", exact=True).count() == 0
    page.screenshot(path=str(screenshots / f"delete-account-friend-{language}-{size}.png"),
                    full_page=True)
    friend.close()
    assert problems == []
