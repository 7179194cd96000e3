"""More than one machine (docs/operating.md, "More than one machine"): two web hosts behind one proxy share
one PostgreSQL and one Redis, and nothing needs sticky sessions.

Two production servers (tests/production.py: compose's web command and environment, DEBUG=0) run on
the same PostgreSQL database (made for this test, dropped after it) and the run's Redis (the channels-redis
layer, one CHANNEL_PREFIX for both). In front of them, a round-robin proxy written here plays the TLS
proxy: a TCP proxy that hands each new connection to the next host in turn, so it carries HTTP and
WebSockets alike, and records which host served each connection. Through it, as a browser and a lobby TV
would:
- the director logs in (the login form's post) and the session works on both hosts (sessions live in
  PostgreSQL; the CSRF check needs no server state);
- a lobby TV's socket lands on one host; a bust pressed on the other host reaches it (the push crosses
  hosts through Redis);
- the bust is on the other host's reads: the floor's read of the entry (the same session) and the player's
  seat JSON (with ?v=, as the seat page refetches on a push).
Every request and socket records the host that served it; both hosts served. (The HTML pages need the
image's collected static files, which these servers have not: their JSON twins carry the same answers.)
Without REDIS_URL (or a PostgreSQL DATABASE_URL) there is nothing shared to prove: skipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import os
import secrets
import socket
import threading
import time
import uuid
from dataclasses import dataclass
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlsplit, urlunsplit

import pytest

from tests import production

PASSWORD = "two-hosts-2026"
DEMO = f"from django.core.management import call_command; call_command('load_demo', password={PASSWORD!r}, players=12)"

pytestmark = [
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="two hosts share pushes through one Redis: REDIS_URL is not set"),
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")),
        reason="two hosts share one PostgreSQL: DATABASE_URL names none",
    ),
]


async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Bytes one way until either side is done; then the whole connection is closed (both pipes end)."""
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except OSError:
        pass
    finally:
        writer.close()


