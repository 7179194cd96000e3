"""No usable secret in a log line or at rest. The production server (compose's web command and
environment, the access log on as a room may turn it on) runs the demo; every kind of secret is made
through the API (an API token, a lobby screen link, a dealer link, a table's shuffler token), each with an
Idempotency-Key as the screens send it, and each is used (pages, sockets, a press). Then the server's log
and a dump of the database are read: none of the secrets is in either. Before, uvicorn logged each socket's
path with its secret, and the idempotency store kept the shuffler token."""

from __future__ import annotations

import asyncio
import http.client
import json
import sqlite3

import websockets

from tests import production

PASSWORD = "no-secret-in-logs-2026"


class Room:
    def __init__(self, port: int) -> None:
        self.port = port
        self.token = ""

    def call(self, method: str, path: str, body: dict | None = None, headers: dict | None = None) -> tuple[int, dict]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        sent = {"Host": "localhost", "X-Forwarded-Proto": "https", "Content-Type": "application/json", **(headers or {})}
        if self.token and "Authorization" not in sent:
            sent["Authorization"] = f"Token {self.token}"
        connection.request(method, path, json.dumps(body) if body is not None else None, headers=sent)
        answer = connection.getresponse()
        raw = answer.read()
        connection.close()
        return answer.status, (json.loads(raw) if raw and answer.getheader("Content-Type", "").startswith("application/json") else {})

    async def socket(self, path: str) -> str:
        async with websockets.connect(
            f"ws://localhost:{self.port}{path}",
            origin=f"https://localhost:{self.port}",
            additional_headers={"X-Forwarded-Proto": "https"},
            open_timeout=20,
        ) as ws:
            return json.loads(await asyncio.wait_for(ws.recv(), 20))["kind"]


def test_no_secret_in_the_log_or_the_database(tmp_path, monkeypatch):
    monkeypatch.setenv("ACCESS_LOG", "1")
    monkeypatch.setenv("LOG_LEVEL", "INFO")
    prepare = f"from django.core.management import call_command; call_command('load_demo', password={PASSWORD!r})"
    with production.web_server(tmp_path, prepare=prepare) as (port, env):
        room = Room(port)
        status, login = room.call("POST", "/api/auth/token/", {"username": "director", "password": PASSWORD})
        assert status == 200, login
        room.token = api_token = login["token"]
        status, tournaments = room.call("GET", "/api/tournaments/")
        rows = tournaments if isinstance(tournaments, list) else tournaments["results"]
        tid = next(t["id"] for t in rows if t["name"] == "Demo: Friday Deepstack")  # the demo's seated tournament

        status, display = room.call("POST", f"/api/tournaments/{tid}/displays/", {"label": "TV"}, {"Idempotency-Key": "tv-1"})
        assert status == 201, display
        status, link = room.call("POST", f"/api/tournaments/{tid}/tables/1/dealer-links/", {"label": "T1"}, {"Idempotency-Key": "link-1"})
        assert status == 201, link
        status, table = room.call("POST", f"/api/tournaments/{tid}/tables/", {"number": 6}, {"Idempotency-Key": "table-6"})
        assert status == 201, table
        secrets = {
            "API token": api_token,
            "display link": display["token"],
            "dealer link": link["token"],
            "shuffler token": table["shuffler_token"],
        }
        assert all(secrets.values())

        # each secret used, as a room uses it
        # (the HTML pages need the collected static files of the image; their JSON twins carry the same paths)
        assert room.call("GET", f"/api/public/display/{display['token']}/snapshot/")[0] == 200
        assert room.call("GET", f"/api/dealer/{link['token']}/state/")[0] == 200
        assert room.call("GET", "/display/not-a-secret-but-looks-like-one/")[0] in (403, 404)
        assert asyncio.run(room.socket(f"/ws/display/{display['token']}/")) == "snapshot"
        assert asyncio.run(room.socket(f"/ws/dealer/{link['token']}/")) == "snapshot"
        status, _hand = room.call("POST", "/api/shuffler/hand-started/", None, {"Authorization": f"Table {table['shuffler_token']}"})
        assert status in (201, 409)  # a hand begins, or the table (no players) refuses: the token was accepted
        assert status != 401
        # a replay of each creation: the same answer, without its secret
        assert (
            room.call("POST", f"/api/tournaments/{tid}/tables/", {"number": 6}, {"Idempotency-Key": "table-6"})[1]["shuffler_token"] is None
        )
        room.call("POST", "/api/auth/logout/")  # the server still runs; its log is complete up to here

    log = (tmp_path / "server.log").read_text()
    assert "WebSocket /ws/dealer/***/" in log and "/display/***/" in log  # the lines are there, masked
    dump = "\n".join(sqlite3.connect(tmp_path / "db.sqlite3").iterdump())
    for kind, secret in secrets.items():
        assert secret not in log, f"the {kind} is in the server's log"
        assert secret not in dump, f"the {kind} is in the database"
