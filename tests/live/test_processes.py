"""Live pushes cross worker processes: a screen connected to one server process hears a change made
through another. Two real server processes (`python -m config.serve`, as production runs it) share
the test database and Redis; without REDIS_URL (the embedded defaults run one process) there is
nothing to prove and the test is skipped. The server processes are started for the module, as many as
a test asks for, and the next test uses them again: they keep nothing of their own between tests, only
the test database's rows, which each test makes itself (a start is about 2 s)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import connection

from tests.helpers import free_port
from tournament.services import registration

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "two-processes-2026"

pytestmark = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="pushes cross processes through Redis only")


def database_url() -> str:
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return ""  # the server processes fall back to... nothing: the file must be named
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def start(port: int) -> subprocess.Popen:
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": settings.SECRET_KEY + "-x" * 20,
        "ID_HASH_KEY": "two-processes-id-key",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "BEHIND_TLS_PROXY": "0",
        "LOG_LEVEL": "WARNING",
        "CLOCK_TICKER_IN_PROCESS": "0",
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "WEB_CONCURRENCY": "1",
    }
    url = database_url()
    if url:
        env["DATABASE_URL"] = url
    else:
        env["SQLITE_PATH"] = connection.settings_dict["NAME"]
    return subprocess.Popen([sys.executable, "-m", "config.serve"], cwd=ROOT, env=env, start_new_session=True)


def wait_until_up(port: int, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert server.poll() is None, "the server process stopped"
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/robots.txt", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError("the server did not start")


class Servers:
    """Server processes on ports of their own, started when a test first needs that many."""

    def __init__(self) -> None:
        self.ports: list[int] = []
        self.processes: list[subprocess.Popen] = []

    def take(self, count: int) -> list[int]:
        started = []
        while len(self.ports) < count:
            port = free_port()
            self.ports.append(port)
            self.processes.append(start(port))
            started.append((port, self.processes[-1]))
        for port, process in started:
            wait_until_up(port, process)
        return self.ports[:count]

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            process.wait(15)


@pytest.fixture(scope="module")
def servers(django_db_setup):
    """The module's server processes, on the test database (django_db_setup: its name is known)."""
    pool = Servers()
    try:
        yield pool
    finally:
        pool.stop()


def post(url: str, body: dict, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=30) as r:
        return json.loads(r.read())


@pytest.mark.django_db(transaction=True)
def test_a_screen_on_one_process_hears_a_change_made_through_another(director, tournament, servers):
    import websockets

    director.password = PBKDF2PasswordHasher().encode(PASSWORD, "twoprocesses")  # the servers' own hasher
    director.save(update_fields=["password"])
    link = registration.create_display_token(tournament, actor=director, label="Lobby TV").token
    ports = servers.take(2)
    one, other = (f"http://127.0.0.1:{port}" for port in ports)
    token = post(f"{other}/api/auth/token/", {"username": director.username, "password": PASSWORD})["token"]

    async def scenario() -> dict:
        async with websockets.connect(f"ws://127.0.0.1:{ports[0]}/ws/display/{link}/", origin=one) as lobby:
            snapshot = json.loads(await asyncio.wait_for(lobby.recv(), 10))
            assert snapshot["kind"] == "snapshot"
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(None, lambda: post(f"{other}/api/tournaments/{tournament.pk}/displays/", {"label": "Bar TV"}, token))
            while True:
                message = json.loads(await asyncio.wait_for(lobby.recv(), 10))
                if message.get("kind") == "event":
                    return {"snapshot": snapshot, "event": message}

    seen = asyncio.run(scenario())
    assert seen["event"]["type"] == "display.created"
    assert seen["event"]["seq"] > seen["snapshot"]["seq"]


@pytest.mark.django_db(transaction=True)
def test_a_role_taken_away_in_one_process_closes_the_socket_another_holds(floor, tournament, cashier, player, servers):
    """The floor's socket is held by a server process; its Floor role is taken away here (another process,
    as an admin page on another worker would): the socket is closed (4003) within a second, through Redis,
    and the next event with names never reaches it."""
    import websockets
    from django.contrib.auth.models import Group
    from django.test import Client, override_settings

    from tests.helpers import id_doc

    key = settings.SECRET_KEY + "-x" * 20  # the servers' key (start): the session is signed as they read it
    with override_settings(SECRET_KEY=key):
        client = Client()
        client.force_login(floor)
        cookie = client.cookies["sessionid"].value
    [port] = servers.take(1)

    async def scenario() -> tuple[int, float, list]:
        async with websockets.connect(
            f"ws://127.0.0.1:{port}/ws/t/{tournament.pk}/floor/",
            origin=f"http://127.0.0.1:{port}",
            additional_headers={"Cookie": f"sessionid={cookie}"},
        ) as ws:
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["kind"] == "snapshot"
            loop = asyncio.get_running_loop()
            began = time.monotonic()
            await loop.run_in_executor(None, lambda: floor.groups.remove(Group.objects.get(name="Floor")))
            await loop.run_in_executor(
                None, lambda: registration.register_entry(tournament, actor=cashier, player=player, document=id_doc())
            )
            after = []
            try:
                while True:
                    after.append(json.loads(await asyncio.wait_for(ws.recv(), 5)))
            except websockets.ConnectionClosed as closed:
                return closed.rcvd.code, time.monotonic() - began, after

    code, seconds, after = asyncio.run(scenario())
    assert code == 4003 and seconds < 1.5, (code, seconds)
    assert not any(m.get("event", {}).get("type") == "entry.registered" for m in after), after
