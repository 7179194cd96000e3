"""The database lost for a moment (docs/operating.md, "The database lost for a moment").

A PostgreSQL cluster of the test's own (tests/resilience/cluster.py: initdb and pg_ctl on a free port and
a temporary folder, never the machine's shared cluster), migrated by the production web command
(tests/production.py: compose's command and environment, DEBUG=0) and the clock's ticker as production
runs it: Celery beat and a worker (compose's commands) when there is a Redis, else the web process's own.
A tournament is played to the money: a bust, a prize payment (the ID typed again, a signature) and a
table's chip race confirm can be pressed.

For each of the three, the press is held in the middle of its transaction (the test locks the table of its
last write: its other writes are made, uncommitted), and the cluster is stopped there with
`pg_ctl stop -m immediate` (a crash: no backend finishes). Then:
- the press answers 503 with Retry-After, "The database is unavailable: try again in a moment." in the
  API's error shape, and so does the same press sent again while the database is down (the error now comes
  from opening a connection); a screen (the cashier's pay page) answers the same words as a plain page;
  never a 500;
- once the cluster is back, nothing of the press is there (no half-written change), and the same press
  with its Idempotency-Key (as static/js/api.js retries one) goes through on its first try and is applied
  exactly once: one bust event, one payment, one race confirmed; a further retry is the stored answer;
- the server is the same process throughout, and the clock recovers by itself: its ticker fails while the
  database is down, and a level end that fell due then is announced by the same ticker once it is back, once.
It prints how many seconds the room was without writes in each outage (from the stop to the first write
that went through), and checks a bound.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import http.client
import json
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import pytest

from tests import production
from tests.conftest import PASSWORD
from tests.payouts.test_payments import signature
from tests.resilience.cluster import bindir, own_cluster, wait_until
from tests.resilience.room import room_start

BINARIES = bindir()
UNAVAILABLE = "The database is unavailable: try again in a moment."
RECOVERY_BOUND = 10.0  # seconds from the database back to the room's first write, at most (measured: under 1)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(BINARIES is None, reason="no PostgreSQL server binaries (initdb, pg_ctl) on this machine"),
]

# The room, made through the services in the production environment: eight players at one table, four paid,
# the first five out (places 8 to 4), registration closed, the break's color-up confirmed and table 1's race
# recorded, the clock running; a session of the cashier for her screens. What the test needs is written to ROOM.
PREPARE = (
    room_start("EA", "Lost")
    + """
import json
from django.test import Client
from tables.services import color_ups
from tables.models import Table
from tables.selectors.color_ups import table_race
from tournament.models import Level
for entry in entries[:5]:
    busts.bust_entry(entry, actor=floor)
