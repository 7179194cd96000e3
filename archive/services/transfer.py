"""Loading a tournament file into this database (docs/tournament-file.md): all of it in one transaction,
or nothing, with an audit event after the tournament's own log.

Refused, with nothing written: a file larger than TOURNAMENT_FILE_MAX_MB, holding more values than a file of that
size, or nesting deeper than a tournament file (those before it is parsed: the memory of an import stays bounded);
a file that is not whole JSON (cut short), of another format, whose checksum does not match its content (changed or
damaged after export), with rows or fields this version does not know, with a value its column cannot hold (its type,
length, range or choices, by archive/selectors/schema.py's reader, named by its place), whose tournament is here already (its
uid), or made with another ID hash key unless the caller accepts that (`other_key`).

No secret comes with a file (archive/selectors/schema.py, SECRETS): its dealer links and lobby screens come in revoked, its
tables with no shuffler token, none with a hash a secret has; the director makes new ones. The draw not yet drawn
gets a seed of this server's and a new commitment (PENDING_DRAW): no file chooses the next draw.

Every row gets a new key; each foreign key, and each key held inside a value (archive/selectors/schema.py), points to the new
row. A player whose ID hash is here already is that player (same key only: another key's hashes say nothing here);
the others are new players. A user is found by username; one not here is made, inactive, without a password.
"""

from __future__ import annotations

import json
import math
import secrets

import numpy
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from archive.selectors import schema
from core.actor import Actor
from core.errors import ServiceError
from tables.rules import seating
from tables.services import venue
from tournament.models import IdCheck, Player, Tournament
from tournament.services.audit import lock_tournament, record_event

BATCH = 1000


# A genuine file nests 9 deep (the file, its rows, a model's, a row, an event's payload and the lists in it): a file
# deeper than this is no tournament file, and refused before it is parsed (Python's parser would recurse into it).
MAX_DEPTH = 32
# A genuine file holds a value (a key, a number, a text) per 10 bytes (9.7 in bench/export.py's file); the parse makes
# a Python object of each, so values, not bytes, are what a parse costs: at most one per BYTES_PER_VALUE bytes of the
# size limit, whatever the file's own size (docs/tournament-file.md, "Size and memory").
BYTES_PER_VALUE = 8
SCAN_BYTES = 1 << 20  # check_shape's slice: its arrays take about ten times this, whatever the file's size


def max_bytes() -> int:
    """The size limit of a tournament file (settings.TOURNAMENT_FILE_MAX_MB)."""
    return settings.TOURNAMENT_FILE_MAX_MB * 1_000_000


def too_large() -> ServiceError:
    return ServiceError(
        _("The file is too large for a tournament file (at most %(max)s MB). Nothing was imported.")
        % {"max": settings.TOURNAMENT_FILE_MAX_MB},
        code="too_large",
        status=413,
    )


