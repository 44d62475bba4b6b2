"""What a tool that uses the site's models needs before it imports them."""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH_MARK = "bench"


def setup_django() -> None:
    """Django with the project's settings (DATABASE_URL and the rest from the environment,
    as for `manage.py`)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dalmuti_site.settings")
    import django
    from django.apps import apps

    if not apps.ready:  # already set up when a test imports the tool
        django.setup()


class NotABenchDatabase(SystemExit):
    """The configured database may hold real players: a tool that writes refuses it."""


def database_name(settings_dict: dict) -> str:
    """The name that says which database this is: PostgreSQL's database name, or the
    file name of a SQLite database."""
    name = str(settings_dict.get("NAME") or "")
    if settings_dict.get("ENGINE", "").endswith("sqlite3"):
        return Path(name).name
    return name


def require_bench_database(tool: str, settings_dict: dict) -> None:
    """Refuse to go on unless the database is one kept for benchmarks: its name (or its
    SQLite file's) contains "bench". A tool that creates players and tables, and deletes
    them by name afterwards, must never run where real players' data lives, whatever
    DATABASE_URL happens to be set in the shell."""
    name = database_name(settings_dict)
    if BENCH_MARK in name.lower():
        return
    raise NotABenchDatabase(
        f"{tool} creates users and tables and deletes them again, so it runs only on a "
        f"database of its own, whose name contains {BENCH_MARK!r}; the configured one is "
        f"{name or '(none)'!r}. For example:\n"
        f"  createdb dalmuti_bench\n"
        f"  DATABASE_URL=postgres://postgres@127.0.0.1:5432/dalmuti_bench "
        f"python -m {tool} ...\n"
        f"or, on SQLite: DATABASE_URL=sqlite:///var/bench.sqlite3 python -m {tool} ...\n"
        f"(it migrates that database itself)."
    )


def prepare_bench_database(tool: str) -> None:
    """Check the database is a bench one, then bring its tables up to date; with DEBUG=0,
    collect the static files too, as a deploy does (without their manifest every page
    fails)."""
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    require_bench_database(tool, connection.settings_dict)
    call_command("migrate", verbosity=0, interactive=False)
    call_command("createcachetable", verbosity=0)
    if not settings.DEBUG:
        call_command("collectstatic", verbosity=0, interactive=False)