registration.set_registration_closed(t, actor=director, closed=True)
color_up = color_ups.confirm_color_up(t, actor=director, level=Level.objects.get(structure=t.structure, kind="break").position)
table = Table.objects.get(tournament=t, number=1)
seats = {str(p["seat"]): {"chips": {"25": 3}, "other": None} for p in table_race(table)["players"]}
color_ups.record_race(table, actor=floor, color_up=color_up, seats=seats)
clock.start_clock(t, actor=director)
client = Client()
client.force_login(cashier)
Path(ROOM).write_text(json.dumps({"tournament": t.pk, "session": client.cookies["sessionid"].value}))
"""
)


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes
    at: float = field(default_factory=time.monotonic)  # when it arrived

    def json(self):
        return json.loads(self.body)


class Room:
    """HTTP to the production server as the TLS proxy passes it on (Host localhost, X-Forwarded-Proto https)."""

    def __init__(self, port: int, tournament: int) -> None:
        self.port, self.tournament = port, tournament
        self.tokens: dict[str, str] = {}

    def call(
        self, method: str, path: str, body: dict | None = None, *, who: str = "", key: str = "", cookie: str = "", timeout: float = 90
    ) -> Answer:
        headers = {"Host": "localhost", "X-Forwarded-Proto": "https", "Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if who:
            headers["Authorization"] = f"Token {self.tokens[who]}"
        if key:
            headers["Idempotency-Key"] = key
        if cookie:
            headers["Cookie"] = cookie
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, None if body is None else json.dumps(body), headers=headers)
            response = connection.getresponse()
            return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
        finally:
            connection.close()

    def sign_in(self, who: str) -> None:
        answer = self.call("POST", "/api/auth/token/", {"username": who, "password": PASSWORD})
        assert answer.status == 200, answer.body
        self.tokens[who] = answer.json()["token"]


@dataclass
class Press:
    name: str
    who: str
    path: str
    body: dict | None
    hold: str  # the table of the press's last write: locked, the press waits there with its other writes made
    waits_on: str  # what its statement waiting on that lock says
    wrote: tuple[str, ...]  # tables the press has written (uncommitted) by then
    count: str  # SQL: how many times the press is applied (one row once it is)
    key: str = field(default_factory=lambda: str(uuid.uuid4()))


def query(url: str, sql: str, *args):
    """The first column of the first row (None without one), on a connection of its own."""
    with psycopg.connect(url, autocommit=True, connect_timeout=10) as db:
        row = db.execute(sql, args).fetchone()
    return row[0] if row else None


ROOM_STATE = """SELECT json_build_array(
    (SELECT max(seq) FROM tournament_auditevent WHERE tournament_id = %(t)s AND type NOT LIKE 'clock.%%'),
    (SELECT string_agg(number || ':' || status, ',' ORDER BY number) FROM tournament_entry WHERE tournament_id = %(t)s),
    (SELECT count(*) FROM tables_seat WHERE tournament_id = %(t)s AND ended_at IS NULL),
    (SELECT count(*) FROM payouts_payment WHERE tournament_id = %(t)s), (SELECT count(*) FROM tournament_idcheck),
    (SELECT string_agg(status, ',' ORDER BY id) FROM tables_chiprace),
    (SELECT count(*) FROM tournament_chipadjustment WHERE tournament_id = %(t)s),
    (SELECT count(*) FROM web_idempotencykey))::text"""


def room_state(url: str, tid: int) -> str:
    """What a press may change (the ticker's clock events apart): events, entries, seats, payments, ID checks,
    races, chip adjustments, the presses' keys."""
    with psycopg.connect(url, autocommit=True, connect_timeout=10) as db:
        return db.execute(ROOM_STATE, {"t": tid}).fetchone()[0]


def waiting(monitor: psycopg.Connection, press: Press) -> int | None:
    """The backend of the press, once it waits on the held lock (else None)."""
    row = monitor.execute(
        "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE %s", (f"%{press.waits_on}%",)
    ).fetchone()
    return row[0] if row else None


def written(monitor: psycopg.Connection, pid: int) -> set[str]:
    """The tables a backend's open transaction has written to (its row-exclusive locks)."""
    rows = monitor.execute(
        "SELECT relation::regclass::text FROM pg_locks WHERE pid = %s AND mode = 'RowExclusiveLock' AND locktype = 'relation'", (pid,)
    ).fetchall()
    return {name for (name,) in rows}


def assert_unavailable(answer: Answer, api: bool = True) -> None:
    assert answer.status == 503, (answer.status, answer.body[:2000])
    assert int(answer.headers["retry-after"]) > 0
    if api:
        assert answer.headers["content-type"].startswith("application/json")
        assert answer.json() == {"error": "database_unavailable", "detail": UNAVAILABLE, "problems": [UNAVAILABLE]}
    else:
        assert answer.headers["content-type"].startswith("text/plain")
        assert answer.body.decode() == UNAVAILABLE


@dataclass
class Outage:
    name: str
    down: float  # seconds from the stop to the first write that went through
    recovery: float  # seconds from the database back (pg_ctl start returned) to that write


def lose_the_database(
    room: Room, cluster, url: str, press: Press, *, page: str = "", cookie: str = "", stay_down_until: float = 0.0
) -> Outage:
    """Stop the cluster while `press` is in the middle of its transaction; the answers while it is down;
    start it again: nothing of the press is there; the press again with its key goes through, applied once."""
    before, state = query(url, press.count), room_state(url, room.tournament)
    holder = psycopg.connect(url, connect_timeout=10)  # a transaction: its lock holds until the stop
    monitor = psycopg.connect(url, autocommit=True, connect_timeout=10)
    with concurrent.futures.ThreadPoolExecutor(1) as pool, contextlib.closing(holder), contextlib.closing(monitor):
        holder.execute(f"LOCK TABLE {press.hold} IN SHARE MODE")  # its inserts wait; reads go on
        sent = pool.submit(room.call, "POST", press.path, press.body, who=press.who, key=press.key)
        pid = wait_until(lambda: waiting(monitor, press) or sent.done(), 120, f"{press.name} waits on {press.hold}")
        assert not sent.done(), f"{press.name} answered before its last write: {sent.result()}"
        assert set(press.wrote) <= written(monitor, pid), written(monitor, pid)  # half-written, uncommitted
        assert time.time() < stay_down_until - 1 or not stay_down_until, "the level end came before the stop: a slow machine"
        stopped = time.monotonic()
        cluster.stop("immediate")
        assert_unavailable(sent.result(timeout=120))  # the press in flight: its connection lost
    assert_unavailable(room.call("POST", press.path, press.body, who=press.who, key=press.key))  # no connection at all
    if page:
        assert_unavailable(room.call("GET", page, cookie=cookie), api=False)  # a screen: a plain page
    while time.time() < stay_down_until:  # the clock's level end falls due while the database is down
        time.sleep(0.2)
    cluster.start()
    back = time.monotonic()
    assert room_state(url, room.tournament) == state, f"{press.name}: half-written"  # the crash rolled it all back
    assert query(url, "SELECT count(*) FROM web_idempotencykey WHERE key = %s", press.key) == 0
    # The first try goes through: the pool drops the connections the database lost (checked before use) and
    # opens a new one at once (its reconnection backoff is short: config/settings.py, DB_POOL_RECONNECT).
    first = room.call("POST", press.path, press.body, who=press.who, key=press.key)
    assert first.status in (200, 201) and "idempotent-replayed" not in first.headers, (first.status, first.body[:2000])
    again = room.call("POST", press.path, press.body, who=press.who, key=press.key)
    assert (again.status, again.headers.get("idempotent-replayed"), again.json()) == (first.status, "true", first.json())
    assert query(url, press.count) == before + 1, f"{press.name}: not applied exactly once"
    outage = Outage(press.name, first.at - stopped, first.at - back)
    print(
        f"\nthe database lost at the {outage.name}: the room was {outage.down:.1f} s without writes "
        f"(the database down {back - stopped:.1f} s, then {outage.recovery:.1f} s to the first write)"
    )
    return outage


@contextlib.contextmanager
def ticker(env: dict[str, str], folder: Path):
    """The clock's ticker as production runs it: with Redis, compose's Celery beat and worker; without, the web
    process's own (clock/ticker.py). Yields the logs of the processes started here."""
    if not env.get("REDIS_URL"):
        yield []
        return
    with (
        production.compose_service("worker", env, folder, "ready.") as worker,
        production.compose_service("beat", env, folder, "beat: Starting") as beat,
    ):
        yield [worker, beat]


def test_a_bust_a_payment_and_a_race_confirm_ride_out_the_database_lost_for_a_moment(tmp_path):
    room_file = tmp_path / "room.json"
    with own_cluster(BINARIES) as cluster:
        url = cluster.create_database("poker")
        with (
            production.web_server(tmp_path, prepare=f"ROOM = {str(room_file)!r}\n{PREPARE}", database_url=url) as (port, env),
            ticker(env, tmp_path / "ticker") as logs,
        ):
            made = json.loads(room_file.read_text())
            tid, cookie = made["tournament"], f"sessionid={made['session']}"
            room = Room(port, tid)
            for who in ("dir", "floor", "cash"):
                room.sign_in(who)
            api = f"/api/tournaments/{tid}"
            events = f"SELECT count(*) FROM tournament_auditevent WHERE tournament_id = {tid} AND type = %s"
            presses = [
                Press(
                    "bust",
                    "floor",
                    f"{api}/entries/6/bust/",
                    {},
                    hold="tournament_auditevent",
                    waits_on="entry.busted",
                    wrote=("web_idempotencykey", "tournament_entry", "tables_seat"),
                    count=events.replace("%s", "'entry.busted'") + " AND (payload->>'entry')::int = 6",
                ),
                Press(
                    "payment",
                    "cash",
                    f"{api}/entries/5/payout/",
                    {"document_type": "id_card", "document_number": "EA0000004", "signature": signature()},
                    hold="tournament_auditevent",
                    waits_on="payout.paid",
                    wrote=("web_idempotencykey", "payouts_payment", "tournament_idcheck"),
                    count=f"SELECT count(*) FROM payouts_payment WHERE tournament_id = {tid} AND status = 'paid'",
                ),
                Press(
                    "race confirm",
                    "floor",
                    f"{api}/tables/1/race/confirm/",
                    None,
                    hold="tournament_chipadjustment",
                    waits_on='INSERT INTO "tournament_chipadjustment"',
                    wrote=("web_idempotencykey", "tables_chiprace"),
                    count=f"SELECT count(*) FROM tables_chiprace WHERE status = 'confirmed' AND table_id IN "
                    f"(SELECT id FROM tables_table WHERE tournament_id = {tid})",
                ),
            ]
            bust, payment, race = presses
            outages = [
                lose_the_database(room, cluster, url, bust),
                lose_the_database(room, cluster, url, payment, page=f"/t/{tid}/payouts/pay/5/", cookie=cookie),
            ]

            # The clock: level 1 made to end 20 s from now, with the race confirm's outage; the ticker announces
            # the new level once the database is back (it fell due while the database was down).
            level_started = events.replace("%s", "'clock.level_started'")
            assert query(url, level_started) == 0
            clock = room.call("GET", f"{api}/clock/", who="dir").json()
            left = clock["current"]["remaining"] - (time.time() - clock["server_time"])
            ending = room.call(
                "POST", f"{api}/clock/", {"action": "adjust", "seconds": -(int(left) - 20)}, who="dir", key=str(uuid.uuid4())
            )
            assert ending.status == 200, ending.body
            ends_at = ending.json()["current"]["ends_at"]
            outages.append(lose_the_database(room, cluster, url, race, stay_down_until=ends_at + 1))
            assert query(url, level_started) in (0, 1)  # the ticker may have announced it already

            announced = wait_until(
                lambda: query(
                    url, f"SELECT payload FROM tournament_auditevent WHERE tournament_id = {tid} AND type = 'clock.level_started'"
                ),
                60,
                "the level change",
            )
            assert (announced["index"], announced["at"]) == (1, pytest.approx(ends_at, abs=1e-3))
            assert announced["late_by"] >= 1  # it fell due while the database was down
            assert (
                query(url, f"SELECT actor_label FROM tournament_auditevent WHERE tournament_id = {tid} AND type = 'clock.level_started'")
                == "clock"
            )
            now = room.call("GET", f"{api}/clock/", who="dir").json()
            assert now["current"]["index"] == 1
            time.sleep(2)  # a couple more ticks: still announced once
            assert query(url, level_started) == 1

            # One press each, and the server, beat and worker the same processes throughout.
            assert query(url, bust.count) == 1 and query(url, payment.count) == 1 and query(url, race.count) == 1
            assert query(url, "SELECT count(*) FROM tournament_chipadjustment WHERE tournament_id = %s AND kind = 'race'", tid) == 1
            server_log = (tmp_path / "server.log").read_text(errors="replace")
            assert server_log.count("Started server process") == 1, server_log[-3000:]
            assert "Internal Server Error" not in server_log and server_log.count("Service Unavailable: ") == 7
            # A request failed by the database away is one line, never a traceback (config/logmask.DatabaseDown).
            assert server_log.count("the database is unavailable (") >= 7 and "Traceback" not in server_log, server_log[-3000:]
            if logs:  # Celery: one worker and one beat started, and the worker's ticks failed while the database was down
                worker, beat = (log.read_text(errors="replace") for log in logs)
                assert worker.count(" ready.") == 1 and beat.count("beat: Starting") == 1
                assert "Task clock.tick" in worker and "raised unexpected: OperationalError" in worker, worker[-3000:]
            else:  # the web process's own ticker
                assert "clock tick failed" in server_log
    for outage in outages:
        assert outage.recovery < RECOVERY_BOUND, outage
        assert outage.down < 180, outage
