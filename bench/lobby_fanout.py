"""Lobby screens at scale: the delay from a director's action to the message arriving at N screens.

Starts the real ASGI server (uvicorn config.asgi:application, one process) against PostgreSQL and
Redis, opens N lobby WebSockets from this process, then K times POSTs a clock action (pause, resume)
to the JSON API with a director's token and times, on this process's monotonic clock, the delay from
sending the request to each screen receiving the event. Prints p50/p99/max per N, the server's CPU
per action and its memory per connection (VmRSS before and after connecting the N screens).

Each (path, N) runs on a fresh server. Paths: "fanout" (live/fanout.py, the default route) and
"consumers" (LOBBY_FANOUT=0: one Channels consumer and group member per socket, the old path).

Run by hand (it creates and drops its own database):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/lobby_fanout.py [--sizes 10,100,1000] [--actions 20] [--paths fanout,consumers]
        [--no-deflate] [--server-deflate]

The screens are cheap clients (websockets' sans-I/O protocol on bare asyncio transports, the event
recognised from its first bytes) so that one client process on the second core keeps up with 1,000
sockets. Like browsers, they offer permessage-deflate unless --no-deflate. The server turns it down,
as the production commands do (--ws-per-message-deflate false), unless --server-deflate.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import socket
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # the bench reads the event number between actions, from its loop

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.test.utils import get_runner, setup_test_environment  # noqa: E402

PASSWORD = "bench-password-not-secret"
SERVER_SETTINGS = {  # production-like: DEBUG off, plain HTTP on the loopback
    "DEBUG": "0",
    "SECRET_KEY": "bench-only-secret-key-0123456789abcdefghijklmnopqrstuvwxyz",
    "ID_HASH_KEY": "bench-only-id-hash-key",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "SECURE_SSL_REDIRECT": "0",
    "BEHIND_TLS_PROXY": "0",
    "LOG_LEVEL": "WARNING",
    "CLOCK_TICKER_IN_PROCESS": "0",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10,100,1000", help="numbers of screens, comma-separated")
    parser.add_argument("--actions", type=int, default=20, help="director's actions per size")
    parser.add_argument("--paths", default="fanout,consumers", help="fanout, consumers or both")
    parser.add_argument("--no-deflate", action="store_true", help="screens do not offer permessage-deflate")
    parser.add_argument("--server-deflate", action="store_true", help="the server accepts permessage-deflate (production turns it off)")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL: this bench measures the production stack.")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # 1,000 sockets each side; the server inherits it

    # A database of our own (not test_<name>, which a concurrent test run may be using).
    settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = f"bench_lobby_fanout_{os.getpid()}"
    setup_test_environment()
    runner = get_runner(settings)(verbosity=0)
    old = runner.setup_databases()
    try:
        fixture = make_fixture(max(int(n) for n in args.sizes.split(",")))
        results = []
        for path in args.paths.split(","):
            for n in (int(x) for x in args.sizes.split(",")):
                results.append(asyncio.run(run_one(fixture, path.strip(), n, args.actions, not args.no_deflate, args.server_deflate)))
        report(results, args)
    finally:
        wait_for_sessions_to_end()
        runner.teardown_databases(old)


def wait_for_sessions_to_end(timeout: float = 10) -> None:
    """The servers' database sessions outlive them by a moment; the database cannot be dropped before."""
    from django.db import connection, connections

    name = connection.settings_dict["NAME"]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pid, application_name, client_port, state, query FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                [name],
            )
            others = cursor.fetchall()
        if not others:
            break
        time.sleep(0.2)
    else:
        print(f"sessions still open on {name}: {others}", file=sys.stderr)
    connections.close_all()


