"""One room, many tournaments: 8 tournaments at once in a venue of 200 tables, 5,000 entries in all.

The venue's 200 tables are read from a room file (a Main hall of 120 tables, a Side room of 80); the 8 fields are
registered in bulk, 70 % of each already out (a room of 200 tables seats about 1,800 at once: the afternoon of a day of
5,000 entries), so each start draw seats the 30 % still in. The first tournament's start draw runs alone, then the
other 7 start draws run at the same moment, each in a process of its own (as the web server's workers are), each
taking its tables from the venue. Then the room map is read through the API, and the floor busts players round the
room: one bust in the first tournament, then one in each other, each bust's slips confirmed, tables breaking and going
back to the venue as they empty.

The same first tournament is played in a venue of its own too (the same run, another database): its busts there are
the "alone" figure the room's are held to.

Printed: each draw's time and the time it spent taking its tables; whether any table was held twice; the room map's
p50/p99 and its number of queries (with one tournament and with eight); the first tournament's bust p50/p99 alone and
among the eight, and their ratio. Targets (docs/room.md): room map p99 < 150 ms in a number of queries that does not
grow with the tournaments; the bust ratio <= 1.2; concurrent draws take their tables in < 500 ms and never share one.

Run by hand against PostgreSQL (its own databases, dropped afterwards):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/room.py [BUSTS=150]
"""

from __future__ import annotations

import os
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

FIELDS = (1500, 900, 700, 600, 500, 400, 250, 150)  # 5,000 entries in 8 tournaments
STILL_IN = 0.3  # the share of each field still playing (a room of 200 tables seats about 1,800): the rest busted already
ROOM = "number,area,seats\n" + "\n".join(f"{n},{'Main hall' if n <= 120 else 'Side room'},{10 if n % 5 == 0 else 9}" for n in range(1, 201))
MAP_READS = 200


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def line(name: str, values: list[float]) -> str:
    return f"{name:<40} n={len(values):>4}  p50 {pct(values, 0.5):7.1f} ms  p99 {pct(values, 0.99):7.1f} ms  max {max(values):7.1f} ms"


def staff():
    from django.contrib.auth.models import Group, User

    def user(name: str, role: str):
        u = User.objects.create_user(f"room-{name}")
        u.groups.add(Group.objects.get_or_create(name=role)[0])
        return u

    return user("director", "Director"), user("cashier", "Cashier"), user("floor", "Floor")


def tournaments(director, count: int) -> list:
    from tournament.rules.structure import LevelSpec, StructureSpec
    from tournament.services import setup

    spec = StructureSpec("Room", ((25, "green"), (100, "black")), (LevelSpec("level", 20, 100, 200),))
    template = setup.save_structure_template(spec, actor=director)
    common = {"venue": "Bench", "time_zone": "Europe/Prague", "start_at": datetime(2026, 12, 1, 18, tzinfo=UTC), "currency": "EUR"}
    return [
        setup.create_tournament(
            {**common, "name": f"Event {i + 1}", "seats_per_table": 9, "buy_in": 10000, "fee": 1000, "starting_stack": 20000},
            actor=director,
            template=template,
        )
        for i in range(count)
    ]


def timed_take_free(took: list[tuple[int, float]]):
    """tables.services.venue.take_free with a timer (the draws call it through the module): (tournament, ms)."""
    from tables.services import venue

    original = venue.take_free

    def take_free(t, **kwargs):
        start = time.perf_counter()
        try:
            return original(t, **kwargs)
        finally:
            took.append((t.pk, (time.perf_counter() - start) * 1000))

    venue.take_free = take_free
    return lambda: setattr(venue, "take_free", original)


