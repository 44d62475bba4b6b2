"""Backups that restore, and upgrades that keep every record.

The restore drill: deploy/backup.sh dumps a database holding finished games and games in
play, deploy/restore.sh restores the dump into a new, empty database, and there every
game rebuilds from its record to the stored state and the ratings rebuild to the stored
ones. The upgrade: a database with games, taken back to the previous migration of every
app and migrated forward again, keeps every record and every game still rebuilds."""

import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import Action, Game
from games.read.replay import rebuild_state
from tests.helpers import act_as, legal, make_user, play_out, start_table, waiting_humans

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]
PROJECT_APPS = ("accounts", "games", "leagues", "chat", "push", "players")

CHECK_GAMES = """
import django
django.setup()
from games.models import Game
from games.read.replay import rebuild_state
games = list(Game.objects.all())
wrong = [g.pk for g in games if g.state and rebuild_state(g).to_json() != g.state]
print(len(games), "games", "wrong:", wrong)
raise SystemExit(1 if wrong or not games else 0)
"""


@pytest.fixture
def games(eager_tasks):
    """A finished game (ratings moved) and one in play, a few moves in."""
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    finished = [play_out(start_table(alice, [bob], bots=2, options={"rounds": 1}, seed=11))]
    playing = start_table(carol, [alice], bots=2, seed=13)
    for _ in range(3):
        humans = waiting_humans(playing)
        if humans:
            act_as(playing, humans[0], legal(playing, humans[0])[0])
    playing.refresh_from_db()
    assert all(g.status == Game.Status.FINISHED for g in finished)
    assert playing.status == Game.Status.PLAYING
    return [*finished, playing]


def url_for(name: str) -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT'] or 5432}/{name}"


def admin_sql(statement: str) -> None:
    with psycopg.connect(url_for("postgres"), autocommit=True) as admin:
        admin.execute(statement)


@pytest.fixture
def empty_database():
    name = f"dalmuti_restore_{secrets.token_hex(4)}"
    admin_sql(f'CREATE DATABASE "{name}"')
    yield name
    admin_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def run(command: list[str], **env) -> str:
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "DB_POOL": "0", **env})
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_a_backup_restores_into_a_new_database_where_every_game_rebuilds(
        games, empty_database, tmp_path):
    backups = tmp_path / "backups"
    backups.mkdir()
    old = backups / "dalmuti-20200101T031500Z.dump"
    old.write_bytes(b"an old dump")
    month_ago = time.time() - 30 * 24 * 3600
    os.utime(old, (month_ago, month_ago))

    dump = Path(run([str(ROOT / "deploy" / "backup.sh")], DATABASE_URL=url_for(
        connection.settings_dict["NAME"]), BACKUP_DIR=str(backups),
        BACKUP_KEEP_DAYS="14").strip())
    assert dump.parent == backups and dump.stat().st_size > 0
    assert not old.exists(), "a dump older than BACKUP_KEEP_DAYS was kept"
    assert not list(backups.glob("*.partial"))

    restored = url_for(empty_database)
    run([str(ROOT / "deploy" / "restore.sh"), str(dump)], DATABASE_URL=restored)
    manage = [sys.executable, "manage.py"]
    run(manage + ["migrate", "--check"], DATABASE_URL=restored)
    out = run([sys.executable, "-c", CHECK_GAMES], DATABASE_URL=restored,
              DJANGO_SETTINGS_MODULE="dalmuti_site.settings")
    assert out.startswith(f"{len(games)} games wrong: []"), out
    run(manage + ["rebuild_ratings", "--check"], DATABASE_URL=restored)
    run(manage + ["createcachetable"], DATABASE_URL=restored)
    doctor = subprocess.run(manage + ["doctor"], cwd=ROOT, capture_output=True, text=True,
                            timeout=120, env={**os.environ, "DATABASE_URL": restored})
    assert "[ok] Database: Reachable (postgresql), every migration applied." in doctor.stdout


def test_restoring_into_a_database_that_is_not_empty_changes_nothing(games, tmp_path):
    """restore.sh is all or nothing: over an existing database it fails, in one
    transaction, and leaves the data as it was."""
    dump = run([str(ROOT / "deploy" / "backup.sh")],
               DATABASE_URL=url_for(connection.settings_dict["NAME"]),
               BACKUP_DIR=str(tmp_path)).strip()
    before = Action.objects.count()
    done = subprocess.run([str(ROOT / "deploy" / "restore.sh"), dump], cwd=ROOT,
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ,
                               "DATABASE_URL": url_for(connection.settings_dict["NAME"])})
    assert done.returncode != 0
    assert Action.objects.count() == before


def previous_state(executor) -> list[tuple[str, str]]:
    """Each project app's migration before its newest (apps with one migration stay)."""
    graph = executor.loader.graph
    targets = []
    for app, name in graph.leaf_nodes():
        if app not in PROJECT_APPS:
            continue
        parents = [p for p in graph.node_map[(app, name)].parents if p.key[0] == app]
        if parents:
            targets.append(parents[0].key)
    return targets


def test_migrating_from_the_previous_state_keeps_every_record(games):
    records = {g.pk: list(g.actions.order_by("seq").values_list("seq", "payload"))
               for g in games}
    executor = MigrationExecutor(connection)
    targets = previous_state(executor)
    assert {app for app, _name in targets} >= {"games", "accounts", "leagues"}
    executor.migrate(targets)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert not MigrationExecutor(connection).migration_plan(
        MigrationExecutor(connection).loader.graph.leaf_nodes())

    for game in Game.objects.filter(pk__in=records):
        assert list(game.actions.order_by("seq").values_list("seq", "payload")) == \
            records[game.pk]
        assert rebuild_state(game).to_json() == game.state
    call_command("rebuild_ratings", "--check")
