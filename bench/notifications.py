"""Notifications after a draw at festival scale: the start draws of events whose N players each (default 5,000) all opted
in on their phones, one after another (default 3 rounds, for enough busts during the sending), while the floor busts
players in another event of the room.

Real processes: the bench (the floor: the draw and the busts, through the services), a Celery worker (one process,
`--concurrency 1`: the other core stays the floor's) on Redis, both on one PostgreSQL database, and a push service
stand-in: an HTTPS server on 127.0.0.1 (a certificate made for the run, which the worker trusts through
REQUESTS_CA_BUNDLE) that answers 201 to every message and counts them. Each message is what a phone receives: VAPID-
signed by the server and encrypted to that phone's keys (P-256, made here as a browser makes them).

Measured:
- the start draw (the floor's request: it only schedules the notifications, after its commit);
- how long until the push service has received all N messages (target: within 30 s);
- the floor's bust at the other event's tables (p50, p99), first with the worker idle, then while it sends (target: p99
  during at most 1.2 x without, in the same run). The worker runs as docker-compose.yml runs it, at a lower CPU priority
  than the floor's (nice 10); the stand-in, another company's service in a room, at the lowest (nice 19).

Run by hand (PostgreSQL and Redis needed: the worker is another process; a Redis database of its own, whose queue the
run empties first):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379/5 \\
        .venv/bin/python bench/notifications.py [players=5000] [floor_players=1000] [busts=300] [rounds=3] [seed=1]
"""

from __future__ import annotations

import base64
import datetime as dt
import gc
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
ROOT = Path(__file__).resolve().parents[1]

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