def read_file(raw: bytes) -> dict:
    """The JSON document of a file's bytes; refused when they are not one whole JSON object, or too large, too deep
    or too full to be a tournament file: those before they are parsed, so the memory an import takes is bounded."""
    if len(raw) > max_bytes():
        raise too_large()
    check_shape(raw)
    try:
        document = parse_json(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        document = None
    if not isinstance(document, dict):
        raise _not_json()
    return document


def check_shape(raw: bytes) -> None:
    """Without parsing, in slices of SCAN_BYTES: the file's values counted (each comma, colon and opening bracket
    outside the texts) and its depth followed (+1 at an opening bracket, -1 at a closing one), stopping at the first
    too many. Escaped backslashes and quotes are taken out first, so every quote left opens or closes a text."""
    most = max_bytes() // BYTES_PER_VALUE
    text = raw.replace(b"\\\\", b"").replace(b'\\"', b"") if b"\\" in raw else raw
    inside, depth, values = 0, 0, 0
    for start in range(0, len(text), SCAN_BYTES):
        part = numpy.frombuffer(text, numpy.uint8, count=min(SCAN_BYTES, len(text) - start), offset=start)
        texts = (numpy.cumsum(part == _QUOTE, dtype=numpy.uint8) + inside) & 1  # 1 inside a text (parity of quotes)
        outside = texts == 0
        opening = ((part == _OPEN_LIST) | (part == _OPEN_OBJECT)) & outside
        closing = ((part == _CLOSE_LIST) | (part == _CLOSE_OBJECT)) & outside
        values += int(numpy.count_nonzero(opening)) + int(numpy.count_nonzero(((part == _COMMA) | (part == _COLON)) & outside))
        if values > most:
            raise ServiceError(
                _(
                    "This is not a tournament file: it holds more than %(most)s values (a file of at "
                    "most %(max)s MB holds fewer). Nothing was imported."
                )
                % {"most": number_format(most, force_grouping=True), "max": settings.TOURNAMENT_FILE_MAX_MB},
                code="too_many_values",
            )
        levels = numpy.cumsum(opening.astype(numpy.int8) - closing.astype(numpy.int8), dtype=numpy.int32) + depth
        if int(levels.max()) > MAX_DEPTH:
            raise ServiceError(
                _("This is not a tournament file: its values nest deeper than %(max)s levels. Nothing was imported.") % {"max": MAX_DEPTH},
                code="too_deep",
            )
        inside, depth = int(texts[-1]), int(levels[-1])


_QUOTE, _OPEN_LIST, _CLOSE_LIST, _OPEN_OBJECT, _CLOSE_OBJECT, _COMMA, _COLON = b'"[]{},:'


def parse_json(text: str):
    """The JSON of a text; NaN and Infinity, which Python's parser takes (and 1e400, which it makes infinite), are not
    JSON, nor can a database hold them."""
    return json.loads(text, parse_constant=_no_constant, parse_float=_finite)


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def _finite(number: str) -> float:
    value = float(number)
    if not math.isfinite(value):
        raise ValueError(f"{number} is not a finite number")
    return value


def _not_json() -> ServiceError:
    return ServiceError(
        _("This is not a whole tournament file: it is not valid JSON (cut short or damaged?). Nothing was imported."), code="not_json"
    )


@transaction.atomic
def import_tournament(data: dict, *, actor: Actor, other_key: bool = False) -> Tournament:
    """Load a tournament file's document (read_file) as a new tournament of this database; returns it, with what the
    import did in `import_report` (the payload of its audit event "tournament.imported").

    `other_key`: import a file made with another ID hash key. Its ID checks cannot be verified here (a document typed
    at the cashier never matches a hash of another key, so a prize not yet paid is refused), its players are never
    matched to the players here, and its hashes are kept as they are."""
    check_file(data)
    here = schema.fingerprint(settings.ID_HASH_KEY)
    same_key = data.get("id_hash_key") == here
    if not same_key and not other_key:
        raise ServiceError(
            _(
                "This file was made with another ID hash key (fingerprint %(file)s; this server's is "
                "%(here)s): its ID checks could not be verified here. Set ID_HASH_KEY to the key of the "
                "server that made it, or import it knowingly as a file of another key. Nothing was imported."
            )
            % {"file": data.get("id_hash_key"), "here": here},
            code="other_id_hash_key",
            status=409,
        )
    rows = _decoded_rows(data)
    tournament_row = _only_tournament(rows)
    already = Tournament.objects.filter(uid=tournament_row["uid"]).first()
    if already is not None:
        raise ServiceError(
            _(
                "This tournament is here already: “%(name)s” (tournament %(id)s). An import never doubles "
                "or replaces a tournament. Nothing was imported."
            )
            % {"name": already.name, "id": already.pk},
            code="already_here",
            status=409,
        )
    users, created_users = _users(rows)
    revoked = _revoke_links(rows)
    committed = _commit_pending_draw(rows)
    new: dict[str, list[int]] = {}
    found_players = 0
    try:
        with transaction.atomic():
            for model in schema.file_models():
                name = schema.label(model)
                if name == schema.PLAYER:
                    new[name], found_players = _players(rows[model], new, users, match=same_key)
                else:
                    new[name] = _insert(model, [_instance(model, row, new, users) for row in rows[model]])
    except IntegrityError as exc:
        raise ServiceError(
            _("The file's rows do not fit this database (%(problem)s). Nothing was imported.") % {"problem": _first_line(exc)},
            code="rows_refused",
            status=409,
        ) from exc
    except DatabaseError as exc:
        raise ServiceError(
            _("The file's rows could not be written (%(problem)s). Nothing was imported.") % {"problem": _first_line(exc)},
            code="rows_refused",
        ) from exc
    t = lock_tournament(new[schema.TOURNAMENT][0])
    held, not_held = venue.hold_what_is_free(t, actor=actor) if t.status != Tournament.Status.FINISHED else ([], [])
    payload = {
        "name": t.name,
        "exported_at": data.get("exported_at"),
        "checksum": data.get("checksum"),
        "id_hash_key": data.get("id_hash_key"),
        "id_checks_verifiable": same_key,
        "rows": sum(len(pks) for pks in new.values()),
        "entries": len(new["tournament.entry"]),
        "events": len(new["tournament.auditevent"]),
        "players_found": found_players,
        "players_new": len(new[schema.PLAYER]) - found_players,
        "users_new": created_users,
        "links_revoked": revoked,
        "draw_committed": committed,
        "tables_held": held,  # its tables in play that took this venue's tables of their numbers
        "tables_not_held": not_held,  # its tables in play this venue cannot give it now, each with the reason
    }
    record_event(t, actor=actor, type_="tournament.imported", payload=payload)
    t.refresh_from_db()
    t.import_report = payload
    return t


def check_file(data: dict) -> None:
    """The format, the head's values (archive/selectors/schema.py's head_reader) and the checksum: a file of another version,
    with a head of the wrong types, or changed or damaged after export, is refused."""
    if data.get("format") != schema.FORMAT:
        found = data.get("format")
        raise ServiceError(
            _(
                "This is not a tournament file this version reads (its format is “%(found)s”, this "
                "version reads “%(format)s”). Nothing was imported."
            )
            % {"found": found[:64] if isinstance(found, str) and found else "–", "format": schema.FORMAT},
            code="format",
        )
    for key, value in data.items():
        read = schema.head_reader(key)
        try:
            if read is None:
                raise ValueError(_("a key this version does not know"))
            read(value)
        except (TypeError, ValueError) as exc:
            raise ServiceError(
                _("The file's head cannot be read: %(problem)s. Nothing was imported.") % {"problem": f"{key}: {exc}"}, code="head"
            ) from None
    if not isinstance(data.get("checksum"), str) or data["checksum"] != schema.checksum(data):
        raise ServiceError(
            _("The file's checksum does not match its content: it was changed or damaged after it was exported. Nothing was imported."),
            code="checksum",
        )


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def _bad_rows(problem: str) -> ServiceError:
    return ServiceError(_("The file's rows cannot be read: %(problem)s. Nothing was imported.") % {"problem": problem}, code="rows")


def _decoded_rows(data: dict) -> dict:
    """The file's rows by model, each a dict by field name with its values read back (foreign keys still positions,
    users still usernames). A field the file lacks takes its default (a file of an older version); a model or a
    field this version does not know is refused (a newer version's file)."""
    parts = data.get("rows")
    if not isinstance(parts, dict):
        raise _bad_rows("no rows")
    known = {schema.label(m): m for m in schema.file_models()}
    unknown = sorted(set(parts) - set(known))
    if unknown:
        raise _bad_rows(_("kinds of rows this version does not know: %(names)s") % {"names": ", ".join(unknown)})
    out = {}
    for name, model in known.items():
        part = parts.get(name, {"fields": [], "rows": []})
        if not (
            isinstance(part, dict)
            and isinstance(part.get("fields"), list)
            and isinstance(part.get("rows"), list)
            and all(isinstance(n, str) for n in part["fields"])
            and len(set(part["fields"])) == len(part["fields"])
        ):
            raise _bad_rows(name)
        by_name = {f.name: f for f in schema.fields(model)}
        secret = schema.SECRETS.get(name, ())  # an older file's link hashes: never read (SECRETS)
        strange = [str(n) for n in part["fields"] if n not in by_name and n not in secret]
        if strange:
            raise _bad_rows(_("fields this version does not know: %(names)s") % {"names": ", ".join(f"{name}.{n}" for n in strange)})
        lacking = [f for f in by_name.values() if f.name not in part["fields"] and not f.has_default() and not f.null]
        if part["rows"] and lacking:
            raise _bad_rows(_("fields the file lacks: %(names)s") % {"names": ", ".join(f"{name}.{f.name}" for f in lacking)})
        readers = [(i, n, schema.reader(by_name[n])) for i, n in enumerate(part["fields"]) if n in by_name]
        rows = []
        for number, values in enumerate(part["rows"], 1):
            if not isinstance(values, list) or len(values) != len(part["fields"]):
                raise _bad_rows(f"{name} {number}")
            try:
                rows.append({n: read(values[i]) for i, n, read in readers})
            except (TypeError, ValueError):
                for i, n, read in readers:  # the first value refused, by its place
                    try:
                        read(values[i])
                    except (TypeError, ValueError) as exc:
                        raise _bad_rows(
                            _("%(model)s, row %(row)s, %(field)s: %(problem)s") % {"model": name, "row": number, "field": n, "problem": exc}
                        ) from None
                raise _bad_rows(f"{name} {number}") from None
        out[model] = rows
    return out


def _revoke_links(rows: dict) -> int:
    """The file's live links come in revoked, with no hash a secret has (archive/selectors/schema.py, SECRETS): how many."""
    now, revoked = timezone.now(), 0
    for model, model_rows in rows.items():
        if schema.label(model) in schema.REVOKED:
            for row in model_rows:
                if row.get("revoked_at") is None:
                    row["revoked_at"] = now
                    revoked += 1
    return revoked


def _commit_pending_draw(rows: dict) -> dict | None:
    """The draw not yet drawn gets a seed of this server's, and its commitment (archive/selectors/schema.py, PENDING_DRAW): a
    file, forged or not, never chooses the next draw. Returns the new commitment, for the import's event."""
    committed = None
    for row in rows[apps.get_model(schema.PENDING_DRAW)]:
        if row.get("drawn_at") is None:
            seed = secrets.token_bytes(seating.SEED_BYTES)
            row.update(seed=seed.hex(), commitment=seating.commitment(seed), committed_at=timezone.now())
            committed = {"draw": row.get("number"), "commitment": row["commitment"]}
    return committed


def _only_tournament(rows: dict) -> dict:
    found = rows[Tournament]
    if len(found) != 1 or not found[0].get("uid"):
        raise _bad_rows(_("a file holds one tournament"))
    return found[0]


def _users(rows: dict) -> tuple[dict[str, int], list[str]]:
    """The users the rows name, by username: those here, and the others made inactive with no password."""
    User = get_user_model()
    names = {
        row[f.name]
        for model, model_rows in rows.items()
        for f in schema.relations(model)
        if schema.is_user(f.related_model)
        for row in model_rows
        if row.get(f.name) is not None
    }
    if any(not isinstance(n, str) or not n for n in names):
        raise _bad_rows(_("a user without a username"))
    users = dict(User._base_manager.filter(**{f"{User.USERNAME_FIELD}__in": names}).values_list(User.USERNAME_FIELD, "pk"))
    created = sorted(names - set(users))
    for name in created:
        users[name] = User.objects.create_user(**{User.USERNAME_FIELD: name}, is_active=False).pk  # no password: unusable
    return users, created


def _instance(model, row: dict, new: dict[str, list[int]], users: dict[str, int]):
    """A new row of `model` from the file's row: foreign keys and the keys inside values pointed at the new rows."""
    row = dict(row)

    def new_key(target: str, position) -> int:
        keys = new[target]
        if not isinstance(position, int) or isinstance(position, bool) or not 1 <= position <= len(keys):
            raise _bad_rows(f"{schema.label(model)}: {target} {position!r}")
        return keys[position - 1]

    schema.convert_embedded(schema.label(model), row, new_key)
    values = {}
    secret = schema.SECRETS.get(schema.label(model), ())
    for f in schema.columns(model):
        if f.name in secret:
            values[f.attname] = schema.unusable_hash()  # the director makes a new link (SECRETS)
        elif f.name not in row:
            values[f.attname] = f.get_default()
        elif f.is_relation and row[f.name] is not None:
            values[f.attname] = (
                users[row[f.name]] if schema.is_user(f.related_model) else new_key(schema.label(f.related_model), row[f.name])
            )
        else:
            values[f.attname] = row[f.name]
    return model(**values)


def _insert(model, objs: list) -> list[int]:
    """Insert the rows as they are, auto_now fields included (the raw insert of Django's loaddata, in batches), and
    return their new keys in order."""
    fields = schema.columns(model)
    size = max(1, min(BATCH, connection.ops.bulk_batch_size(fields, objs)))
    if not connection.features.can_return_rows_from_bulk_insert:
        size = 1
    keys: list[int] = []
    for start in range(0, len(objs), size):
        returned = model._base_manager._insert(
            objs[start : start + size], fields=fields, raw=True, returning_fields=model._meta.db_returning_fields
        )
        keys.extend(row[0] for row in returned)
    return keys


def _players(rows: list[dict], new: dict, users: dict[str, int], *, match: bool) -> tuple[list[int], int]:
    """The players of the file: one whose ID hash is a player's here (his main document, or one seen at an ID check)
    is that player; the others are inserted. Returns their keys in file order and how many were found here."""
    hashes = {row.get("id_hmac") for row in rows} - {None, ""} if match else set()
    here = dict(Player.objects.filter(id_hmac__in=hashes).values_list("id_hmac", "pk"))
    for number_hmac, player in IdCheck.objects.filter(number_hmac__in=hashes - set(here)).values_list("number_hmac", "player_id"):
        here.setdefault(number_hmac, player)
    found = [here.get(row.get("id_hmac")) for row in rows]
    inserted = iter(_insert(Player, [_instance(Player, row, new, users) for row, pk in zip(rows, found, strict=True) if pk is None]))
    return [pk if pk is not None else next(inserted) for pk in found], sum(pk is not None for pk in found)
