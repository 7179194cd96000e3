"""What the benchmarks share: a database of their own and a tournament with its staff. Import it
after django.setup() (each bench script does that at its top)."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime


def in_own_database(name: str, fn: Callable, *args) -> None:
    """Run `fn` in a fresh test database (test_bench_<name>_<pid> on PostgreSQL, so a test run going
    on at the same time is never touched), dropped afterwards."""
    from django.conf import settings
    from django.test.utils import get_runner, setup_test_environment, teardown_test_environment

    setup_test_environment()
    test = settings.DATABASES["default"].setdefault("TEST", {})
    if settings.DATABASES["default"]["ENGINE"].endswith("postgresql"):
        test["NAME"] = f"test_bench_{name}_{os.getpid()}"
    runner = get_runner(settings)(verbosity=0, interactive=False)
    old = runner.setup_databases()
    try:
        fn(*args)
    finally:
        runner.teardown_databases(old)
        teardown_test_environment()  # a script may run in several databases, one after another


def staff_and_tournament(seats: int = 9):
    """A director, a cashier and a tournament on a one-level structure: (director, cashier, tournament)."""
    from django.contrib.auth.models import Group, User

    from tournament.rules.structure import LevelSpec, StructureSpec
    from tournament.services import setup

    director = User.objects.create_user("bench-director")
    director.groups.add(Group.objects.get_or_create(name="Director")[0])
    cashier = User.objects.create_user("bench-cashier")
    cashier.groups.add(Group.objects.get_or_create(name="Cashier")[0])
    spec = StructureSpec("Bench", ((25, "green"), (100, "black")), (LevelSpec("level", 20, 100, 200),))
    template = setup.save_structure_template(spec, actor=director)
    t = setup.create_tournament(
        {
            "name": "Bench",
            "venue": "Bench",
            "time_zone": "Europe/Prague",
            "start_at": datetime(2026, 12, 1, 18, tzinfo=UTC),
            "seats_per_table": seats,
            "currency": "EUR",
            "buy_in": 10000,
            "fee": 1000,
            "starting_stack": 20000,
        },
        actor=director,
        template=template,
    )
    return director, cashier, t


def checked_players(cashier, n: int, names: dict[int, tuple[str, ...]] | None = None, first_player: int = 0) -> tuple[list, list]:
    """n players in bulk with their registration ID checks: "P<i> Bench", or the (first, last, nickname) that `names`
    gives the i-th (from 1). `first_player`: their numbering starts there (each a document of his own)."""
    from datetime import date

    from django.utils import timezone

    from tournament.models import IdCheck, Player

    names = names or {}
    now = timezone.now()
    players = Player.objects.bulk_create(
        [
            Player(
                first_name=names.get(i + 1, (f"P{first_player + i}",))[0],
                last_name=names.get(i + 1, ("", "Bench"))[1],
                nickname=names.get(i + 1, ("", "", ""))[2],
                date_of_birth=date(1980, 1, 1 + i % 28),
                id_hmac=f"{first_player + i:064x}",
                created_by=cashier,
            )
            for i in range(n)
        ],
        batch_size=2000,
    )
    checks = IdCheck.objects.bulk_create(
        [
            IdCheck(
                player=p,
                purpose=IdCheck.Purpose.REGISTRATION,
                document_type="id_card",
                number_last4=f"{i % 10000:04d}",
                number_hmac=f"{first_player + i:064x}",
                checked_by=cashier,
                checked_at=now,
            )
            for i, p in enumerate(players)
        ],
        batch_size=2000,
    )
    return players, checks


def paid_field(t, cashier, n: int, names: dict[int, tuple[str, ...]] | None = None, first_player: int = 0) -> None:
    """n paid entries of tournament t in bulk (players, their ID checks, entries and buy-ins), as the desk would
    register them: "P<i> Bench", or the (first, last, nickname) that `names` gives an entry number. `first_player`:
    the players' numbering starts there (several tournaments' fields are different players)."""
    from django.utils import timezone

    from tournament.models import Entry, Purchase

    now = timezone.now()
    players, checks = checked_players(cashier, n, names, first_player)
    entries = Entry.objects.bulk_create(
        [
            Entry(tournament=t, player=p, number=i + 1, id_check=c, id_hmac=f"{first_player + i:064x}", created_at=now, created_by=cashier)
            for i, (p, c) in enumerate(zip(players, checks, strict=True))
        ],
        batch_size=2000,
    )
    Purchase.objects.bulk_create(
        [
            Purchase(
                tournament=t,
                entry=e,
                number=i + 1,
                kind=Purchase.Kind.BUY_IN,
                amount=t.buy_in,
                bounty=t.bounty,
                fee=t.fee,
                chips=t.starting_stack,
                created_at=now,
                created_by=cashier,
                paid_at=now,
                paid_by=cashier,
            )
            for i, e in enumerate(entries)
        ],
        batch_size=2000,
    )
