"""Every setting read from the environment is documented in the README, and the settings
refuse a value that cannot hold."""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
READ = re.compile(r'(?:env(?:int|bool|float|list)|os\.getenv)\(\s*"([A-Z_]+)"')


def test_every_environment_variable_the_settings_read_is_in_the_readme():
    settings = (ROOT / "dalmuti_site" / "settings.py").read_text()
    readme = (ROOT / "README.md").read_text()
    names = set(READ.findall(settings))
    assert "SECURE_SSL_REDIRECT" in names
    missing = sorted(n for n in names if f"`{n}`" not in readme)
    assert missing == []


def _start_with(**env) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "dalmuti_site.settings", **env},
    )


def test_a_watching_window_shorter_than_last_seen_is_refused_at_start():
    """Last seen is written once a minute: a window below that cannot hold."""
    refused = _start_with(NOTIFY_WATCHING_SECONDS="30")
    assert refused.returncode != 0
    assert "NOTIFY_WATCHING_SECONDS must be at least 60" in refused.stderr
    assert _start_with(NOTIFY_WATCHING_SECONDS="60").returncode == 0


def _logged(level: str | None) -> str:
    """What the site writes to the console when Django logs a refused request (a warning,
    as for every 4xx answer) and a failed one (an error), at `level` (unset: the default)."""
    env = {"DEBUG": "0", "SECRET_KEY": "x", "LOG_LEVEL": level} if level else {
        "DEBUG": "0", "SECRET_KEY": "x"}
    code = ("import django, logging; django.setup()\n"
            "logging.getLogger('django.request').warning('Gone: /t/1/')\n"
            "logging.getLogger('django.request').error('Internal Server Error: /t/2/')\n")
    environment = {k: v for k, v in os.environ.items() if k != "LOG_LEVEL"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**environment, "DJANGO_SETTINGS_MODULE": "dalmuti_site.settings", **env},
    )
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_log_level_governs_what_the_console_shows_of_django_s_own_log_too():
    """Django's request log has its own level (INFO): LOG_LEVEL must hold for it as well."""
    quiet = _logged("ERROR")
    assert "Gone: /t/1/" not in quiet
    assert "Internal Server Error: /t/2/" in quiet
    default = _logged(None)
    assert "Gone: /t/1/" in default
    assert "Internal Server Error: /t/2/" in default


def test_the_embedded_database_outwaits_a_bot_thinking_over_its_move():
    """With SQLite a transaction holds the whole database: a bot decides its move inside
    one, for up to BOT_DECISION_SECONDS, and a review judges a decision inside one. Any
    other write (a move, an organiser's form in the admin) must wait that out rather than
    fail with "database is locked" at SQLite's usual five seconds."""
    code = ("import django; django.setup()\n"
            "from django.conf import settings\n"
            "print(settings.DATABASES['default']['ENGINE'],"
            " settings.DATABASES['default'].get('OPTIONS', {}).get('timeout', 5),"
            " settings.BOT_DECISION_SECONDS)\n")
    environment = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**environment, "DJANGO_SETTINGS_MODULE": "dalmuti_site.settings"},
    )
    assert done.returncode == 0, done.stderr
    engine, waits, thinks = done.stdout.split()
    assert engine == "django.db.backends.sqlite3"
    assert float(waits) >= 4 * float(thinks)
