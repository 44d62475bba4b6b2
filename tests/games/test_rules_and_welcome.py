"""The welcome page for visitors and the How to play page, in every language."""

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

OPTION_ANCHORS = [
    "option-rounds", "option-target-score", "option-no-points", "option-seating-ties",
    "option-reduced-deck", "option-first-round-taxes", "option-tribute-return",
    "option-great-revolution", "option-merchant-trade", "option-master-rule",
    "option-philanthropic", "option-turn-limit",
]

# A phrase of the rules page in each language, in the game's own words.
IN_ITS_LANGUAGE = {
    "en": ["How to play The Great Dalmuti", "trick", "Greater Peon", "Strategy tips"],
    "nl": ["Zo speel je De Grote Dalmuti", "slag", "Grote Dienaar", "Strategietips"],
    "de": ["So spielt man „Der Große Dalmuti“", "Stich", "Großer Diener", "Strategietipps"],
    "fr": ["Comment jouer au Grand Dalmuti", "pli", "Gros Bouffon", "Conseils de stratégie"],
}


def test_visitors_read_the_rules_and_every_option_has_an_anchor(client):
    response = client.get(reverse("rules"))
    assert response.status_code == 200
    content = response.content.decode()
    for anchor in OPTION_ANCHORS:
        assert f'id="{anchor}"' in content, anchor
    # Every rank is shown as a card, the Jester as the star.
    assert len(re.findall(r'class="card[^"]*rank-\d+"', content)) == 13
    names = content.replace("\u00ad", "")  # card names carry soft hyphens to break at
    assert "Earl Marshal" in names and "Jester" in names


@pytest.mark.parametrize("language", ["en", "nl", "de", "fr"])
def test_the_rules_page_speaks_each_language(client, language):
    response = client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE=language)
    content = response.content.decode()
    assert f'<html lang="{language}">' in content
    for phrase in IN_ITS_LANGUAGE[language]:
        assert phrase in content, (language, phrase)
    if language != "en":
        assert "Strategy tips" not in content
        assert "The Great Dalmuti leads the first trick" not in content


def test_the_header_links_to_the_rules_for_everybody(client, alice):
    assert f'href="{reverse("rules")}"' in client.get(reverse("login")).content.decode()
    client.force_login(alice)
    assert f'href="{reverse("rules")}"' in client.get("/").content.decode()


def test_visitors_get_a_welcome_with_sign_up_first(client):
    content = client.get("/").content.decode()
    main = content[content.index('<main id="main" tabindex="-1">'):]
    assert main.index(reverse("signup")) < main.index(reverse("login"))
    assert "Sign up and play" in main
    assert "img/table.svg" in main
    assert reverse("rules") in main


def test_the_language_menu_names_languages_as_the_profile_does(client):
    content = client.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert ">Français</option>" in content and ">français<" not in content
