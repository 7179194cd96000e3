"""The web service as docker-compose.yml runs it, started in a subprocess for tests that need the real
thing: production settings (DEBUG=0, secrets set, compose's environment with its defaults), the compose
web command (migrations, then the server) on a free port of this machine.

What cannot be the same here is named: the database is a fresh SQLite file (compose's PostgreSQL host
does not exist here; the HTTP layer is what these tests are about), Redis is the test run's own REDIS_URL
or none, and the server listens on 127.0.0.1 and a free port instead of 0.0.0.0:8000. The file starts as
a copy of one this test process migrated before, when there is one (migrated_copy): the compose migrate
step then finds nothing to apply, instead of applying every migration again (some 4 s a server).
A test may name a database_url (a PostgreSQL database it made) and a redis_url instead: several servers
given the same ones share them, as web hosts behind one proxy do (tests/resilience/test_two_hosts.py).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import shlex
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import yaml

from tests.helpers import free_port

ROOT = Path(__file__).resolve().parents[1]
SECRETS = {
    "SECRET_KEY": "test-only-production-secret-key-0123456789abcdefghij",
    "ID_HASH_KEY": "test-only-production-id-hash-key",
    "POSTGRES_PASSWORD": "unused",
}


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def interpolate(value: str, env: dict[str, str]) -> str:
    """Compose's ${NAME}, ${NAME:-default} and ${NAME:?message}, from `env` (a .env file's values)."""

    def one(match: re.Match) -> str:
        name, op, rest = match.group(1), match.group(2), match.group(3)
        if env.get(name):
            return env[name]
        if op == ":?":
            raise KeyError(f"{name} must be set: {rest}")
        return rest or ""

    return re.sub(r"\$\{(\w+)(?:(:-|:\?)([^}]*))?\}", one, value)


def web_environment(dotenv: dict[str, str] | None = None) -> dict[str, str]:
    """The web service's environment as compose gives it, from a .env with the secrets (and `dotenv`)."""
    values = {**SECRETS, **(dotenv or {})}
    env = compose()["services"]["web"]["environment"]
    return {name: interpolate(str(value), values) for name, value in env.items()}


def web_commands() -> list[list[str]]:
    command = compose()["services"]["web"]["command"]
    words = command if isinstance(command, list) else shlex.split(command)
    if words[:2] == ["sh", "-c"]:
        return [shlex.split(part) for part in words[2].split("&&")]
    return [words]


def localise(words: list[str], port: int) -> list[str]:
    """A compose command for this machine: this virtualenv's python, the free port for 8000, loopback."""
    out = [sys.executable if word == "python" else word for word in words]
    out = [str(port) if word == "8000" else word.replace(":8000", f":{port}") for word in out]
    return ["127.0.0.1" if word == "0.0.0.0" else word for word in out]  # noqa: S104


def process_environment(
    web_env: dict[str, str], sqlite_path: Path, port: int, database_url: str = "", redis_url: str | None = None
) -> dict[str, str]:
    """The server's environment: `database_url` if given, else the SQLite file; `redis_url` if given
    ("" for none), else the test run's own REDIS_URL."""
    env = {key: value for key, value in os.environ.items() if key not in ("DEBUG", "DATABASE_URL", "REDIS_URL")}
    env.update(web_env)
    env.pop("DATABASE_URL")  # compose's PostgreSQL host is not here: the test's database, or a fresh SQLite file
    if database_url:
        env["DATABASE_URL"] = database_url
    else:
        env["SQLITE_PATH"] = str(sqlite_path)
    redis_url = os.environ.get("REDIS_URL", "") if redis_url is None else redis_url
    if redis_url:
        env["REDIS_URL"] = redis_url
    else:
        env.pop("REDIS_URL")
    env.update({"PORT": str(port), "HOST": "127.0.0.1", "WEB_CONCURRENCY": "1", "PYTHONUNBUFFERED": "1"})
    return env


_MIGRATED: list[Path] = []  # this test process's freshly migrated SQLite file, once there is one


