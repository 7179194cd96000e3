"""`manage.py import_tournament FILE`: a tournament file into this database (docs/tournament-file.md)."""

from __future__ import annotations

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from archive.services.transfer import import_tournament, max_bytes, read_file
from core.errors import ServiceError

ACTOR = "import_tournament"  # the audit log's actor: the server's shell, not a staff login


class Command(BaseCommand):
    help = (
        "Load a tournament file written by export_tournament as a new tournament of this database, all or nothing. "
        "Refused: a damaged, cut or changed file, a tournament already here, a file of another ID hash key "
        "(unless --other-id-key)."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the tournament file (- for stdin)")
        parser.add_argument(
            "--other-id-key",
            action="store_true",
            help="import a file made with another ID_HASH_KEY: its ID checks cannot be verified here, "
            "so its prizes still unpaid cannot be paid against the registration's document",
        )

    def handle(self, *args, **options):
        try:  # at most one byte more than a file may hold (TOURNAMENT_FILE_MAX_MB): a bigger one is refused unread
            if options["file"] == "-":
                raw = sys.stdin.buffer.read(max_bytes() + 1)
            else:
                with Path(options["file"]).open("rb") as stream:
                    raw = stream.read(max_bytes() + 1)
        except OSError as exc:
            raise CommandError(f"Cannot read {options['file']}: {exc.strerror}.") from exc
        try:
            t = import_tournament(read_file(raw), actor=ACTOR, other_key=options["other_id_key"])
        except ServiceError as exc:
            knowingly = " (import_tournament --other-id-key)" if exc.code == "other_id_hash_key" else ""
            raise CommandError(exc.message + knowingly) from exc
        report = t.import_report
        self.stdout.write(
            f"Imported “{t.name}” as tournament {t.pk}: {report['entries']} entries, {report['events']} "
            f"events, {report['players_new']} new players, {report['players_found']} players found here "
            f"by their ID hash."
        )
        if report["links_revoked"]:
            self.stdout.write(
                f"Dealer links and lobby screens revoked: {report['links_revoked']} (a file never brings "
                "a working link: make new ones here)."
            )
        if report["users_new"]:
            self.stdout.write(
                f"Users made inactive, without a password (give them roles and a password to use them): {', '.join(report['users_new'])}."
            )
        if not report["id_checks_verifiable"]:
            self.stderr.write(
                f"Warning: the file was made with another ID hash key ({report['id_hash_key']}): the ID "
                "checks of this tournament cannot be verified here, and a prize still unpaid cannot be "
                "paid against its registration's document."
            )
