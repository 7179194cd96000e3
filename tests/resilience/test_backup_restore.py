"""Backups (docs/operating.md, "Backups"): the backup service's own script, scripts/backup, as compose runs it
(its environment from docker-compose.yml, with the local PostgreSQL in place of compose's `postgres` host), against a
database of the test's own holding a tournament played through the services.

- `scripts/backup once` writes one complete dump (custom format, named by its UTC time) and keeps the newest
  BACKUP_KEEP complete dumps: older ones are removed, a dump being written (its temporary name) and other files are
  not; a dump that fails leaves no file and removes nothing;
- the loop (compose's command) takes a dump at once and stops at SIGTERM without leaving a partial file;
- the health check passes with a fresh dump and fails without one;
- the newest dump restored with pg_restore into a fresh, empty database holds the same rows in every table as the live
  one, and `manage.py export_tournament` of the tournament from each gives the same file (but for its time and
  checksum). The test's databases are dropped at the end.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from psycopg import sql

from tests import production
from tests.resilience.cluster import bindir
from tests.resilience.room import room_start

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "backup"
URL = os.environ.get("DATABASE_URL", "")
BINARIES = bindir()
PATH = os.pathsep.join([*([str(BINARIES)] if BINARIES else []), os.environ.get("PATH", os.defpath)])  # the server's pg_dump first

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not URL.startswith(("postgres://", "postgresql://")), reason="needs DATABASE_URL of a PostgreSQL server"),
    pytest.mark.skipif(
        shutil.which("pg_dump", path=PATH) is None or shutil.which("pg_restore", path=PATH) is None,
        reason="no pg_dump and pg_restore on this machine",
    ),
]

# A tournament played a little through the services: eight players at one table, the draw, a payout plan, three out,
# the clock started. Its id is written to OUT.
PREPARE = (
    room_start("BK", "Backup")
    + """
for entry in entries[:3]:
    busts.bust_entry(entry, actor=floor)
clock.start_clock(t, actor=director)
Path(OUT).write_text(str(t.pk))
"""
)


def url_of(database: str) -> str:
    parts = urlsplit(URL)
    return urlunsplit(parts._replace(path=f"/{database}"))


def admin() -> psycopg.Connection:
    """A connection to the server's `postgres` database, for CREATE and DROP DATABASE."""
    return psycopg.connect(url_of("postgres"), autocommit=True)


@contextlib.contextmanager
def own_databases(*roles: str) -> Iterator[dict[str, str]]:
    """Empty databases of this test, named after the run's database, {role: name}; dropped at the end."""
    base = urlsplit(URL).path.lstrip("/") or "poker"
    tag = uuid.uuid4().hex[:8]
    names = {role: f"{base}_backup_{tag}_{role}"[:63] for role in roles}
    with admin() as connection:
        for name in names.values():
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield names
    finally:
        with admin() as connection:
            for name in names.values():
                connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def manage(*args: str, database: str, timeout: float = 300) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": url_of(database)}
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"manage.py {' '.join(args[:2])}:\n{done.stdout}\n{done.stderr}"
    return done


def backup_environment(database: str, folder: Path, keep: int) -> dict[str, str]:
    """The backup service's environment as compose gives it (its defaults), then this machine's server for compose's
    `postgres` host: the run's PostgreSQL, its user and password, the test's database, the test's folder."""
    service = production.compose()["services"]["backup"]
    env = {name: production.interpolate(str(value), production.SECRETS) for name, value in service["environment"].items()}
    assert set(env) >= {"PGHOST", "PGPORT", "PGUSER", "PGPASSWORD", "PGDATABASE", "BACKUP_DIR", "BACKUP_EVERY_MINUTES", "BACKUP_KEEP"}
    server = urlsplit(URL)
    env.update(
        {
            "PGHOST": server.hostname or "127.0.0.1",
            "PGPORT": str(server.port or 5432),
            "PGUSER": server.username or "postgres",
            "PGPASSWORD": server.password or "",
            "PGDATABASE": database,
            "BACKUP_DIR": str(folder),
            "BACKUP_KEEP": str(keep),
        }
    )
    return {**{k: v for k, v in os.environ.items() if not k.startswith("PG")}, **env, "PATH": PATH}


def run_backup(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(["sh", str(SCRIPT), *args], env=env, capture_output=True, text=True, timeout=120)


def dumps(folder: Path, database: str) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(f"{database}-") and p.name.endswith(".dump"))


def row_counts(database: str) -> dict[str, int]:
    with psycopg.connect(url_of(database)) as connection:
        tables = [row[0] for row in connection.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")]
        return {
            table: connection.execute(sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(table))).fetchone()[0] for table in tables
        }


