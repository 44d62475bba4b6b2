"""The admin is titled for the site, in the reader's language, and its index puts what an
organiser comes for (leagues and their seasons) first."""

from datetime import UTC, datetime

import pytest
import time_machine
from django.utils import translation

from tests.helpers import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(client):
    user = make_user("olga", is_staff=True, is_superuser=True)
    client.force_login(user)
    return user


@pytest.mark.parametrize("code", ["en", "nl", "de", "fr"])
def test_the_admin_is_titled_for_dalmuti_in_every_language(client, organiser, code):
    client.cookies["django_language"] = code
    response = client.get("/admin/")
    assert response.status_code == 200
    with translation.override(code):
        title = translation.gettext("Dalmuti administration")
    if code != "en":
        assert title != "Dalmuti administration"  # translated, not left in English
    html = response.content.decode()
    assert f"{title}</a></div>" in html or f">{title}</a>" in html
    assert f"| {title}</title>" in html
    assert "Django" not in html.split("<body", 1)[1].split("</header>", 1)[0]


def test_the_index_starts_with_leagues_and_seasons(client, organiser):
    response = client.get("/admin/")
    apps = response.context["app_list"]
    assert apps[0]["app_label"] == "leagues"
    assert [m["object_name"] for m in apps[0]["models"]][:2] == ["League", "Season"]
    assert apps[1]["app_label"] == "games"
    # Every app is still there, in some order.
    assert {"accounts", "players", "chat", "push"} <= {a["app_label"] for a in apps}


def test_every_column_and_field_the_admin_shows_has_a_label_to_translate():
    """In the organisers' German, French or Dutch admin, no column of a list or an inline
    (the seats of a table, its rounds) and no model's name is left in English: each is
    marked for translation in the model."""
    from django.contrib import admin
    from django.core.exceptions import FieldDoesNotExist
    from django.utils.functional import Promise

    unmarked = set()

    def check(model, names):
        for name in names:
            try:
                field = model._meta.get_field(name) if isinstance(name, str) else None
            except FieldDoesNotExist:
                continue
            if (field is not None and hasattr(field, "verbose_name")
                    and not isinstance(field.verbose_name, Promise)):
                unmarked.add(f"{model.__name__}.{name}")
        for option in ("verbose_name", "verbose_name_plural"):
            if not isinstance(model._meta.original_attrs.get(option), Promise):
                unmarked.add(f"{model.__name__} {option}")

    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label == "auth":
            continue  # Django's own, translated by Django
        names = [*model_admin.list_display, *(model_admin.fields or ()),
                 *model_admin.readonly_fields, *model_admin.list_filter]
        for _title, options in model_admin.fieldsets or ():
            names += list(options.get("fields", ()))
        check(model, names)
        for inline in model_admin.inlines:
            check(inline.model, [*(inline.fields or ()), *inline.readonly_fields])
    assert sorted(unmarked) == []


def test_the_game_log_tells_its_times_in_the_readers_zone_and_language(client, organiser):
    """The admin's game log dates each line as the rest of the page does: in the reader's
    time zone and date format, not the database's UTC."""
    from tests.helpers import start_table

    organiser.time_zone = "Asia/Tokyo"
    organiser.save()
    with time_machine.travel(datetime(2026, 3, 1, 22, 30, tzinfo=UTC), tick=False):
        game = start_table(organiser, bots=3, seed=5)
    client.cookies["django_language"] = "de"
    page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    log = page.split("<ol>", 1)[1].split("</ol>", 1)[0]
    assert "2. März 2026 um 07:30" in log
    assert "22:30" not in log and "2026-03-01" not in log