def draws_at_once(events: list, director) -> tuple[list[tuple[int, float, object]], list[tuple[int, float]]]:
    """Each start draw in a process of its own (as the web server's workers are), released at the same moment:
    (tournament, ms, refusal) for each, and (tournament, ms) for the time each spent taking its tables."""
    import multiprocessing

    from django import db

    from tables.services import draws

    db.connections.close_all()  # each process opens its own connection
    if hasattr(db.connection, "close_pool"):
        db.connection.close_pool()  # and its own pool: a pool's threads do not cross a fork
    context = multiprocessing.get_context("fork")
    barrier, answers = context.Barrier(len(events)), context.Queue()

    def work(t):
        took: list[tuple[int, float]] = []
        timed_take_free(took)
        barrier.wait()
        start = time.perf_counter()
        error = None
        try:
            draws.draw_start(t, actor=director)
        except Exception as exc:  # printed: a draw refused is a finding
            error = str(exc)
        answers.put(((t.pk, (time.perf_counter() - start) * 1000, error), took))
        db.connections.close_all()

    processes = [context.Process(target=work, args=(t,)) for t in events]
    for process in processes:
        process.start()
    out, took = [], []
    for _ in processes:
        one, times = answers.get(timeout=300)
        out.append(one)
        took += times
    for process in processes:
        process.join()
    return out, took


def map_reads(venue, floor) -> tuple[list[float], int]:
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIClient

    times = []
    queries = 0
    for i in range(MAP_READS):
        client = APIClient()
        client.force_authenticate(User.objects.get(pk=floor.pk))  # a fresh login each time: roles read again
        connection.queries_log.clear()  # the log keeps 9,000 queries: a full log counts none
        with CaptureQueriesContext(connection) as ctx:
            start = time.perf_counter()
            answer = client.get(f"/api/venues/{venue.pk}/")
            times.append((time.perf_counter() - start) * 1000)
        assert answer.status_code == 200, answer.content
        queries = len(ctx.captured_queries) if i == 0 else queries
    return times, queries


def confirm_slips(t, floor) -> None:
    from tables.models import Move
    from tables.services import moves

    while pending := list(
        Move.objects.filter(tournament=t, status=Move.Status.PENDING).order_by("number").values_list("number", flat=True)
    ):
        for number in pending:
            moves.confirm_move(t, actor=floor, number=number)


def bust_one(t, floor, rng: random.Random) -> float | None:
    from tables.selectors.state import live_seats
    from tables.services import busts
    from tournament.models import Entry

    seated = list(live_seats(t).values_list("entry_id", flat=True))
    if len(seated) < 3:
        return None
    entry = Entry.objects.get(pk=rng.choice(seated))
    start = time.perf_counter()
    busts.bust_entry(entry, actor=floor)
    ms = (time.perf_counter() - start) * 1000
    confirm_slips(t, floor)
    return ms


def held_once(events) -> tuple[bool, int]:
    """No table held twice, and every live seat at a table its tournament holds: (holds, tables held)."""
    from tables.selectors.state import live_seats
    from venues.models import VenueTable

    held = {vt.table_id: vt for vt in VenueTable.objects.filter(table__isnull=False)}
    ok = len({vt.number for vt in held.values()}) == len(held)
    for t in events:
        ok &= set(live_seats(t).values_list("table_id", flat=True)) <= set(held)
    return ok, len(held)


TV_READS = 50


