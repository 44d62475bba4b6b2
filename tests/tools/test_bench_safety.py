"""The tools that create players and tables, and delete them by name afterwards, refuse
any database that is not kept for benchmarks, before they touch it."""

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tools.project import NotABenchDatabase, require_bench_database

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("settings_dict", [
    {"ENGINE": "django.db.backends.postgresql", "NAME": "dalmuti"},
    {"ENGINE": "django.db.backends.postgresql", "NAME": "dalmuti_production"},
    {"ENGINE": "django.db.backends.sqlite3", "NAME": "/srv/dalmuti/var/dalmuti.sqlite3"},
    # A directory called "bench" does not make the file in it a bench database.
    {"ENGINE": "django.db.backends.sqlite3", "NAME": "/home/bench/dalmuti.sqlite3"},
    {"ENGINE": "django.db.backends.postgresql", "NAME": ""},
])
def test_a_database_not_named_for_benchmarks_is_refused(settings_dict):
    with pytest.raises(NotABenchDatabase, match="runs only on a database of its own"):
        require_bench_database("tools.bench_load", settings_dict)


@pytest.mark.parametrize("settings_dict", [
    {"ENGINE": "django.db.backends.postgresql", "NAME": "dalmuti_bench"},
    {"ENGINE": "django.db.backends.sqlite3", "NAME": "/tmp/var/bench.sqlite3"},
])
def test_a_bench_database_is_accepted(settings_dict):
    require_bench_database("tools.bench_load", settings_dict)


@pytest.mark.parametrize("tool", ["tools.bench_load", "tools.bench_table", "tools.soak_bots"])
def test_each_tool_that_writes_refuses_the_configured_database_before_touching_it(tool,
                                                                                   tmp_path):
    # A database with a player in it, as a site's would be, whose name says nothing of
    # benchmarks.
    database = tmp_path / "dalmuti.sqlite3"
    with sqlite3.connect(database) as db:
        db.execute("CREATE TABLE accounts_user (id integer, username text)")
        db.execute("INSERT INTO accounts_user VALUES (1, 'bench-load-0-0')")
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "DEBUG": "1"}
    done = subprocess.run([sys.executable, "-m", tool, "--help"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr  # the tool runs from the repository
    done = subprocess.run([sys.executable, "-m", tool], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "runs only on a database of its own" in done.stderr
    assert "'dalmuti.sqlite3'" in done.stderr
    with sqlite3.connect(database) as db:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master")]
        users = list(db.execute("SELECT username FROM accounts_user"))
    assert tables == ["accounts_user"], "the tool migrated a database it should have refused"
    assert users == [("bench-load-0-0",)]
