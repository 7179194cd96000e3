"""A season's standings at club-league scale: 50 tournaments of a league, 5,000 players, each tournament a
field of 100 to 400 of them. The standings must take a constant number of queries whatever the season's size.

Run by hand against PostgreSQL (it creates and drops its own database, test_bench_league_<pid>):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/league.py [tournaments=50] [players=5000]
The players and the tournaments are made through the services (the league's tournaments joined with
leagues.services.leagues.add_tournament); each tournament's results (a random finish of its field, with points by the league's
formula, leagues/rules/points.py) are bulk-created: this measures the reads, not the play. Printed: the queries and the time
of the standings (leagues.selectors.leagues.standings), of the kept standings a lobby TV and the phones read
(standings_kept), of the players' answer and of the staff's league state, at 5 tournaments and at all of them (the
query counts must be equal), and the time to give a finished tournament of 400 entries its points
(leagues.services.leagues.give_points, as the last bust does)."""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.db import connection, transaction  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402


def main(tournaments: int, players: int) -> None:
    from bench.common import in_own_database

    in_own_database("league", run, tournaments, players)


def timed(fn, runs: int = 10) -> tuple[float, int]:
    """(median ms, queries of one run)."""
    with CaptureQueriesContext(connection) as queries:
        fn()
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), len(queries.captured_queries)


def run(tournaments: int, players: int) -> None:
    from django.db.models import F

    from bench.common import staff_and_tournament
    from leagues.models import League, LeagueResult, LeagueTournament
    from leagues.rules import points
    from leagues.selectors import leagues as leagues_selectors
    from leagues.services import leagues as leagues_services
    from tournament.models import Entry, IdCheck, Player, Tournament
    from tournament.services import setup

    director, _cashier, first = staff_and_tournament()
    rng = random.Random(27)
    people = Player.objects.bulk_create(
        [Player(first_name=f"Hráč{i}", last_name="Ligový", date_of_birth=date(1980, 1, 1 + i % 28)) for i in range(players)]
    )
    league = leagues_services.create_league(
        actor=director, data={"name": "Bench season", "formula": "square_root", "participation": 1, "best_results": 10}
    )
    template = first.structure
    made = [first] + [
        setup.create_tournament(
            {
                "name": f"Season #{n}",
                "venue": "Bench",
                "time_zone": "Europe/Prague",
                "start_at": datetime(2026, 1, 1, 19, tzinfo=UTC) + timedelta(days=7 * n),
                "seats_per_table": 9,
                "currency": "EUR",
                "buy_in": 10000,
                "fee": 1000,
                "starting_stack": 20000,
            },
            actor=director,
            template=template,
        )
        for n in range(1, tournaments)
    ]
    rows = []
    for t in made:
        leagues_services.add_tournament(league, actor=director, tournament=t)
        field = rng.sample(people, rng.randint(100, 400))
        rows += [
            LeagueResult(
                league=league,
                tournament=t,
                player=p,
                place=place,
                place_low=place,
                field=len(field),
                points=points.points(league.rules(), field=len(field), place=place, buy_in=t.buy_in),
                given_at=t.start_at,
            )
            for place, p in enumerate(field, 1)
        ]
    LeagueResult.objects.bulk_create(rows, batch_size=5000)
    league.refresh_from_db()
    print(
        f"database: {connection.vendor}; a season of {tournaments} tournaments, {players} players, "
        f"{len(rows)} results; the best {league.best_results} count"
    )

    small = leagues_services.create_league(actor=director, data={"name": "Five", "formula": "square_root", "best_results": 10})
    LeagueTournament.objects.filter(tournament__in=made[:5]).update(league=small)
    LeagueResult.objects.filter(tournament__in=made[:5]).update(league=small)
    small.refresh_from_db()
    league.refresh_from_db()
    for name, fn in (
        ("standings", leagues_selectors.standings),
        ("players' answer", leagues_selectors.public_standings),
        ("staff's league state", leagues_selectors.league_state),
    ):
        ms_small, q_small = timed(lambda fn=fn: fn(small))
        ms, q = timed(lambda fn=fn: fn(league))
        print(f"{name:<22} 5 tournaments: {q_small} queries, {ms_small:6.1f} ms | {tournaments - 5} tournaments: {q} queries, {ms:6.1f} ms")
    League.objects.filter(pk=league.pk).update(version=F("version") + 1)  # a new version: computed once, then kept
    league.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        leagues_selectors.standings_kept(league)
        first_ms = (time.perf_counter() - started) * 1000
    ms, _q = timed(lambda: leagues_selectors.standings_kept(league), runs=100)
    print(
        f"{'kept standings':<22} a new version: {len(queries.captured_queries)} queries, {first_ms:.1f} ms; then "
        f"{ms:.3f} ms a read at that version"
    )
    # One more tournament of 400 entries, played out (399 busted, places 2 to 400, one left): its points given.
    last = setup.create_tournament(
        {
            "name": "Season finale",
            "venue": "Bench",
            "time_zone": "Europe/Prague",
            "start_at": datetime(2026, 12, 20, 19, tzinfo=UTC),
            "seats_per_table": 9,
            "currency": "EUR",
            "buy_in": 10000,
            "fee": 1000,
            "starting_stack": 20000,
        },
        actor=director,
        template=template,
    )
    leagues_services.add_tournament(league, actor=director, tournament=last)
    now = datetime.now(UTC)
    field = people[:400]
    checks = IdCheck.objects.bulk_create(
        [
            IdCheck(
                player=p,
                purpose=IdCheck.Purpose.REGISTRATION,
                document_type="id_card",
                number_last4=f"{i:04d}",
                number_hmac=f"{i:064x}",
                checked_by=director,
                checked_at=now,
            )
            for i, p in enumerate(field)
        ]
    )
    Entry.objects.bulk_create(
        [
            Entry(
                tournament=last,
                player=p,
                number=i + 1,
                id_check=c,
                id_hmac=f"{i:064x}",
                created_at=now,
                created_by=director,
                status=Entry.Status.ACTIVE if i == 0 else Entry.Status.BUSTED,
                finish_place=None if i == 0 else i + 1,
                busted_at=None if i == 0 else now,
            )
            for i, (p, c) in enumerate(zip(field, checks, strict=True))
        ]
    )
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        with transaction.atomic():
            leagues_services.give_points(Tournament.objects.select_for_update().get(pk=last.pk), actor=director, league=league)
        spent = (time.perf_counter() - started) * 1000
    given = LeagueResult.objects.filter(tournament=last).count()
    print(
        f"give_points of a finished tournament of 400 entries: {spent:.1f} ms, {len(queries.captured_queries)} queries, "
        f"{given} players given points"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50, int(sys.argv[2]) if len(sys.argv) > 2 else 5000)