def exported(tournament: str, database: str, path: Path) -> dict:
    manage("export_tournament", tournament, "-o", str(path), database=database)
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["exported_at"] and document["checksum"]
    return {k: v for k, v in document.items() if k not in ("exported_at", "checksum")}


def test_the_backup_script_dumps_prunes_and_its_dump_restores_into_a_fresh_database_as_the_live_one(tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir()
    with own_databases("live", "restored") as names:
        live, restored = names["live"], names["restored"]
        manage("migrate", "--noinput", database=live)
        out = tmp_path / "tournament-id"
        manage("shell", "-c", f"OUT = {str(out)!r}\n" + PREPARE, database=live)
        tournament = out.read_text()
        env = backup_environment(live, folder, keep=3)

        # Older complete dumps, a dump being written (its temporary name) and a file of someone else's.
        old = [f"{live}-2020010{day}T000000Z.dump" for day in range(1, 5)]
        for day, name in enumerate(old, 1):
            (folder / name).write_bytes(b"an old dump")
            stamp = time.mktime((2020, 1, day, 0, 0, 0, 0, 0, 0))
            os.utime(folder / name, (stamp, stamp))
        writing = folder / f".{live}-20991231T235959Z.dump.part"
        writing.write_bytes(b"half")
        (folder / "notes.txt").write_text("keep me")

        assert run_backup("check", env=env).returncode == 1  # the newest complete dump is years old

        done = run_backup("once", env=env)
        assert done.returncode == 0, done.stderr
        now = dumps(folder, live)
        assert len(now) == 3 and now[:2] == old[2:], now  # the two oldest removed: the newest 3 complete ones kept
        newest = now[-1]
        assert len(newest) == len(f"{live}-20260101T000000Z.dump") and newest[len(live) + 9] == "T" and newest.endswith("Z.dump")
        assert writing.exists() and (folder / "notes.txt").exists()  # never counted, never pruned
        assert f"wrote {newest}" in done.stdout and "removed" in done.stdout
        assert run_backup("check", env=env).returncode == 0

        # A dump that fails (no such database) writes nothing and removes nothing.
        before = sorted(p.name for p in folder.iterdir())
        failed = run_backup("once", env={**env, "PGDATABASE": f"{live}_missing"[:63]})
        assert failed.returncode == 1 and "failed" in failed.stderr
        assert sorted(p.name for p in folder.iterdir()) == before
        assert run_backup("once", env={**env, "BACKUP_KEEP": "0"}).returncode == 2  # refused settings: no dump
        assert sorted(p.name for p in folder.iterdir()) == before

        # The loop (compose's command): a dump at once, the pruning, and a prompt stop at SIGTERM with nothing partial.
        time.sleep(1.1)  # a new second: a new name
        loop = subprocess.Popen(
            ["sh", str(SCRIPT)], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
        )
        try:
            deadline = time.monotonic() + 60
            while len(set(dumps(folder, live)) - set(before)) < 1:
                assert loop.poll() is None, loop.stdout.read()
                assert time.monotonic() < deadline, "the loop wrote no dump"
                time.sleep(0.2)
            time.sleep(0.5)  # its pruning, then its sleep
            os.kill(loop.pid, signal.SIGTERM)
            assert loop.wait(timeout=10) == 0
        finally:
            if loop.poll() is None:
                os.killpg(loop.pid, signal.SIGKILL)
                loop.wait(timeout=5)
        log = loop.stdout.read()
        assert "every 5 min, keeping 3" in log and "stopped" in log, log
        now = dumps(folder, live)
        assert len(now) == 3 and now[0] == old[3] and now[1] == newest, now
        assert not writing.exists()  # the loop's start removes what a killed one left under a temporary name
        assert not [p for p in folder.iterdir() if p.name.endswith(".part")]

        # Restore the newest dump into a fresh, empty database: the same rows everywhere, the same tournament file.
        restore = subprocess.run(
            [shutil.which("pg_restore", path=PATH), "--no-owner", "--exit-on-error", "-d", url_of(restored), str(folder / now[-1])],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert restore.returncode == 0, restore.stderr
        counts = row_counts(live)
        assert counts["tournament_entry"] == 8 and counts["tournament_auditevent"] > 10
        assert row_counts(restored) == counts
        from_live = exported(tournament, live, tmp_path / "live.json")
        from_restored = exported(tournament, restored, tmp_path / "restored.json")
        assert from_live["tournament"]["entries"] == 8
        assert from_restored == from_live
