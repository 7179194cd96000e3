"""`manage.py export_tournament ID [-o FILE]`: the tournament as one file (docs/tournament-file.md)."""

from __future__ import annotations

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from archive.selectors.export import export_tournament, file_text
from tournament.models import Tournament


class Command(BaseCommand):
    help = (
        "Write everything of a tournament into one JSON file (players with ID hashes, never document numbers), "
        "for import_tournament on another server. Default file: ./tournament-<ID>.json; -o - writes to stdout."
    )

    def add_arguments(self, parser):
        parser.add_argument("tournament", type=int, help="the tournament's id (the number in its pages' addresses)")
        parser.add_argument("-o", "--output", default=None, help="the file to write (default ./tournament-<ID>.json; - for stdout)")

    def handle(self, *args, **options):
        t = Tournament.objects.filter(pk=options["tournament"]).first()
        if t is None:
            raise CommandError(f"No tournament {options['tournament']} in this database.")
        document = export_tournament(t)
        text = file_text(document)
        output = options["output"] or f"tournament-{t.pk}.json"
        if output == "-":
            sys.stdout.write(text)
            return
        path = Path(output)
        partial = path.with_name(path.name + ".part")  # never a half-written file under the real name
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
        summary = document["tournament"]
        self.stderr.write(
            f"Wrote {path}: “{summary['name']}”, {summary['entries']} entries, {summary['events']} events, "
            f"{path.stat().st_size / 1e6:.1f} MB, checksum {document['checksum'][:16]}…, "
            f"ID hash key {document['id_hash_key']}."
        )
