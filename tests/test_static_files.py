"""Static files in production: hashed names (a change gets a new name), so that WhiteNoise
may tell browsers to keep them for good; the service worker keeps its stable URL; and the
pages that hold no secret may stay in the browser's back/forward cache, while those that
show a hand or a private line are never stored."""

import os
import subprocess
import sys

import pytest
from django.core.management import call_command
from django.templatetags.static import static
from django.test import RequestFactory, override_settings

from tests.helpers import make_user, play_out, start_table

MANIFEST = "dalmuti_site.staticfiles.KeptManifestStaticFilesStorage"


def test_production_settings_choose_the_manifest_storage(settings):
    env = {**os.environ, "DEBUG": "0", "SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "example.com"}
    out = subprocess.run(
        [sys.executable, "-c", "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE',"
         " 'dalmuti_site.settings'); django.setup(); from django.conf import settings;"
         " print(settings.STORAGES['staticfiles']['BACKEND'])"],
        env=env, cwd=settings.BASE_DIR, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == MANIFEST


@pytest.fixture
def collected(tmp_path, settings):
    with override_settings(STATIC_ROOT=tmp_path, STORAGES={
            **settings.STORAGES, "staticfiles": {"BACKEND": MANIFEST}}):
        call_command("collectstatic", interactive=False, verbosity=0)
        yield tmp_path


def test_pages_name_hashed_files_that_whitenoise_keeps_for_good(collected, client):
    from whitenoise.middleware import WhiteNoiseMiddleware

    url = static("css/dalmuti.css")
    assert url.startswith("/static/css/dalmuti.") and url != "/static/css/dalmuti.css"
    served = WhiteNoiseMiddleware(lambda request: None)(RequestFactory().get(url))
    assert served.status_code == 200
    assert "immutable" in served["Cache-Control"]
    assert "max-age=315360000" in served["Cache-Control"]
    # The page names the hashed file (and the icon the tab shows on your turn).
    page = client.get("/rules/").content.decode()
    assert f'href="{url}"' in page
    assert f'data-turn-icon="{static("favicon-turn.svg")}"' in page
    # The service worker stays at the site's root, fresh on every check.
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and "no-cache" in worker["Cache-Control"]
    # A push sets the installed app's badge from the count it carries.
    assert "setAppBadge(count)" in b"".join(worker.streaming_content if worker.streaming
                                           else [worker.content]).decode()
    assert client.get("/favicon.ico")["Location"] == static("favicon.svg")


def test_a_files_url_is_looked_up_once_per_process(collected, monkeypatch):
    from whitenoise.storage import CompressedManifestStaticFilesStorage as Storage

    from dalmuti_site.staticfiles import KeptManifestStaticFilesStorage

    hashed = Storage().url("css/dalmuti.css")
    storage = KeptManifestStaticFilesStorage()
    looked_up = []
    stored_name = Storage.stored_name
    monkeypatch.setattr(Storage, "stored_name",
                        lambda self, name: looked_up.append(name) or stored_name(self, name))
    assert storage.url("css/dalmuti.css") == hashed != "/static/css/dalmuti.css"
    assert storage.url("css/dalmuti.css") == hashed
    assert looked_up == ["css/dalmuti.css"]
    # A name the manifest lacks is refused at every page that asks, never kept.
    for _ in range(2):
        with pytest.raises(ValueError):
            storage.url("css/no-such-file.css")
    # collectstatic's own question is answered afresh.
    assert storage.url("css/dalmuti.css", force=True) == hashed
    assert looked_up == ["css/dalmuti.css", "css/no-such-file.css", "css/no-such-file.css",
                         "css/dalmuti.css"]


@pytest.mark.django_db
def test_only_pages_with_a_secret_refuse_the_back_forward_cache(client, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    tess, bram = make_user("tess"), make_user("bram")
    finished = play_out(start_table(tess, [bram], bots=2, seed=5))
    playing = start_table(tess, [bram], bots=2, seed=6)
    client.force_login(tess)

    def stored(url):
        response = client.get(url)
        assert response.status_code == 200, url
        return "no-store" in response.get("Cache-Control", "")

    # A hand, a private line of the log, the account's own details.
    for url in (f"/t/{playing.pk}/", f"/history/{finished.pk}/",
                f"/history/{finished.pk}/replay/"):
        assert stored(url), url
    for url in ("/", "/rules/", "/history/", "/players/", "/players/tess/", "/leagues/"):
        assert not stored(url), url
