"""The admin's pages as the site serves them: its own copy of Django's forms.css without the
@import, style attributes let through on the admin's pages only, and every field of the
league's tables of forms named for screen readers."""

import re
from pathlib import Path

import django.contrib.admin
from django.conf import settings

from tests.helpers import make_user
from tests.leagues.helpers import make_league

DJANGO_FORMS_CSS = Path(django.contrib.admin.__file__).parent / "static/admin/css/forms.css"
OUR_FORMS_CSS = Path(settings.BASE_DIR) / "static/admin/css/forms.css"


def test_the_copy_of_formscss_is_djangos_without_the_import():
    django_lines = DJANGO_FORMS_CSS.read_text().splitlines()
    assert django_lines[0] == "@import url('widgets.css');"
    ours = OUR_FORMS_CSS.read_text()
    copy = ours.split("*/\n", 1)[1]
    assert "@import" not in copy
    assert copy.splitlines() == django_lines[1:]


def _policy(response) -> dict[str, str]:
    return {part.split()[0]: part.strip() for part in
            response["Content-Security-Policy"].split(";") if part.strip()}


def test_only_the_admin_lets_style_attributes_through(client, db):
    make_user("olga", is_staff=True, is_superuser=True)
    client.login(username="olga", password="correct-horse-battery")
    admin = _policy(client.get("/admin/leagues/league/"))
    site = _policy(client.get("/rules/"))
    assert admin["style-src-attr"] == "style-src-attr 'unsafe-inline'"
    assert admin["style-src"] == site["style-src"] == "style-src 'self'"
    assert admin["script-src"] == "script-src 'self'"
    assert "style-src-attr" not in site


def test_the_leagues_tables_of_forms_name_every_field(client, db):
    olga = make_user("olga", is_staff=True, is_superuser=True)
    league = make_league(name="Friday Club", slug="friday", members=[olga])
    client.force_login(olga)
    page = client.get(f"/admin/leagues/league/{league.pk}/change/").content.decode()
    for name in ("memberships-0-joined", "memberships-0-DELETE", "memberships-0-user",
                 "seasons-0-turn_limit", "seasons-0-start"):
        tag = re.search(rf'<(input|select)[^>]*name="{name}"[^>]*>', page)[0]
        assert re.search(r'aria-label="[^"]+"', tag), tag
