"""Chip counts at festival scale: 10,000 players over 1,112 tables of 9, every table's counts entered at
once through the service (as the dealer tablets do), then the reads: the lobby's chip leaders, the players' public
list with a search, the floor's check of the room.

Run by hand against PostgreSQL (it creates and drops its own database, test_bench_day2_<pid>):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/day2.py [N]
The entries and tables are bulk-created and drawn (bench/seating.py's populate); the counts go through
tables.services.counting.record_table_counts, one transaction per table. The reads are run with N and with N/10 counts:
the number of queries must be the same (constant, whatever the field).

Then, in a second database, the Day 2 redraw (days/services/redraw.py) of R bagged players (1,500 unless given) over
ceil(R / 9) tables (167): the players are drawn and seated, every table bagged through the service and the day
closed; the redraw (the seat draw, the seats, the stand-up of the day before and each table's button draw) is timed,
best of three on the same room (the first two runs rolled back, the last committed), with its phases and its
number of queries. Target: < 500 ms.
    DATABASE_URL=... .venv/bin/python bench/day2.py [N [R]]
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402


def main(n: int) -> None:
    from bench.common import in_own_database

    in_own_database("day2", run, n)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def timed(fn, *args, **kwargs) -> tuple[float, int, object]:
    """(ms, queries, result) of the best of three runs; the queries counted as they are sent (Django's query log
    keeps only the last 9,000, and the counts entered before fill it)."""
    best = None
    for _ in range(3):
        sent: list[str] = []

        def counted(execute, sql, params, many, context, sent=sent):
            sent.append(sql)
            return execute(sql, params, many, context)

        with connection.execute_wrapper(counted):
            tic = time.perf_counter()
            result = fn(*args, **kwargs)
            ms = (time.perf_counter() - tic) * 1000
        if best is None or ms < best[0]:
            best = (ms, len(sent), result)
    return best


def reads(t, label: str) -> dict[str, int]:
    from tables.selectors import counts as tables_count_selectors

    out = {}
    for name, fn, args in (
        ("leaders", tables_count_selectors.leaders, ()),
        ("public list, first 200", tables_count_selectors.every_stack, ("", tables_count_selectors.PUBLIC_LIMIT)),
        ("public search", tables_count_selectors.every_stack, ("P12", tables_count_selectors.PUBLIC_LIMIT)),
        ("room check", tables_count_selectors.room, ()),
    ):
        ms, queries, _result = timed(fn, t, *args)
        out[name] = queries
        print(f"  {label:>14}: {name:<24} {ms:7.1f} ms  {queries:3d} queries")
    return out


def run(n: int) -> None:
    from django.contrib.auth.models import Group, User

    from bench.seating import populate
    from tables.models import Table
    from tables.selectors.state import live_seats
    from tables.services import counting, draws

    director, t, count = populate(n)
    draws.draw_start(t, actor=director)
    floor = User.objects.create_user("bench-floor")
    floor.groups.add(Group.objects.get_or_create(name="Floor")[0])
    print(f"database: {settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}, players: {n}, tables: {count} x 9")
    rng = random.Random(25)
    seated: dict[int, dict[int, int]] = {}
    for table_id, seat in live_seats(t).values_list("table_id", "seat"):
        seated.setdefault(table_id, {})[seat] = rng.randrange(0, 80_000)
    tables = list(Table.objects.filter(pk__in=list(seated)).order_by("number"))
    tenth = max(1, len(tables) // 10)
    ms = []
    measured: dict[str, dict[str, int]] = {}
    for i, table in enumerate(tables):
        tic = time.perf_counter()
        counting.record_table_counts(table, actor=floor, counts=seated[table.pk])
        ms.append((time.perf_counter() - tic) * 1000)
        if i + 1 == tenth:
            measured["a tenth counted"] = reads(t, "a tenth counted")
    print(
        f"a table's counts entered ({len(ms)} tables): p50 {statistics.median(ms):.1f} ms, p99 {pct(ms, 0.99):.1f} ms, max {max(ms):.1f} ms"
    )
    measured["all counted"] = reads(t, "all counted")
    same = measured["a tenth counted"] == measured["all counted"]
    print(f"queries the same with {n // 10:,} and {n:,} counts: {'yes' if same else 'NO'}")
    if not same:
        raise SystemExit(1)


def redraw(r: int) -> None:
    from django.db import transaction

    from bench.seating import Phases, populate
    from days.services import bags as days_services
    from days.services import redraw
    from tables.models import Table
    from tables.rules import seating
    from tables.selectors.state import live_seats
    from tables.services import draws
    from tournament.services import audit

    director, t, count = populate(r)
    draws.draw_start(t, actor=director)
    rng = random.Random(26)
    seated: dict[int, dict[int, tuple[int, str]]] = {}
    for table_id, seat, number in live_seats(t).values_list("table_id", "seat", "entry__number"):
        seated.setdefault(table_id, {})[seat] = (rng.randrange(1_000, 60_000), f"B-{number}")
    for table in Table.objects.filter(pk__in=list(seated)).order_by("number"):
        days_services.record_table_bags(table, actor=director, bags=seated[table.pk])
    days_services.close_day(t, actor=director, reason="bench: the bags are random counts")
    print(f"Day 2 redraw: {r:,} bagged players, {count} tables x 9")
    best = None
    for run in range(3):  # the first two rolled back (the same room redrawn again), the last committed
        phases = Phases()
        phases.wrap(seating, "draw_start", "pure draw (seating.draw_start)")
        phases.wrap(redraw, "stacks_at_start", "read: stacks (bags)")
        phases.wrap(redraw, "choose_tables", "read: tables")
        phases.wrap(redraw, "needs_of", "read: special needs")
        phases.wrap(redraw, "_stand_everyone_up", "write: the day before's seats end")
        phases.wrap(redraw, "_set_the_tables", "write: tables afresh")
        phases.wrap(redraw, "button_draws", "button draws")
        phases.wrap(redraw, "software_button", "button draws")
        phases.wrap(redraw, "record_event", "events: audit event")
        phases.wrap(audit, "record_event", "events: audit event")
        sent: list[str] = []

        def counted(execute, sql, params, many, context, sent=sent):
            sent.append(sql)
            return execute(sql, params, many, context)

        try:
            with transaction.atomic(), connection.execute_wrapper(counted):
                tic = time.perf_counter()
                drawn = redraw.redraw_day(t, actor=director)
                ms = (time.perf_counter() - tic) * 1000
                tables = Table.objects.filter(tournament=t, in_play=True).count()
                buttons = Table.objects.filter(tournament=t, in_play=True, button_seat__isnull=False).count()
                if run < 2:
                    raise _Undo
        except _Undo:
            pass
        finally:
            phases.restore()
        print(f"  redraw {ms:7.1f} ms, {len(sent)} queries, draw {drawn.number}, {tables} tables, {buttons} buttons")
        if best is None or ms < best[0]:
            best = (ms, dict(phases.spent), len(sent))
    ms, spent, queries = best
    for phase, seconds in sorted(spent.items(), key=lambda item: -item[1]):
        print(f"    {phase:<40} {seconds * 1000:7.1f} ms")
    print(
        f"Day 2 redraw of {r:,} players at {count} tables: best {ms:.0f} ms, {queries} queries (target < 500 ms): "
        f"{'met' if ms < 500 else 'NOT MET'}"
    )


class _Undo(Exception):
    """Rolls a timed redraw back, so the next run redraws the same room."""


if __name__ == "__main__":
    from bench.common import in_own_database

    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
    in_own_database("day2redraw", redraw, int(sys.argv[2]) if len(sys.argv) > 2 else 1_500)
