"""The start draw at festival scale: 10,000 entries over 1,112 tables of 9 seats, then the floor map.

Run by hand against PostgreSQL (it creates and drops its own database, test_bench_seating_<pid>, so
it never touches the database of a test run going on at the same time):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/seating.py [N]
The entries, ID checks, receipts and tables are bulk-created (this measures the draw, not
registration). tables.services.draws.draw_start is timed end to end (its transaction included) and per
phase, by wrapping the module functions it calls with timers here (the service is unchanged); the
commit (where PostgreSQL runs the deferred foreign-key checks of the seats) and the broadcasts sent
after it are phases too. Figures vary by ±20 % from run to run on a shared machine: run it 2-3 times.
Targets: the draw under 500 ms; the floor map in a constant number of queries, p50 and p99 under 100 ms.
"""

from __future__ import annotations

import gc
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402


def main(n: int) -> None:
    from bench.common import in_own_database

    in_own_database("seating", run, n)


def populate(n: int, seats: int = 9):
    """A tournament with n paid entries and enough 9-seat tables (1,112 for 10,000), in bulk."""

    from bench.common import paid_field, staff_and_tournament
    from tables.models import Table

    director, cashier, t = staff_and_tournament(seats)
    paid_field(t, cashier, n)
    count = -(-n // seats)
    Table.objects.bulk_create([Table(tournament=t, number=k, seats=seats, break_order=-k) for k in range(1, count + 1)])
    return director, t, count


class Phases:
    """Wraps module functions with timers; `spent` sums the seconds per phase, each phase without the
    timed phases it calls (the events that _pending_draw records count as events), so they add up."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = defaultdict(float)
        self._undo: list = []
        self._inner: list[float] = []  # per timed call in progress: the time spent in timed calls inside it

    def wrap(self, module, name: str, phase: str) -> None:
        """Time `module.name` (a module function, or a method of one object such as the connection)."""
        if not hasattr(module, name):
            return
        original = getattr(module, name)

        def timed(*args, **kwargs):
            started = time.perf_counter()
            self._inner.append(0.0)
            try:
                return original(*args, **kwargs)
            finally:
                elapsed = time.perf_counter() - started
                self.spent[phase] += elapsed - self._inner.pop()
                if self._inner:
                    self._inner[-1] += elapsed

        setattr(module, name, timed)
        self._undo.append((module, name, original))

    def restore(self) -> None:
        for module, name, original in reversed(self._undo):
            if getattr(original, "__self__", None) is module:  # a bound method: drop the instance attribute
                delattr(module, name)
            else:
                setattr(module, name, original)


MAP_RUNS = 100


def run(n: int) -> None:
    from django.db import connection, connections
    from django.test.utils import CaptureQueriesContext

    from tables.models import Seat
    from tables.rules import seating
    from tables.selectors import draw_check, screens
    from tables.services import draws
    from tournament.services import audit

    started = time.perf_counter()
    director, t, count = populate(n)
    print(f"database: {settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}, entries: {n}, tables: {count} x 9 seats")
    print(f"fixture (bulk) {time.perf_counter() - started:.1f} s")
    draws.commit_next_draw(t, actor=director)  # the commitment is shown before the draw, as in the room

    phases = Phases()
    phases.wrap(draws, "start_drawn", "check: not drawn yet")
    phases.wrap(draws, "pending_draw", "commitments (this one + the next)")
    phases.wrap(draws, "_unseated_entries", "read: entries (pk, number, player)")
    phases.wrap(draws, "needs_of", "read: special needs")
    phases.wrap(draws, "choose_tables", "read: tables")
    phases.wrap(draws, "room_of", "read: room (live seats)")
    phases.wrap(seating, "draw_start", "pure draw (seating.draw_start)")
    phases.wrap(draws, "_write_seats", "write: seats (one INSERT ... unnest)")
    phases.wrap(draws, "_fast_toast_compression", "reveal: draw row (inputs + result JSON)")
    phases.wrap(draws, "reveal", "reveal: draw row (inputs + result JSON)")
    phases.wrap(draws, "record_event", "events: audit event")
    phases.wrap(connections["default"], "_commit", "commit (deferred FK checks of the seats)")
    phases.wrap(audit, "publish_event", "broadcast after commit (2 events)")
    gc.collect()  # the fixture's garbage is not the draw's to collect
    try:
        with CaptureQueriesContext(connection) as ctx:
            started = time.perf_counter()
            draw = draws.draw_start(t, actor=director)
            total = time.perf_counter() - started
    finally:
        phases.restore()
    seated = Seat.objects.filter(tournament=t, ended_at__isnull=True).count()
    print(
        f"draw_start end to end (its transaction included): {total * 1000:.0f} ms, {len(ctx.captured_queries)} queries, "
        f"{seated} seated  [target < 500 ms]"
    )
    accounted = 0.0
    for phase, seconds in phases.spent.items():
        accounted += seconds
        print(f"  {phase:42s} {seconds * 1000:7.1f} ms")
    print(f"  {'rest: lock, inputs, status, savepoints':42s} {(total - accounted) * 1000:7.1f} ms")

    started = time.perf_counter()
    check = draw_check.verify_draw(draw)
    print(f"verify_draw: matches={check['matches']} in {(time.perf_counter() - started) * 1000:.0f} ms")

    with CaptureQueriesContext(connection) as ctx:
        fm = screens.floor_map(t)
    queries = len(ctx.captured_queries)
    assert fm["players_seated"] == n, fm["players_seated"]
    del check, fm
    gc.collect()  # nor that of verify_draw (30,000 model instances) the map's
    # Twice: with the start-up objects in the collector's generations, then frozen as config/asgi.py
    # does in the server (gc.freeze()): a full collection set off by the map's allocations walks them.
    figures = {}
    for frozen in (False, True):
        if frozen:
            gc.collect()
            gc.freeze()
        runs = []
        for _ in range(MAP_RUNS):
            started = time.perf_counter()
            screens.floor_map(t)
            runs.append((time.perf_counter() - started) * 1000)
        runs.sort()
        figures[frozen] = (statistics.median(runs), runs[min(len(runs) - 1, int(0.99 * len(runs)))])
    gc.unfreeze()
    print(f"floor_map at {count} tables / {n} players: {queries} queries, {MAP_RUNS} calls  [target < 100 ms]")
    for frozen, label in ((True, "start-up objects frozen (the server, config/asgi.py)"), (False, "nothing frozen")):
        print(f"  {label:52s} ms p50 {figures[frozen][0]:.1f}  p99 {figures[frozen][1]:.1f}")
    print(f"  gc.freeze() gain: p50 x{figures[False][0] / figures[True][0]:.2f}, p99 x{figures[False][1] / figures[True][1]:.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
