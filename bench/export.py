"""A tournament in one file at festival scale: 10,000 entries exported, then imported into another database.

The tournament: bench/seating.py's 10,000 paid entries (players with ID hashes, ID checks, receipts, 1,112 tables),
an audit log of their registrations (bulk-written, each payload with the entry's and the player's keys, which the file
converts), the start draw and its events, then busts through the service (tables/services/busts.py). Timed:
- export: archive.selectors.export.export_tournament and the file's text written to disk (target < 5 s);
- import: the file read and archive.services.transfer.import_tournament, into a second fresh database (target < 30 s);
- the same file again: the imported tournament exported, and compared with the first file.

Run by hand (its own databases, created and dropped: test_bench_export_<pid>, then test_bench_import_<pid>):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/export.py [entries=10000] [busts=300]
"""

from __future__ import annotations

import copy
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()


def source(n: int, busts_wanted: int, path: Path, facts: dict) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from archive.selectors.export import export_tournament, file_text
    from bench.seating import populate
    from tables.models import Seat
    from tables.services import busts, draws
    from tournament.models import AuditEvent, Entry, Tournament

    started = time.perf_counter()
    director, t, tables = populate(n)
    t.refresh_from_db()
    now = timezone.now()
    entries = list(Entry.objects.filter(tournament=t).order_by("number").values_list("pk", "number", "player_id"))
    AuditEvent.objects.bulk_create(
        [
            AuditEvent(
                tournament=t,
                seq=t.event_seq + i,
                at=now,
                actor_label="bench-cashier",
                type="entry.registered",
                payload={
                    "entry": number,
                    "entry_id": pk,
                    "player": player,
                    "name": f"P{number - 1} Bench",
                    "kind": "entry",
                    "entries": [number],
                    "receipt": number,
                    "amount": t.buy_in,
                    "fee": t.fee,
                    "chips": t.starting_stack,
                },
            )
            for i, (pk, number, player) in enumerate(entries, 1)
        ],
        batch_size=2000,
    )
    Tournament.objects.filter(pk=t.pk).update(event_seq=t.event_seq + n, seats_seq=t.event_seq + n)
    draws.commit_next_draw(t, actor=director)
    draws.draw_start(t, actor=director)
    floor = director
    out = Seat.objects.filter(tournament=t, ended_at__isnull=True).select_related("entry").order_by("?")[:busts_wanted]
    for seat in list(out):
        busts.bust_entry(seat.entry, actor=floor, stack=20_000)
    print(
        f"database: {connection.vendor}; the tournament: {n} entries at {tables} tables, {busts_wanted} busts "
        f"(made in {time.perf_counter() - started:.1f} s)"
    )

    t = Tournament.objects.get(pk=t.pk)
    connection.queries_log.clear()  # the fixture's queries filled the log: count the export's alone
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        document = export_tournament(t)
        read = time.perf_counter() - started
        text = file_text(document)
        path.write_text(text, encoding="utf-8")
        total = time.perf_counter() - started
    rows = sum(len(part["rows"]) for part in document["rows"].values())
    print(
        f"export: {total:.2f} s  [target < 5 s]  ({read:.2f} s reading and converting, {total - read:.2f} s the text "
        f"and the write; {len(queries.captured_queries)} queries)"
    )
    print(
        f"file: {path.stat().st_size / 1e6:.1f} MB, {rows} rows of {len(document['rows'])} kinds, {document['tournament']['events']} events"
    )
    biggest = sorted(((len(part["rows"]), name) for name, part in document["rows"].items()), reverse=True)[:6]
    print("  most rows: " + ", ".join(f"{name} {count}" for count, name in biggest))
    facts["document"] = document


def target(path: Path, facts: dict) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from archive.selectors import schema
    from archive.selectors.export import export_tournament
    from archive.services.transfer import import_tournament, read_file
    from tests.archive.test_transfer import as_exported
    from tournament.models import Entry, Tournament

    assert not Tournament.objects.exists()  # another database: nothing of the source is here
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        t = import_tournament(read_file(path.read_bytes()), actor="bench import")
        total = time.perf_counter() - started
    print(
        f"import into another database: {total:.2f} s  [target < 30 s]  ({len(queries.captured_queries)} queries; "
        f"{t.import_report['rows']} rows, {t.import_report['players_new']} players, users new: "
        f"{', '.join(t.import_report['users_new'])})"
    )
    assert Entry.objects.filter(tournament=t).count() == facts["document"]["tournament"]["entries"]
    started = time.perf_counter()
    again = export_tournament(t)
    spent = time.perf_counter() - started
    first = facts["document"]
    same = schema.canonical(as_exported(copy.deepcopy(again), first, "bench import")) == schema.canonical(
        {k: v for k, v in first.items() if k not in ("exported_at", "checksum")}
    )
    print(
        f"exported again from the other database in {spent:.2f} s: the same file but for its time and the import's "
        f"event: {'yes' if same else 'NO'}"
    )
    assert same


def main() -> None:
    from bench.common import in_own_database

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    busts_wanted = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    facts: dict = {}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tournament.json"
        in_own_database("export", source, n, busts_wanted, path, facts)
        in_own_database("import", target, path, facts)


if __name__ == "__main__":
    main()
