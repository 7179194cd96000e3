"""The production stack under a festival's load: the draw rush, then a stress that rises past capacity.

Starts the production server command (`python -m config.serve`: WEB_CONCURRENCY workers, one per core
by default, each with its bounded database pool) with production settings against PostgreSQL and
Redis, on a tournament of N entries (10,000: 1,112 tables) just drawn. All the while the floor busts a
player every second through the JSON API and confirms the slips, timed from the request to the bust's
event on a floor socket.

1. The draw rush, as it happens: RUSH players open their seat page within WINDOW s of the draw (30 unless
   --window says: a WSOP flight's 5,000 within 60 s is --rush 5000 --window 60), each at a
   random moment (open-loop arrivals). Each does what its page does (static/js/seat-page.js): loads the
   page (/s/<t>/<n>/), opens the page's WebSocket (/ws/s/<t>/) and waits for its snapshot, fetches its
   seat (/s/<t>/<n>.json?v=) only when the snapshot's seats are newer than the page's, and keeps the socket
   open. Then 20 lobby TVs (page, snapshot, socket) and 50 floor tablets (floor socket, logged in) connect
   and stay.
2. The stress: closed-loop clients (each sends its next request when the last is answered) rising
   100, 200, 500, 1,000: for each step a mix of seat JSON, seat search (/api/public/.../seats/?q=) and
   lobby snapshot; then the seat JSON alone and a trivial view (/robots.txt) alone, for the ratio.

Every client is a phone of its own: the bench stands where the room's TLS proxy stands (loopback, the
server's default FORWARDED_ALLOW_IPS) and names each client's address in X-Forwarded-For. With
--one-address every phone comes from the same address instead (a venue's Wi-Fi behind NAT, the server in
the cloud): each phone keeps only its own device cookie, and the public API's throttle (per device, with a
ceiling per address set for a room) must refuse none of the rush: there (and with --api) each
phone of the rush also reads its seat through the public API twice (/api/public/.../seats/<n>/), the second
time with the device cookie the first answer gave it. A seat page itself never calls the public API.

Printed: p50 and p99 per request kind, 5xx and 503 counts, the most database connections seen (from
pg_stat_activity, against DB_CONNECTIONS), the bust p99 during the rush, requests/s per stress step,
and the seat JSON's requests/s as a ratio of the trivial view's.

Run by hand (it creates and drops its own database):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/load.py [--entries 10000] [--rush 1000] [--window 30] [--steps 100,200,500,1000]
Targets (on a 2-core machine shared with the load generator): the rush with 0 errors, page and
seat p99 < 1 s, every socket connected, bust p99 < 500 ms; the stress with 0 5xx at every step (503
with Retry-After past capacity allowed and counted), connections never above the cap, and the seat
JSON at least half the trivial view's requests/s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # the bench reads the room between busts, from its loop

from django.conf import settings  # noqa: E402

from bench.lobby_fanout import PASSWORD, SERVER_SETTINGS, free_port, wait_for_sessions_to_end  # noqa: E402

settings.SECRET_KEY = SERVER_SETTINGS["SECRET_KEY"]


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


class Tally:
    """Latencies and statuses per request kind."""

    def __init__(self) -> None:
        self.ms: dict[str, list[float]] = defaultdict(list)
        self.status: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        self.failures: dict[str, int] = defaultdict(int)  # no answer at all (connection refused, timeout)
        self.refetched = 0  # seat pages whose socket's snapshot had newer seats than the page
        self.retry_after_missing = 0

    def add(self, kind: str, ms: float, status: int, retry_after: str | None = None) -> None:
        self.ms[kind].append(ms)
        self.status[kind][status] += 1
        if status == 503 and not retry_after:
            self.retry_after_missing += 1

    def errors(self, kind: str) -> tuple[int, int]:
        """(5xx other than 503, 503) of a kind."""
        codes = self.status[kind]
        return sum(n for code, n in codes.items() if code >= 500 and code != 503), codes.get(503, 0)

    def line(self, kind: str, seconds: float | None = None) -> str:
        ms, codes = self.ms[kind], self.status[kind]
        five, busy = self.errors(kind)
        other = {code: n for code, n in codes.items() if code not in (200, 304) and code < 500}
        rate = f", {len(ms) / seconds:.0f} req/s" if seconds else ""
        return (
            f"{kind:<15} n={len(ms):>6}  p50 {pct(ms, 0.5):7.1f} ms  p99 {pct(ms, 0.99):7.1f} ms{rate}  "
            f"5xx {five}  503 {busy}  failed {self.failures[kind]}" + (f"  other {dict(other)}" if other else "")
        )


def make_fixture(n: int) -> dict:
    from django.contrib.auth.models import Group, User
    from django.test import Client

    from bench.seating import populate
    from tables.models import Seat, Table
    from tables.services import draws
    from tournament.services import registration

    director, t, count = populate(n)
    floor = User.objects.create_user("bench-floor", password=PASSWORD)
    floor.groups.add(Group.objects.get_or_create(name="Floor")[0])
    draws.draw_start(t, actor=director)
    for table in Table.objects.filter(tournament=t, in_play=True):
        if Seat.objects.filter(table=table, ended_at__isnull=True).count() >= 2:
            draws.draw_button(table, actor=director)
    displays = [registration.create_display_token(t, actor=director, label=f"Lobby TV {i + 1}").token for i in range(20)]
    client = Client()
    client.force_login(floor)
    db = settings.DATABASES["default"]
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    url = f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    names = [f"P{i}" for i in range(n)]
    return {
        "tournament": t.pk,
        "tables": count,
        "entries": n,
        "session": client.cookies[settings.SESSION_COOKIE_NAME].value,
        "database_url": url,
        "database": db["NAME"],
        "displays": displays,
        "names": names,
    }


async def start_server(fixture: dict, port: int) -> asyncio.subprocess.Process:
    # The server's connections carry their own name, so that the bench counts them apart from its own.
    env = {
        **os.environ,
        **SERVER_SETTINGS,
        "DATABASE_URL": fixture["database_url"] + f"?application_name={SERVER_NAME}",
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "LOG_LEVEL": "WARNING",
    }
    # As the image is built: the production settings serve the collected, hashed static files.
    collect = await asyncio.create_subprocess_exec(sys.executable, "manage.py", "collectstatic", "--noinput", "-v0", cwd=ROOT, env=env)
    assert await collect.wait() == 0, "collectstatic failed"
    server = await asyncio.create_subprocess_exec(sys.executable, "-m", "config.serve", cwd=ROOT, env=env, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            _reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            await asyncio.sleep(2)  # every worker up, not only the first
            return server
        except OSError:
            if server.returncode is not None:
                raise RuntimeError("the server did not start") from None
            await asyncio.sleep(0.2)
    server.kill()
    raise RuntimeError("the server did not start in 60 s")


async def stop_server(server: asyncio.subprocess.Process) -> None:
    """Stop the server and close this process's own connections, so its database can be dropped."""
    from django.db import connections

    server.terminate()
    await server.wait()
    connections.close_all()


