"""The color-up of a break at festival scale: a chip race at each of 1,112 tables (10,000 entries, 9 a table).

Run by hand; with SQLite (the default) for a quick check at a smaller size, then against PostgreSQL (it
creates and drops its own database, test_bench_chip_race_<pid>, so it never touches the database of a
test run going on at the same time):
    .venv/bin/python bench/chip_race.py 900
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/chip_race.py [N=10000]
Entries and tables are bulk-created (bench/seating.py), the tournament gets a structure whose break
colors up the 25s into 100s (as the demo's does), the start draw seats the field and the director
confirms the color-up. Each seat then has a random but seeded count of 25s (0-7) and other chips (their
value; now and then 0, so the protection chip comes in, or null: some, not counted).

Prints:
- the races of every table computed in plain Python (tables/rules/chip_race.race_from_seed, no database):
  total and per table, the median and the best of a few rounds;
- each table's race recorded through the service (tables/services/color_ups.record_race, the cards dealt from the
  committed seed of a RACE draw revealed with it) and confirmed (confirm_race), each call timed end to
  end (its transaction included): total, p50 and p99 per table;
- the SQL queries of tournament_stats (the chips-in-play figure) with 0, 100 and every race confirmed,
  and the chips in play before and after.
Targets: tournament_stats in the same number of queries whatever the number of confirmed races; the chips
in play change by exactly the sum of the confirmed races' differences (the script exits 1 otherwise, or
when a sample of the RACE draws does not recompute). Timings vary by ±20 % on a shared machine.
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

SAMPLES = (0, 100)  # confirmed races at which the stats' queries are counted (and at the end)


def main(n: int) -> int:
    from bench.common import in_own_database

    failed: list[str] = []
    in_own_database("chip_race", run, n, failed)
    for problem in failed:
        print(f"FAILED: {problem}")
    return 1 if failed else 0


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def structure():
    """The bench structure with a break that colors up the 25s (the new chip: 100)."""
    from tournament.rules.structure import LevelSpec, StructureSpec

    return StructureSpec(
        "Bench color-up",
        ((25, "green"), (100, "black"), (500, "purple"), (1000, "yellow")),
        (
            LevelSpec("level", 20, 100, 200),
            LevelSpec("level", 20, 200, 400, 400, "bba"),
            LevelSpec("break", 15, color_up=(25,)),
            LevelSpec("level", 20, 300, 600, 600, "bba"),
            LevelSpec("level", 20, 500, 1000, 1000, "bba"),
        ),
    )


def counts(rng: random.Random, seats: list[int]) -> dict[str, dict]:
    """What the dealer types at one table: 0-7 chips of 25 a seat and the value of the other chips."""
    typed = {}
    for seat in seats:
        quarters = rng.randint(0, 7)
        roll = rng.random()
        other = None if roll < 0.05 else 0 if roll < 0.08 else rng.randint(20, 400) * 100
        if quarters == 0 and other == 0:
            other = 100
        typed[str(seat)] = {"chips": {"25": quarters}, "other": other}
    return typed


def stats_queries(t) -> tuple[int, int]:
    """(queries, chips in play) of tournament_stats."""
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    from tournament.selectors.stats import tournament_stats

    reset_queries()  # DEBUG keeps a log of 9,000 queries; once it is full the context would count none
    with CaptureQueriesContext(connection) as captured:
        chips = tournament_stats(t)["chips_in_play"]
    return len(captured.captured_queries), chips


def run(n: int, failed: list[str]) -> None:
    from django.contrib.auth.models import Group, User
    from django.db import connection

    from bench.seating import populate
    from tables.models import Draw, Seat, Table
    from tables.rules import chip_race, seating
    from tables.selectors.draw_check import verify_draw
    from tables.services import color_ups, draws
    from tournament.models import Level
    from tournament.services import setup

    rng = random.Random(20261201)
    started = time.perf_counter()
    director, t, count = populate(n)
    setup.set_tournament_structure(t, actor=director, spec=structure())
    floor = User.objects.create_user("bench-floor")
    floor.groups.add(Group.objects.get_or_create(name="Floor")[0])
    draws.draw_start(t, actor=director)
    level = Level.objects.get(structure=t.structure, kind=Level.Kind.BREAK).position
    color_up = color_ups.confirm_color_up(t, actor=director, level=level)
    tables = list(Table.objects.filter(tournament=t, in_play=True).order_by("number"))
    seated: dict[int, list[int]] = {table.pk: [] for table in tables}
    for table_id, seat in Seat.objects.filter(tournament=t, ended_at__isnull=True).values_list("table_id", "seat"):
        seated[table_id].append(seat)
    typed = {table.pk: counts(rng, sorted(seated[table.pk])) for table in tables if seated[table.pk]}
    tables = [table for table in tables if table.pk in typed]
    quarters = sum(row["chips"]["25"] for seats in typed.values() for row in seats.values())
    print(
        f"database: {settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}, players: {n}, tables: {len(tables)} x "
        f"{t.seats_per_table}, color-up {color_up.leaving} -> {color_up.new_chip} "
        f"(rules {color_up.rules}), {quarters:,} chips of 25 counted; set-up {time.perf_counter() - started:.1f} s"
    )

    # Plain Python: every table's race from a seed, as record_race computes it (no database).
    rules = chip_race.RaceRules.from_json(color_up.rules)
    inputs = [
        {
            int(s): chip_race.SeatChips(leaving={int(v): c for v, c in row["chips"].items()}, other_value=row["other"])
            for s, row in typed[table.pk].items()
        }
        for table in tables
    ]
    seeds = [rng.randbytes(seating.SEED_BYTES) for _ in tables]
    rounds = []
    for _ in range(5):
        tic = time.perf_counter()
        for seats, seed in zip(inputs, seeds, strict=True):
            chip_race.race_from_seed(color_up.in_play, color_up.leaving, seats, seed, rules)
        rounds.append(time.perf_counter() - tic)
    cards = sum(
        sum(len(s.cards) for s in chip_race.race_from_seed(color_up.in_play, color_up.leaving, seats, seed, rules).seats)
        for seats, seed in zip(inputs, seeds, strict=True)
    )
    median, best = statistics.median(rounds), min(rounds)
    print(
        f"races computed in plain Python (race_from_seed, {len(tables)} tables, {cards:,} cards dealt): "
        f"median {median * 1000:.1f} ms, best {best * 1000:.1f} ms in all; "
        f"{median * 1e6 / len(tables):.0f} us per table (best {best * 1e6 / len(tables):.0f} us)"
    )

    # Through the services: record (a RACE draw revealed) and confirm, table after table.
    queries: dict[int, int] = {}
    chips: dict[int, int] = {}
    record_ms: list[float] = []
    confirm_ms: list[float] = []
    races = []
    began = time.perf_counter()
    calls: list[int] = [0]
    record_queries: list[int] = []
    confirm_queries: list[int] = []

    def counted(execute, sql, params, many, context):
        calls[0] += 1
        return execute(sql, params, many, context)

    for table in tables:
        if len(races) in SAMPLES:
            queries[len(races)], chips[len(races)] = stats_queries(t)
        with connection.execute_wrapper(counted):
            calls[0] = 0
            tic = time.perf_counter()
            race = color_ups.record_race(table, actor=floor, color_up=color_up, seats=typed[table.pk])
            toc = time.perf_counter()
            record_queries.append(calls[0])
            calls[0] = 0
            color_ups.confirm_race(race, actor=floor)
            confirm_ms.append((time.perf_counter() - toc) * 1000)
            confirm_queries.append(calls[0])
        record_ms.append((toc - tic) * 1000)
        races.append(race)
    elapsed = time.perf_counter() - began
    queries[len(races)], chips[len(races)] = stats_queries(t)
    both = [a + b for a, b in zip(record_ms, confirm_ms, strict=True)]
    print(f"races recorded and confirmed through the services at {len(races)} tables in {elapsed:.1f} s:")
    for name, values, sql in (
        ("record_race (seeded, RACE draw revealed)", record_ms, record_queries),
        ("confirm_race", confirm_ms, confirm_queries),
        ("both", both, None),
    ):
        print(
            f"  {name}: total {sum(values) / 1000:.2f} s; per table p50 {pct(values, 0.5):.1f} ms, "
            f"p99 {pct(values, 0.99):.1f} ms, max {max(values):.1f} ms"
            + (f"; {min(sql)}-{max(sql)} queries a call (first table {sql[0]}, last {sql[-1]})" if sql else "")
        )

    # The chips in play: a constant number of queries, changed by exactly the races' differences.
    differences = sum(race.difference for race in races)
    protection = sum(race.result["protection_chips"] for race in races)
    raced = sum(race.result["chips_raced"] for race in races)
    for confirmed in sorted(queries):
        print(f"tournament_stats with {confirmed:>5} confirmed races: {queries[confirmed]} queries, chips in play {chips[confirmed]:,}")
    change = chips[len(races)] - chips[0]
    holds = change == differences
    print(
        f"chips in play {chips[0]:,} -> {chips[len(races)]:,}: change {change:+,}; sum of the races' differences "
        f"{differences:+,} ({raced:,} chips of 100 raced, {protection} protection chips): "
        f"{'equal' if holds else 'NOT EQUAL'}"
    )
    if not holds:
        failed.append(f"chips in play changed by {change}, the races' differences add up to {differences}")
    if len(set(queries.values())) != 1:
        failed.append(f"tournament_stats queries vary with the confirmed races: {queries}")
    sample = random.Random(7).sample(races, min(20, len(races)))
    bad = [race.table.number for race in sample if race.draw.kind != Draw.Kind.RACE or not verify_draw(race.draw)["matches"]]
    print(f"RACE draws recomputed (verify_draw) for {len(sample)} tables picked at random: {len(sample) - len(bad)} match")
    if bad:
        failed.append(f"RACE draws that do not recompute, tables {bad}")


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000))