def tv_reads(venue, director) -> tuple[list[float], list[float], int]:
    """The room TV's snapshot through its public API: computed afresh (every answer this worker kept forgotten, as at a
    new version of every tournament) and as kept (the same version: what the other TVs of the room get)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIClient

    from core import memory
    from venues.services import displays

    token = displays.create_display(venue, actor=director, label="Room TV").token
    client = APIClient()
    fresh, kept, queries = [], [], 0
    for i in range(TV_READS):
        memory._kept.clear()
        connection.queries_log.clear()
        with CaptureQueriesContext(connection) as ctx:
            start = time.perf_counter()
            answer = client.get(f"/api/public/display/room/{token}/snapshot/")
            fresh.append((time.perf_counter() - start) * 1000)
        assert answer.status_code == 200 and answer.json()["tournaments"], answer.content
        queries = len(ctx.captured_queries) if i == 0 else queries
        start = time.perf_counter()
        assert client.get(f"/api/public/display/room/{token}/snapshot/").status_code == 200
        kept.append((time.perf_counter() - start) * 1000)
    return fresh, kept, queries


def play(kind: str, count: int, busts_timed: int, results: dict) -> None:
    from django.db.models import F
    from django.utils import timezone

    from bench.common import paid_field
    from tables.services import draws
    from tournament.models import Entry
    from venues.services import setup as venue_setup

    director, cashier, floor = staff()
    venue = venue_setup.default_venue()
    venue_setup.import_room(venue, actor=director, text=ROOM)
    events = tournaments(director, count)
    first_player = 0
    for t, n in zip(events, FIELDS, strict=False):
        paid_field(t, cashier, n, first_player=first_player)
        out = n - round(n * STILL_IN)  # entries 1..out busted already, in places n down to n - out + 1
        busted = {"status": Entry.Status.BUSTED, "busted_at": timezone.now(), "finish_place": n + 1 - F("number")}
        Entry.objects.filter(tournament=t, number__lte=out).update(**busted)
        first_player += n
    took: list[tuple[int, float]] = []
    undo = timed_take_free(took)
    try:
        start = time.perf_counter()
        draws.draw_start(events[0], actor=director)
        first_draw = (time.perf_counter() - start) * 1000
        map_one, queries_one = map_reads(venue, floor)
    finally:
        undo()
    together, took_together = draws_at_once(events[1:], director) if count > 1 else ([], [])
    ok, held = held_once(events)
    map_all, queries_all = map_reads(venue, floor) if count > 1 else (map_one, queries_one)
    tv_fresh, tv_kept, tv_queries = tv_reads(venue, director)
    rng = random.Random(7)
    first_busts, other_busts = [], []
    for _ in range(busts_timed):
        ms = bust_one(events[0], floor, rng)
        if ms is not None:
            first_busts.append(ms)
        for t in events[1:]:
            ms = bust_one(t, floor, rng)
            if ms is not None:
                other_busts.append(ms)
    ok_after, held_after = held_once(events)
    results[kind] = {
        "first_draw": first_draw,
        "together": together,
        "took": took + took_together,
        "held": held,
        "held_after": held_after,
        "never_shared": ok and ok_after,
        "map_one": map_one,
        "queries_one": queries_one,
        "map_all": map_all,
        "queries_all": queries_all,
        "tv_fresh": tv_fresh,
        "tv_kept": tv_kept,
        "tv_queries": tv_queries,
        "first_busts": first_busts,
        "other_busts": other_busts,
    }


def main(busts_timed: int) -> None:
    from bench.common import in_own_database

    results: dict = {}
    in_own_database("room_alone", play, "alone", 1, busts_timed, results)
    in_own_database("room_eight", play, "eight", len(FIELDS), busts_timed, results)
    alone, eight = results["alone"], results["eight"]
    print(f"venue: 200 tables; {len(FIELDS)} tournaments, {sum(FIELDS):,} entries")
    still = round(FIELDS[0] * STILL_IN)
    print(f"start draw of Event 1 ({still} of its {FIELDS[0]} entries still in) alone in the room: {eight['first_draw']:.0f} ms")
    took = dict(eight["took"])
    together = [took.get(pk, 0.0) for pk, _ms, _error in eight["together"]]
    for pk, ms, error in sorted(eight["together"]):
        refused = f"  REFUSED: {error}" if error else ""
        print(
            f"  draw of tournament {pk} at the same moment as 6 others: {ms:6.0f} ms, taking its tables {took.get(pk, 0):5.0f} ms{refused}"
        )
    print(f"taking tables, worst of the 7 draws at once: {max(together):.0f} ms (target < 500)")
    print(
        f"tables held after the draws: {eight['held']}; after the busts: {eight['held_after']}; never held twice: {eight['never_shared']}"
    )
    print(line("room map, one tournament", eight["map_one"]) + f"  queries {eight['queries_one']}")
    print(line("room map, eight tournaments", eight["map_all"]) + f"  queries {eight['queries_all']}  (target p99 < 150 ms, same queries)")
    print(line("room TV, eight tournaments, computed", eight["tv_fresh"]) + f"  queries {eight['tv_queries']}")
    print(line("room TV, eight tournaments, as kept", eight["tv_kept"]))
    print(line("bust in Event 1, alone in its room", alone["first_busts"]))
    print(line("bust in Event 1, among eight", eight["first_busts"]))
    print(line("busts in the seven others", eight["other_busts"]))
    ratio = pct(eight["first_busts"], 0.99) / pct(alone["first_busts"], 0.99)
    print(f"bust p99 among eight / alone: {ratio:.2f} (target <= 1.2)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 150)