SERVER_NAME = "bench-load-server"
SEAT_CONFIG = re.compile(r'<script id="seat-config" type="application/json">(.*?)</script>', re.S)


ONE_ADDRESS = "10.0.0.1"
one_address = False  # --one-address: every client behind one address
api_reads = False  # --one-address or --api: each phone of the rush also reads the public API twice


def address(i: int) -> str:
    return ONE_ADDRESS if one_address else f"10.{(i >> 16) & 255}.{(i >> 8) & 255}.{i & 255}"


class Bench:
    def __init__(self, fixture: dict, base: str) -> None:
        import aiohttp

        self.f, self.base, self.t = fixture, base, fixture["tournament"]
        self.ws_base = base.replace("http", "ws", 1)
        self.session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0, ttl_dns_cache=None),
            timeout=aiohttp.ClientTimeout(total=30),
            cookie_jar=aiohttp.DummyCookieJar(),
        )  # each phone its own cookies
        self.max_connections = 0
        self.floor_errors: list[str] = []
        self.bust_answered_ms: list[float] = []  # from the bust request to its answer (its event comes after)
        self.cookie = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={fixture['session']}"}

    async def get(self, tally: Tally, kind: str, path: str, client: int, jar: dict | None = None, body: list | None = None) -> int:
        """One read of one phone; `jar` (that phone's cookies) sends its cookies and keeps the ones it is given;
        `body` gets the answer's bytes."""
        tic = time.monotonic()
        headers = {"X-Forwarded-For": address(client)}
        if jar:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in jar.items())
        try:
            async with self.session.get(self.base + path, headers=headers) as r:
                content = await r.read()
                if body is not None:
                    body.append(content)
                tally.add(kind, (time.monotonic() - tic) * 1000, r.status, r.headers.get("Retry-After"))
                if jar is not None:
                    jar.update({name: morsel.value for name, morsel in r.cookies.items()})
                return r.status
        except Exception:  # no answer: counted apart from the statuses
            tally.failures[kind] += 1
            return 0

    async def watch_connections(self, stop: asyncio.Event) -> None:
        import psycopg

        async with await psycopg.AsyncConnection.connect(self.f["database_url"], autocommit=True) as conn:
            while not stop.is_set():
                cursor = await conn.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND application_name = %s", [self.f["database"], SERVER_NAME]
                )
                self.max_connections = max(self.max_connections, (await cursor.fetchone())[0])
                await asyncio.sleep(0.1)

    # --- the floor: a bust every second ---------------------------------------------------------

    async def floor(self, stop: asyncio.Event, bust_ms: list[float], token: str) -> None:
        import aiohttp
        import psycopg
        import websockets

        db = await psycopg.AsyncConnection.connect(self.f["database_url"], autocommit=True)
        # The floor tablet is a device of its own: its own connections, never one a phone left idle.
        session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30))
        headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        socket = await websockets.connect(
            f"{self.ws_base}/ws/t/{self.t}/floor/", origin=self.base, max_size=None, additional_headers=self.cookie
        )
        await socket.recv()  # the snapshot
        seen: dict[int, float] = {}

        async def listen():
            async for raw in socket:
                message = json.loads(raw)
                event = message.get("event") or {}
                if event.get("type") == "entry.busted":
                    seen[event["payload"].get("entry")] = time.monotonic()

        listener = asyncio.create_task(listen())
        rng = random.Random(11)
        try:
            while not stop.is_set():
                started = time.monotonic()
                live = await (
                    await db.execute(
                        "SELECT e.number FROM tables_seat s JOIN tournament_entry e ON e.id = s.entry_id "
                        "WHERE s.tournament_id = %s AND s.ended_at IS NULL ORDER BY e.number",
                        [self.t],
                    )
                ).fetchall()
                number = rng.choice(live)[0]
                sent = time.monotonic()
                try:
                    async with session.post(
                        f"{self.base}/api/tournaments/{self.t}/entries/{number}/bust/", headers=headers, data="{}"
                    ) as r:
                        await r.read()
                        self.bust_answered_ms.append((time.monotonic() - sent) * 1000)
                        if r.status != 200:
                            self.floor_errors.append(f"bust {r.status}")
                            continue
                except Exception as exc:  # no answer: counted, and the floor goes on
                    self.floor_errors.append(f"bust {type(exc).__name__}")
                    continue
                while number not in seen and time.monotonic() - sent < 10:
                    await asyncio.sleep(0.005)
                bust_ms.append((seen.get(number, time.monotonic()) - sent) * 1000)
                moves = [
                    row[0]
                    for row in await (
                        await db.execute(
                            "SELECT number FROM tables_move WHERE tournament_id = %s AND status = 'pending' ORDER BY number", [self.t]
                        )
                    ).fetchall()
                ]
                for move in moves:
                    try:
                        async with session.post(
                            f"{self.base}/api/tournaments/{self.t}/moves/{move}/confirm/", headers=headers, data="{}"
                        ) as r:
                            await r.read()
                    except Exception as exc:
                        self.floor_errors.append(f"confirm {type(exc).__name__}")
                await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - started)))
        finally:
            listener.cancel()
            await socket.close()
            await session.close()
            await db.close()

    # --- 1. the rush ---------------------------------------------------------------------------------

    async def player(self, tally: Tally, sockets: list, number: int, delay: float) -> None:
        """As static/js/seat-page.js: the page, its socket and the socket's snapshot, then the seat JSON (?v=
        the snapshot's seq) when the snapshot's seats are newer than the page's. With --one-address (or --api),
        the public API twice as well."""
        import websockets

        await asyncio.sleep(delay)
        page: list[bytes] = []
        if await self.get(tally, "seat page", f"/s/{self.t}/{number}/", number, body=page) != 200:
            return
        config = json.loads(SEAT_CONFIG.search(page[0].decode()).group(1))
        tic = time.monotonic()
        try:
            ws = await websockets.connect(
                self.ws_base + config["socket"], origin=self.base, open_timeout=30, additional_headers={"X-Forwarded-For": address(number)}
            )
            snapshot = json.loads(await asyncio.wait_for(ws.recv(), 30))
            tally.ms["seat socket"].append((time.monotonic() - tic) * 1000)
            sockets.append(ws)
        except Exception:
            tally.failures["seat socket"] += 1
            return
        if snapshot.get("seats_seq", 0) > config["version"]:
            tally.refetched += 1
            if await self.get(tally, "seat JSON", f"/api/public/tournaments/{self.t}/seats/{number}/?v={snapshot['seq']}", number) != 200:
                return
        jar: dict = {}
        for _read in range(2 if api_reads else 0):  # the public API, the second time with the device cookie the first gave
            if await self.get(tally, "public API", f"/api/public/tournaments/{self.t}/seats/{number}/", number, jar) != 200:
                return

    async def screen(self, tally: Tally, sockets: list, path: str, client: int, page: str | None, headers: dict) -> None:
        import websockets

        if page and await self.get(tally, "lobby page", page, client) != 200:
            return
        try:
            ws = await websockets.connect(self.ws_base + path, origin=self.base, open_timeout=30, max_size=None, additional_headers=headers)
            await asyncio.wait_for(ws.recv(), 30)  # the snapshot
            sockets.append(ws)
        except Exception:
            tally.failures["screen socket"] += 1

    async def rush(self, players: int, window: float = 30) -> tuple[Tally, list]:
        tally, sockets = Tally(), []
        rng = random.Random(2026)
        numbers = rng.sample(range(1, self.f["entries"] + 1), players)
        await asyncio.gather(*(self.player(tally, sockets, n, rng.uniform(0, window)) for n in numbers))
        seats = len(sockets)
        tvs = [
            self.screen(tally, sockets, f"/ws/display/{token}/", 50_000 + i, f"/display/{token}/", {})
            for i, token in enumerate(self.f["displays"])
        ]
        tablets = [self.screen(tally, sockets, f"/ws/t/{self.t}/floor/", 60_000 + i, None, self.cookie) for i in range(50)]
        await asyncio.gather(*tvs, *tablets)
        return tally, [seats, len(sockets) - seats, sockets]

    # --- 2. the stress ---------------------------------------------------------------------------------

    def request(self, kind: str, rng: random.Random) -> str:
        if kind == "seat JSON":
            return f"/s/{self.t}/{rng.randint(1, self.f['entries'])}.json"
        if kind == "seat search":
            return f"/api/public/tournaments/{self.t}/seats/?q={rng.choice(self.f['names'])}"
        if kind == "lobby snapshot":
            return f"/api/public/display/{rng.choice(self.f['displays'])}/snapshot/"
        return "/robots.txt"

    async def closed_loop(self, clients: int, kinds: tuple[str, ...], seconds: float) -> tuple[Tally, float]:
        tally = Tally()
        end = time.monotonic() + seconds

        async def client(i: int) -> None:
            rng = random.Random(i)
            who = 100_000 + i
            while time.monotonic() < end:
                kind = kinds[rng.randrange(len(kinds))]
                status = await self.get(tally, kind, self.request(kind, rng), who)
                if status == 503:
                    await asyncio.sleep(0.5)  # a phone told to come back later

        started = time.monotonic()
        await asyncio.gather(*(client(i) for i in range(clients)))
        return tally, time.monotonic() - started