STAND_IN = r"""
import http.server, ssl, sys, threading, time
count, last = 0, 0.0
lock = threading.Lock()
class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args):
        pass
    def do_POST(self):
        global count, last
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with lock:
            count += 1
            last = time.time()
        self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()
    def do_GET(self):
        body = f"{count} {last}".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(sys.argv[2], sys.argv[3])
server.socket = context.wrap_socket(server.socket, server_side=True)
print("ready", flush=True)
server.serve_forever()
"""


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for localhost: the stand-in's, and the one the worker trusts."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return cert_path, key_path


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def populate(players: int, floor_players: int, rounds: int, port: int):
    """`rounds` events (`players` entries each, every one with a phone opted in, not drawn yet) and the floor's event
    (`floor_players` entries drawn at its own tables: the floor busts there)."""
    from django.contrib.auth.models import Group, User

    from bench.common import paid_field, staff_and_tournament
    from tables.models import Table
    from tables.services import draws
    from tournament.services import setup

    director, cashier, first = staff_and_tournament()
    floor = User.objects.create_user("bench-floor")
    floor.groups.add(Group.objects.get_or_create(name="Floor")[0])
    per_event = -(-players // 9)

    def event(name: str, n: int, k: int, existing=None):
        t = existing or setup.create_tournament(
            {
                "name": name,
                "venue": "Bench",
                "time_zone": "Europe/Prague",
                "start_at": first.start_at,
                "seats_per_table": 9,
                "currency": "EUR",
                "buy_in": 10000,
                "fee": 1000,
                "starting_stack": 20000,
            },
            actor=director,
            template=first.structure,
        )
        paid_field(t, cashier, n, first_player=k * players)
        count = -(-n // 9)
        Table.objects.bulk_create([Table(tournament=t, number=k * per_event + j, seats=9, break_order=-j) for j in range(1, count + 1)])
        return t

    events = [event(f"Bench event {k + 1}", players, k, first if k == 0 else None) for k in range(rounds)]
    for k, t in enumerate(events):
        opted_in(t, port, k)
    other = event("Bench side event", floor_players, rounds)
    draws.draw_start(other, actor=director)
    return director, floor, events, other


def opted_in(t, port: int, k: int) -> None:
    """Every entry of t with a phone opted in: a key pair made as a browser makes it (P-256) and 16 auth bytes each."""
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    from django.utils import timezone

    from notify.models import PushSubscription
    from tournament.models import Entry

    def b64(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    now = timezone.now()
    rows = []
    for entry_id, number in Entry.objects.filter(tournament=t).values_list("pk", "number"):
        point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        rows.append(
            PushSubscription(
                tournament=t,
                entry_id=entry_id,
                endpoint=f"https://localhost:{port}/push/{k}/{number}",
                p256dh=b64(point),
                auth=b64(os.urandom(16)),
                language="en-gb",
                created_at=now,
            )
        )
    PushSubscription.objects.bulk_create(rows, batch_size=2000)


def worker(env: dict) -> subprocess.Popen:
    process = subprocess.Popen(
        # As docker-compose.yml runs it: below the web server's CPU priority (nice 10).
        ["nice", "-n", "10", str(ROOT / ".venv/bin/celery"), "-A", "config", "worker", "--concurrency", "1", "-l", "warning"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    from config.celery import app

    for _ in range(120):
        if app.control.ping(timeout=0.5):
            return process
        if process.poll() is not None:
            raise SystemExit("the Celery worker did not start: " + process.stderr.read().decode()[-2000:])
    raise SystemExit("the Celery worker did not answer")


POLL = None


def received(port: int, cert: Path) -> tuple[int, float]:
    """What the push service has received so far, and when the last came (one kept-alive connection)."""
    global POLL
    import requests

    if POLL is None:
        POLL = requests.Session()
    count, last = POLL.get(f"https://localhost:{port}/count", verify=str(cert), timeout=5).text.split()
    return int(count), float(last)


def busts(other, floor, rng: random.Random, n: int, times: list[float]) -> None:
    from core.errors import ServiceError
    from tables.models import Seat, Table
    from tables.services import busts as bust_services

    tables = list(Table.objects.filter(tournament=other, in_play=True).values_list("pk", flat=True))
    for _ in range(n):
        seats = list(Seat.objects.filter(table_id=rng.choice(tables), ended_at__isnull=True).select_related("entry"))
        if len(seats) < 2:
            continue
        gc.collect()
        started = time.perf_counter()
        try:
            bust_services.bust_entry(rng.choice(seats).entry, actor=floor)
        except ServiceError:
            continue
        times.append((time.perf_counter() - started) * 1000)


def run(players: int, floor_players: int, bust_count: int, rounds: int, seed: int) -> None:
    from django.db import connection

    from notify.rules.keys import make_pair
    from tables.services import draws

    rng = random.Random(seed)
    folder = Path(tempfile.mkdtemp(prefix="bench-push-"))
    cert, key = certificate(folder)
    port = free_port()
    # The push service is another company's, far away: here its stand-in takes as little of this machine as it can.
    stand_in = subprocess.Popen(
        ["nice", "-n", "19", sys.executable, "-c", STAND_IN, str(port), str(cert), str(key)], stdout=subprocess.PIPE
    )
    assert stand_in.stdout.readline().strip() == b"ready"
    started = time.perf_counter()
    director, floor, events, other = populate(players, floor_players, rounds, port)
    took = time.perf_counter() - started
    print(f"fixture: {rounds} events of {players} players opted in (not drawn), {floor_players} seated in the floor's {took:.1f} s")
    private, public = make_pair()
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "REQUESTS_CA_BUNDLE": str(cert),
        "WEBPUSH_VAPID_PRIVATE_KEY": private,
        "WEBPUSH_VAPID_PUBLIC_KEY": public,
        "WEBPUSH_VAPID_SUBJECT": "mailto:bench@localhost",
    }
    settings.WEBPUSH_VAPID_PRIVATE_KEY, settings.WEBPUSH_VAPID_PUBLIC_KEY = private, public
    from config.celery import app

    app.control.purge()  # tasks an earlier run left in this Redis database are not this run's
    process = worker(env)
    idle: list[float] = []
    during: list[float] = []
    rows = []
    try:
        busts(other, floor, rng, bust_count, idle)
        for k, event in enumerate(events):
            expected = players * (k + 1)
            drawn, drawn_wall = time.perf_counter(), time.time()
            draws.draw_start(event, actor=director)  # its commit schedules the notifications (notify/reactions.py)
            draw_ms = (time.perf_counter() - drawn) * 1000
            count = 0
            while count < expected and time.perf_counter() - drawn < 300:
                busts(other, floor, rng, 10, during)  # the floor goes on while the worker sends
                count, last = received(port, cert)
            for _ in range(50):  # the last messages in flight
                count, last = received(port, cert)
                if count >= expected:
                    break
                time.sleep(0.2)
            rows.append((k + 1, draw_ms, count - players * k, last - drawn_wall))
            busts(other, floor, rng, bust_count // rounds, idle)  # the worker idle again
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
        stand_in.terminate()
    print(f"{'start draw':<12}{'draw ms':>9}{'messages':>10}{'last received (s after the draw)':>36}")
    for k, draw_ms, got, sent_in in rows:
        print(f"{k:<12}{draw_ms:>9.0f}{got:>10}{sent_in:>36.1f}")
    print(f"all {players} messages of a draw received within: {max(r[3] for r in rows):.1f} s  [target <= 30 s]")
    p99_idle, p99_during = pct(idle, 0.99), pct(during, 0.99)
    print(f"{'floor bust':<28}{'count':>7}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for name, values in (("worker idle", idle), ("while it sends", during)):
        print(f"{name:<28}{len(values):>7}{pct(values, 0.5):>9.1f}{pct(values, 0.99):>9.1f}{max(values):>9.1f}")
    print(f"bust p99 while sending / idle: {p99_during / p99_idle:.2f}  [target <= 1.2]")


def main() -> None:
    from bench.common import in_own_database

    if not settings.DATABASES["default"]["ENGINE"].endswith("postgresql") or not os.environ.get("REDIS_URL"):
        raise SystemExit("bench/notifications.py needs DATABASE_URL (PostgreSQL) and REDIS_URL: the worker is another process")
    args = [int(a) for a in sys.argv[1:]]
    players, floor_players, bust_count, rounds, seed = (args + [5_000, 1_000, 300, 3, 1][len(args) :])[:5]
    in_own_database("notifications", run, players, floor_players, bust_count, rounds, seed)


if __name__ == "__main__":
    main()
