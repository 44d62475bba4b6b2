"""A site set up with Django's own `migrate` alone (not `make`) has everything its first
visitor needs: without Redis, the database cache's table too (the login limits live
there), so the first sign-up does not fail on a missing table."""

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_migrate_alone_makes_the_cache_table(tmp_path):
    env = {key: value for key, value in os.environ.items()
           if key not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL")}
    env["DALMUTI_VAR_DIR"] = str(tmp_path)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT,
                   env=env, check=True, timeout=300)
    databases = list(tmp_path.glob("*.sqlite3"))
    assert len(databases) == 1, databases
    with sqlite3.connect(databases[0]) as db:
        tables = {row[0] for row in db.execute("select name from sqlite_master")}
    assert "dalmuti_cache" in tables
