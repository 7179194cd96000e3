"""A sold-out festival event's waiting list at scale: alternates seated as players bust, in the list's order.

One tournament of N paid entries (default 5,000) drawn at 9-seat tables in a room whose set of tables is fixed (every
seat taken: the event is sold out), and W players on its waiting list (default 5,000), their ID checked and their
buy-in taken when they joined. Then, during one level, the floor busts a player at a random table R times (default
500): each bust offers the seat to the next alternate by the late-entry draw, in the same transaction. Timed end to end
through the services:
- "bust + alternate seated": the floor's bust, the seat freed and balanced, and the next alternate's entry seated by the
  verifiable draw (what the floor waits for);
- "the alternate's seating": of that, the seating alone (tournament.services.waiting_list.offer_seats, timed inside the
  bust's transaction: the list's head read, his entry and receipt, the late-entry draw, his events);
- "alternate sat down": the desk confirms he sat down;
- "no-show passed over": the sweep passes over an alternate whose minutes ran out and seats the next (every tenth one).
Then it checks that the alternates were seated in the list's order, never twice, and that the money adds up.

Prints count, p50, p99 and max (ms) of each. Target: each seating's p99 below 100 ms.

Run by hand (its own database; SQLite by default, PostgreSQL with DATABASE_URL):
    .venv/bin/python bench/waiting_list.py [entries=5000] [waiting=5000] [seatings=500] [seed=1]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/waiting_list.py
"""

from __future__ import annotations