class RoundRobinProxy:
    """A TCP proxy on a port of its own (its own event loop, in a thread): each new connection goes to the
    next backend in turn, with no regard to who opens it (no sticky sessions). `served` records the
    backend of each connection by the client's port; `turns` counts the connections."""

    def __init__(self, backends: list[int]) -> None:
        self.backends = backends
        self.turns = 0
        self.served: dict[int, int] = {}
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.tasks: set[asyncio.Task] = set()

    def __enter__(self) -> RoundRobinProxy:
        self.thread.start()
        start = asyncio.start_server(self.handle, "127.0.0.1", 0)
        self.server = asyncio.run_coroutine_threadsafe(start, self.loop).result(10)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    def __exit__(self, *exc) -> None:
        async def shut() -> None:
            self.server.close()
            for task in list(self.tasks):
                task.cancel()
            await asyncio.gather(*self.tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(shut(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()

    async def handle(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        index = self.turns % len(self.backends)
        self.turns += 1
        self.served[client_writer.get_extra_info("peername")[1]] = index
        task = asyncio.current_task()
        self.tasks.add(task)
        try:
            backend_reader, backend_writer = await asyncio.open_connection("127.0.0.1", self.backends[index])
            await asyncio.gather(pipe(client_reader, backend_writer), pipe(backend_reader, client_writer))
        except OSError:
            client_writer.close()
        except asyncio.CancelledError:  # the proxy stops: the pipes closed both ends
            pass
        finally:
            self.tasks.discard(task)

    @property
    def upcoming(self) -> int:
        """The backend the next connection goes to (once every connection made so far was taken)."""
        return self.turns % len(self.backends)

    def backend_of(self, client_port: int) -> int:
        deadline = time.monotonic() + 10
        while client_port not in self.served:
            assert time.monotonic() < deadline, f"the proxy never took the connection from port {client_port}"
            time.sleep(0.01)
        return self.served[client_port]


@dataclass
class Answer:
    status: int
    body: bytes
    backend: int

    def json(self):
        return json.loads(self.body)


class Browser:
    """One staff browser through the proxy, as if through TLS: its cookies, and a new connection per
    request (so the proxy takes turns). `log` says which backend served each request."""

    def __init__(self, proxy: RoundRobinProxy) -> None:
        self.proxy = proxy
        self.site = f"localhost:{proxy.port}"  # ALLOWED_HOSTS (compose's default: localhost)
        self.cookies: dict[str, str] = {}
        self.log: list[tuple[str, str, int]] = []

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None) -> Answer:
        sent = {"Host": self.site, "X-Forwarded-Proto": "https", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if method != "GET":  # Django's CSRF check of a POST over HTTPS: the site's own origin, the cookie's token
            sent.update({"Origin": f"https://{self.site}", "Referer": f"https://{self.site}/"})
            sent.setdefault("X-CSRFToken", self.cookies.get("csrftoken", ""))
        connection = http.client.HTTPConnection("127.0.0.1", self.proxy.port, timeout=60)
        try:
            connection.connect()
            client_port = connection.sock.getsockname()[1]
            connection.request(method, path, body, headers=sent)
            response = connection.getresponse()
            data = response.read()
            for header in response.msg.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(header).items():
                    self.cookies[name] = morsel.value
        finally:
            connection.close()
        answer = Answer(response.status, data, self.proxy.backend_of(client_port))
        self.log.append((method, path, answer.backend))
        return answer

    def get(self, path: str) -> Answer:
        return self.request("GET", path)

    def post(self, path: str, body: dict) -> Answer:
        return self.request(
            "POST", path, json.dumps(body).encode(), {"Content-Type": "application/json", "Idempotency-Key": uuid.uuid4().hex}
        )  # as static/js/api.js sends a press

    def land_on(self, backend: int) -> None:
        """The next request reaches `backend`: the proxy's turns, moved on by health checks (the proxy
        itself is never told where to send anything)."""
        while self.proxy.upcoming != backend:
            assert self.get("/healthz").status == 200

    def log_in(self, username: str, password: str) -> int:
        """The login form's post, as a browser sends it; the backend that served it. (The form's page itself
        needs the image's collected static files, which are not here: the CSRF pair it would hand out, a
        cookie secret and the same token in the form, is made here as Django makes one.)"""
        self.cookies["csrftoken"] = token = secrets.token_hex(16)
        done = self.request(
            "POST",
            "/accounts/login/",
            urlencode({"csrfmiddlewaretoken": token, "username": username, "password": password, "next": ""}).encode(),
            {"Content-Type": "application/x-www-form-urlencoded"},
        )
        assert done.status == 302 and "sessionid" in self.cookies, (done.status, done.body[:500])
        return done.backend


@contextlib.contextmanager
def shared_database():
    """A PostgreSQL database of this test's own beside the run's (DATABASE_URL's server and login): its URL."""
    import psycopg
    from psycopg import sql

    parts = urlsplit(os.environ["DATABASE_URL"])
    name = f"{(parts.path.lstrip('/') or 'poker')[:30]}_two_hosts_{os.getpid()}"
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@contextlib.contextmanager
def lobby_socket(proxy: RoundRobinProxy, token: str):
    """The lobby TV's socket through the proxy (its own connection, so it lands where the turn says), and
    the backend that holds it."""
    from websockets.sync.client import connect

    sock = socket.create_connection(("127.0.0.1", proxy.port), timeout=30)
    site = f"localhost:{proxy.port}"
    with connect(
        f"ws://{site}/ws/display/{token}/",
        sock=sock,
        origin=f"https://{site}",
        additional_headers={"X-Forwarded-Proto": "https"},
        open_timeout=30,
    ) as ws:
        yield ws, proxy.backend_of(sock.getsockname()[1])


def next_event(ws, kind: str, timeout: float = 30) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if message.get("kind") == "event" and message.get("type") == kind:
            return message


def test_two_hosts_behind_a_round_robin_proxy_share_the_night(tmp_path, monkeypatch):
    monkeypatch.setenv("CHANNEL_PREFIX", f"hosts-{uuid.uuid4().hex[:10]}")  # both hosts, and no other run's
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    redis = os.environ["REDIS_URL"]
    with (
        shared_database() as database,
        production.web_server(tmp_path / "a", prepare=DEMO, database_url=database, redis_url=redis) as (port_a, env),
        production.web_server(tmp_path / "b", database_url=database, redis_url=redis) as (port_b, _),
        RoundRobinProxy([port_a, port_b]) as proxy,
    ):
        assert env["DEBUG"] == "0" and env["DATABASE_URL"] == database and env["REDIS_URL"] == redis
        browser = Browser(proxy)

        # The director logs in through the proxy; the session then works on both hosts.
        browser.log_in("director", PASSWORD)
        tournaments = [browser.get("/api/tournaments/") for _ in range(2)]
        assert [t.status for t in tournaments] == [200, 200]
        assert {t.backend for t in tournaments} == {0, 1}, "the session was tried on one host only"
        listed = tournaments[0].json()
        tid = next(
            t["id"] for t in (listed if isinstance(listed, list) else listed["results"]) if t["name"] == "Demo: Friday Deepstack"
        )  # the demo's seated tournament

        display = browser.post(f"/api/tournaments/{tid}/displays/", {"label": "Lobby TV"})
        assert display.status == 201, display.body
        seated = browser.get(f"/api/public/tournaments/{tid}/seats/1/").json()
        assert seated["status"] == "active" and seated["table"] is not None, seated

        # The lobby TV on one host; the bust pressed on the other.
        with lobby_socket(proxy, display.json()["token"]) as (ws, lobby_host):
            snapshot = json.loads(ws.recv(timeout=30))
            assert snapshot["kind"] == "snapshot"
            bust_host = 1 - lobby_host
            browser.land_on(bust_host)
            bust = browser.post(f"/api/tournaments/{tid}/entries/1/bust/", {})
            assert bust.status == 200, bust.body
            assert bust.backend == bust_host and bust.json()["status"] == "busted"
            pushed = next_event(ws, "entry.busted")
        assert 1 in pushed["entries"] and pushed["seq"] > snapshot["seq"], pushed

        # The host that did not make the change: the floor's read of the entry (the same session), then the
        # player's phone (no session): the seat JSON the push makes it fetch (?v=, the push's sequence).
        read_host = 1 - bust_host
        browser.land_on(read_host)
        entry = browser.get(f"/api/tournaments/{tid}/entries/1/")
        assert entry.status == 200 and entry.backend == read_host and entry.json()["status"] == "busted", entry.body
        browser.cookies.clear()
        browser.land_on(read_host)
        seat = browser.get(f"/api/public/tournaments/{tid}/seats/1/?v={pushed['seq']}")
        assert seat.status == 200 and seat.backend == read_host
        shown = seat.json()
        assert shown["status"] == "busted" and shown["table"] is None and shown["place"], shown

        served = [backend for _, _, backend in browser.log] + [lobby_host]
        assert served.count(0) >= 3 and served.count(1) >= 3, browser.log