def keep_migrated(database: Path) -> None:
    """Keep a copy of `database`, just migrated and nothing else, for migrated_copy (once a process)."""
    if _MIGRATED:
        return
    folder = tempfile.mkdtemp(prefix="migrated-")
    atexit.register(shutil.rmtree, folder, True)
    kept = Path(folder) / "db.sqlite3"
    with contextlib.closing(sqlite3.connect(database)) as source, contextlib.closing(sqlite3.connect(kept)) as copy:
        source.backup(copy)
    _MIGRATED.append(kept)


def migrated_copy(database: Path) -> bool:
    """Make `database` a copy of the migrated file kept by keep_migrated: the same tables and rows that
    `manage.py migrate` makes in a fresh file (migrations do not depend on the environment's other
    settings). False if this process has none yet."""
    if not _MIGRATED:
        return False
    with contextlib.closing(sqlite3.connect(_MIGRATED[0])) as source, contextlib.closing(sqlite3.connect(database)) as copy:
        source.backup(copy)
    return True


def run_step(step: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(step, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{shlex.join(step)}:\n{done.stdout}\n{done.stderr}"


@contextlib.contextmanager
def web_server(
    tmp_path: Path, dotenv: dict[str, str] | None = None, prepare: str = "", database_url: str = "", redis_url: str | None = None
) -> Iterator[tuple[int, dict]]:
    """Run the compose web command (each step before the server, then `prepare` as Python in
    `manage.py shell`, then the server) and yield (port, environment) once it accepts connections.
    `database_url`, `redis_url`: see process_environment (the SQLite file and the run's Redis by default)."""
    port = free_port()
    env = process_environment(web_environment(dotenv), tmp_path / "db.sqlite3", port, database_url, redis_url)
    *steps, server = web_commands()
    copied = bool(database_url) or migrated_copy(tmp_path / "db.sqlite3")
    for step in [localise(step, port) for step in steps]:
        run_step(step, env)
    if not copied:
        keep_migrated(tmp_path / "db.sqlite3")  # compose's steps done: the migrated file, before `prepare`
    if prepare:
        run_step([sys.executable, "manage.py", "shell", "-c", prepare], env)
    log = (tmp_path / "server.log").open("wb")
    process = subprocess.Popen(localise(server, port), cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, (tmp_path / "server.log").read_text()
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            assert time.monotonic() < deadline, "the server did not start:\n" + (tmp_path / "server.log").read_text()
            time.sleep(0.2)
        yield port, env
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)  # this server's own process group (its workers)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)
        log.close()


def service_command(name: str, folder: Path) -> list[str]:
    """Compose's command of a Celery service (`worker`, `beat`) for this machine: this virtualenv's Celery,
    and its files under /data/ (a volume there) in `folder`."""
    words = compose()["services"][name]["command"]
    words = words if isinstance(words, list) else shlex.split(words)
    nice = words[:3] if words[:2] == ["nice", "-n"] else []  # the worker's lower CPU priority, kept
    words = words[len(nice) :]
    assert words[0] == "celery", words
    rest = (str(folder / Path(word).name) if word.startswith("/data/") else word for word in words[1:])
    return [*nice, sys.executable, "-m", "celery", *rest]


def stop_group(process: subprocess.Popen) -> None:
    """SIGTERM to the process's own group (its children too), SIGKILL if it does not end in 15 s."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=5)


@contextlib.contextmanager
def compose_service(name: str, env: dict[str, str], folder: Path, ready: str) -> Iterator[Path]:
    """Run compose's Celery service `name` with the web server's environment `env` (the same database and
    Redis: web_server yields it) and yield its log file once the log holds `ready`."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.log"
    with path.open("wb") as log:
        process = subprocess.Popen(
            service_command(name, folder), cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            deadline = time.monotonic() + 90
            while ready not in path.read_text(errors="replace"):
                assert process.poll() is None, f"{name} ended:\n{path.read_text(errors='replace')[-3000:]}"
                assert time.monotonic() < deadline, f"{name} did not start:\n{path.read_text(errors='replace')[-3000:]}"
                time.sleep(0.2)
            yield path
        finally:
            stop_group(process)
