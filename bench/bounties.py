"""Bounty busts at festival scale: a bust naming its eliminator in a PKO against a plain bust, in the same run.

Two tournaments in one room, each with N paid entries (default 10,000) drawn at 9-seat tables (1,112 each): a plain
one and a progressive knockout. Then, round after round, the floor busts a player in each (the order alternating):
in the plain one with no eliminator, in the PKO with a player of the same table who won the pot (a split pot now and
then). Each bust is timed end to end through the service, its transaction and reactions included (balancing, the
payouts, the league; for the PKO the bounty awards). A few PKO busts are undone and a few eliminators corrected,
timed apart (they replay the night's bounty money: no target). At the end the bounty money must add up.

Prints count, p50, p99 and max (ms) of each, and the ratio of the p99s. Target: the PKO bust's p99 at most 1.1 × the
plain bust's.

Run by hand (its own database; SQLite by default, PostgreSQL with DATABASE_URL):
    .venv/bin/python bench/bounties.py [entries=10000] [rounds=1000] [seed=1]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/bounties.py
"""

from __future__ import annotations

import gc
import os
import random
import sys
import time
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def populate(n: int):
    from django.contrib.auth.models import Group, User

    from bench.common import paid_field, staff_and_tournament
    from tables.models import Table
    from tables.services import draws
    from tournament.services import setup

    director, cashier, plain = staff_and_tournament()
    pko = setup.create_tournament(
        {
            "name": "Bench PKO",
            "venue": "Bench",
            "time_zone": "Europe/Prague",
            "start_at": datetime(2026, 12, 1, 18, tzinfo=UTC),
            "seats_per_table": 9,
            "currency": "EUR",
            "buy_in": 5_000,
            "fee": 1_000,
            "bounty_format": "progressive",
            "bounty": 5_000,
            "starting_stack": 20_000,
        },
        actor=director,
        template=plain.structure,
    )
    floor = User.objects.create_user("bench-floor")
    floor.groups.add(Group.objects.get_or_create(name="Floor")[0])
    count = -(-n // 9)
    for first, t in ((1, plain), (count + 1, pko)):  # one room: the two tournaments' tables have numbers of their own
        paid_field(t, cashier, n, first_player=0 if t is plain else n)
        Table.objects.bulk_create([Table(tournament=t, number=k, seats=9, break_order=-k) for k in range(first, first + count)])
        draws.draw_start(t, actor=director)
    return director, floor, plain, pko, count


class Run:
    def __init__(self, plain, pko, floor, seed: int) -> None:
        self.plain, self.pko, self.floor = plain, pko, floor
        self.rng = random.Random(seed)
        self.times: dict[str, list[float]] = defaultdict(list)
        self.refused: dict[str, int] = defaultdict(int)

    def table_players(self, t) -> tuple[list, list]:
        """A random table of t with two players or more: (its live seats, the seats' entries)."""
        from tables.models import Seat, Table

        tables = list(Table.objects.filter(tournament=t, in_play=True).values_list("pk", flat=True))
        for _try in range(20):
            seats = list(Seat.objects.filter(table_id=self.rng.choice(tables), ended_at__isnull=True).select_related("entry"))
            if len(seats) >= 2:
                return seats
        return []

    def timed(self, name: str, fn, *args, **kwargs):
        from core.errors import ServiceError

        gc.collect()
        started = time.perf_counter()
        try:
            result = fn(*args, **kwargs)
        except ServiceError:
            self.refused[name] += 1
            result = None
        self.times[name].append((time.perf_counter() - started) * 1000)
        return result

    def plain_bust(self) -> None:
        from tables.services import busts

        seats = self.table_players(self.plain)
        if seats:
            self.timed("plain bust", busts.bust_entry, self.rng.choice(seats).entry, actor=self.floor)

    def pko_bust(self) -> None:
        from tables.services import busts

        seats = self.table_players(self.pko)
        if not seats:
            return
        out = self.rng.choice(seats)
        others = [s for s in seats if s.pk != out.pk]
        won = self.rng.sample(others, 2 if len(others) > 1 and self.rng.random() < 0.1 else 1)
        self.timed("pko bust + eliminator", busts.bust_entry, out.entry, actor=self.floor, eliminators=[s.entry.number for s in won])

    def corrections(self, count: int) -> None:
        from tables.models import Elimination, Seat
        from tables.services import busts, eliminations
        from tournament.models import Entry

        rows = list(Elimination.objects.filter(tournament=self.pko, status="standing").order_by("-order")[: count * 2])
        for row in rows[:count]:
            entry = Entry.objects.get(pk=row.busted_id)
            self.timed("pko undo (replay)", busts.undo_bust, entry, actor=self.floor)
        for row in rows[count:]:
            at = (
                Seat.objects.filter(tournament=self.pko, table__number=row.table_number)
                .exclude(entry_id=row.busted_id)
                .exclude(entry__number__in=row.winners)
                .values_list("entry__number", flat=True)
                .first()
            )
            if at is not None:
                self.timed(
                    "pko correction (replay)",
                    eliminations.correct_eliminators,
                    self.pko,
                    actor=self.floor,
                    entry_number=Entry.objects.get(pk=row.busted_id).number,
                    eliminators=[at],
                    reason="bench",
                )

    def report(self) -> None:
        print(f"{'action':<28}{'count':>7}{'refused':>9}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
        for name in ("plain bust", "pko bust + eliminator", "pko undo (replay)", "pko correction (replay)"):
            values = self.times.get(name, [])
            if values:
                p50, p99, most = pct(values, 0.5), pct(values, 0.99), max(values)
                print(f"{name:<28}{len(values):>7}{self.refused.get(name, 0):>9}{p50:>9.1f}{p99:>9.1f}{most:>9.1f}")
        plain, pko = pct(self.times["plain bust"], 0.99), pct(self.times["pko bust + eliminator"], 0.99)
        print(f"p99 ratio, PKO bust with its eliminator / plain bust: {pko / plain:.2f}  [target <= 1.10]")


def run(n: int, rounds: int, seed: int) -> None:
    from payouts.selectors import bounties as sel

    started = time.perf_counter()
    _director, floor, plain, pko, count = populate(n)
    engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    print(f"database: {engine}, entries: {n} in each of 2 tournaments, tables: {count} x 9 seats each")
    print(f"fixture (bulk, and the two start draws) {time.perf_counter() - started:.1f} s")
    bench = Run(plain, pko, floor, seed)
    for r in range(rounds):
        if r % 2:
            bench.plain_bust()
            bench.pko_bust()
        else:
            bench.pko_bust()
            bench.plain_bust()
    bench.corrections(10)
    bench.report()
    money = sel.money(pko)
    assert money["adds_up"], money
    print(f"bounty money adds up: taken in {money['taken_in']}, owed {money['owed']}, in play {money['in_play']}")


def main() -> None:
    from bench.common import in_own_database

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    in_own_database("bounties", run, n, rounds, seed)


if __name__ == "__main__":
    main()