async def run(fixture: dict, rush_players: int, steps: list[int], seconds: float, window: float = 30) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = await start_server(fixture, port)
    bench = Bench(fixture, base)
    stop_watch, stop_floor = asyncio.Event(), asyncio.Event()
    watcher = asyncio.create_task(bench.watch_connections(stop_watch))
    cap = settings.DB_CONNECTIONS
    try:
        async with bench.session.post(f"{base}/api/auth/token/", json={"username": "bench-floor", "password": PASSWORD}) as r:
            token = (await r.json())["token"]
        bust_ms: list[float] = []
        floor = asyncio.create_task(bench.floor(stop_floor, bust_ms, token))
        print(f"server: python -m config.serve, {settings.WEB_CONCURRENCY} workers, DB_CONNECTIONS {cap}", flush=True)

        tic = time.monotonic()
        tally, (seats, screens, sockets) = await bench.rush(rush_players, window)
        rush_busts, rush_answers = list(bust_ms), list(bench.bust_answered_ms)
        print(
            f"\n1. the draw rush: {rush_players} players within {window:g} s, then 20 lobby TVs and 50 floor tablets "
            f"({time.monotonic() - tic:.0f} s)"
        )
        for kind in ("seat page", "seat JSON", "public API", "lobby page"):
            print("   " + tally.line(kind))
        socket_ms = tally.ms["seat socket"]
        print(
            f"   seat socket: handshake to its snapshot p50 {pct(socket_ms, 0.5):.1f} ms, p99 {pct(socket_ms, 0.99):.1f} ms; "
            f"seat JSON asked by {tally.refetched} pages (their snapshot's seats newer than the page's)"
        )
        refused = sum(tally.status[kind].get(429, 0) for kind in tally.status)
        print(
            f"   refused (429): {refused}"
            + (f" with every phone behind one address ({ONE_ADDRESS})" if one_address else "")
            + "  [target 0]"
        )
        print(
            f"   sockets connected: seat pages {seats}/{rush_players}, screens {screens}/70; "
            f"failed {tally.failures['seat socket'] + tally.failures['screen socket']}"
        )
        print(
            f"   bust -> its event on the floor socket during the rush: n={len(rush_busts)} "
            f"p50 {pct(rush_busts, 0.5):.1f} ms, p99 {pct(rush_busts, 0.99):.1f} ms  [target p99 < 500 ms]; "
            f"slowest {', '.join(f'{ms:.0f}' for ms in sorted(rush_busts)[-3:])} ms; the bust's answer alone: "
            f"p50 {pct(rush_answers, 0.5):.1f} ms, p99 {pct(rush_answers, 0.99):.1f} ms"
        )
        print(f"   most database connections seen so far: {bench.max_connections} (cap {cap})", flush=True)

        print(f"\n2. the stress, closed loop ({seconds:.0f} s per phase), with the rush's {len(sockets)} sockets still open:")
        for clients in steps:
            before = len(bust_ms)
            mix, spent = await bench.closed_loop(clients, ("seat JSON", "seat search", "lobby snapshot"), seconds)
            total = sum(len(v) for v in mix.ms.values())
            print(f"   {clients} clients, mixed: {total / spent:.0f} req/s; 503 without Retry-After: {mix.retry_after_missing}")
            for kind in ("seat JSON", "seat search", "lobby snapshot"):
                print("      " + mix.line(kind, spent))
            seat, seat_s = await bench.closed_loop(clients, ("seat JSON",), seconds / 2)
            trivial, trivial_s = await bench.closed_loop(clients, ("trivial view",), seconds / 2)
            seat_rate, trivial_rate = len(seat.ms["seat JSON"]) / seat_s, len(trivial.ms["trivial view"]) / trivial_s
            print("      " + seat.line("seat JSON", seat_s).replace("seat JSON      ", "seat JSON alone"))
            print("      " + trivial.line("trivial view", trivial_s))
            print(
                f"      seat JSON / trivial view: {seat_rate / trivial_rate:.2f} [target >= 0.5]; "
                f"bust p99 in this step {pct(bust_ms[before:], 0.99):.0f} ms",
                flush=True,
            )
        print(f"\nmost database connections seen: {bench.max_connections} (cap DB_CONNECTIONS {cap})")
        print(
            f"busts all run: n={len(bust_ms)} p50 {pct(bust_ms, 0.5):.1f} ms, p99 {pct(bust_ms, 0.99):.1f} ms; "
            f"floor requests refused or unanswered: {len(bench.floor_errors)} {sorted(set(bench.floor_errors))}"
        )
        stop_floor.set()
        await floor
        for ws in sockets:
            await ws.close()
    finally:
        stop_watch.set()
        await watcher
        await bench.session.close()
        await stop_server(server)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--rush", type=int, default=1_000, help="players opening their seat page after the draw")
    parser.add_argument("--steps", default="100,200,500,1000", help="closed-loop clients per stress step")
    parser.add_argument("--seconds", type=float, default=10, help="length of each stress phase")
    parser.add_argument("--window", type=float, default=30, help="seconds over which the rush's players arrive")
    parser.add_argument("--one-address", action="store_true", help="every phone behind one address (a venue's NAT)")
    parser.add_argument("--api", action="store_true", help="each phone of the rush also reads the public API twice")
    args = parser.parse_args()
    global one_address, api_reads
    one_address = args.one_address
    api_reads = args.one_address or args.api
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL: this bench measures the production stack.")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    from django.test.utils import get_runner, setup_test_environment

    settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = f"bench_load_{os.getpid()}"
    setup_test_environment()
    runner = get_runner(settings)(verbosity=0)
    old = runner.setup_databases()
    try:
        started = time.perf_counter()
        fixture = make_fixture(args.entries)
        from django.db import connections

        connections.close_all()
        print(f"entries: {args.entries}, tables: {fixture['tables']} x 9, set-up {time.perf_counter() - started:.1f} s")
        asyncio.run(run(fixture, args.rush, [int(s) for s in args.steps.split(",")], args.seconds, args.window))
    finally:
        wait_for_sessions_to_end()
        runner.teardown_databases(old)


if __name__ == "__main__":
    main()
