"""Kill the server process mid-level (SIGKILL: no shutdown code runs) and start a new one: the
clock is where the time since the start puts it, no time lost and no level skipped, and the
restarted process's embedded ticker (LifespanTicker: no REDIS_URL) announces the next level
change, including one that fell due while no server was running.

Runs real `uvicorn` processes on a file SQLite database of their own, whatever database the test
run itself uses."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests import production
from tests.conftest import PASSWORD
from tests.helpers import free_port

BASE_DIR = Path(__file__).resolve().parents[2]
SETUP = """
from tests.conftest import BASIC_SPEC, make_user, tournament_data
from tournament.services import setup
director = make_user("dir", "Director")
template = setup.save_structure_template(BASIC_SPEC, actor=director)
print("TOURNAMENT", setup.create_tournament(tournament_data(), actor=director, template=template).pk)
"""


class Server:
    def __init__(self, env: dict, log: Path) -> None:
        self.env, self.log = env, log
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self.token = ""

    def start(self) -> None:
        self.port = free_port()
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "uvicorn",
                    "config.asgi:application",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                    "--lifespan",
                    "on",
                    "--log-level",
                    "warning",
                ],
                cwd=BASE_DIR,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, f"the server died: {self.log.read_text()[-3000:]}"
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise AssertionError(f"the server did not start: {self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL, to the whole process group: nothing gets to save or clean up."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait(timeout=10)

    def call(self, method: str, path: str, body: dict | None = None) -> dict:
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}",
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json", **({"Authorization": f"Token {self.token}"} if self.token else {})},
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as exc:
            raise AssertionError(f"{method} {path}: {exc.code} {exc.read()[:500]!r}") from None


def events(server: Server, tid: int, after: int) -> list[dict]:
    return server.call("GET", f"/api/tournaments/{tid}/events/?after={after}")["events"]


def wait_for_event(server: Server, tid: int, after: int, type_: str, timeout: float) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [e for e in events(server, tid, after) if e["type"] == type_]
        if found:
            return found[0]
        time.sleep(0.1)
    raise AssertionError(f"no {type_} event within {timeout} s: {events(server, tid, after)} {server.log.read_text()[-3000:]}")


@pytest.fixture
def server_env(tmp_path) -> dict:
    """The environment of the embedded default: a SQLite file, no Redis, so the web process ticks."""
    database = tmp_path / "restart.sqlite3"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CLOCK_TICKER_IN_PROCESS")}
    env.update(DEBUG="1", SQLITE_PATH=str(database), DJANGO_SETTINGS_MODULE="config.settings", PYTHONUNBUFFERED="1")
    # A fresh file, migrated: a copy of one this test process migrated before, if any (tests/production.py).
    for args in ([] if production.migrated_copy(database) else [["migrate", "--noinput"]]) + [["shell", "-c", SETUP]]:
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-3000:]
        if args[0] == "migrate":
            production.keep_migrated(database)
    env["TOURNAMENT_ID"] = done.stdout.split("TOURNAMENT")[-1].split()[0]
    return env


def test_a_killed_and_restarted_server_loses_no_time_and_skips_no_level(server_env, tmp_path):
    tid = int(server_env["TOURNAMENT_ID"])
    clock_url = f"/api/tournaments/{tid}/clock/"
    server = Server(server_env, tmp_path / "server.log")
    try:
        server.start()
        server.token = server.call("POST", "/api/auth/token/", {"username": "dir", "password": PASSWORD})["token"]
        started = server.call("POST", clock_url, {"action": "start"})
        assert started["status"] == "running" and started["current"]["index"] == 0
        origin = started["anchor"]["started_at"]  # level 1 began here (server time)
        middle = server.call("POST", clock_url, {"action": "adjust", "seconds": -600})  # the middle of level 1
        assert middle["current"]["index"] == 0 and 598 < middle["current"]["remaining"] <= 600
        server.kill()
        time.sleep(max(0.0, origin + 3.2 - time.time()))  # down until 3 s of level 1 are gone (a start adds more)

        server.start()
        after = server.call("GET", clock_url)
        assert (after["status"], after["version"]) == ("running", middle["version"])
        assert after["current"]["index"] == 0
        # 1,200 s of level 1, 600 s removed, and the time since the start: no more, no less
        assert after["current"]["remaining"] == pytest.approx(600 - (after["server_time"] - origin), abs=1e-3)
        assert after["current"]["remaining"] == pytest.approx(600 - (time.time() - origin), abs=2.0)  # a round trip
        assert 570 < after["current"]["remaining"] < 597  # really three seconds and more went by

        # The restarted process's own ticker announces the level change ~2 s from now.
        last = server.call("GET", f"/api/tournaments/{tid}/events/")["last_seq"]
        left = after["current"]["remaining"] - (time.time() - after["server_time"])
        ending = server.call("POST", clock_url, {"action": "adjust", "seconds": -(int(left) - 2)})
        ends_at = ending["current"]["ends_at"]
        assert 1.9 < ends_at - ending["server_time"] < 3.1  # at the server, when it answered
        event = wait_for_event(server, tid, last, "clock.level_started", timeout=10)
        assert (event["payload"]["index"], event["payload"]["level"], event["actor"]) == (1, 2, "clock")
        assert event["payload"]["at"] == pytest.approx(ends_at, abs=1e-3)
        assert 0 <= event["payload"]["late_by"] < 3  # the ticker's second, and a busy machine's slack
        now = server.call("GET", clock_url)
        assert now["current"]["index"] == 1
        assert now["current"]["remaining"] == pytest.approx(1200 - (now["server_time"] - ends_at), abs=1e-3)

        # Level 2 ends while no server runs: the next process announces it once, late, and the
        # break is where the time puts it.
        last = server.call("GET", f"/api/tournaments/{tid}/events/")["last_seq"]
        left = now["current"]["remaining"] - (time.time() - now["server_time"])
        ending = server.call("POST", clock_url, {"action": "adjust", "seconds": -(int(left) - 1)})
        ends_at = ending["current"]["ends_at"]
        server.kill()
        time.sleep(max(0.0, ends_at - time.time()) + 1)
        server.start()
        event = wait_for_event(server, tid, last, "clock.break_started", timeout=10)
        assert (event["payload"]["index"], event["payload"]["at"]) == (2, pytest.approx(ends_at, abs=1e-3))
        assert event["payload"]["late_by"] >= 1
        time.sleep(1.2)  # another tick or so: still announced once
        found = [e["type"] for e in events(server, tid, last)]
        assert found.count("clock.break_started") == 1 and "clock.level_started" not in found
        breaking = server.call("GET", clock_url)
        assert breaking["current"]["index"] == 2
        assert breaking["current"]["remaining"] == pytest.approx(600 - (breaking["server_time"] - ends_at), abs=1e-3)
    finally:
        server.kill()
