"""A PostgreSQL cluster of a test's own: initdb into a fresh temporary folder, a free port on loopback,
stopped and started at the test's word (`pg_ctl stop -m immediate` is a crash: no backend gets to finish
its transaction). Never the machine's shared cluster: its own folder, port and socket directory.

PostgreSQL refuses to run as root: as root, every command runs as the `postgres` system user, in a folder
that user owns. The binaries are found by `pg_config --bindir`, or in /usr/lib/postgresql/<version>/bin.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from tests.helpers import free_port


def bindir() -> Path | None:
    """The folder of initdb and pg_ctl, or None when this machine has no PostgreSQL server binaries (or, run
    as root, no `postgres` user to run them as)."""
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return None
    found = []
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, timeout=10).stdout.strip()
        found.append(Path(out))
    versions = [p for p in Path("/usr/lib/postgresql").glob("*/bin") if p.parent.name.isdigit()]
    found += sorted(versions, key=lambda p: int(p.parent.name), reverse=True)
    return next((folder for folder in found if (folder / "initdb").exists() and (folder / "pg_ctl").exists()), None)


class Cluster:
    """One cluster: `init()`, `start()`, `stop()` (immediate by default), `url` for a database made by
    `create_database`, `remove()` at the end."""

    def __init__(self, binaries: Path) -> None:
        self.bin = binaries
        self.folder = Path(tempfile.mkdtemp(prefix="pg-own-cluster-"))
        self.as_postgres = os.geteuid() == 0
        if self.as_postgres:
            user = pwd.getpwnam("postgres")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
        self.data, self.log = self.folder / "data", self.folder / "postgres.log"
        self.port = free_port()

    def run(self, program: str, *args: str, timeout: float = 180) -> subprocess.CompletedProcess:
        words = [str(self.bin / program), *args]
        if self.as_postgres:
            words = ["runuser", "-u", "postgres", "--", *words]
        done = subprocess.run(
            words,
            cwd=self.folder,
            capture_output=True,
            text=True,
            timeout=timeout,
            env={**os.environ, "LC_ALL": "C.UTF-8", "PGPORT": str(self.port)},
        )
        assert done.returncode == 0, f"{' '.join(words)}:\n{done.stdout}\n{done.stderr}\n{self.tail()}"
        return done

    def tail(self, chars: int = 3000) -> str:
        with contextlib.suppress(OSError):
            return self.log.read_text(errors="replace")[-chars:]
        return ""

    def init(self) -> None:
        # fsync off: the cluster lives for one test, and an immediate stop is a crash of PostgreSQL, not of the
        # machine (what was written is in the operating system's cache and survives it).
        self.run(
            "initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"
        )

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.folder} -c fsync=off -c max_connections=60"
        self.run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "-t", "120", "start")

    def stop(self, mode: str = "immediate") -> None:
        self.run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "120", "stop")

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def create_database(self, name: str) -> str:
        self.run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)
        return self.url(name)

    def url(self, name: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def remove(self) -> None:
        if self.running():
            with contextlib.suppress(AssertionError, subprocess.SubprocessError):
                self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


@contextlib.contextmanager
def own_cluster(binaries: Path) -> Iterator[Cluster]:
    """A fresh cluster, started; stopped and removed afterwards, whatever happened."""
    cluster = Cluster(binaries)
    try:
        cluster.init()
        cluster.start()
        yield cluster
    finally:
        cluster.remove()


def wait_until(condition, timeout: float, what: str, every: float = 0.1):
    """Poll `condition` until it returns something true (returned), or fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        assert time.monotonic() < deadline, f"not within {timeout} s: {what}"
        time.sleep(every)
