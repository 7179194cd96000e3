"""A tournament as one file (docs/tournament-file.md): everything of it, read in one snapshot. Reads only.

The file: {"format", "exported_at", "id_hash_key" (the key's fingerprint, never the key), "tournament" (who it is:
uid, name, venue, start), "users" (the usernames its rows name), "rows" (by model, in the order of an import:
{"fields": [names], "rows": [[values], ...]}), "checksum"}. archive/selectors/schema.py says which models and how values are
written; no primary key is in it, so a file exported again after an import is the same but for its time.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone

from archive.selectors import schema
from tournament.models import Tournament


def export_tournament(tournament: Tournament) -> dict:
    """Everything of the tournament, as the file's JSON document (checksum included).

    The rows are read in one snapshot (REPEATABLE READ on PostgreSQL, when the export is its own transaction), so a
    file taken while the room plays is one moment of it, and no service waits for it."""
    outer = connection.in_atomic_block  # inside a caller's transaction (a test's), the snapshot is the caller's
    with transaction.atomic():
        if connection.vendor == "postgresql" and not outer:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        selected = _select(tournament.pk)
        users = _usernames(selected)
    positions = {model: {pk: n for n, pk in enumerate(sorted(rows), 1)} for model, rows in selected.items()}
    by_label = {schema.label(model): numbers for model, numbers in positions.items()}

    def position(model_label: str, pk: int) -> int | None:
        return by_label[model_label].get(pk)

    document_rows = {}
    for model in schema.file_models():
        name, fields = schema.label(model), schema.fields(model)
        names = [f.name for f in fields]
        coders = list(enumerate((_encoder(f, positions, users) for f in fields), 1))  # column 0 is the key
        out = []
        for pk in sorted(selected[model]):
            values = selected[model][pk]
            row = [values[i] if code is None or values[i] is None else code(values[i]) for i, code in coders]
            if name in schema.EMBEDDED:
                by_name = dict(zip(names, row, strict=True))
                schema.convert_embedded(name, by_name, position)
                row = [by_name[n] for n in names]
            out.append(row)
        document_rows[name] = {"fields": names, "rows": out}
    schema.hide_pending_seed(document_rows)
    t = dict(zip(["pk", *(f.name for f in schema.fields(Tournament))], selected[Tournament][tournament.pk], strict=True))
    document = {
        "format": schema.FORMAT,
        "exported_at": timezone.now().astimezone(UTC).isoformat(),
        "id_hash_key": schema.fingerprint(settings.ID_HASH_KEY),
        "tournament": {
            "uid": str(t["uid"]),
            "name": t["name"],
            "venue": t["venue"],
            "start_at": t["start_at"].astimezone(UTC).isoformat(),
            "status": t["status"],
            "entries": len(document_rows["tournament.entry"]["rows"]),
            "events": t["event_seq"],
        },
        "users": sorted(set(users.values())),
        "rows": document_rows,
    }
    document["checksum"] = schema.checksum(document)
    return document


def _select(tournament_pk: int) -> dict:
    """The rows of the file by model, {model: {pk: (pk, *values in the order of schema.fields)}}: the tournament's own
    rows, then the rows they point to that are not its own (players, a payout's ID check), until nothing is missing."""
    owned = schema.paths()
    columns = {model: ["pk", *(f.attname for f in schema.fields(model))] for model in schema.file_models()}
    selected: dict = {
        model: ({row[0]: row for row in schema.of_tournament(model, tournament_pk).values_list(*columns[model])} if model in owned else {})
        for model in schema.file_models()
    }
    while True:
        wanted: dict = {}
        for model in schema.file_models():
            for f in schema.relations(model):
                if schema.is_user(f.related_model):
                    continue
                i = columns[model].index(f.attname)
                missing = {row[i] for row in selected[model].values()} - selected[f.related_model].keys() - {None}
                if missing:
                    wanted.setdefault(f.related_model, set()).update(missing)
        if not wanted:
            return selected
        for model, pks in wanted.items():
            selected[model].update({row[0]: row for row in model._base_manager.filter(pk__in=pks).values_list(*columns[model])})


def _usernames(selected: dict) -> dict[int, str]:
    """The users the rows name, by key: their usernames (a user is in the file by username only)."""
    User = get_user_model()
    pks = {
        row[i]
        for model, rows in selected.items()
        for i, f in enumerate(schema.fields(model), 1)
        if f.is_relation and schema.is_user(f.related_model)
        for row in rows.values()
    } - {None}
    return dict(User._base_manager.filter(pk__in=pks).values_list("pk", User.USERNAME_FIELD))


def _encoder(field, positions: dict, users: dict[int, str]) -> Callable | None:
    if field.is_relation:
        if schema.is_user(field.related_model):
            return users.__getitem__
        return positions[field.related_model].__getitem__
    return schema.encoder(field)


def file_text(document: dict) -> str:
    """The document as the file's text: one model's row per line (a file reads and compares line by line); the
    checksum is over the canonical JSON (archive/selectors/schema.py), whatever the layout."""
    head = {k: v for k, v in document.items() if k != "rows"}

    def dump(value) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)

    models = [
        f'{dump(name)}:{{"fields":{dump(part["fields"])},"rows":[\n' + ",\n".join(dump(row) for row in part["rows"]) + "]}"
        for name, part in document["rows"].items()
    ]
    return dump(head)[:-1] + ',"rows":{\n' + ",\n".join(models) + "\n}}\n"
