"""A phone's first second after the draw, part by part, and the phones one core serves a second.

Starts the production server command (`python -m config.serve`) with ONE worker process against PostgreSQL and
Redis, on a tournament of N entries (10,000 unless --entries says) just drawn, as bench/load.py does. A phone
that opens its seat page (static/js/seat-page.js) makes, in this order:
1. the page:      GET /s/<t>/<n>/ (its seat is in the page);
2. its files:     the stylesheets and scripts the page names, and the scripts' words (a first visit: none cached);
3. the socket:    /ws/s/<t>/, the handshake and its first message (the lobby snapshot);
4. the seat:      GET /s/<t>/<n>.json?v=<the snapshot's seq>, asked on the snapshot unless the page
                  already holds that version of its seat.
It prints, for each part:
- the time a phone waits for it on an idle server (p50 and p99 of --phones phones, one after the other);
- the server's processor time per request (the worker's user + system time from /proc, over --requests
  requests of that part made by 8 phones at a time), which is what a rush of phones queues behind;
then the processor time one phone's first load costs (files apart: a browser that visited once keeps them,
and a TLS proxy may serve them), and the phones a second one core serves: 1,000 ms / that.

Run by hand (it creates and drops its own database):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/phone.py [--entries 10000] [--phones 200] [--requests 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.conf import settings  # noqa: E402

from bench.load import SERVER_NAME, make_fixture, pct, start_server, stop_server  # noqa: E402
from bench.lobby_fanout import SERVER_SETTINGS, free_port, wait_for_sessions_to_end  # noqa: E402

settings.SECRET_KEY = SERVER_SETTINGS["SECRET_KEY"]
TICKS = os.sysconf("SC_CLK_TCK")
ASSET = re.compile(r'(?:src|href)="(/(?:static|jsi18n)/[^"]+)"')


def cpu_seconds(pid: int) -> float:
    """User + system time of a process and of the processes it started (uvicorn's workers, if any)."""
    total = 0.0
    for task in [pid, *_children(pid)]:
        try:
            fields = Path(f"/proc/{task}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / TICKS
    return total


def _children(pid: int) -> list[int]:
    found = []
    for path in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(path.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(path.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return found


class Phone:
    """One phone's first load, each part timed."""

    def __init__(self, session, base: str, tournament: int, number: int) -> None:
        self.session, self.base, self.t, self.n = session, base, tournament, number
        self.headers = {"X-Forwarded-For": f"10.{(number >> 16) & 255}.{(number >> 8) & 255}.{number & 255}"}

    async def get(self, path: str) -> tuple[int, bytes]:
        async with self.session.get(self.base + path, headers=self.headers) as r:
            return r.status, await r.read()

    async def page(self) -> tuple[int, str]:
        status, body = await self.get(f"/s/{self.t}/{self.n}/")
        return status, body.decode()

    async def socket(self) -> tuple[object, dict]:
        import websockets

        ws = await websockets.connect(
            self.base.replace("http", "ws", 1) + f"/ws/s/{self.t}/", origin=self.base, additional_headers=self.headers, max_size=None
        )
        return ws, json.loads(await ws.recv())

    async def seat(self, seq: int | None) -> int:
        return (await self.get(f"/api/public/tournaments/{self.t}/seats/{self.n}/" + (f"?v={seq}" if seq is not None else "")))[0]


async def first_loads(session, base: str, fixture: dict, phones: int) -> dict[str, list[float]]:
    """Phones one after the other on an idle server: each part's wait."""
    times: dict[str, list[float]] = {k: [] for k in ("page", "files", "socket + snapshot", "seat JSON", "first load")}
    rng = random.Random(7)
    for number in rng.sample(range(1, fixture["entries"] + 1), phones):
        phone = Phone(session, base, fixture["tournament"], number)
        start = tic = time.perf_counter()
        status, html = await phone.page()
        assert status == 200, status
        times["page"].append((time.perf_counter() - tic) * 1000)
        tic = time.perf_counter()
        await asyncio.gather(*(phone.get(path) for path in set(ASSET.findall(html))))
        times["files"].append((time.perf_counter() - tic) * 1000)
        tic = time.perf_counter()
        ws, snapshot = await phone.socket()
        times["socket + snapshot"].append((time.perf_counter() - tic) * 1000)
        tic = time.perf_counter()
        assert await phone.seat(snapshot.get("seq")) == 200
        times["seat JSON"].append((time.perf_counter() - tic) * 1000)
        times["first load"].append((time.perf_counter() - start) * 1000)
        await ws.close()
    return times


async def processor_time(session, base: str, fixture: dict, pid: int, requests: int) -> dict[str, float]:
    """The worker's processor time per request of each part, 8 phones at a time."""
    rng = random.Random(11)
    numbers = [rng.randint(1, fixture["entries"]) for _ in range(requests)]
    probe = Phone(session, base, fixture["tournament"], numbers[0])
    _status, html = await probe.page()
    files = sorted(set(ASSET.findall(html)))
    ws, snapshot = await probe.socket()
    await ws.close()
    seq = snapshot.get("seq")

    async def run(make) -> float:
        queue = list(numbers)
        before = cpu_seconds(pid)

        async def worker():
            while queue:
                await make(Phone(session, base, fixture["tournament"], queue.pop()))

        await asyncio.gather(*(worker() for _ in range(8)))
        await asyncio.sleep(0.3)  # the sockets' closing handshakes
        return (cpu_seconds(pid) - before) * 1000 / requests

    async def socket(phone):
        ws, _snapshot = await phone.socket()
        await ws.close()

    async def all_files(phone):
        for path in files:
            await phone.get(path)

    return {
        "page": await run(lambda phone: phone.page()),
        "files": await run(all_files),
        "socket + snapshot": await run(socket),
        "seat JSON": await run(lambda phone: phone.seat(seq)),
        "trivial view": await run(lambda phone: phone.get("/robots.txt")),
    }, len(files)


async def run(fixture: dict, phones: int, requests: int) -> None:
    import aiohttp

    os.environ["WEB_CONCURRENCY"] = "1"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = await start_server(fixture, port)
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0), cookie_jar=aiohttp.DummyCookieJar())
    try:
        times = await first_loads(session, base, fixture, phones)
        cpu, file_count = await processor_time(session, base, fixture, server.pid, requests)
        print(f"\na phone's first load on an idle server ({phones} phones, one after the other):")
        for part, values in times.items():
            print(f"   {part:<18} p50 {pct(values, 0.5):7.1f} ms  p99 {pct(values, 0.99):7.1f} ms")
        print(f"\nthe server's processor time per request (one worker, {requests} requests of each, 8 at a time):")
        for part, ms in cpu.items():
            extra = f" (all {file_count} files of a page)" if part == "files" else ""
            print(f"   {part:<18} {ms:6.2f} ms{extra}")
        phone_ms = cpu["page"] + cpu["socket + snapshot"] + cpu["seat JSON"]
        print(
            f"\none phone's first load (page, socket and snapshot, seat JSON): {phone_ms:.2f} ms of one core: "
            f"{1000 / phone_ms:.0f} phones a second per core"
        )
        print(
            f"with its files too (a first visit, files served by the server): {phone_ms + cpu['files']:.2f} ms: "
            f"{1000 / (phone_ms + cpu['files']):.0f} phones a second per core"
        )
    finally:
        await session.close()
        await stop_server(server)


def measure(args) -> None:
    try:
        started = time.perf_counter()
        fixture = make_fixture(args.entries)
        from django.db import connections

        connections.close_all()
        print(
            f"entries: {args.entries}, tables: {fixture['tables']} x 9, set-up {time.perf_counter() - started:.1f} s; "
            f"server: one worker ({SERVER_NAME})"
        )
        asyncio.run(run(fixture, args.phones, args.requests))
    finally:
        wait_for_sessions_to_end()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--phones", type=int, default=200, help="phones timed one after the other")
    parser.add_argument("--requests", type=int, default=2_000, help="requests per part for the processor time")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL: this bench measures the production stack.")
    import django

    django.setup()
    from bench.common import in_own_database

    in_own_database("phone", measure, args)


if __name__ == "__main__":
    main()
