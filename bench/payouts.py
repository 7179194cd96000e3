"""The money's pure rules at festival scale, in plain Python (no database).

Prints, each next to its target:
- the payout structure for 20,000 entries (payouts/rules/payout_structure.py; target < 5 ms);
- exact ICM for 10 players (payouts/rules/icm.py, the subset method; target < 2 ms) and 15 players
  (target < 25 ms), on random final-table stacks;
- a deal check (ICM deal, chip chop and check_deal) for a 10-handed final table;
- the results of 10,000 entries as the downloads make them (payouts/selectors/reports.py, the same functions the
  views call, on 10,000 result rows built in memory: no database): the CSV and the A4 PDF.
Each figure is the median and the best of many runs (time.perf_counter), after a warm-up.

Run by hand:
    .venv/bin/python bench/payouts.py
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from payouts.rules import deals, icm  # noqa: E402
from payouts.rules.payout_structure import PayoutRules, payout_structure  # noqa: E402

CZK = 100  # minor units per crown


def timed(fn, runs: int) -> tuple[float, float]:
    fn()  # warm-up
    spent = []
    for _ in range(runs):
        tic = time.perf_counter()
        fn()
        spent.append((time.perf_counter() - tic) * 1000)
    return statistics.median(spent), min(spent)


def final_table(rng: random.Random, players: int) -> tuple[list[int], list[int]]:
    stacks = [rng.randint(5, 400) * 1000 for _ in range(players)]
    structure = payout_structure(10_000 * 1_000 * CZK, 10_000, 1_000 * CZK, PayoutRules(unit=100 * CZK))
    return stacks, list(structure.prizes()[:players])


def main() -> None:
    rules = PayoutRules(unit=100 * CZK)
    structure = payout_structure(20_000 * 1_000 * CZK, 20_000, 1_000 * CZK, rules)
    median, best = timed(lambda: payout_structure(20_000 * 1_000 * CZK, 20_000, 1_000 * CZK, rules), 200)
    print(
        f"structure, 20,000 entries x 1,000 CZK ({structure.places_paid} paid, {len(structure.bands)} bands, "
        f"first {structure.first_prize // CZK:,} CZK): median {median:.2f} ms, best {best:.2f} ms  [target < 5 ms]"
    )

    rng = random.Random(7)
    for players, runs, target in ((10, 200, 2), (15, 20, 25)):
        stacks, prizes = final_table(rng, players)
        median, best = timed(lambda s=stacks, p=prizes: icm.icm_equities(s, p), runs)
        print(f"exact ICM, {players} players: median {median:.2f} ms, best {best:.2f} ms  [target < {target} ms]")

    stacks, prizes = final_table(rng, 10)

    def deal_check() -> None:
        amounts = deals.icm_deal(stacks, prizes)
        deals.check_deal(amounts, prizes)
        deals.deal_table(amounts)

    median, best = timed(deal_check, 200)
    print(f"ICM deal for 10 players, checked and turned into a prize table: median {median:.2f} ms, best {best:.2f} ms")

    results_downloads()


FIRST = ("Řehoř", "Šárka", "Ľubomír", "Jana", "Tomáš", "Zuzana", "Ondřej", "Dagmar", "Štefan", "Petra")
LAST = ("Šťastný", "Nováková", "Ďurčanský", "Dvořák", "Horváthová", "Kučera", "Žáková", "Maťašovský")


def result_rows(entries: int) -> list[dict]:
    """Every finishing place of a finished field as payouts.selectors.reports.results_report gives them: the prizes
    of a generated structure, a tie here and there, two prizes in three paid."""
    prizes = payout_structure(entries * 1_000 * CZK, entries, 1_000 * CZK, PayoutRules(unit=100 * CZK)).prizes()
    rows = []
    for place in range(1, entries + 1):
        tied = place % 97 == 3
        rows.append(
            {
                "entry": entries + 1 - place,
                "name": f"{FIRST[place % len(FIRST)]} {LAST[place % len(LAST)]}",
                "place": place - 1 if place % 97 == 4 else place,
                "place_low": place + 1 if tied else place,
                "prize": prizes[place - 1] if place <= len(prizes) else 0,
                "receipt": place if place <= len(prizes) and place % 3 else None,
            }
        )
    return rows


def results_downloads(entries: int = 10_000) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()  # the reports speak the active language (gettext): settings, no database
    from datetime import UTC, datetime

    from payouts.selectors import reports
    from tournament.models import Tournament

    rows = result_rows(entries)
    paid = sum(1 for row in rows if row["prize"])
    median, best = timed(lambda: reports.results_csv(rows, "CZK").encode(), 20)
    size = len(reports.results_csv(rows, "CZK").encode())
    print(f"results CSV, {entries:,} places ({paid:,} in the money), {size // 1024:,} KiB: median {median:.1f} ms, best {best:.1f} ms")
    t = Tournament(
        name="Bench Main Event",
        venue="Casino Praha",
        currency="CZK",
        time_zone="Europe/Prague",
        start_at=datetime(2026, 12, 1, 18, tzinfo=UTC),
    )
    report = {"rows": rows, "totals": reports.totals(rows)}
    median, best = timed(lambda: reports.results_pdf(t, report), 3)
    pdf = reports.results_pdf(t, report)
    print(
        f"results PDF (A4), {entries:,} places, {pdf.count(b'/Type /Page') - pdf.count(b'/Type /Pages')} pages, "
        f"{len(pdf) // 1024:,} KiB: median {median:.0f} ms, best {best:.0f} ms"
    )


if __name__ == "__main__":
    main()