import gc
import os
import random
import sys
import time
from collections import defaultdict
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def populate(n: int, waiting: int):
    from django.contrib.auth.models import Group, User
    from django.utils import timezone

    from bench.common import checked_players, paid_field, staff_and_tournament
    from tables.models import Table
    from tables.services import draws
    from tournament.models import Tournament, WaitingPlace
    from venues.models import Venue

    director, cashier, t = staff_and_tournament()
    floor = User.objects.create_user("bench-floor")
    floor.groups.add(Group.objects.get_or_create(name="Floor")[0])
    count = -(-n // 9)
    paid_field(t, cashier, n)
    Table.objects.bulk_create([Table(tournament=t, number=k, seats=9, break_order=-k) for k in range(1, count + 1)])
    draws.draw_start(t, actor=director)
    # The room's tables are these, and no more: the event is sold out (its seats are its tables').
    Venue.objects.update(fixed_tables=True)
    Tournament.objects.filter(pk=t.pk).update(alternate_minutes=10)
    t.refresh_from_db()
    now = timezone.now()
    players, checks = checked_players(cashier, waiting, first_player=n)  # other players than the field's
    WaitingPlace.objects.bulk_create(
        [
            WaitingPlace(
                tournament=t,
                number=i + 1,
                player=p,
                id_check=c,
                id_hmac=c.number_hmac,
                paid=t.buy_in + t.fee,
                created_at=now,
                created_by=cashier,
            )
            for i, (p, c) in enumerate(zip(players, checks, strict=True))
        ],
        batch_size=2000,
    )
    return cashier, floor, t, count


class Run:
    def __init__(self, t, cashier, floor, seed: int) -> None:
        self.t, self.cashier, self.floor = t, cashier, floor
        self.rng = random.Random(seed)
        self.times: dict[str, list[float]] = defaultdict(list)
        self.refused: dict[str, int] = defaultdict(int)

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

    def seatings_timed(self) -> None:
        """offer_seats as the bust calls it, timed: the alternate's seating within the bust (one per bust here)."""
        from tournament.services import waiting_list

        offer = waiting_list.offer_seats

        def timed_offer(*args, **kwargs):
            started = time.perf_counter()
            try:
                return offer(*args, **kwargs)
            finally:
                self.times["the alternate's seating"].append((time.perf_counter() - started) * 1000)

        waiting_list.offer_seats = timed_offer

    def bust(self) -> None:
        from tables.models import Seat, Table
        from tables.services import busts

        tables = list(Table.objects.filter(tournament=self.t, in_play=True).values_list("pk", flat=True))
        seats = list(Seat.objects.filter(table_id=self.rng.choice(tables), ended_at__isnull=True).select_related("entry"))
        if len(seats) >= 2:
            self.timed("bust + alternate seated", busts.bust_entry, self.rng.choice(seats).entry, actor=self.floor)

    def sat_down(self) -> None:
        from tournament.models import WaitingPlace
        from tournament.services import waiting_list

        place = WaitingPlace.objects.filter(tournament=self.t, state="offered").order_by("number").first()
        if place is not None:
            self.timed("alternate sat down", waiting_list.seat, place, actor=self.cashier)

    def no_show(self) -> None:
        from django.utils import timezone

        from tournament.models import WaitingPlace
        from tournament.services import waiting_list

        place = WaitingPlace.objects.filter(tournament=self.t, state="offered").order_by("number").first()
        if place is not None:
            WaitingPlace.objects.filter(pk=place.pk).update(offered_at=timezone.now() - timedelta(minutes=11))
            self.timed("no-show passed over", waiting_list.pass_over_due)

    def report(self) -> None:
        print(f"{'action':<28}{'count':>7}{'refused':>9}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
        for name in ("bust + alternate seated", "the alternate's seating", "alternate sat down", "no-show passed over"):
            values = self.times.get(name, [])
            if values:
                p50, p99, most = pct(values, 0.5), pct(values, 0.99), max(values)
                print(f"{name:<28}{len(values):>7}{self.refused.get(name, 0):>9}{p50:>9.1f}{p99:>9.1f}{most:>9.1f}")
        seating = pct(self.times["the alternate's seating"], 0.99)
        print(f"p99 of an alternate's seating: {seating:.1f} ms  [target < 100]")


def checked(t) -> None:
    """The alternates were called in the list's order, each once, and the money of the list adds up."""
    from tournament.models import AuditEvent, Purchase, WaitingPlace

    called = [
        payload["alternate"]
        for payload in AuditEvent.objects.filter(tournament=t, type="entry.registered", payload__has_key="alternate")
        .order_by("seq")
        .values_list("payload", flat=True)
    ]
    assert len(called) == len(set(called)), "an alternate called twice"
    assert called == sorted(called), "alternates called out of the list's order"
    places = WaitingPlace.objects.filter(tournament=t)
    for place in places.exclude(state="waiting").select_related("entry"):
        receipt = place.entry.purchases.get(kind=Purchase.Kind.BUY_IN)
        if place.state == "passed":
            assert receipt.status == Purchase.Status.VOIDED and receipt.refund_amount == place.refund == place.paid
        else:
            assert receipt.status == Purchase.Status.PAID and receipt.total == place.paid
    print(f"alternates called: {len(called)}, in the list's order, each once; still waiting: {places.filter(state='waiting').count()}")


def run(n: int, waiting: int, seatings: int, seed: int) -> None:
    started = time.perf_counter()
    cashier, floor, t, count = populate(n, waiting)
    engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    print(f"database: {engine}, entries: {n} at {count} tables of 9 (sold out), waiting list: {waiting}, seatings: {seatings}")
    print(f"fixture (bulk, and the start draw) {time.perf_counter() - started:.1f} s")
    bench = Run(t, cashier, floor, seed)
    bench.seatings_timed()
    for r in range(seatings):
        bench.bust()
        if r % 10 == 9:
            bench.no_show()
        else:
            bench.sat_down()
    bench.report()
    checked(t)


def main() -> None:
    from bench.common import in_own_database

    args = [int(a) for a in sys.argv[1:]]
    n, waiting, seatings, seed = (args + [5_000, 5_000, 500, 1][len(args) :])[:4]
    in_own_database("waiting_list", run, n, waiting, seatings, seed)


if __name__ == "__main__":
    main()
