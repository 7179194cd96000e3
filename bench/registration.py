"""Registration at festival scale: 10,000 entries into one tournament, each through the real service
(ID check, HMAC, duplicate checks, receipt, audit event, figures for the live push).

Run by hand against PostgreSQL (it creates and drops its own database):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/registration.py [N]
Prints p50/p99/max per registration, the figures query at the end, and the snapshot time.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402


def main(n: int) -> None:
    from bench.common import in_own_database

    in_own_database("registration", run, n)


def run(n: int) -> None:
    from bench.common import staff_and_tournament
    from live.snapshots import floor_snapshot, lobby_snapshot
    from tournament.selectors.stats import tournament_stats
    from tournament.services import registration

    _director, cashier, t = staff_and_tournament()
    players = [
        registration.create_player(actor=cashier, first_name=f"P{i}", last_name="Bench", date_of_birth=date(1980, 1, 1 + i % 28))
        for i in range(n)
    ]
    times = []
    for i, player in enumerate(players):
        started = time.perf_counter()
        registration.register_entry(t, actor=cashier, player=player, document=registration.IdDocument("id_card", f"BN{i:09d}"))
        times.append(time.perf_counter() - started)
    times_ms = sorted(x * 1000 for x in times)

    def pct(p: float) -> float:
        return times_ms[min(len(times_ms) - 1, int(p * len(times_ms)))]

    first = statistics.median(times_ms[: max(1, n // 10)])
    last = statistics.median(sorted(x * 1000 for x in times[-max(1, n // 10) :]))
    print(f"database: {settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}, entries: {n}")
    print(f"register_entry ms: p50 {pct(0.5):.1f}  p99 {pct(0.99):.1f}  max {times_ms[-1]:.1f}")
    print(f"median of the first tenth {first:.1f} ms, of the last tenth {last:.1f} ms")
    for name, fn in (
        ("tournament_stats", lambda: tournament_stats(t)),
        ("lobby_snapshot", lambda: lobby_snapshot(t)),
        ("floor_snapshot", lambda: floor_snapshot(t)),
    ):
        runs = []
        for _ in range(20):
            started = time.perf_counter()
            fn()
            runs.append((time.perf_counter() - started) * 1000)
        print(f"{name} at {n} entries: median {statistics.median(runs):.1f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
