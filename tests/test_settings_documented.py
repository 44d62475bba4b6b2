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