def make_fixture(max_screens: int) -> dict:
    from django.contrib.auth.models import Group, User

    from clock.services import clock
    from tournament.rules.structure import LevelSpec, StructureSpec
    from tournament.services import registration, setup

    director = User.objects.create_user("bench-director", password=PASSWORD)
    director.groups.add(Group.objects.get_or_create(name="Director")[0])
    spec = StructureSpec(
        "Bench", ((25, "green"), (100, "black")), tuple(LevelSpec("level", 60, 100 * i, 200 * i, 200 * i, "bba") for i in range(1, 9))
    )
    template = setup.save_structure_template(spec, actor=director)
    t = setup.create_tournament(
        {
            "name": "Bench",
            "venue": "Bench",
            "time_zone": "Europe/Prague",
            "start_at": datetime(2026, 12, 1, 18, tzinfo=UTC),
            "seats_per_table": 9,
            "currency": "EUR",
            "buy_in": 10000,
            "fee": 1000,
            "starting_stack": 20000,
        },
        actor=director,
        template=template,
    )
    # One display token per ten screens: each TV of a venue has its own revocable link.
    tokens = [registration.create_display_token(t, actor=director, label=f"TV {i}").token for i in range(max(1, max_screens // 10))]
    clock.start_clock(t, actor=director)
    db = settings.DATABASES["default"]
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    url = f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    return {"tournament": t.pk, "tokens": tokens, "database_url": url, "paused": False}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> tuple[float, float]:
    """User and system CPU seconds of a process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


# --- the screens ---------------------------------------------------------------------------


class Screen(asyncio.Protocol):
    """A lobby screen: websockets' sans-I/O client on a bare transport. Records, on the monotonic
    clock, when each message arrives; reads the kind and seq from the first bytes only."""

    def __init__(self, uri: str, origin: str, deflate: bool, on_event) -> None:
        from websockets.client import ClientProtocol
        from websockets.extensions.permessage_deflate import enable_client_permessage_deflate
        from websockets.uri import parse_uri

        self.ws = ClientProtocol(parse_uri(uri), origin=origin, extensions=enable_client_permessage_deflate(None) if deflate else None)
        self.on_event = on_event
        self.ready = asyncio.get_running_loop().create_future()  # set by the first snapshot
        self.closed = asyncio.get_running_loop().create_future()
        self.transport = None

    def connection_made(self, transport) -> None:
        self.transport = transport
        self.ws.send_request(self.ws.connect())
        self.flush()

    def flush(self) -> None:
        for data in self.ws.data_to_send():
            if data:
                self.transport.write(data)

    def data_received(self, data: bytes) -> None:
        now = time.monotonic()
        from websockets.frames import Frame, Opcode

        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                head = bytes(event.data[:48])
                if head.startswith(b'{"kind": "event", "seq": '):
                    self.on_event(self, int(head[25:].split(b",", 1)[0]), now)
                elif head.startswith(b'{"kind": "snapshot"') and not self.ready.done():
                    self.ready.set_result(now)
        self.flush()

    def connection_lost(self, exc) -> None:
        if not self.ready.done():
            self.ready.set_exception(ConnectionError(f"closed before the snapshot: {exc}"))
        if not self.closed.done():
            self.closed.set_result(None)

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.ws.send_close(1000)
            self.flush()
            self.transport.close()


async def open_screens(port: int, tokens: list[str], n: int, deflate: bool, on_event, concurrency: int = 50) -> list[Screen]:
    loop = asyncio.get_running_loop()
    gate = asyncio.Semaphore(concurrency)

    async def one(i: int) -> Screen:
        async with gate:
            uri = f"ws://127.0.0.1:{port}/ws/display/{tokens[i % len(tokens)]}/"
            _transport, screen = await loop.create_connection(
                lambda: Screen(uri, f"http://127.0.0.1:{port}", deflate, on_event), "127.0.0.1", port
            )
            await asyncio.wait_for(screen.ready, 30)
            return screen

    return list(await asyncio.gather(*(one(i) for i in range(n))))


# --- the server ----------------------------------------------------------------------------


async def start_server(fixture: dict, path: str, port: int, server_deflate: bool) -> subprocess.Popen:
    env = {**os.environ, **SERVER_SETTINGS, "DATABASE_URL": fixture["database_url"], "LOBBY_FANOUT": "1" if path == "fanout" else "0"}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "config.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
            "--no-access-log",
            "--ws-per-message-deflate",
            str(server_deflate).lower(),
        ],
        cwd=ROOT,
        env=env,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            _reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return server
        except OSError:
            if server.poll() is not None:
                raise RuntimeError("the server did not start") from None
            await asyncio.sleep(0.1)
    server.kill()
    raise RuntimeError("the server did not start in 30 s")


def http(method: str, url: str, token: str | None = None, body: dict | None = None) -> dict:
    import json
    import urllib.request

    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    data = json.dumps(body).encode() if body is not None else None
    with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers, method=method), timeout=30) as r:
        return json.loads(r.read())


async def run_one(fixture: dict, path: str, n: int, actions: int, deflate: bool, server_deflate: bool) -> dict:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    loop = asyncio.get_running_loop()
    server = await start_server(fixture, path, port, server_deflate)
    waiting: dict = {"seq": None, "sent": 0.0, "delays": [], "pending": set(), "done": None}

    def on_event(screen: Screen, seq: int, now: float) -> None:
        if seq == waiting["seq"] and screen in waiting["pending"]:
            waiting["pending"].discard(screen)
            waiting["delays"].append(now - waiting["sent"])
            if not waiting["pending"]:
                waiting["done"].set_result(None)

    async def act(screens: list[Screen], seq: int) -> tuple[list[float], float]:
        """One director's action; the delays to every screen, and the HTTP round trip."""
        action = "resume" if fixture["paused"] else "pause"
        waiting.update(seq=seq, delays=[], pending=set(screens), done=loop.create_future())
        waiting["sent"] = started = time.monotonic()
        await loop.run_in_executor(
            None, lambda: http("POST", f"{base}/api/tournaments/{fixture['tournament']}/clock/", fixture["api_token"], {"action": action})
        )
        answered = time.monotonic() - started
        fixture["paused"] = not fixture["paused"]
        try:
            await asyncio.wait_for(asyncio.shield(waiting["done"]), 10)
        except TimeoutError:
            print(f"  {path} N={n}: {len(waiting['pending'])} screens missed event {seq}", file=sys.stderr)
        return list(waiting["delays"]), answered

    try:
        if "api_token" not in fixture:
            fixture["api_token"] = (
                await loop.run_in_executor(
                    None, lambda: http("POST", f"{base}/api/auth/token/", body={"username": "bench-director", "password": PASSWORD})
                )
            )["token"]
        # Warm up (imports, first queries, the layer's connections), then measure from a settled server.
        warm = await open_screens(port, fixture["tokens"], 1, deflate, on_event)
        seq = current_seq(fixture)
        await act(warm, seq + 1)
        for screen in warm:
            screen.close()
        await asyncio.sleep(0.5)
        rss_before = rss_kb(server.pid)
        started = time.monotonic()
        screens = await open_screens(port, fixture["tokens"], n, deflate, on_event)
        connect_seconds = time.monotonic() - started
        await asyncio.sleep(0.5)
        rss_after = rss_kb(server.pid)
        delays, answers, last = [], [], []
        cpu_before = cpu_seconds(server.pid)
        for _ in range(actions):
            seq = current_seq(fixture)
            got, answered = await act(screens, seq + 1)
            delays += got
            answers.append(answered)
            last.append(max(got) if got else float("nan"))
            if os.environ.get("BENCH_VERBOSE"):
                print(
                    f"  {path} N={n} seq {seq + 1}: POST {answered * 1000:.1f} ms, first {min(got) * 1000:.1f} ms, "
                    f"last {max(got) * 1000:.1f} ms",
                    file=sys.stderr,
                )
            await asyncio.sleep(0.2)
        cpu_after = cpu_seconds(server.pid)
        cpu_per_action = tuple((after - before) / actions for after, before in zip(cpu_after, cpu_before, strict=True))
        for screen in screens:
            screen.close()
        await asyncio.sleep(0.2)
        return {
            "path": path,
            "n": n,
            "delays": delays,
            "answers": answers,
            "last": last,
            "expected": n * actions,
            "rss_before": rss_before,
            "rss_after": rss_after,
            "cpu": cpu_per_action,
            "connect": connect_seconds,
        }
    finally:
        from django.db import connections

        connections.close_all()  # this task's own connection (Django's connections are task-local under asyncio)
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()


def current_seq(fixture: dict) -> int:
    """The tournament's last event number, read between actions (never while timing)."""
    from tournament.models import Tournament

    return Tournament.objects.values_list("event_seq", flat=True).get(pk=fixture["tournament"])


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else float("nan")


def report(results: list[dict], args) -> None:
    print(
        f"database: PostgreSQL, channel layer: {settings.CHANNEL_LAYERS['default']['BACKEND'].rsplit('.', 1)[-1]}, "
        f"server: uvicorn, 1 process; {args.actions} director's actions per N; "
        f"screens {'offer' if not args.no_deflate else 'do not offer'} permessage-deflate, the server "
        f"{'accepts' if args.server_deflate else 'turns it down'}; {os.cpu_count()} CPUs"
    )
    print(
        "load average (1, 5, 15 min) at the end: "
        + ", ".join(f"{x:.2f}" for x in os.getloadavg())
        + " (the machine is shared: a load above the CPU count inflates every figure)"
    )
    print("delay = from sending the clock POST to a screen receiving the event (client monotonic clock)")
    print(
        f"{'path':<10}{'N':>6}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}{'last p50':>10}{'POST ms':>9}"
        f"{'CPU usr+sys ms':>15}{'KiB/conn':>10}{'recv':>12}{'connect s':>11}"
    )
    for r in results:
        ms = [d * 1000 for d in r["delays"]]
        print(
            f"{r['path']:<10}{r['n']:>6}{pct(ms, 0.5):>9.1f}{pct(ms, 0.99):>9.1f}{max(ms, default=float('nan')):>9.1f}"
            f"{statistics.median(r['last']) * 1000:>10.1f}{statistics.median(r['answers']) * 1000:>9.1f}"
            f"{r['cpu'][0] * 1000:>8.1f}+{r['cpu'][1] * 1000:<6.1f}{(r['rss_after'] - r['rss_before']) / r['n']:>10.1f}"
            f"{len(r['delays']):>6}/{r['expected']:<5}{r['connect']:>11.2f}"
        )
    print("last p50: median over actions of the slowest screen; POST ms: median HTTP round trip of the action;")
    print("CPU usr+sys ms: server CPU (user + system) per action, the request and the fan-out; KiB/conn: server VmRSS growth / N")


if __name__ == "__main__":
    main()
