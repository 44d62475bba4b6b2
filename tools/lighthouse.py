"""Lighthouse (mobile settings, Debian's Chromium) on three pages of the production-like
server: the welcome page, a game page in play and a player page, signed in where the page
needs it. Prints each page's scores and fails below the thresholds:

    python -m tools.lighthouse            # the reports also go to var/lighthouse/*.json

Needs `npm ci` (the pinned `lighthouse` and `puppeteer-core` in package.json) and Chromium
(CHROME_PATH, else /usr/bin/chromium; --headless=new --no-sandbox --disable-gpu), driven by
tools/lighthouse.mjs, which puts the session cookie in the browser's cookie jar. The pages
are made in a database of their own (`<DB>_lighthouse`, made afresh and dropped after),
served by gunicorn with uvicorn workers, DEBUG=0, the hashed static files collected first,
without the HTTPS redirect.
"""

import argparse
import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIGHTHOUSE = ROOT / "node_modules" / "lighthouse"
REPORTS = ROOT / "var" / "lighthouse"
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
THRESHOLDS = {"performance": 0.9, "accessibility": 0.98, "best-practices": 0.96}


def _pages() -> list[tuple[str, str, str | None]]:
    """(name, path, username to sign in as): a player with a game in play and one over."""
    from django.test import override_settings

    from tests.helpers import make_user, play_out, start_table

    tess, bram = make_user("tess"), make_user("bram")
    # Played out in an instant: the bots that are Dalmutis do not hold their choice after
    # each deal as they do in a game played in time.
    with override_settings(REVOLUTION_WINDOW_SECONDS=0):
        play_out(start_table(tess, [bram], bots=2, seed=21, name="Sunday table"))
    playing = start_table(tess, [bram], bots=2, seed=22, name="Friday night")
    return [("welcome", "/", None),
            ("game in play", f"/t/{playing.pk}/", "tess"),
            ("player", "/players/tess/", "tess")]


def _session_cookie(username: str) -> tuple[str, str]:
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    name = settings.SESSION_COOKIE_NAME
    return name, client.cookies[name].value


def audit(url: str, cookie: tuple[str, str] | None, report: Path) -> dict[str, float]:
    """One Lighthouse run (mobile, the default), signed in with `cookie` (name, value)
    where given: the category scores, 0 to 1."""
    command = ["node", str(ROOT / "tools" / "lighthouse.mjs"), url, str(report), *(cookie or ())]
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
    subprocess.run(command, env=env, check=True, timeout=180, cwd=ROOT)
    result = json.loads(report.read_text())
    return {name: result["categories"][name]["score"] for name in CATEGORIES}


def _failures(scores: dict[str, float]) -> list[str]:
    return [f"{name} {scores[name]} < {least}" for name, least in THRESHOLDS.items()
            if scores[name] is None or scores[name] < least]


def _percent(score: float | None) -> str:
    return "-" if score is None else str(round(score * 100))


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args(argv)
    if not LIGHTHOUSE.exists():
        print("Lighthouse is not installed: run `npm ci` in the repository first.")
        return 2
    # One secret for this process (which signs the session) and the server (which reads it).
    os.environ["SECRET_KEY"] = os.environ.get("SECRET_KEY") or secrets.token_urlsafe(40)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dalmuti_site.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    from tools.server import environment, serve

    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("sqlite3"):
        database["TEST"]["NAME"] = str(ROOT / "var" / "lighthouse.sqlite3")
    else:
        database["TEST"]["NAME"] = f"{database['NAME']}_lighthouse"
    REPORTS.mkdir(parents=True, exist_ok=True)
    original = connection.creation.create_test_db(verbosity=0, autoclobber=True,
                                                  serialize=False)
    failed = []
    try:
        call_command("createcachetable", verbosity=0)
        pages = [(name, path, username and _session_cookie(username))
                 for name, path, username in _pages()]
        env = environment(DEBUG="0", SECURE_SSL_REDIRECT="0", SECURE_HSTS_SECONDS="0")
        with serve(env, workers=2) as server:
            print(f"{'page':<14}" + "".join(f"{name:>16}" for name in CATEGORIES))
            for name, path, cookie in pages:
                report = REPORTS / f"{name.replace(' ', '-')}.json"
                url = f"http://127.0.0.1:{server.port}{path}"
                scores = audit(url, cookie, report)
                if None in scores.values():
                    # A run on a busy machine sometimes ends without a score (Lighthouse's
                    # runtimeError: the page did not paint in its time): measure once more,
                    # and fail only if that run has no score either.
                    error = json.loads(report.read_text()).get("runtimeError", {})
                    print(f"{name}: no score ({error.get('code', 'unknown')}), once more",
                          flush=True)
                    scores = audit(url, cookie, report)
                print(f"{name:<14}" + "".join(f"{_percent(scores[c]):>16}"
                                              for c in CATEGORIES), flush=True)
                failed += [f"{name}: {problem}" for problem in _failures(scores)]
    finally:
        connection.creation.destroy_test_db(original, verbosity=0)
    for problem in failed:
        print(f"Below the threshold: {problem}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
