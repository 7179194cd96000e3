"""A field played down to a winner through the services: random busts, hands started at random
tables, every move slip confirmed, the invariants checked after each step.

Run by hand against PostgreSQL (it creates and drops its own database):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/balancing.py [players=10000] [stop_at=1]
Entries and tables are bulk-created and the start draw seats them (bench/seating.py measures that);
each table gets a software button draw. Then, until `stop_at` players are left: a hand starts at a
random table (probability 0.5), or a random seated player busts (tournament.busts.bust_entry,
which frees the seat and balances the room: the decision and the slips are written in its
transaction, and broadcast after its commit). The bust call is timed end to end; then every pending
slip is confirmed and the invariants are checked: every live entry in exactly one seat, no seat
twice, no reserved seat occupied, the tables within the house threshold once the slips are done.
Target: a bust to its move slip, p99 under 250 ms while 1,000 or more tables are in play.
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


def main(n: int, stop_at: int) -> None:
    from bench.common import in_own_database

    in_own_database("balancing", run, n, stop_at)


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def check(t, threshold: int) -> int:
    """The invariants; returns the number of tables in play."""
    from django.db.models import Count

    from tables.models import Move, Seat, Table
    from tournament.models import Entry

    live = Seat.objects.filter(tournament=t, ended_at__isnull=True)
    seats = list(live.values_list("table_id", "seat", "entry_id"))
    active = set(Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).values_list("pk", flat=True))
    assert len({(a, b) for a, b, _ in seats}) == len(seats), "a seat twice"
    assert sorted(e for _, _, e in seats) == sorted(active), "a live entry without a seat, or twice"
    assert not Move.objects.filter(tournament=t, status=Move.Status.PENDING).exists()
    counts = [c for _, c in live.values("table_id").annotate(c=Count("pk")).values_list("table_id", "c")]
    if len(counts) > 1:
        assert max(counts) - min(counts) < threshold, f"out of balance: {min(counts)}..{max(counts)}"
    playing = Table.objects.filter(tournament=t, in_play=True).count()
    assert playing == len(counts), "a table in play without players, or players at a table out of play"
    return playing


def run(n: int, stop_at: int) -> None:
    from django.contrib.auth.models import Group, User

    from bench.seating import populate
    from tables.models import Move, Seat, Table
    from tables.services import busts, draws, moves
    from tables.services.hands import start_hand
    from tournament.models import Entry

    rng = random.Random(20261123)
    started = time.perf_counter()
    director, t, count = populate(n)
    floor = User.objects.create_user("bench-floor")
    floor.groups.add(Group.objects.get_or_create(name="Floor")[0])
    dealer = User.objects.create_user("bench-dealer")
    dealer.groups.add(Group.objects.get_or_create(name="Dealer")[0])
    draws.draw_start(t, actor=director)
    for table in Table.objects.filter(tournament=t, in_play=True):
        if Seat.objects.filter(table=table, ended_at__isnull=True).count() >= 2:
            draws.draw_button(table, actor=director)
    threshold = moves.house_rules(t).balance_threshold
    print(
        f"database: {settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}, players: {n}, tables: {count} x 9, "
        f"set-up {time.perf_counter() - started:.1f} s"
    )

    bust_ms: list[tuple[int, float]] = []  # (tables in play, ms)
    hands = confirmed = 0
    left = n
    playing = check(t, threshold)
    began = time.perf_counter()
    while left > stop_at:
        if rng.random() < 0.5:
            table = rng.choice(list(Table.objects.filter(tournament=t, in_play=True).only("pk", "tournament_id")))
            start_hand(table, actor=dealer)
            hands += 1
            continue
        seat = rng.choice(list(Seat.objects.filter(tournament=t, ended_at__isnull=True).values_list("entry_id", flat=True)))
        entry = Entry.objects.get(pk=seat)
        tic = time.perf_counter()
        busts.bust_entry(entry, actor=floor)
        bust_ms.append((playing, (time.perf_counter() - tic) * 1000))
        left -= 1
        for number in Move.objects.filter(tournament=t, status=Move.Status.PENDING).order_by("number").values_list("number", flat=True):
            moves.confirm_move(t, actor=floor, number=number)
            confirmed += 1
        playing = check(t, threshold)
        if len(bust_ms) % 500 == 0:
            big = [ms for p, ms in bust_ms if p >= 1000]
            print(
                f"  {len(bust_ms)} busts, {left} left, {playing} tables; bust p50 {pct([m for _, m in bust_ms], 0.5):.0f} ms"
                f" (at 1,000+ tables: {len(big)} busts)",
                flush=True,
            )
    elapsed = time.perf_counter() - began
    all_ms = [ms for _, ms in bust_ms]
    big = [ms for p, ms in bust_ms if p >= 1000]
    slips = Move.objects.filter(tournament=t)
    kinds = {k: slips.filter(kind=k).count() for k in (Move.Kind.BALANCE, Move.Kind.BREAK, Move.Kind.REDRAW)}
    print(f"played down to {left} in {elapsed:.0f} s: {len(bust_ms)} busts, {hands} hands started, {confirmed} slips confirmed")
    print(
        f"bust decision (bust_entry end to end, balancing and commit included): p50 {pct(all_ms, 0.5):.1f} ms, "
        f"p99 {pct(all_ms, 0.99):.1f} ms, max {max(all_ms):.1f} ms"
    )
    if big:
        print(
            f"  with 1,000+ tables in play ({len(big)} busts): p50 {pct(big, 0.5):.1f} ms, p99 {pct(big, 0.99):.1f} ms"
            f"  [target p99 < 250 ms]"
        )
    per_player = slips.values("entry_id").distinct().count()
    print(
        f"moves: {kinds[Move.Kind.BALANCE]} balancing, {kinds[Move.Kind.BREAK]} from broken tables, "
        f"{kinds[Move.Kind.REDRAW]} in redraws; {sum(kinds.values()) / n:.2f} per player "
        f"({per_player} players moved at least once), mean {statistics.mean(all_ms):.1f} ms per bust"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000, int(sys.argv[2]) if len(sys.argv) > 2 else 1)
